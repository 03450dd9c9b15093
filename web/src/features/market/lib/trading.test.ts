import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../../../common/api/market';
import { checkMarketBuy, checkTakeOffer, freeUnits, withoutOneUnit } from './trading';

const standing = (price: number, quantity = 1) => ({ price, quantity, since: '2026-01-01T00:00:00.000Z' });
const row = (offerId: number, userId: number, quantity = 1): Offer => ({
  offerId,
  id: offerId,
  userId,
  username: `user${userId}`,
  price: 100,
  quantity,
  since: '2026-01-01T00:00:00.000Z',
});

describe('the market Buy button', () => {
  it('is off when nobody sells, saying so', () => {
    expect(checkMarketBuy({ bestSo: null, sellOffer: null, busy: false, name: 'Rocket' })).toEqual({
      ok: false,
      reason: 'Nobody is selling Rocket',
    });
  });

  it('is off when the market price is the user’s own sell price', () => {
    expect(checkMarketBuy({ bestSo: 250, sellOffer: standing(250), busy: false, name: 'Rocket' })).toEqual({
      ok: false,
      reason: 'You are selling for $2.50',
    });
    expect(checkMarketBuy({ bestSo: 250, sellOffer: standing(300), busy: false, name: 'Rocket' }).ok).toBe(true);
  });

  it('is off while a buy runs', () => {
    expect(checkMarketBuy({ bestSo: 250, sellOffer: null, busy: true, name: 'Rocket' })).toEqual({ ok: false });
  });
});

describe('taking an offer of the popup', () => {
  const me = (quantity: number, sellOffer: ReturnType<typeof standing> | null = null) => ({
    id: 7,
    name: 'Rocket',
    user: { quantity, sellOffer, buyOffer: null },
  });

  it('never takes the user’s own offer', () => {
    expect(checkTakeOffer(row(1, 7), 'sell', me(0))).toEqual({ ok: false, reason: 'Your offer' });
    expect(checkTakeOffer(row(1, 7), 'buy', me(3))).toEqual({ ok: false, reason: 'Your offer' });
  });

  it('buys from anyone else', () => {
    expect(checkTakeOffer(row(1, 8), 'sell', me(0)).ok).toBe(true);
  });

  it('sells only a unit that no sell offer holds', () => {
    expect(checkTakeOffer(row(1, 8), 'buy', me(2)).ok).toBe(true);
    expect(checkTakeOffer(row(1, 8), 'buy', me(0)).reason).toBe('You own no Rocket');
    expect(checkTakeOffer(row(1, 8), 'buy', me(2, standing(100, 2))).reason).toBe('All yours are on sale');
    expect(freeUnits(me(3, standing(100, 2)).user)).toBe(1);
  });

  it('takes one unit off an accepted offer and drops it with its last', () => {
    const list = [row(1, 8, 2), row(2, 9, 1)];
    expect(withoutOneUnit(list, 1).map((o) => [o.offerId, o.quantity])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(withoutOneUnit(list, 2).map((o) => o.offerId)).toEqual([1]);
  });
});
