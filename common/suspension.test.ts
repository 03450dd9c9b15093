import { describe, expect, it } from 'vitest';
import { isSuspended, suspensionMessage } from './suspension';

describe('suspension', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it('lasts until its end, and ends by itself', () => {
    const until = new Date('2026-12-03T12:00:00Z');
    expect(isSuspended({ suspendedUntil: until, suspendedForGood: false }, now)).toBe(true);
    expect(isSuspended({ suspendedUntil: until, suspendedForGood: false }, until)).toBe(false);
    expect(isSuspended({ suspendedUntil: null, suspendedForGood: false }, now)).toBe(false);
    expect(isSuspended({ suspendedUntil: null, suspendedForGood: true }, now)).toBe(true);
    expect(isSuspended({ suspendedUntil: new Date('2020-01-01T00:00:00Z'), suspendedForGood: true }, now)).toBe(true);
  });
  it('names the end date in words', () => {
    expect(suspensionMessage(new Date('2026-12-03T12:00:00Z'))).toBe(
      'Your account is suspended until 2026-12-03 12:00 UTC.',
    );
    expect(suspensionMessage(null)).toBe('Your account is suspended for good.');
  });
});
