import { describe, expect, it } from 'vitest';
import { brandOf, pageTitle } from './brand';

describe('brand and page titles', () => {
  it('names the cash tenant The ultimate flex and the others The green app', () => {
    expect(brandOf('cash')).toMatchObject({
      title: 'The ultimate flex',
      description: 'Social network with expensive twist.',
      shortName: 'Flex',
    });
    expect(brandOf('charity')).toMatchObject({
      title: 'The green app',
      description: 'Social network with green money.',
      shortName: 'Green app',
    });
  });

  it('adds the page word on the matching pages only', () => {
    expect(pageTitle('cash', '/')).toBe('The ultimate flex');
    expect(pageTitle('cash', '/image/top/12')).toBe('The ultimate flex | Images');
    expect(pageTitle('charity', '/lootboxes')).toBe('The green app | Lootboxes');
    expect(pageTitle('cash', '/my-items')).toBe('The ultimate flex | Inventory');
    expect(pageTitle('cash', '/item-store')).toBe('The ultimate flex | Store');
    expect(pageTitle('cash', '/chat')).toBe('The ultimate flex | Chat');
    expect(pageTitle('cash', '/items-detail/COMMON_LETTER_A/item-store')).toBe('The ultimate flex');
  });
});
