import { sql } from 'drizzle-orm';
import type { TierWeights } from '../../../../common/fairness';
import { sqlRows, type Executor } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { fairSeeds, lootboxOpenings } from './lootboxes.tables';

/** The rows here are read under the tables' TypeScript names (`AS "keyCount"`), so they are `$inferSelect`'s. */
type Seed = typeof fairSeeds.$inferSelect;
type Opening = typeof lootboxOpenings.$inferSelect;

export type Counters = Pick<typeof users.$inferSelect, 'keyCount' | 'lootBoxCount'>;

const COUNTERS = sql`key_count AS "keyCount", loot_box_count AS "lootBoxCount"`;

export async function countersOf(exec: Executor, userId: number): Promise<Counters | undefined> {
  const [row] = await sqlRows(exec, sql<Counters>`SELECT ${COUNTERS} FROM users WHERE id = ${userId}`);
  return row;
}

export async function addKeys(exec: Executor, userId: number, count: number): Promise<Counters> {
  const [row] = await sqlRows(
    exec,
    sql<Counters>`UPDATE users SET key_count = key_count + ${count} WHERE id = ${userId} RETURNING ${COUNTERS}`,
  );
  return row!;
}

/** One more unopened box, unless the user already holds `max`: undefined then. */
export async function addLootbox(exec: Executor, userId: number, max: number): Promise<Counters | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Counters>`UPDATE users SET loot_box_count = loot_box_count + 1 WHERE id = ${userId} AND loot_box_count < ${max}
        RETURNING ${COUNTERS}`,
  );
  return row;
}

export type SeedRow = Pick<Seed, 'id' | 'serverSeed' | 'serverSeedHash' | 'clientSeed' | 'nextNonce'>;

const SEED = sql`id, server_seed AS "serverSeed", server_seed_hash AS "serverSeedHash", client_seed AS "clientSeed",
  next_nonce AS "nextNonce"`;

export async function seedInUse(exec: Executor, userId: number): Promise<SeedRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<SeedRow>`SELECT ${SEED} FROM fair_seeds WHERE user_id = ${userId} AND revealed_at IS NULL`,
  );
  return row;
}

/** Starts a seed for the user unless one is in use already (then nothing happens: the first one stays). */
export async function insertSeed(
  exec: Executor,
  s: { userId: number; serverSeed: string; serverSeedHash: string; clientSeed: string },
): Promise<void> {
  await exec.execute(
    sql`INSERT INTO fair_seeds (user_id, server_seed, server_seed_hash, client_seed)
        VALUES (${s.userId}, ${s.serverSeed}, ${s.serverSeedHash}, ${s.clientSeed})
        ON CONFLICT (user_id) WHERE revealed_at IS NULL DO NOTHING`,
  );
}

export async function setClientSeed(exec: Executor, userId: number, clientSeed: string): Promise<SeedRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<SeedRow>`UPDATE fair_seeds SET client_seed = ${clientSeed} WHERE user_id = ${userId} AND revealed_at IS NULL
        RETURNING ${SEED}`,
  );
  return row;
}

/** Ends the seed in use, revealing it; answers it, or undefined when there was none. */
export async function revealSeed(exec: Executor, userId: number, now: Date): Promise<SeedRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<SeedRow>`UPDATE fair_seeds SET revealed_at = ${now} WHERE user_id = ${userId} AND revealed_at IS NULL
        RETURNING ${SEED}`,
  );
  return row;
}

export type OpeningRow = Pick<
  Opening,
  'id' | 'nonce' | 'clientSeed' | 'oddsVersion' | 'openSequence' | 'lootFound' | 'openedAt'
> &
  Pick<Seed, 'serverSeedHash'> & {
    /** Null while the seed is still in use. */
    serverSeed: Seed['serverSeed'] | null;
    /** JSON columns (drizzle reads them as unknown): their shape, or their text. */
    weights: TierWeights | string;
    lootSequence: string[] | string;
  };

/** A user's openings, newest first, `limit` of them with ids below `before`. */
export async function openingsOf(
  exec: Executor,
  userId: number,
  page: { limit: number; before?: number },
): Promise<OpeningRow[]> {
  return sqlRows(
    exec,
    sql<OpeningRow>`SELECT o.id, o.nonce, o.client_seed AS "clientSeed", s.server_seed_hash AS "serverSeedHash",
          CASE WHEN s.revealed_at IS NULL THEN NULL ELSE s.server_seed END AS "serverSeed",
          o.odds_version AS "oddsVersion", o.weights, o.loot_sequence AS "lootSequence",
          o.open_sequence AS "openSequence", o.loot_found AS "lootFound", o.opened_at AS "openedAt"
        FROM lootbox_openings o JOIN fair_seeds s ON s.id = o.seed_id
        WHERE o.user_id = ${userId} ${page.before ? sql`AND o.id < ${page.before}` : sql``}
        ORDER BY o.id DESC LIMIT ${page.limit}`,
  );
}
