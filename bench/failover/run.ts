/**
 * `npm run bench:failover` (docs/scaling.md, "Synchronous standby: what it costs"): in one run, ledger spends per
 * second on a lone PostgreSQL primary and on the primary of the Patroni pair, whose every commit waits for its
 * synchronous standby (directly, and through the pair's HAProxy); then the pair's primary node is killed under spend
 * traffic, and every spend that was acknowledged must be on the promoted standby.
 *
 * Both servers are the project's own (in a temporary directory, on free ports, fsync off alike), so the difference
 * between them is the standby. Rounds alternate between the three targets, as `npm run bench:ledger` does with
 * pgbench. Needs Debian's patroni, etcd-server and haproxy, and root or the postgres user (scripts/cluster).
 *
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10 (per round and target)  BENCH_ROUNDS=3
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { openDatabase, sqlRows } from '../../server/src/db/connection';
import { transact, type WorkDeps } from '../../server/src/db/unit-of-work';
import { checkConservation } from '../../server/src/ledger/conservation';
import { MemoryBus } from '../../server/src/live/bus';
import { PatroniPair } from '../../scripts/cluster/patroni-pair';
import type { PatroniNode } from '../../scripts/cluster/patroni';
import { PostgresCluster } from '../../scripts/cluster/postgres';
import { benchSettings, reportHead } from '../pgbench';
import { openLedger, pooled, SPEND, spendIn, spends, type Figures, type Ledger } from '../ledger/spends';
import { fmt } from '../ledger/stats';

const { USERS, WORKERS, SECONDS, ROUNDS } = benchSettings();
/** Spend traffic before the kill, and after writes are back, in the failover phase. */
const BEFORE_KILL_MS = 3_000;
const AFTER_RECOVERY_MS = 3_000;
/** Past this, the failover is reported as not having happened. */
const FAILOVER_LIMIT_MS = 60_000;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

interface Target {
  name: string;
  deps: WorkDeps;
  rounds: Figures[];
  latencies: number[][];
}

interface Failover {
  killed: string;
  promoted: string;
  promotedMs: number | undefined;
  writesBackMs: number | undefined;
  /** The last commit the killed node's orphaned backends answered, from the kill. */
  lastOnOldMs: number | undefined;
  ackedBeforeKill: number;
  ackedOnOldAfterKill: number;
  acked: number;
  lost: number;
  errored: number;
  erroredCommitted: number;
  booksOk: boolean;
}

/**
 * WORKERS spend loops against `deps` (through HAProxy). The primary's node is killed after BEFORE_KILL_MS; the loops go
 * on until spends commit on the promoted standby, and for AFTER_RECOVERY_MS more. A spend counts as acknowledged when
 * its commit answered; one that errored is unknown (its commit may have happened without the answer reaching us).
 * Each spend also reads which node's port answered it: after the postmaster's death its backends finish what they
 * were doing, so commits may still be answered by the old node for a moment, and only one answered by the new node
 * says that writes work again.
 */
async function failover(
  pair: PatroniPair,
  deps: WorkDeps,
  users: number[],
  spendEntriesBefore: number,
): Promise<Failover> {
  await pair.refreshRoles();
  const old = pair.primary();
  const standby = pair.nodes.find((n) => n !== old);
  if (!old || !standby) throw new Error('the pair has no primary and standby to fail over');
  const anyone = () => users[Math.floor(Math.random() * users.length)]!;
  const acked: { entryId: number; port: number; answeredAt: number }[] = [];
  let errored = 0;
  let stop = false;
  const loops = Array.from({ length: WORKERS }, async () => {
    while (!stop) {
      try {
        const answer = await transact(deps, async (w) => {
          const { entryId } = await spendIn(w, anyone());
          const [server] = await sqlRows<{ port: number }>(w.tx, sql`SELECT inet_server_port() AS port`);
          return { entryId, port: server!.port };
        });
        acked.push({ ...answer, answeredAt: performance.now() });
      } catch {
        errored++;
        await sleep(50); // no primary yet: HAProxy refuses at once, and a tight loop would only load the machine
      }
    }
  });

  let killedAt = Infinity;
  let promotedAt: number | undefined;
  const writesBackAt = () => acked.find((a) => a.port === standby.port)?.answeredAt;
  try {
    await sleep(BEFORE_KILL_MS);
    log(`killing ${old.name} (SIGKILL to Patroni and its postmaster) under ${WORKERS} spend loops…`);
    killedAt = performance.now();
    old.kill();
    while (performance.now() - killedAt < FAILOVER_LIMIT_MS && writesBackAt() === undefined) {
      if (promotedAt === undefined) {
        await pair.refreshRoles();
        if (pair.primary() === standby) promotedAt = performance.now();
      }
      await sleep(100);
    }
    log(
      `  ${standby.name} promoted after ${ms(promotedAt, killedAt)}, spends commit again after ${ms(writesBackAt(), killedAt)}`,
    );
    if (writesBackAt() !== undefined) await sleep(AFTER_RECOVERY_MS);
  } finally {
    stop = true;
    await Promise.all(loops);
  }
  const check = await checkOnNode(
    standby,
    acked.map((a) => a.entryId),
  );
  const onOldAfterKill = acked.filter((a) => a.port === old.port && a.answeredAt >= killedAt);
  return {
    killed: old.name,
    promoted: standby.name,
    promotedMs: promotedAt === undefined ? undefined : promotedAt - killedAt,
    writesBackMs: relative(writesBackAt(), killedAt),
    lastOnOldMs: relative(onOldAfterKill.at(-1)?.answeredAt, killedAt),
    ackedBeforeKill: acked.filter((a) => a.answeredAt < killedAt).length,
    ackedOnOldAfterKill: onOldAfterKill.length,
    acked: acked.length,
    lost: acked.length - check.found,
    errored,
    erroredCommitted: check.spendEntries - spendEntriesBefore - check.found,
    booksOk: check.booksOk,
  };
}

/** How many of the spends `ids` are in `node`'s database, how many spends it holds in all, and its books. */
async function checkOnNode(node: PatroniNode, ids: number[]) {
  log(`checking the ${ids.length} acknowledged spends on ${node.name}…`);
  const database = await openDatabase({ databaseUrl: node.url, poolSize: 1 });
  try {
    const [found] = await sqlRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM journal_entries WHERE id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
    );
    const [spendEntries] = await sqlRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'TEST'`,
    );
    const books = await checkConservation(database.db);
    return { found: found!.n, spendEntries: spendEntries!.n, booksOk: books.ok };
  } finally {
    await database.close();
  }
}

const relative = (at: number | undefined, from: number) => (at === undefined ? undefined : at - from);
const ms = (at: number | undefined, from: number) => seconds(relative(at, from));
const seconds = (v: number | undefined) => (v === undefined ? 'never' : `${(v / 1000).toFixed(1)} s`);

async function main(): Promise<void> {
  const started = Date.now();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-bench-failover-'));
  fs.chmodSync(workDir, 0o755); // PostgreSQL runs as its own user when we are root
  log(`work directory ${workDir}`);
  log('lone PostgreSQL primary (initdb)…');
  const lone = await PostgresCluster.create(workDir, 'lone');
  let pair: PatroniPair | undefined;
  const opened: Ledger[] = [];
  let report: string[] = [];
  let ok = false;
  try {
    pair = await PatroniPair.start(workDir, log);
    await pair.refreshRoles();
    const primary = pair.primary();
    if (!primary) throw new Error('the Patroni pair has no primary');
    log(`lone primary: setting up the ledger…`);
    const loneLedger = await openLedger(lone.url, { users: USERS, workers: WORKERS, log });
    opened.push(loneLedger);
    log(`pair's primary (${primary.name}): setting up the ledger…`);
    const pairLedger = await openLedger(primary.url, { users: USERS, workers: WORKERS, log });
    opened.push(pairLedger);
    const proxied = await openDatabase({ databaseUrl: pair.url, poolSize: WORKERS });
    const proxiedDeps: WorkDeps = { db: proxied.db, bus: new MemoryBus() };

    const targets: Target[] = [
      { name: 'lone primary', deps: loneLedger.deps, rounds: [], latencies: [] },
      { name: 'pair, direct to the primary', deps: pairLedger.deps, rounds: [], latencies: [] },
      { name: 'pair, through HAProxy', deps: proxiedDeps, rounds: [], latencies: [] },
    ];
    const anyone = (users: number[]) => () => users[Math.floor(Math.random() * users.length)]!;
    const usersOf = (t: Target) => (t === targets[0] ? loneLedger.users : pairLedger.users);
    log('warming up for 1 s on each…');
    for (const t of targets) await spends(t.deps, WORKERS, 1, anyone(usersOf(t)));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const t of targets) {
        log(`round ${round}/${ROUNDS}: ledger spends on the ${t.name}, ${WORKERS} workers, ${SECONDS} s…`);
        const { latencies, ...figures } = await spends(t.deps, WORKERS, SECONDS, anyone(usersOf(t)));
        t.rounds.push(figures);
        t.latencies.push(latencies);
        log(`  ${fmt(figures.rate)} spends/s`);
      }
    }
    log('checking the books on the lone primary and on the pair…');
    // The pair's direct pool goes to the node about to be killed: closed before.
    const closed = await Promise.allSettled(opened.splice(0).map((l) => l.close()));
    for (const c of closed) if (c.status === 'rejected') throw c.reason;

    // Spend entries before the failover phase, so that the errored spends which committed anyway can be counted.
    const [before] = await sqlRows<{ n: number }>(
      proxied.db,
      sql`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'TEST'`,
    );
    const result = await failover(pair, proxiedDeps, pairLedger.users, before!.n).finally(() => proxied.close());
    ok = result.lost === 0 && result.booksOk && result.writesBackMs !== undefined;
    report = lines(targets, result, loneLedger.server);
  } finally {
    for (const ledger of opened) await ledger.close().catch(() => {});
    await pair?.stop();
    await lone.destroy();
    if (ok) fs.rmSync(workDir, { recursive: true, force: true });
    else log(`work directory kept: ${workDir}`);
  }
  console.log(report.join('\n'));
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  // The pair's stop leaves a timer of up to 20 s behind (PatroniNode.stop in scripts/cluster/patroni.ts).
  process.exit(ok ? 0 : 1);
}

function lines(targets: Target[], f: Failover, server: string): string[] {
  const figures = targets.map((t) => pooled(t.rounds, t.latencies));
  const base = figures[0]!.rate;
  const what = (where: string) => `ledger spend of ${SPEND}¢ ${where}, random user of ${USERS}, ${WORKERS} workers`;
  const rows = [
    what('on a lone primary'),
    what('on the primary of the Patroni pair, direct (synchronous standby)'),
    what('on the primary of the Patroni pair, through HAProxy'),
  ].map(
    (name, i) =>
      `| ${name} | ${fmt(figures[i]!.rate)} | ${fmt(figures[i]!.p50, 1)} ms | ${fmt(figures[i]!.p99, 1)} ms | ${i === 0 ? '1.00' : `**${fmt(figures[i]!.rate / base, 2)}**`} |`,
  );
  const perRound = targets[0]!.rounds.map((_, r) => targets.map((t) => fmt(t.rounds[r]!.rate)).join(' / ')).join(', ');
  return [
    ...reportHead(
      'Synchronous standby benchmark',
      `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${server}; both servers fsync off, the standby, etcd, HAProxy and the client on the same machine`,
      'the lone primary',
    ),
    ...rows,
    '',
    `Rates are means over ${ROUNDS} alternating rounds of ${SECONDS} s (lone / pair direct / pair through HAProxy per round: ${perRound}).`,
    `Spends: ${figures.reduce((n, f) => n + f.count, 0)} committed, ${figures.reduce((n, f) => n + f.failures, 0)} failed; books balanced afterwards on both: yes.`,
    '',
    `| failover: SIGKILL of the primary's node (${f.killed}) under ${WORKERS} spend loops through HAProxy | |`,
    '|---|---:|',
    `| standby (${f.promoted}) reported primary by Patroni | ${seconds(f.promotedMs)} after the kill |`,
    `| spends commit again, on ${f.promoted} | ${seconds(f.writesBackMs)} after the kill |`,
    `| spends acknowledged before the kill | ${fmt(f.ackedBeforeKill)} |`,
    `| spends acknowledged by ${f.killed}'s orphaned backends after the kill | ${fmt(f.ackedOnOldAfterKill)}${f.lastOnOldMs === undefined ? '' : `, the last ${seconds(f.lastOnOldMs)} after it`} |`,
    `| spends acknowledged in all (before and after the kill) | ${fmt(f.acked)} |`,
    `| of those, on the new primary afterwards | ${fmt(f.acked - f.lost)} |`,
    `| spends that errored (unknown: not acknowledged) | ${fmt(f.errored)}, of which ${fmt(f.erroredCommitted)} committed |`,
    '',
    `acknowledged spends lost: ${f.lost}`,
    `Books on the new primary: ${f.booksOk ? 'balanced' : 'NOT balanced'}.`,
    `Rerun: BENCH_USERS=${USERS} BENCH_WORKERS=${WORKERS} BENCH_SECONDS=${SECONDS} BENCH_ROUNDS=${ROUNDS} npm run bench:failover`,
  ];
}

await main();
