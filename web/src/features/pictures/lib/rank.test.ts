import { describe, expect, it } from 'vitest';
import { at, now, picture } from './picture.fixture';
import { applyFund, priceTagWidth, rank, rerankBatches } from './rank';

describe('a live fund message', () => {
  it('adds the amount and the purchase to the picture', () => {
    const p = applyFund(picture(1, 100), { pictureId: 1, authorFund: false, fundAmount: 300, fundOn: at(30) });
    expect(p.totalAmount).toBe(400);
    expect(p.purchases).toHaveLength(2);
    expect(p.lastAuthorPayment).toBe(at(0));
  });

  it("moves the author's last payment when the author paid", () => {
    const p = applyFund(picture(1, 100), { pictureId: 1, authorFund: true, fundAmount: 300, fundOn: at(30) });
    expect(p.lastAuthorPayment).toBe(at(30));
  });

  it('changes nothing when the purchase is already counted (the funder saw the answer first)', () => {
    const counted = picture(1, 100, 30);
    expect(applyFund(counted, { pictureId: 1, authorFund: false, fundAmount: 100, fundOn: at(30) })).toBe(counted);
  });
});

describe('ranking in the browser', () => {
  it('orders the top list by total, then newest', () => {
    const list = [picture(1, 100, 0), picture(2, 500, 0), picture(3, 100, 10)];
    expect(rank(list, 'top', now).map((p) => p.id)).toEqual([2, 3, 1]);
  });

  it('orders trending by the score now, so recent money beats more old money', () => {
    const list = [picture(1, 1000, 0), picture(2, 300, 59)];
    expect(rank(list, 'trending', now).map((p) => p.id)).toEqual([2, 1]);
  });

  it("orders a profile by the author's last payment", () => {
    const list = [picture(1, 900, 5), picture(2, 100, 50)];
    expect(rank(list, 'profile', now).map((p) => p.id)).toEqual([2, 1]);
  });

  it('re-ranks loaded batches in place, keeping their sizes and offsets', () => {
    const batches = [
      { offset: 0, limit: 3, items: [picture(1, 900), picture(2, 800), picture(3, 700)] },
      { offset: 3, limit: 2, items: [picture(4, 5000), picture(5, 600)] },
    ];
    const out = rerankBatches(batches, 'top', now);
    expect(out.map((b) => [b.offset, b.items.map((p) => p.id)])).toEqual([
      [0, [4, 1, 2]],
      [3, [3, 5]],
    ]);
  });
});

describe('the price tag width', () => {
  it('is 15 times the natural log of the amount, with room for the text of small amounts', () => {
    expect(priceTagWidth(100_000_000)).toBe(Math.round(15 * Math.log(100_000_000)));
    expect(priceTagWidth(1_000_000)).toBe(207);
    expect(priceTagWidth(100)).toBe(69);
    expect(priceTagWidth(1)).toBe(64);
  });
});
