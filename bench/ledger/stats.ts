/** Small pure helpers of the ledger benchmark, kept apart so they can be tested without a database. */

/** The q-th quantile (0..1) of latencies, nearest-rank on a sorted copy. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export interface PgbenchFigures {
  tps: number;
  latencyMs: number | undefined;
  /** Each committed transaction's latency (ms), from pgbench's per-transaction log (`-l`); empty when not logged. */
  latenciesMs: number[];
}

/** Reads `tps = 1234.5 (without initial connection time)` and `latency average = 9.8 ms` from pgbench's report. */
export function parsePgbench(output: string): PgbenchFigures {
  const tps = /^tps = ([\d.]+)/m.exec(output);
  if (!tps) throw new Error(`no "tps = …" line in pgbench output:\n${output}`);
  const latency = /^latency average = ([\d.]+) ms/m.exec(output);
  return { tps: Number(tps[1]), latencyMs: latency ? Number(latency[1]) : undefined, latenciesMs: [] };
}

/**
 * The latencies (ms) in pgbench's per-transaction log (`-l`): one line a transaction, `client_id transaction_no time
 * script_no time_epoch time_us`, `time` in µs; a transaction that failed has a word there instead and is left out.
 */
export function parsePgbenchLog(log: string): number[] {
  const latencies: number[] = [];
  for (const line of log.split('\n')) {
    const micros = line.split(' ')[2];
    if (micros && /^\d+$/.test(micros)) latencies.push(Number(micros) / 1000);
  }
  return latencies;
}

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';
