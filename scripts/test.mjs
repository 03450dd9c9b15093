// `npm test`: every test. Unit and integration tests (Vitest), then browser tests (Playwright driving the system
// Chromium; never a downloaded browser). With DATABASE_URL set, both run against PostgreSQL, the browser tests on a
// fresh database of their own. Ends with one line "Total: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshPostgresDatabase } from '../server/src/test/databases.ts';

const CHROMIUM = '/usr/bin/chromium';
const args = process.argv.slice(2);
const only = args.includes('--unit') ? 'unit' : args.includes('--e2e') ? 'e2e' : 'all';
// `--project=desktop` or `--project=phone` runs the browser tests of one viewport only (CI gives each database one).
const projects = args.filter((a) => a.startsWith('--project='));
const out = mkdtempSync(path.join(tmpdir(), 'wall-test-'));

function run(cmd, cmdArgs, env = {}) {
  const res = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`Browser tests need Debian's Chromium at ${CHROMIUM}: run "sudo apt-get install -y chromium".`);
    return false;
  }
  console.log('Installing Debian chromium for the browser tests (apt-get install -y chromium)...');
  // Another install at the same moment (a second test run, the cluster's packages) holds dpkg's lock: wait for it.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', ['update', '-qq', ...wait]);
  run('apt-get', ['install', '-y', '-qq', ...wait, 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' });
  return existsSync(CHROMIUM);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let status = 0;

if (only !== 'e2e') {
  const report = path.join(out, 'vitest.json');
  status ||= run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else status ||= 1;
}

if (only !== 'unit') {
  if (!ensureChromium()) status = 1;
  else {
    // The browser tests' server gets a fresh database, so runs never see each other's users.
    const db = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : undefined;
    const report = path.join(out, 'playwright.json');
    const code = run('npx', ['playwright', 'test', '--reporter=list,json', ...projects], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      ...(db ? { DATABASE_URL: db.url } : {}),
    });
    status ||= code;
    await db?.drop();
    if (existsSync(report)) {
      const s = JSON.parse(readFileSync(report, 'utf8')).stats;
      totals.passed += s.expected + (s.flaky ?? 0);
      if (s.flaky) console.log(`Browser tests that passed only on their retry (flaky): ${s.flaky}`);
      totals.failed += s.unexpected;
      totals.skipped += s.skipped;
    } else status ||= 1;
  }
}

console.log(`\nTotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status || (totals.failed > 0 ? 1 : 0));
