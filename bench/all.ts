/**
 * `npm run bench:all`: every benchmark of bench/, one after the other (each needs the machine to itself), then one
 * table of the figures they handed over (bench/figures.ts) with each figure's goal and the command that measures it
 * again. A benchmark's own report streams to stderr as it runs. Timings never fail it: it exits non-zero only when a
 * benchmark itself broke (docs/performance.md, "All benchmarks").
 *
 *   npm run bench:all                              # everything, as each benchmark's defaults say (about 35 min)
 *   BENCH_ALL_ONLY=ledger,market npm run bench:all # some of them
 *   BENCH_ALL_QUICK=1 npm run bench:all            # shorter rounds, smaller wall and crowds (about 12 min)
 *   BENCH_ALL_OUT=figures.md npm run bench:all     # the table written to a file too
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { meetsGoal, parseFigures, type BenchFigure } from './figures';

interface Bench {
  name: string;
  /** The command, run from the project's root. */
  command: string[];
  /** Settings of a quick run (BENCH_ALL_QUICK=1); what the caller's environment sets wins. */
  quick?: Record<string, string>;
}

const QUICK_ROUNDS = { BENCH_SECONDS: '5', BENCH_ROUNDS: '2' };

const BENCHES: Bench[] = [
  { name: 'bundle', command: ['npx', 'tsx', 'bench/bundle/measure.ts', '--build'] },
  { name: 'images', command: ['npx', 'tsx', 'bench/images/run.ts'], quick: { IMG_RUNS: '2' } },
  { name: 'lighthouse', command: ['npm', 'run', 'bench:lighthouse'], quick: { LH_RUNS: '1' } },
  { name: 'ledger', command: ['npm', 'run', 'bench:ledger'], quick: QUICK_ROUNDS },
  { name: 'lootbox', command: ['npm', 'run', 'bench:lootbox'], quick: QUICK_ROUNDS },
  { name: 'market', command: ['npm', 'run', 'bench:market'], quick: QUICK_ROUNDS },
  { name: 'wall', command: ['npm', 'run', 'bench:wall'], quick: { WALL_SIZES: '1000,100000', WALL_SECONDS: '3' } },
  { name: 'live', command: ['npm', 'run', 'bench:live'], quick: { BENCH_MESSAGES: '50' } },
  { name: 'reconnect', command: ['npm', 'run', 'bench:reconnect'] },
];

const only = process.env.BENCH_ALL_ONLY?.split(',').map((s) => s.trim());
const quick = process.env.BENCH_ALL_QUICK === '1';
const chosen = BENCHES.filter((b) => !only || only.includes(b.name));
if (only) {
  const unknown = only.filter((name) => !BENCHES.some((b) => b.name === name));
  if (unknown.length)
    throw new Error(`no benchmark ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
}

/** Runs one benchmark, its output shown as it comes; answers its figures, or why it broke. */
function run(bench: Bench): Promise<{ figures: BenchFigure[]; broke?: string; seconds: number }> {
  const started = Date.now();
  const env = { ...(quick ? bench.quick : {}), ...process.env };
  return new Promise((resolve) => {
    const child = spawn(bench.command[0]!, bench.command.slice(1), { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stderr.write(chunk);
    });
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      const figures = parseFigures(out);
      const broke = code === 0 ? undefined : `exited with ${code ?? signal}`;
      resolve({ figures, broke: broke ?? (figures.length ? undefined : 'handed over no figure'), seconds });
    });
  });
}

function goalText(f: BenchFigure): string {
  if (!f.goal) return '–';
  const parts = [];
  if (f.goal.atLeast !== undefined) parts.push(`≥ ${f.goal.atLeast}`);
  if (f.goal.atMost !== undefined) parts.push(`≤ ${f.goal.atMost}`);
  if (f.goal.below !== undefined) parts.push(`< ${f.goal.below}`);
  return parts.join(' and ');
}

const rows: string[] = [];
const broken: string[] = [];
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadBefore = load();
const startedAll = Date.now();
for (const bench of chosen) {
  process.stderr.write(`\n=== ${bench.name}: ${bench.command.join(' ')}${quick ? ' (quick)' : ''}\n`);
  const result = await run(bench);
  if (result.broke) broken.push(`${bench.name} ${result.broke}`);
  for (const f of result.figures) {
    const met = meetsGoal(f);
    const shown = Number.isInteger(f.value) ? f.value : Number(f.value.toPrecision(3));
    const value = `${shown}${f.unit === '×' ? '×' : f.unit ? ` ${f.unit}` : ''}`;
    rows.push(
      `| ${f.bench} | ${f.figure} | ${value} | ${goalText(f)} | ${met === undefined ? '–' : met ? 'met' : '**not met**'} | \`${f.rerun}\` |`,
    );
  }
  process.stderr.write(`=== ${bench.name}: ${result.seconds.toFixed(0)} s\n`);
}

const table = [
  `All benchmarks, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC${quick ? ' (quick settings)' : ''}; ` +
    `${os.cpus().length} cores, load average ${loadBefore} before and ${load()} after; ` +
    `${((Date.now() - startedAll) / 60_000).toFixed(1)} min.`,
  '',
  '| benchmark | figure | value | goal | | rerun |',
  '|---|---|---:|---|---|---|',
  ...rows,
  '',
  broken.length ? `Broken: ${broken.join('; ')}.` : 'Every benchmark ran to its end.',
  `Rerun: ${only ? `BENCH_ALL_ONLY=${only.join(',')} ` : ''}${quick ? 'BENCH_ALL_QUICK=1 ' : ''}npm run bench:all`,
].join('\n');
console.log(`\n${table}`);
if (process.env.BENCH_ALL_OUT) writeFileSync(process.env.BENCH_ALL_OUT, `${table}\n`);
process.exitCode = broken.length ? 1 : 0;
