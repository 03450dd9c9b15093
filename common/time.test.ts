import { describe, expect, it } from 'vitest';
import { relativeTime } from './time';

const now = new Date('2026-05-01T12:00:00Z');
const before = (ms: number) => new Date(now.getTime() - ms);

describe('relativeTime', () => {
  it('says now for less than a minute', () => {
    expect(relativeTime(before(59_000), now)).toBe('now');
  });

  it('uses the largest whole unit', () => {
    expect(relativeTime(before(5 * 60_000), now)).toBe('5m');
    expect(relativeTime(before(3 * 3_600_000 + 59 * 60_000), now)).toBe('3h');
    expect(relativeTime(before(2 * 86_400_000), now)).toBe('2d');
    expect(relativeTime(before(45 * 86_400_000), now)).toBe('1mo');
    expect(relativeTime(before(800 * 86_400_000), now)).toBe('2y');
  });

  it('adds ago when asked', () => {
    expect(relativeTime(before(5 * 60_000), now, true)).toBe('5m ago');
  });

  it('treats a time in the future as now', () => {
    expect(relativeTime(new Date(now.getTime() + 60_000), now)).toBe('now');
  });

  it('accepts ISO strings', () => {
    expect(relativeTime('2026-05-01T11:00:00Z', now)).toBe('1h');
  });
});
