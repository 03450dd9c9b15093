import { describe, expect, it } from 'vitest';
import {
  checkBuyOffer,
  checkSellOffer,
  clampSellQuantity,
  defaultBuyOffer,
  defaultSellPrice,
  defaultSellQuantity,
  sellQuantityInput,
} from './forms';

const offer = (price: number, quantity = 1) => ({ price, quantity, since: '2026-01-01T00:00:00.000Z' });

describe('the sell offer form', () => {
  it('starts a cent under the market sell price, at $1 when nobody sells, never under 1¢', () => {
    expect(defaultSellPrice(250)).toBe(249);
    expect(defaultSellPrice(null)).toBe(100);
    expect(defaultSellPrice(1)).toBe(1);
  });

  it('starts with all owned units but one, at least one', () => {
    expect(defaultSellQuantity(5)).toBe(4);
    expect(defaultSellQuantity(2)).toBe(1);
    expect(defaultSellQuantity(1)).toBe(1);
    expect(defaultSellQuantity(0)).toBe(1);
  });

  it('holds the quantity between 1 and what is owned', () => {
    expect(clampSellQuantity(9, 3)).toBe(3);
    expect(clampSellQuantity(0, 3)).toBe(1);
    expect(clampSellQuantity(5000, 5000)).toBe(999);
    expect(sellQuantityInput('12', 4)).toBe('4');
    expect(sellQuantityInput('0', 4)).toBe('1');
    expect(sellQuantityInput('', 4)).toBe('');
    expect(sellQuantityInput('2x', 4)).toBe('2');
  });

  it('is disabled when the total is under 1¢ or not a number', () => {
    const base = { owned: 3, buyOffer: null };
    expect(checkSellOffer({ ...base, price: 0, quantity: 2 }).ok).toBe(false);
    expect(checkSellOffer({ ...base, price: undefined, quantity: 2 })).toEqual({ ok: false });
    expect(checkSellOffer({ ...base, price: 50, quantity: undefined }).ok).toBe(false);
    expect(checkSellOffer({ ...base, price: 1, quantity: 1 })).toEqual({ ok: true });
  });

  it('is disabled at or below the user’s own buy offer, saying so', () => {
    const base = { owned: 3, quantity: 1 };
    expect(checkSellOffer({ ...base, price: 150, buyOffer: offer(150) })).toEqual({
      ok: false,
      reason: 'You are buying for $1.50',
    });
    expect(checkSellOffer({ ...base, price: 100, buyOffer: offer(150) }).reason).toBe('You are buying for $1.50');
    expect(checkSellOffer({ ...base, price: 151, buyOffer: offer(150) }).ok).toBe(true);
  });

  it('is disabled without units to sell', () => {
    expect(checkSellOffer({ owned: 0, price: 100, quantity: 1, buyOffer: null }).ok).toBe(false);
  });
});

describe('the buy offer form', () => {
  const market = (bestSo: number | null, bestBo: number | null) => ({ quantity: 1, bestSo, bestBo });

  it('starts from the user’s own offer, else outbids the best buy offer, else a cent under the best sell offer', () => {
    expect(defaultBuyOffer(market(300, 200), offer(120, 4))).toEqual({ price: 120, quantity: 4 });
    expect(defaultBuyOffer(market(300, 200), null)).toEqual({ price: 201, quantity: 1 });
    expect(defaultBuyOffer(market(300, null), null)).toEqual({ price: 299, quantity: 1 });
    expect(defaultBuyOffer(market(null, null), null)).toEqual({ price: 100, quantity: 1 });
  });

  it('needs a price of at least 1¢ and at least one unit', () => {
    expect(checkBuyOffer({ price: 0, quantity: 1, sellOffer: null }).ok).toBe(false);
    expect(checkBuyOffer({ price: 1, quantity: 0, sellOffer: null }).ok).toBe(false);
    expect(checkBuyOffer({ price: undefined, quantity: 1, sellOffer: null }).ok).toBe(false);
    expect(checkBuyOffer({ price: 1, quantity: 1, sellOffer: null })).toEqual({ ok: true });
  });

  it('is disabled at or above the user’s own sell price, saying so', () => {
    expect(checkBuyOffer({ price: 300, quantity: 1, sellOffer: offer(300) })).toEqual({
      ok: false,
      reason: 'You are selling for $3',
    });
    expect(checkBuyOffer({ price: 299, quantity: 1, sellOffer: offer(300) }).ok).toBe(true);
  });

  it('refuses a price past the largest', () => {
    expect(checkBuyOffer({ price: 100_000_000, quantity: 1, sellOffer: null }).reason).toBe(
      'The price is at most $999,999',
    );
  });
});
