import { randomBytes } from 'node:crypto';
import { seedHash } from '../../../../common/fairness';
import type { Executor } from '../../db/connection';
import { insertSeed, seedInUse, type SeedRow } from './lootboxes.repository';

/** 32 random bytes as 64 lowercase hex digits, and the SHA-256 the user sees before any opening. */
export async function newServerSeed(): Promise<{ serverSeed: string; serverSeedHash: string }> {
  const serverSeed = randomBytes(32).toString('hex');
  return { serverSeed, serverSeedHash: await seedHash(serverSeed) };
}

/** A new user's client seed: random, so nobody starts from a seed someone else could have picked. */
export const newClientSeed = () => randomBytes(12).toString('base64url');

/** The user's seed in use, started (with a random client seed, nonce 0) if they have none yet. */
export async function ensureSeed(exec: Executor, userId: number): Promise<SeedRow> {
  const current = await seedInUse(exec, userId);
  if (current) return current;
  await insertSeed(exec, { userId, ...(await newServerSeed()), clientSeed: newClientSeed() });
  return (await seedInUse(exec, userId))!;
}
