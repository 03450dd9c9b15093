import { describe, expect, it } from 'vitest';
import { RECONNECT_BASE_MS, RECONNECT_CAP_MS, reconnectDelayMs } from './reconnect';

describe('reconnectDelayMs', () => {
  it('draws the first wait after a drop from zero to the base', () => {
    expect(reconnectDelayMs(0, 0)).toBe(0);
    expect(reconnectDelayMs(0, 0.5)).toBe(RECONNECT_BASE_MS / 2);
    expect(reconnectDelayMs(0, 0.999_999)).toBeLessThan(RECONNECT_BASE_MS);
  });

  it('doubles the ceiling with each failed try, up to the cap', () => {
    expect([0, 1, 2, 3].map((f) => reconnectDelayMs(f, 0.5))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(reconnectDelayMs(4, 0.999_999)).toBeLessThan(RECONNECT_CAP_MS);
    expect(reconnectDelayMs(50, 0.5)).toBe(RECONNECT_CAP_MS / 2);
    expect(reconnectDelayMs(Number.MAX_SAFE_INTEGER, 0.5)).toBe(RECONNECT_CAP_MS / 2);
  });

  it('spreads a crowd evenly: 5,000 clients dropped at once, about a tenth in each tenth of the first second', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 5_000; i++) buckets[Math.floor(reconnectDelayMs(0, random()) / 100)]! += 1;
    for (const n of buckets) expect(n).toBeGreaterThan(400);
    for (const n of buckets) expect(n).toBeLessThan(600);
  });

  it('keeps out-of-range inputs inside the rule', () => {
    expect(reconnectDelayMs(-3, 0.5)).toBe(RECONNECT_BASE_MS / 2);
    expect(reconnectDelayMs(0, 2)).toBe(RECONNECT_BASE_MS);
    expect(reconnectDelayMs(0, -1)).toBe(0);
  });
});
