import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

const at = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Server seeds of the provably fair draw (docs/product.md#fairness). A user has one seed in use (`revealed_at` null) whose hash
 * they saw before any opening; rotating reveals it and starts the next one at nonce 0.
 */
export const fairSeeds = pgTable(
  'fair_seeds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 32 random bytes as 64 lowercase hex digits: secret until revealed. */
    serverSeed: text('server_seed').notNull(),
    serverSeedHash: text('server_seed_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    nextNonce: integer('next_nonce').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    revealedAt: at('revealed_at'),
  },
  (t) => [
    uniqueIndex('fair_seeds_in_use')
      .on(t.userId)
      .where(sql`${t.revealedAt} IS NULL`),
    index('fair_seeds_user').on(t.userId),
  ],
);

/** Every opening, with what it takes to recompute it: seed, client seed, nonce, weights and odds version. */
export const lootboxOpenings = pgTable(
  'lootbox_openings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seedId: bigint('seed_id', { mode: 'number' })
      .notNull()
      .references(() => fairSeeds.id),
    nonce: integer('nonce').notNull(),
    clientSeed: text('client_seed').notNull(),
    oddsVersion: integer('odds_version').notNull(),
    weights: jsonb('weights').notNull(),
    lootSequence: jsonb('loot_sequence').notNull(),
    openSequence: text('open_sequence').notNull(),
    lootFound: boolean('loot_found').notNull(),
    openedAt: at('opened_at').notNull(),
  },
  (t) => [
    index('lootbox_openings_user').on(t.userId, t.id),
    uniqueIndex('lootbox_openings_seed_nonce').on(t.seedId, t.nonce),
  ],
);
