import { describe, expect, it } from 'vitest';
import { feeOf, marketItemMessage, matchOrder, twelveMonths, userMarketItemMessage, type RestingOffer } from './market';

const ask = (offerId: number, userId: number, price: number, quantity: number): RestingOffer => ({
  offerId,
  userId,
  price,
  quantity,
});

describe('matchOrder', () => {
  const book = [ask(1, 10, 40, 1), ask(2, 11, 40, 2), ask(3, 12, 50, 5)];

  it('fills best price first, then oldest, at the resting price, and rests the remainder', () => {
    expect(matchOrder({ side: 'BUY', takerId: 99, price: 45, quantity: 4 }, book, 0)).toEqual({
      fills: [
        { offerId: 1, makerId: 10, price: 40, quantity: 1, fee: 0 },
        { offerId: 2, makerId: 11, price: 40, quantity: 2, fee: 0 },
      ],
      rest: 1,
    });
  });

  it('takes part of an offer and stops when the order is filled', () => {
    const { fills, rest } = matchOrder({ side: 'BUY', takerId: 99, price: 60, quantity: 5 }, book, 0);
    expect(fills.at(-1)).toMatchObject({ offerId: 3, quantity: 2 });
    expect(rest).toBe(0);
  });

  it("skips the taker's own offers and never fills past its limit", () => {
    const { fills } = matchOrder({ side: 'BUY', takerId: 11, price: 100, quantity: 3 }, book, 0);
    expect(fills.map((f) => f.makerId)).toEqual([10, 12]);
    expect(matchOrder({ side: 'BUY', takerId: 99, price: 39, quantity: 3 }, book, 0)).toEqual({ fills: [], rest: 3 });
  });

  it('a sell crosses bids at or above its price', () => {
    const bids = [ask(7, 20, 90, 1), ask(8, 21, 80, 1)];
    expect(matchOrder({ side: 'SELL', takerId: 99, price: 85, quantity: 2 }, bids, 0)).toEqual({
      fills: [{ offerId: 7, makerId: 20, price: 90, quantity: 1, fee: 0 }],
      rest: 1,
    });
  });

  it('takes the fee from the proceeds, rounded down', () => {
    expect(feeOf(199, 3, 250)).toBe(14); // 597 × 2.5% = 14.925
    expect(matchOrder({ side: 'BUY', takerId: 99, price: 40, quantity: 1 }, book, 250).fills[0]!.fee).toBe(1);
  });
});

describe('market update messages', () => {
  it('flags exactly the fields that changed', () => {
    const common = marketItemMessage(
      'X',
      { quantity: 2, bestSo: 10, bestBo: null },
      { quantity: 1, bestSo: 10, bestBo: 5 },
    );
    expect(common).toEqual({
      itemType: 'X',
      marketQuantity: 1,
      marketQuantityDelta: true,
      bestSo: 10,
      bestSoDelta: false,
      bestBo: 5,
      bestBoDelta: true,
    });
    const offer = { price: 5, quantity: 1, since: '2026-01-01T00:00:00.000Z' };
    const mine = userMarketItemMessage(
      common,
      { quantity: 3, sellOffer: null, buyOffer: null },
      { quantity: 3, sellOffer: null, buyOffer: offer },
    );
    expect(mine).toMatchObject({
      userQuantityDelta: false,
      userSellOfferDelta: false,
      userBuyOffer: offer,
      userBuyOfferDelta: true,
    });
  });
});

describe('twelveMonths', () => {
  it('lists the last twelve months oldest first, empty months with volume 0 and no prices', () => {
    const months = twelveMonths(new Date('2026-03-15T12:00:00Z'), [
      { label: '2026-03', averagePrice: 5, lowestPrice: 4, highestPrice: 6, volume: 2 },
      { label: '2025-04', averagePrice: 9, lowestPrice: 9, highestPrice: 9, volume: 1 },
    ]);
    expect(months.map((m) => m.label)).toEqual([
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
    expect(months[0]).toMatchObject({ volume: 1, averagePrice: 9 });
    expect(months[1]).toEqual({
      label: '2025-05',
      averagePrice: null,
      lowestPrice: null,
      highestPrice: null,
      volume: 0,
    });
    expect(months[11]).toMatchObject({ volume: 2 });
  });
});
