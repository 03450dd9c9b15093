/**
 * The chat room's unit price (docs/product.md#chat): it starts at a configured base and rises with the room's
 * messages in the last minute, one base step for every `MESSAGES_PER_STEP` of them, so a busy room costs more and a
 * calm one falls back to the base as its messages age out of the minute.
 */

/** The window the price looks back over. */
export const CHAT_PRICE_WINDOW_MS = 60_000;

/** Each this many messages in the window add one base price to the unit price. */
export const MESSAGES_PER_STEP = 10;

/** The unit price, in cents, with `recent` messages sent in the last minute. */
export function chatUnitPrice(base: number, recent: number): number {
  return base * (1 + Math.floor(Math.max(0, recent) / MESSAGES_PER_STEP));
}
