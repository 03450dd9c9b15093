import type { Opening } from '../../../../../common/api/lootboxes';
import { drawOpening, seedHash, type HmacBlock } from '../../../../../common/fairness';

export type Verdict = { ok: true } | { ok: false; reason: string };

/**
 * Recomputes a revealed opening in this browser (Web Crypto): the revealed seed must hash to the commitment shown
 * before the opening, and the draw from it, the client seed and the nonce must give the same items in the same order.
 */
export async function verifyOpening(opening: Opening, hmac?: HmacBlock): Promise<Verdict> {
  const { serverSeed } = opening;
  if (!serverSeed) return { ok: false, reason: 'The server seed is not revealed yet: rotate it first.' };
  if (!/^[0-9a-f]{64}$/.test(serverSeed))
    return { ok: false, reason: 'The revealed server seed is not 64 hex digits.' };
  if ((await seedHash(serverSeed)) !== opening.serverSeedHash) {
    return { ok: false, reason: 'The revealed server seed does not match the hash shown before the opening.' };
  }
  let drawn;
  try {
    drawn = await drawOpening(
      {
        serverSeed,
        clientSeed: opening.clientSeed,
        nonce: opening.nonce,
        weights: opening.weights,
        oddsVersion: opening.oddsVersion,
      },
      hmac,
    );
  } catch (err) {
    return { ok: false, reason: `The draw cannot be recomputed: ${err instanceof Error ? err.message : String(err)}.` };
  }
  if (drawn.lootSequence.join() !== opening.lootSequence.join()) {
    return { ok: false, reason: 'The recomputed draw gives other items.' };
  }
  if (drawn.openSequence !== opening.openSequence) {
    return { ok: false, reason: 'The recomputed draw gives another reveal order.' };
  }
  if (drawn.lootFound !== opening.lootFound) {
    return { ok: false, reason: 'The rare find flag differs from the recomputed draw.' };
  }
  return { ok: true };
}
