import { describe, expect, it } from 'vitest';
import { DEFAULT_REACTION_TEXT, cleanAmountInput, parseReactionAmount } from './amount';

describe('the reaction amount', () => {
  it('defaults to 0.15', () => {
    expect(DEFAULT_REACTION_TEXT).toBe('0.15');
    expect(parseReactionAmount(DEFAULT_REACTION_TEXT)).toEqual({ cents: 15 });
  });

  it('reads decimal dollars with a point or a comma', () => {
    expect(parseReactionAmount('1')).toEqual({ cents: 100 });
    expect(parseReactionAmount('1.5')).toEqual({ cents: 150 });
    expect(parseReactionAmount('2,25')).toEqual({ cents: 225 });
    expect(parseReactionAmount('.01')).toEqual({ cents: 1 });
  });

  it("refuses '0.00', nothing and text", () => {
    expect(parseReactionAmount('0.00')).toHaveProperty('error');
    expect(parseReactionAmount('0')).toHaveProperty('error');
    expect(parseReactionAmount('')).toHaveProperty('error');
    expect(parseReactionAmount('abc')).toHaveProperty('error');
    expect(parseReactionAmount('1.234')).toHaveProperty('error');
  });

  it('keeps digits and one point, a comma turned into it, two decimals at most', () => {
    expect(cleanAmountInput('1,234')).toBe('1.23');
    expect(cleanAmountInput('a1b.5.6')).toBe('1.56');
    expect(cleanAmountInput('-3')).toBe('3');
  });
});
