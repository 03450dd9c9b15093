import { describe, expect, it } from 'vitest';
import type { ItemDetails } from '../../../../../common/api/items';
import { ITEMS } from '../../../../../common/items';
import { firstTab } from './detail';
import { detailPath, matchesSearch, parseSort, sortItems, visibleItems, type Sort } from './sort';

/** An item of the catalogue as GET /api/items/details answers it. */
function item(
  itemType: string,
  opts: { owned?: number; market?: number; bestSo?: number | null; bestBo?: number | null } = {},
): ItemDetails {
  const found = ITEMS.find((i) => i.itemType === itemType)!;
  return {
    itemType,
    emoji: found.emoji,
    name: found.name,
    rarity: found.rarity,
    market: { quantity: opts.market ?? 0, bestSo: opts.bestSo ?? null, bestBo: opts.bestBo ?? null },
    user: { quantity: opts.owned ?? 0, sellOffer: null, buyOffer: null },
  };
}

const A = item('COMMON_LETTER_A', { owned: 3, market: 2, bestSo: 150, bestBo: 90 });
const B = item('COMMON_LETTER_B', { owned: 1, market: 5, bestSo: 120 });
const ROCKET = item('RARE_EMOJI_ROCKET', { owned: 1, market: 2, bestBo: 300 });
const CROWN = item('EPIC_EMOJI_CROWN', { market: 1, bestSo: 900, bestBo: 500 });
const UNICORN = item('ELUSIVE_EMOJI_UNICORN', { owned: 1 });
const ALL = [A, B, ROCKET, CROWN, UNICORN];
const names = (list: ItemDetails[]) => list.map((i) => i.name);
const sorted = (sort: Sort | null, view: 'my-items' | 'item-store' = 'item-store') => names(sortItems(ALL, sort, view));

describe('the default orders', () => {
  it('put owned items last in the store, each group by name', () => {
    expect(sorted(null, 'item-store')).toEqual(['Crown', 'Letter A', 'Letter B', 'Rocket', 'Unicorn']);
    expect(names(sortItems([UNICORN, CROWN, A], null, 'item-store'))).toEqual(['Crown', 'Letter A', 'Unicorn']);
  });

  it('put rare items first in the inventory, ties by name', () => {
    expect(names(visibleItems(ALL, 'my-items', '', null))).toEqual(['Unicorn', 'Rocket', 'Letter A', 'Letter B']);
  });
});

describe('sorting by a field', () => {
  it("sorts by the user's quantity, ties broken by rarity (rarer first), then by name", () => {
    expect(sorted({ field: 'owned', direction: 'desc' })).toEqual([
      'Letter A',
      'Unicorn',
      'Rocket',
      'Letter B',
      'Crown',
    ]);
    expect(sorted({ field: 'owned', direction: 'asc' })).toEqual([
      'Crown',
      'Unicorn',
      'Rocket',
      'Letter B',
      'Letter A',
    ]);
  });

  it('sorts by market quantity', () => {
    expect(sorted({ field: 'market', direction: 'desc' })).toEqual([
      'Letter B',
      'Rocket',
      'Letter A',
      'Crown',
      'Unicorn',
    ]);
  });

  it('sorts by the best sell and buy offers, items without an offer last either way', () => {
    expect(sorted({ field: 'sellOffer', direction: 'asc' })).toEqual([
      'Letter B',
      'Letter A',
      'Crown',
      'Unicorn',
      'Rocket',
    ]);
    expect(sorted({ field: 'sellOffer', direction: 'desc' })).toEqual([
      'Crown',
      'Letter A',
      'Letter B',
      'Unicorn',
      'Rocket',
    ]);
    expect(sorted({ field: 'buyOffer', direction: 'desc' })).toEqual([
      'Crown',
      'Rocket',
      'Letter A',
      'Unicorn',
      'Letter B',
    ]);
  });

  it('sorts by the alphabet both ways', () => {
    expect(sorted({ field: 'alphabet', direction: 'asc' })).toEqual([
      'Crown',
      'Letter A',
      'Letter B',
      'Rocket',
      'Unicorn',
    ]);
    expect(sorted({ field: 'alphabet', direction: 'desc' })).toEqual([
      'Unicorn',
      'Rocket',
      'Letter B',
      'Letter A',
      'Crown',
    ]);
  });

  it('does not change the list it was given', () => {
    const copy = [...ALL];
    sortItems(ALL, { field: 'alphabet', direction: 'desc' }, 'item-store');
    expect(ALL).toEqual(copy);
  });
});

describe('searching', () => {
  it('matches a part of the name, ignoring case and surrounding spaces', () => {
    expect(names(visibleItems(ALL, 'item-store', '  rOCK ', null))).toEqual(['Rocket']);
    expect(names(visibleItems(ALL, 'item-store', 'letter', null))).toEqual(['Letter A', 'Letter B']);
  });

  it('matches the emoji itself and the name of a rarity', () => {
    expect(matchesSearch(ROCKET, '🚀')).toBe(true);
    expect(names(visibleItems(ALL, 'item-store', 'epic', null))).toEqual(['Crown']);
  });

  it('finds nothing for text no item has, and only owned items in the inventory', () => {
    expect(visibleItems(ALL, 'item-store', 'zzz', null)).toEqual([]);
    expect(visibleItems(ALL, 'my-items', 'crown', null)).toEqual([]);
  });
});

describe('the sort in the address and the item detail', () => {
  it('reads a sort from the address, ignoring anything else', () => {
    expect(parseSort('market-asc')).toEqual({ field: 'market', direction: 'asc' });
    expect(parseSort('price-up')).toBeNull();
    expect(parseSort(null)).toBeNull();
  });

  it('opens the detail on SELL from the inventory, DETAILS for graph, otherwise BUY', () => {
    expect(detailPath('COMMON_LETTER_A', 'my-items')).toBe('/items-detail/COMMON_LETTER_A/my-items');
    expect(firstTab('my-items')).toBe('SELL');
    expect(firstTab('graph')).toBe('DETAILS');
    expect(firstTab('item-store')).toBe('BUY');
    expect(firstTab('anything')).toBe('BUY');
  });
});
