/**
 * Lighthouse on the demo wall: starts the real server (`node scripts/start.mjs`, which builds the client when stale)
 * on a free port against a fresh DATA_DIR with the demo seed, runs Lighthouse on `/` with the system Chromium, mobile
 * and desktop, several runs each, and prints the median scores and metrics. Never part of `npm test`: timings on a
 * shared machine are noisy, so it only prints.
 *
 *   npm run bench:lighthouse
 *   LH_RUNS=5 npm run bench:lighthouse            # runs per form factor (default 3)
 *   LH_ONLY=mobile npm run bench:lighthouse       # one form factor (mobile or desktop)
 *   LH_URL=http://127.0.0.1:3000/ npm run bench:lighthouse   # a server already running (nothing is started)
 *
 * Full reports (JSON) go to bench/results/lighthouse/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { freePort } from '../../server/src/test/server-process';
import { reportFigure, type BenchFigure } from '../figures';
import { runSummary, median, type RunFigures } from './summary';

const root = path.resolve(import.meta.dirname, '../..');
const RUNS = Math.max(1, Number(process.env.LH_RUNS ?? 3));
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FORM_FACTORS = (['mobile', 'desktop'] as const).filter((f) => !process.env.LH_ONLY || process.env.LH_ONLY === f);
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const REPORTS = path.join(root, 'bench/results/lighthouse');

async function waitForHealth(base: string, server: ChildProcess, timeoutMs = 240_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer ${base}/api/health within ${timeoutMs / 1000} s`);
}

/** The real server with the demo wall, on a free port and a data dir of its own. */
async function startServer(): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wall-lighthouse-'));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
  });
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(base, server);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, stop };
}

/** Requests the page and everything it names once, so the first measured run does not pay for a cold server. */
async function warmUp(url: string): Promise<void> {
  const html = await (await fetch(url)).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => new URL(m[1]!, url).href);
  await Promise.all(assets.map((a) => fetch(a).then((r) => r.arrayBuffer())));
  await fetch(new URL('/api/pictures?sort=top&offset=0&limit=3', url)).then((r) => r.arrayBuffer());
}

async function runOnce(url: string, formFactor: 'mobile' | 'desktop', n: number): Promise<RunFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    };
    const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error('Lighthouse returned nothing');
    const lhr: Result = result.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(path.join(REPORTS, `${formFactor}-${n}.json`), JSON.stringify(lhr));
    return runSummary(lhr);
  } finally {
    chrome.kill();
  }
}

/** Lighthouse now and then fails to record a trace on a busy machine (NO_NAVSTART and the like): run it again. */
async function withRetries<T>(run: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= tries) throw err;
      console.log(`  (a run failed, trying again: ${err instanceof Error ? err.message : String(err)})`);
    }
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function print(formFactor: string, runs: RunFigures[]): void {
  console.log(`\n${formFactor}: ${runs.length} runs`);
  for (const [i, r] of runs.entries()) {
    console.log(
      `  run ${i + 1}: performance ${r.performance}, accessibility ${r.accessibility}, best practices ` +
        `${r.bestPractices}; LCP ${sec(r.lcp)}, CLS ${r.cls.toFixed(3)}, TBT ${Math.round(r.tbt)} ms, ` +
        `FCP ${sec(r.fcp)}; JS ${kb(r.jsTransfer)} sent (${kb(r.jsResource)} uncompressed)`,
    );
  }
  const m = (pick: (r: RunFigures) => number) => median(runs.map(pick));
  console.log(
    `  median: performance ${m((r) => r.performance)}, accessibility ${m((r) => r.accessibility)}, best practices ` +
      `${m((r) => r.bestPractices)}; LCP ${sec(m((r) => r.lcp))}, CLS ${m((r) => r.cls).toFixed(3)}, ` +
      `TBT ${Math.round(m((r) => r.tbt))} ms; JS sent ${kb(m((r) => r.jsTransfer))} ` +
      `(${kb(m((r) => r.jsResource))} uncompressed), images ${kb(m((r) => r.imageTransfer))}, ` +
      `all bytes ${kb(m((r) => r.totalTransfer))}`,
  );
  const rerun = 'npm run bench:lighthouse';
  const figure = (name: string, value: number, unit: string, goal?: BenchFigure['goal']) =>
    reportFigure({
      bench: 'bench:lighthouse',
      figure: `${formFactor} ${name}, median of ${runs.length}`,
      value,
      unit,
      goal,
      rerun,
    });
  figure('LCP', Number((m((r) => r.lcp) / 1000).toFixed(2)), 's', formFactor === 'mobile' ? { below: 1.5 } : undefined);
  figure(
    'performance score',
    m((r) => r.performance),
    'points',
    { atLeast: 98 },
  );
  figure('CLS', Number(m((r) => r.cls).toFixed(3)), '', { below: 0.1 });
  figure('image bytes', Number((m((r) => r.imageTransfer) / 1024).toFixed(1)), 'KB');
  const last = runs[runs.length - 1]!;
  if (last.lcpElement) console.log(`  LCP element: ${last.lcpElement}`);
  for (const s of last.shifts) console.log(`  layout shift: ${s}`);
}

const external = process.env.LH_URL;
const server = external ? undefined : await startServer();
const url = external ?? `${server!.base}/`;
try {
  await warmUp(url);
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(`Lighthouse on ${url}, ${RUNS} runs each; ${os.cpus().length} cores, load average ${load.join(' ')}`);
  for (const formFactor of FORM_FACTORS) {
    const runs: RunFigures[] = [];
    for (let i = 1; i <= RUNS; i++) runs.push(await withRetries(() => runOnce(url, formFactor, i)));
    print(formFactor, runs);
  }
  console.log(
    `\nLoad average after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`Reports: ${path.relative(process.cwd(), REPORTS)}/`);
  console.log('Rerun: npm run bench:lighthouse   (LH_RUNS=5 for more runs)');
} finally {
  await server?.stop();
}
