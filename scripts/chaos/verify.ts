import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../server/src/db/connection';
import { checkConservation } from '../../server/src/ledger/conservation';
import { sameJson, type Actor, type Check, type Target, type Traffic } from './traffic';

/**
 * The verdict of a chaos run, read from the database once the dust has settled: the books balance to the cent, no
 * payment was credited twice, every acknowledged call is there with the answer it gave, and every instance is healthy.
 * Each actor adds the checks of its own domain.
 */
export async function verify(databaseUrl: string, t: Traffic, actors: Actor[], instances: Target[]): Promise<Check[]> {
  // Cents come back as numbers, as in the app (conservation compares them with 0).
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const checks: Check[] = [];
    const books = await checkConservation(drizzle(db) as unknown as Db);
    checks.push(
      {
        name: '0 cents of drift',
        ok: books.postingsTotal === 0 && books.unbalancedEntries === 0 && books.driftedAccounts === 0,
        detail: `sum of postings ${books.postingsTotal}¢, ${books.unbalancedEntries} unbalanced entries, ${books.driftedAccounts} balances differing from their postings; users hold ${books.userMoney}¢`,
      },
      { name: 'no negative balance', ok: books.negativeBalances === 0, detail: `${books.negativeBalances} negative` },
      {
        name: 'the whole conservation check (items, escrow, holds, uncrossed books)',
        ok: books.ok,
        detail:
          `${books.itemsMinted} items minted, ${books.itemsInExistence} owned, ${books.unbalancedItemEntries} unbalanced ` +
          `item entries, ${books.driftedInventories} drifted inventories; ${books.escrowMismatches} escrow mismatches, ` +
          `${books.heldMismatches} held mismatches, ${books.crossedBooks} crossed books, ${books.goodwillMismatches} goodwill mismatches`,
      },
      await noDoubleCredit(db),
      await registrationsPresent(db, t),
      await acknowledgedAnswersKept(db, t),
      {
        name: 'replays changed nothing',
        ok: t.replayMismatches.length === 0,
        detail: `${[...t.stats.keys()].filter((k) => k.endsWith(' replay')).reduce((n, k) => n + t.acknowledged(k), 0)} replays answered as the first call${t.replayMismatches.length ? `; ${t.replayMismatches.length} differed: ${t.replayMismatches.slice(0, 3).join('; ')}` : ''}`,
      },
    );
    for (const actor of actors) checks.push(...(await actor.verify(db, t)));
    const health = await Promise.all(instances.map(async (i) => `${i.name} ${await i.health()}`));
    checks.push({
      name: 'every instance healthy',
      ok: health.every((h) => h.endsWith(' 200')),
      detail: `/api/health: ${health.join(', ')}`,
    });
    return checks;
  } finally {
    await db.end();
  }
}

/** At most one TOPUP entry per payment, exactly one for each paid payment, none for any other. */
async function noDoubleCredit(db: pg.Client): Promise<Check> {
  const { rows } = await db.query<{ paid: number; twice: number; unpaid_credited: number; paid_uncredited: number }>(
    `SELECT
       (SELECT count(*) FROM payments WHERE status = 'paid')::int AS paid,
       (SELECT count(*) FROM (SELECT resource_id FROM journal_entries WHERE kind = 'TOPUP'
          GROUP BY resource_id HAVING count(*) > 1) d)::int AS twice,
       (SELECT count(*) FROM payments p WHERE p.status <> 'paid'
          AND EXISTS (SELECT 1 FROM journal_entries j WHERE j.kind = 'TOPUP' AND j.resource_id = p.id))::int
          AS unpaid_credited,
       (SELECT count(*) FROM payments p WHERE p.status = 'paid'
          AND NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.kind = 'TOPUP' AND j.resource_id = p.id))::int
          AS paid_uncredited`,
  );
  const r = rows[0]!;
  return {
    name: 'no payment credited twice',
    ok: r.twice === 0 && r.unpaid_credited === 0 && r.paid_uncredited === 0,
    detail: `${r.paid} paid payments; ${r.twice} credited twice, ${r.paid_uncredited} paid but not credited, ${r.unpaid_credited} credited but not paid`,
  };
}

async function registrationsPresent(db: pg.Client, t: Traffic): Promise<Check> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE username = ANY($1)', [
    t.registered,
  ]);
  const n = rows[0]!.n;
  return {
    name: 'every acknowledged registration is a user',
    ok: n === t.registered.length,
    detail: `${t.registered.length} acknowledged, ${n} found`,
  };
}

/** Each 200 to a call with an Idempotency-Key committed with its key, which holds the very answer the client got. */
async function acknowledgedAnswersKept(db: pg.Client, t: Traffic): Promise<Check> {
  const { rows } = await db.query<{ username: string; key: string; status_code: number; response: unknown }>(
    `SELECT u.username, k.key, k.status_code, k.response FROM idempotency_keys k JOIN users u ON u.id = k.user_id
     WHERE k.key = ANY($1)`,
    [t.acks.map((a) => a.key)],
  );
  const stored = new Map(rows.map((r) => [`${r.username}/${r.key}`, r]));
  const missing = t.acks.filter((a) => {
    const row = stored.get(`${a.username}/${a.key}`);
    return !row || row.status_code !== 200 || !sameJson(row.response, a.body);
  });
  return {
    name: 'every acknowledged money call is in the database',
    ok: missing.length === 0,
    detail: `${t.acks.length} acknowledged (${[...new Set(t.acks.map((a) => a.kind))].join(', ')}), ${missing.length} missing${
      missing.length
        ? `: ${missing
            .slice(0, 3)
            .map((m) => `${m.kind} ${m.key}`)
            .join(', ')}`
        : ''
    }`,
  };
}
