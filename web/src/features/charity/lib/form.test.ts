import { describe, expect, it } from 'vitest';
import { amountToCents, isOffered, linkIdOf } from './form';

describe('the charity form amount', () => {
  it('is typed in dollars and sent in cents', () => {
    expect(amountToCents('12')).toBe(1200);
    expect(amountToCents('12.5')).toBe(1250);
    expect(amountToCents('12.05')).toBe(1205);
    expect(amountToCents('0.99')).toBe(99);
    expect(amountToCents('.5')).toBe(50);
    expect(amountToCents(' $1,200.00 ')).toBe(120000);
  });

  it('takes at most two decimals and nothing but a number', () => {
    for (const bad of ['', '12.345', 'abc', '-5', '1e3', '12.']) expect(amountToCents(bad)).toBeUndefined();
  });
});

describe('a dropdown with free text', () => {
  const options = ['Red Cross', 'UNICEF'];
  it('is green when the typed value is one of the offered options', () => {
    expect(isOffered('UNICEF', options)).toBe(true);
    expect(isOffered(' Red Cross ', options)).toBe(true);
  });

  it('is not green on another value, a part of one, or nothing', () => {
    expect(isOffered('Red', options)).toBe(false);
    expect(isOffered('unicef', options)).toBe(false);
    expect(isOffered('', options)).toBe(false);
    expect(isOffered('UNICEF', undefined)).toBe(false);
  });
});

describe('the charity link id', () => {
  it('is a whole number', () => {
    expect(linkIdOf('42')).toBe(42);
    expect(linkIdOf('4.2')).toBeUndefined();
    expect(linkIdOf('')).toBeUndefined();
  });
});
