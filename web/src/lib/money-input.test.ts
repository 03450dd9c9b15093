import { describe, expect, it } from 'vitest';
import { cleanDollarInput, dollarsToCents, isBlockedAmountKey, suggestedDollars } from './money-input';

describe('add money input', () => {
  it('blocks the minus, e and plus keys', () => {
    for (const key of ['-', 'e', 'E', '+']) expect(isBlockedAmountKey(key)).toBe(true);
    expect(isBlockedAmountKey('5')).toBe(false);
    expect(isBlockedAmountKey('Backspace')).toBe(false);
  });

  it('keeps digits only, at most six', () => {
    expect(cleanDollarInput('12a3')).toBe('123');
    expect(cleanDollarInput('-5')).toBe('5');
    expect(cleanDollarInput('1234567')).toBe('123456');
    expect(cleanDollarInput('007')).toBe('7');
  });

  it('sends whole dollars as cents and refuses nothing or zero', () => {
    expect(dollarsToCents('5')).toBe(500);
    expect(dollarsToCents('999999')).toBe(99_999_900);
    expect(dollarsToCents('0')).toBeUndefined();
    expect(dollarsToCents('')).toBeUndefined();
    expect(dollarsToCents('1.5')).toBeUndefined();
  });

  it('suggests $5 by default and the shortfall rounded up to whole dollars', () => {
    expect(suggestedDollars()).toBe(5);
    expect(suggestedDollars(15)).toBe(1);
    expect(suggestedDollars(101)).toBe(2);
    expect(suggestedDollars(300)).toBe(3);
  });
});
