import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';

describe('LruCache', () => {
  it('keeps at most its capacity, dropping the least recently used', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(3, (_v, k) => evicted.push(k));
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a');
    cache.set('d', 4);
    expect(cache.keys()).toEqual(['c', 'a', 'd']);
    expect(evicted).toEqual(['b']);
    expect(cache.size).toBe(3);
  });

  it('counts a rewrite as a use and does not evict for it', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(10);
    expect(cache.has('b')).toBe(false);
  });

  it('holds forty images by default use', () => {
    const cache = new LruCache<number, number>(40);
    for (let i = 0; i < 50; i++) cache.set(i, i);
    expect(cache.size).toBe(40);
    expect(cache.has(9)).toBe(false);
    expect(cache.has(10)).toBe(true);
  });
});
