import { describe, expect, it } from 'vitest';
import { cleanPriceInput, cleanQuantityInput, dollarsText, parseDollars, parseQuantity } from './dollars';

describe('prices typed in dollars', () => {
  it('reads whole dollars, cents and a comma as the point', () => {
    expect(parseDollars('1')).toBe(100);
    expect(parseDollars('0.99')).toBe(99);
    expect(parseDollars('12.5')).toBe(1250);
    expect(parseDollars('12,05')).toBe(1205);
    expect(parseDollars('.5')).toBe(50);
    expect(parseDollars('3.')).toBe(300);
    expect(parseDollars('0')).toBe(0);
  });

  it('refuses what is not a number', () => {
    for (const text of ['', '.', 'abc', '1.234', '1.2.3', '-1', '1234567']) expect(parseDollars(text)).toBeUndefined();
  });

  it('keeps digits and one point, two decimals and six whole digits at most', () => {
    expect(cleanPriceInput('$1,50')).toBe('1.50');
    expect(cleanPriceInput('1.999')).toBe('1.99');
    expect(cleanPriceInput('1.2.3')).toBe('1.23');
    expect(cleanPriceInput('12345678')).toBe('123456');
    expect(cleanPriceInput('-5e')).toBe('5');
  });

  it('shows a price as the field holds it', () => {
    expect(dollarsText(100)).toBe('1');
    expect(dollarsText(99)).toBe('0.99');
    expect(dollarsText(1250)).toBe('12.50');
    expect(dollarsText(1)).toBe('0.01');
    expect(parseDollars(dollarsText(123_456_78))).toBe(123_456_78);
  });
});

describe('quantities', () => {
  it('keeps digits only, three at most', () => {
    expect(cleanQuantityInput('12a')).toBe('12');
    expect(cleanQuantityInput('12345')).toBe('123');
    expect(parseQuantity('7')).toBe(7);
    expect(parseQuantity('')).toBeUndefined();
  });
});
