import { describe, expect, it } from 'vitest';
import { MESSAGES_PER_STEP, chatUnitPrice } from './chat';
import { chatCost } from './writing';

describe('the chat unit price', () => {
  it('is the base in a calm room', () => {
    expect(chatUnitPrice(1, 0)).toBe(1);
    expect(chatUnitPrice(3, MESSAGES_PER_STEP - 1)).toBe(3);
  });

  it('rises by one base for every ten messages of the last minute', () => {
    expect(chatUnitPrice(1, MESSAGES_PER_STEP)).toBe(2);
    expect(chatUnitPrice(2, 2 * MESSAGES_PER_STEP + 5)).toBe(6);
    expect(chatUnitPrice(1, 100)).toBe(11);
  });

  it('falls back as messages age out of the minute, never below the base', () => {
    expect(chatUnitPrice(5, 10)).toBeGreaterThan(chatUnitPrice(5, 9));
    expect(chatUnitPrice(5, -3)).toBe(5);
  });

  it('prices a message per started ten characters (docs/product.md#chat)', () => {
    expect(chatCost('hi', 2)).toBe(2);
    expect(chatCost('a'.repeat(10), 2)).toBe(4);
    expect(chatCost('a'.repeat(500), 1)).toBe(51);
  });
});
