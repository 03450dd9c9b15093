import { describe, expect, it } from 'vitest';
import type { Opening } from '../../../../../common/api/lootboxes';
import { ODDS_VERSION, drawOpening, seedHash, tierWeights } from '../../../../../common/fairness';
import { verifyOpening } from './verify';

const SEED = '3f'.repeat(32);

async function revealedOpening(): Promise<Opening> {
  const weights = tierWeights(0);
  const drawn = await drawOpening({
    serverSeed: SEED,
    clientSeed: 'my-seed',
    nonce: 7,
    weights,
    oddsVersion: ODDS_VERSION,
  });
  return {
    id: 1,
    nonce: 7,
    clientSeed: 'my-seed',
    serverSeedHash: await seedHash(SEED),
    serverSeed: SEED,
    oddsVersion: ODDS_VERSION,
    weights,
    ...drawn,
    openedOn: new Date().toISOString(),
  };
}

describe('verifying an opening in the browser', () => {
  it('passes an opening drawn from its revealed seed, client seed and nonce', async () => {
    expect(await verifyOpening(await revealedOpening())).toEqual({ ok: true });
  });

  it('fails when the revealed seed is not the one committed to', async () => {
    const opening = { ...(await revealedOpening()), serverSeedHash: await seedHash('40'.repeat(32)) };
    expect(await verifyOpening(opening)).toEqual({
      ok: false,
      reason: 'The revealed server seed does not match the hash shown before the opening.',
    });
  });

  it('fails when one item differs from the draw', async () => {
    const opening = await revealedOpening();
    const swapped = opening.lootSequence[0] === 'COMMON_LETTER_Z' ? 'COMMON_LETTER_Y' : 'COMMON_LETTER_Z';
    const verdict = await verifyOpening({ ...opening, lootSequence: [swapped, ...opening.lootSequence.slice(1)] });
    expect(verdict).toEqual({ ok: false, reason: 'The recomputed draw gives other items.' });
  });

  it('fails when the reveal order differs, or the nonce or client seed was another', async () => {
    const opening = await revealedOpening();
    const flipped = opening.openSequence.replace(/^./, (c) => (c === 'L' ? 'R' : 'L'));
    expect((await verifyOpening({ ...opening, openSequence: flipped })).ok).toBe(false);
    expect((await verifyOpening({ ...opening, nonce: 8 })).ok).toBe(false);
    expect((await verifyOpening({ ...opening, clientSeed: 'other' })).ok).toBe(false);
  });

  it('cannot verify an opening whose seed is still hidden', async () => {
    const verdict = await verifyOpening({ ...(await revealedOpening()), serverSeed: null });
    expect(verdict.ok).toBe(false);
  });
});
