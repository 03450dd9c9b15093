import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache';

describe('PageCache', () => {
  it('serves a page from memory within its time, reads again after, and shares one read between callers', async () => {
    let now = 0;
    let reads = 0;
    const cache = new PageCache<number>(1000, () => now);
    const load = async () => ++reads;
    expect(await Promise.all([cache.get('top', load), cache.get('top', load)])).toEqual([1, 1]);
    now = 999;
    expect(await cache.get('top', load)).toBe(1);
    now = 1000;
    expect(await cache.get('top', load)).toBe(2);
    expect(await cache.get('trending', load)).toBe(3);
  });

  it('forgets everything when cleared (a purchase happened) and never keeps a failed read', async () => {
    const cache = new PageCache<number>(1000, () => 0);
    let reads = 0;
    await cache.get('top', async () => ++reads);
    cache.clear();
    expect(await cache.get('top', async () => ++reads)).toBe(2);
    await expect(cache.get('x', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('x', async () => 42)).toBe(42);
  });

  it('reads through when turned off', async () => {
    let reads = 0;
    const cache = new PageCache<number>(0, () => 0);
    await cache.get('top', async () => ++reads);
    expect(await cache.get('top', async () => ++reads)).toBe(2);
  });
});
