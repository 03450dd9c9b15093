import { describe, expect, it } from 'vitest';
import { GOODWILL_STATUS_LABELS } from './goodwill';
import { ITEMS, itemName } from './items';

describe('itemName', () => {
  it('names a letter and an emoji from the catalogue', () => {
    expect(itemName('COMMON_LETTER_F')).toBe('Letter F');
    expect(itemName('UNCOMMON_EMOJI_HEART')).toBe('Red heart');
    expect(itemName('ELUSIVE_EMOJI_FOUR_LEAF_CLOVER')).toBe('Four leaf clover');
  });

  it('never answers a code: every item has a name in words, and an unknown code reads as unknown', () => {
    for (const item of ITEMS) expect(itemName(item.itemType)).not.toMatch(/[A-Z]+_[A-Z_]+/);
    expect(itemName('RARE_EMOJI_NOTHING')).toBe('Unknown item');
  });
});

describe('goodwill status labels', () => {
  it('read in words', () => {
    expect(GOODWILL_STATUS_LABELS.PENDING).toBe('Waiting to be forwarded');
    expect(GOODWILL_STATUS_LABELS.FORWARDED).toBe('Forwarded');
  });
});
