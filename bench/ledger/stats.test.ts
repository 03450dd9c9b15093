import { describe, expect, it } from 'vitest';
import { parsePgbench, parsePgbenchLog, quantile } from './stats';

describe('ledger benchmark figures', () => {
  it('takes the median and the 99th percentile by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("reads pgbench's rate and average latency", () => {
    const out = [
      'number of transactions actually processed: 41234',
      'number of failed transactions: 0 (0.000%)',
      'latency average = 3.881 ms',
      'initial connection time = 25.120 ms',
      'tps = 4122.563123 (without initial connection time)',
    ].join('\n');
    expect(parsePgbench(out)).toEqual({ tps: 4122.563123, latencyMs: 3.881, latenciesMs: [] });
    expect(() => parsePgbench('connection refused')).toThrow(/no "tps = …" line/);
  });

  it("reads each transaction's latency from pgbench's log, leaving out the failed ones", () => {
    const log = ['1 1 4822 0 1795737295 189', '0 1 8181 0 1795737295 3531', '2 7 failed 0 1795737295 4000', ''].join(
      '\n',
    );
    expect(parsePgbenchLog(log)).toEqual([4.822, 8.181]);
  });
});
