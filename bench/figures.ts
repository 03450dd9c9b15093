/**
 * The figures a benchmark hands to `npm run bench:all` (bench/all.ts), beside the report it prints for a reader:
 * one line each on stdout, `BENCH_FIGURE {json}`, which bench:all collects into its one table (docs/performance.md).
 */

export const FIGURE_PREFIX = 'BENCH_FIGURE ';

export interface BenchFigure {
  /** The benchmark, as its npm script is named: `bench:ledger`. */
  bench: string;
  /** What was measured: `spend, random user of 1000, ratio to TPC-B`. */
  figure: string;
  value: number;
  /** `×` for a ratio, else the unit of the value: `ms`, `s`, `KB`, `/s`. */
  unit: string;
  /** The goal, said as a bound on the value: `≥ 1.2`, `≤ 100`, `< 20`; none when the figure is only reported. */
  goal?: { atLeast?: number; atMost?: number; below?: number };
  /** The command that measures it again with the same settings. */
  rerun: string;
}

/** Prints one figure for bench:all to collect. */
export function reportFigure(figure: BenchFigure): void {
  process.stdout.write(`${FIGURE_PREFIX}${JSON.stringify(figure)}\n`);
}

/** Whether a figure meets its goal (undefined: it has none). */
export function meetsGoal(f: BenchFigure): boolean | undefined {
  if (!f.goal) return undefined;
  if (f.goal.atLeast !== undefined && !(f.value >= f.goal.atLeast)) return false;
  if (f.goal.atMost !== undefined && !(f.value <= f.goal.atMost)) return false;
  if (f.goal.below !== undefined && !(f.value < f.goal.below)) return false;
  return true;
}

/** The figures in a benchmark's output, its other lines ignored. */
export function parseFigures(output: string): BenchFigure[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith(FIGURE_PREFIX))
    .map((line) => JSON.parse(line.slice(FIGURE_PREFIX.length)) as BenchFigure);
}
