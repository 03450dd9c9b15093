/**
 * `npm run chaos`: a chaos run that proves the books (issue 9). It starts a PostgreSQL cluster and a Redis of its
 * own, two app instances, and CHAOS_SECONDS (and until the last disruption is over) of concurrent money traffic from
 * every actor in actors/ against both, while it kills an instance with SIGKILL, restarts PostgreSQL (cleanly and as
 * a crash) and stops Redis for a while.
 * Then it checks the database: 0 cents of drift, no negative balance, no payment credited twice, every acknowledged
 * call present, every instance healthy. It prints the figures and exits 1 when any check fails.
 *
 * `npm run chaos -- --cluster` runs the same traffic through HAProxy against `npm run cluster -- --ha`'s topology
 * while it kills an instance, the PostgreSQL primary's node and the Redis primary, stops the S3 server and restarts
 * an instance; it prints how long writes took to work again after each (cluster.ts, docs/operations.md).
 *
 * A new money domain adds its traffic as one more file in actors/ exporting a factory of an Actor (see traffic.ts);
 * nothing else changes. CHAOS_KEEP=1 keeps the work directory (logs, database) afterwards; it is kept on failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster } from './cluster';
import { disrupt, type Done } from './disruptions';
import { startLocal } from './local';
import type { ChaosSetup } from './setup';
import { Traffic, type Actor, type Check } from './traffic';
import { verify } from './verify';

const seconds = Number(process.env.CHAOS_SECONDS || 120);
if (!Number.isFinite(seconds) || seconds < 20) {
  console.error(`CHAOS_SECONDS must be a number of seconds, at least 20; got "${process.env.CHAOS_SECONDS}"`);
  process.exit(2);
}

/** `--cluster`: against `npm run cluster -- --ha`'s topology through HAProxy (cluster.ts). */
const onCluster = process.argv.includes('--cluster');

const startedAt = Date.now();
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s`;
const say = (line: string) => console.log(`[${elapsed()}] ${line}`);

async function loadActors(): Promise<Actor[]> {
  const dir = path.join(import.meta.dirname, 'actors');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const actors: Actor[] = [];
  for (const file of files.sort()) {
    const mod = (await import(path.join(dir, file))) as { default: () => Actor };
    actors.push(mod.default());
  }
  return actors;
}

/** An actor that fails does not stop the others; its failure is a failed check. */
async function runActor(actor: Actor, t: Traffic, failures: Check[]): Promise<void> {
  try {
    await actor.run(t);
  } catch (err) {
    failures.push({ name: `actor ${actor.name} ran to the end`, ok: false, detail: String(err) });
  }
}

function report(t: Traffic, done: Done[], checks: Check[], totalMs: number): void {
  console.log('\n== Requests (every call, replays and retries included) ==');
  console.log('kind                  sent     200     503   no answer   other');
  for (const [kind, s] of [...t.stats].sort()) {
    const other = [...s.other].map(([code, n]) => `${n}×${code}`).join(' ');
    console.log(
      `${kind.padEnd(18)} ${String(s.sent).padStart(7)} ${String(s.ok).padStart(7)} ${String(s.unavailable).padStart(7)} ${String(s.noAnswer).padStart(11)}   ${other}`,
    );
    for (const [code, body] of s.samples) console.log(`${''.padEnd(20)}first ${code}: ${body}`);
  }
  console.log(`calls left without a definitive answer at the end: ${t.unsettled.length}`);
  console.log('\n== Disruptions ==');
  for (const d of done) {
    console.log(
      `at ${d.at.toFixed(1).padStart(5)} s  ${d.what}; all healthy after ${(d.recoveredMs / 1000).toFixed(1)} s` +
        (d.detail ? `; ${d.detail}` : ''),
    );
  }
  console.log('\n== Checks ==');
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.ok).length;
  console.log(
    `\nChaos run: ${failed === 0 ? 'PASSED' : `FAILED (${failed} of ${checks.length} checks)`} in ${(totalMs / 1000).toFixed(0)} s ` +
      `(${seconds} s of traffic). Rerun: CHAOS_SECONDS=${seconds} npm run chaos${onCluster ? ' -- --cluster' : ''}`,
  );
}

async function main(): Promise<number> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-chaos-'));
  fs.chmodSync(workDir, 0o755); // PostgreSQL runs as its own user when we are root
  say(`work directory ${workDir}`);

  let setup: ChaosSetup | undefined;
  let passed = false;
  try {
    setup = onCluster ? await startCluster(workDir, say) : await startLocal(workDir, say);
    const actors = await loadActors();
    const t = new Traffic(setup.targets, Date.now() + seconds * 1000, setup.databaseUrl);
    say(
      `traffic for ${seconds} s (and until the last disruption is over) from ${actors.map((a) => a.name).join(', ')}`,
    );
    const failures: Check[] = [];
    const [done] = await Promise.all([
      disrupt(setup.steps, setup.instances, seconds * 1000, say).finally(() => t.disruptionsOver()),
      ...actors.map((a) => runActor(a, t, failures)),
    ]);
    say('traffic over; checking');
    await Promise.all(setup.instances.map((i) => i.waitHealthy(60_000)));
    const checks = [
      ...failures,
      ...(await verify(setup.databaseUrl, t, actors, setup.instances)),
      ...(await setup.checks(t)),
    ];
    passed = checks.every((c) => c.ok);
    report(t, done, checks, Date.now() - startedAt);
  } catch (err) {
    console.error(`Chaos run could not finish: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await setup?.stop();
    if (passed && process.env.CHAOS_KEEP !== '1') fs.rmSync(workDir, { recursive: true, force: true });
    else console.log(`Work directory kept: ${workDir}`);
  }
  return passed ? 0 : 1;
}

process.exit(await main());
