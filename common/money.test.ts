import { describe, expect, it } from 'vitest';
import { formatMoney, formatPrice } from './money';

describe('formatMoney', () => {
  it('shows whole dollars without decimals', () => {
    expect(formatMoney(500)).toBe('$5');
    expect(formatMoney(0)).toBe('$0');
  });

  it('shows cents only when there are some', () => {
    expect(formatMoney(1250)).toBe('$12.50');
    expect(formatMoney(1)).toBe('$0.01');
  });

  it('separates thousands', () => {
    expect(formatMoney(123_456_700)).toBe('$1,234,567');
    expect(formatMoney(123_456_789)).toBe('$1,234,567.89');
  });

  it('can always show two decimals', () => {
    expect(formatMoney(500, { decimals: 'always' })).toBe('$5.00');
  });

  it('puts the sign before the dollar', () => {
    expect(formatMoney(-1500)).toBe('-$15');
  });
});

describe('formatPrice', () => {
  it('shows amounts under a dollar in cents', () => {
    expect(formatPrice(15)).toBe('15¢');
    expect(formatPrice(100)).toBe('$1');
  });
});
