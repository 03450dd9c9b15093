import { describe, expect, it } from 'vitest';
import { formatDateTime, relativeTime } from './time';

const now = new Date('2026-05-01T12:00:00Z');
const before = (ms: number) => new Date(now.getTime() - ms);

describe('relativeTime', () => {
  it('says just now for less than a minute', () => {
    expect(relativeTime(before(59_000), now)).toBe('just now');
  });

  it('names the largest whole unit in words, with ago', () => {
    expect(relativeTime(before(5 * 60_000), now)).toBe('5 minutes ago');
    expect(relativeTime(before(3 * 3_600_000 + 59 * 60_000), now)).toBe('3 hours ago');
    expect(relativeTime(before(2 * 86_400_000), now)).toBe('2 days ago');
    expect(relativeTime(before(45 * 86_400_000), now)).toBe('1 month ago');
    expect(relativeTime(before(800 * 86_400_000), now)).toBe('2 years ago');
  });

  it('says one of a unit in the singular', () => {
    expect(relativeTime(before(60_000), now)).toBe('1 minute ago');
    expect(relativeTime(before(3_600_000), now)).toBe('1 hour ago');
    expect(relativeTime(before(86_400_000), now)).toBe('1 day ago');
    expect(relativeTime(before(400 * 86_400_000), now)).toBe('1 year ago');
  });

  it('treats a time in the future as just now', () => {
    expect(relativeTime(new Date(now.getTime() + 60_000), now)).toBe('just now');
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    expect(relativeTime('2026-05-01T11:00:00Z', now)).toBe('1 hour ago');
    expect(relativeTime(now.getTime() - 120_000, now)).toBe('2 minutes ago');
  });

  it('never shows a bare unit letter such as 3m or 2d', () => {
    for (const ms of [0, 61_000, 7_200_000, 3 * 86_400_000, 70 * 86_400_000, 900 * 86_400_000]) {
      expect(relativeTime(before(ms), now)).not.toMatch(/\d(m|h|d|mo|y)\b/);
    }
  });
});

describe('formatDateTime', () => {
  it('writes the month as a word, the day, the year and the time', () => {
    expect(formatDateTime('2026-05-01T12:00:00Z')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 2026, \d{1,2}:\d{2}\s[AP]M$/);
  });

  it('reads the same moment the same way whether given a string, a Date or milliseconds', () => {
    const at = '2026-03-04T05:06:00Z';
    expect(formatDateTime(new Date(at))).toBe(formatDateTime(at));
    expect(formatDateTime(Date.parse(at))).toBe(formatDateTime(at));
  });
});
