import type { Fairness, Opening } from '../../../../common/api/lootboxes';
import type { OpeningRow, SeedRow } from './lootboxes.repository';

const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** What the user may see of their seed in use: its hash, never the seed. */
export const presentFairness = (seed: SeedRow): Fairness => ({
  serverSeedHash: seed.serverSeedHash,
  clientSeed: seed.clientSeed,
  nonce: seed.nextNonce,
});

/** An opening with everything needed to recompute it; the seed itself only once it was revealed. */
export const presentOpening = (o: OpeningRow): Opening => ({
  id: o.id,
  nonce: o.nonce,
  clientSeed: o.clientSeed,
  serverSeedHash: o.serverSeedHash,
  serverSeed: o.serverSeed,
  oddsVersion: o.oddsVersion,
  weights: parsed(o.weights),
  lootSequence: parsed(o.lootSequence),
  openSequence: o.openSequence,
  lootFound: o.lootFound,
  openedOn: new Date(o.openedAt).toISOString(),
});
