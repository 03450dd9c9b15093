import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ItemDetails } from '../../../../../common/api/items';
import type { MarketItemMessage } from '../../../../../common/market';
import { itemDetailsQuery } from '../../items/api/details';
import { applyMarketItem, applyOrderAnswer, offersKey, tradeDataKey } from './cache';

const item = (itemType: string): ItemDetails => ({
  itemType,
  emoji: 'A',
  name: itemType,
  rarity: 1,
  market: { quantity: 3, bestSo: 200, bestBo: 100 },
  user: { quantity: 2, sellOffer: null, buyOffer: null },
});

const publicMessage = (change: Partial<MarketItemMessage>): MarketItemMessage => ({
  itemType: 'A',
  marketQuantity: 0,
  marketQuantityDelta: false,
  bestSo: null,
  bestSoDelta: false,
  bestBo: null,
  bestBoDelta: false,
  ...change,
});

function setUp() {
  const client = new QueryClient();
  client.setQueryData(itemDetailsQuery.queryKey, [item('A'), item('B')]);
  const get = (type: string) => client.getQueryData(itemDetailsQuery.queryKey)!.find((i) => i.itemType === type)!;
  return { client, get };
}

describe('the market cache', () => {
  it('writes only the fields a live message flags as changed', () => {
    const { client, get } = setUp();
    applyMarketItem(
      client,
      publicMessage({ marketQuantity: 4, marketQuantityDelta: true, bestSo: 150, bestSoDelta: true }),
    );
    expect(get('A').market).toEqual({ quantity: 4, bestSo: 150, bestBo: 100 });
    expect(get('A').user).toEqual({ quantity: 2, sellOffer: null, buyOffer: null });
    expect(get('B').market).toEqual(item('B').market);
  });

  it('clears a best price that is gone', () => {
    const { client, get } = setUp();
    applyMarketItem(client, publicMessage({ bestBo: null, bestBoDelta: true }));
    expect(get('A').market.bestBo).toBeNull();
    expect(get('A').market.bestSo).toBe(200);
  });

  it('writes the user’s own fields from their own message', () => {
    const { client, get } = setUp();
    const sellOffer = { price: 190, quantity: 1, since: '2026-01-01T00:00:00.000Z' };
    applyMarketItem(
      client,
      publicMessage({
        userQuantity: 2,
        userQuantityDelta: false,
        userSellOffer: sellOffer,
        userSellOfferDelta: true,
        userBuyOffer: null,
        userBuyOfferDelta: false,
      }),
    );
    expect(get('A').user).toEqual({ quantity: 2, sellOffer, buyOffer: null });
  });

  it('marks the item’s offers lists and graphs stale, not other items’', () => {
    const { client } = setUp();
    client.setQueryData(offersKey('A', 'sell'), []);
    client.setQueryData(offersKey('B', 'sell'), []);
    client.setQueryData(tradeDataKey('A'), null);
    applyMarketItem(client, publicMessage({}));
    expect(client.getQueryState(offersKey('A', 'sell'))!.isInvalidated).toBe(true);
    expect(client.getQueryState(tradeDataKey('A'))!.isInvalidated).toBe(true);
    expect(client.getQueryState(offersKey('B', 'sell'))!.isInvalidated).toBe(false);
  });

  it('takes an order’s answer: market and position (the wallet writes its balance)', () => {
    const { client, get } = setUp();
    const buyOffer = { price: 120, quantity: 2, since: '2026-01-01T00:00:00.000Z' };
    applyOrderAnswer(client, {
      itemType: 'A',
      filled: 0,
      market: { quantity: 3, bestSo: 200, bestBo: 120 },
      user: { quantity: 2, sellOffer: null, buyOffer },
      balance: 260,
    });
    expect(get('A').market.bestBo).toBe(120);
    expect(get('A').user.buyOffer).toEqual(buyOffer);
  });
});
