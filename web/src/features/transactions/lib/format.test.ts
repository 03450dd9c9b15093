import { describe, expect, it } from 'vitest';
import { amountClass, asTransactionType, firstColumnOf, linkOf, shortMessage } from './format';

const row = (resourceId: string | null) => ({ id: 1, time: '', payAmount: -5, resourceId, resourcePreview: null });

describe('the statement’s formatting', () => {
  it('knows the types the server answers', () => {
    expect(asTransactionType('KEY')).toBe('KEY');
    expect(asTransactionType('key')).toBeUndefined();
  });

  it('cuts chat messages longer than 10 characters to 8 and ...', () => {
    expect(shortMessage('0123456789')).toBe('0123456789');
    expect(shortMessage('0123456789a')).toBe('01234567...');
    expect(shortMessage('🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂')).toBe('🙂🙂🙂🙂🙂🙂🙂🙂...');
  });

  it('names the first column and links pictures and items', () => {
    expect(firstColumnOf('IMAGE')).toBe('Preview');
    expect(firstColumnOf('ITEM_BUY')).toBe('Item');
    expect(firstColumnOf('CHAT_MESSAGE')).toBe('Message');
    expect(linkOf('IMAGE', row('12'))).toBe('/image/profile/12');
    expect(linkOf('ITEM_SELL', row('COMMON_LETTER_A'))).toBe('/items-detail/COMMON_LETTER_A/graph');
    expect(linkOf('CHAT_MESSAGE', row('3'))).toBeUndefined();
    expect(linkOf('IMAGE', row(null))).toBeUndefined();
  });

  it('colours spent red and received green', () => {
    expect(amountClass(-1)).toContain('negative');
    expect(amountClass(1)).toContain('positive');
  });
});
