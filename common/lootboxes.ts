/** The lootbox rules both sides use (docs/product.md#lootboxes). */

/** A key costs $1. */
export const KEY_PRICE_CENTS = 100;
/** One purchase buys 1 to 99 keys. */
export const MAX_KEYS_PER_PURCHASE = 99;
/** Unopened boxes a user may hold; getting a box is free. */
export const MAX_LOOTBOXES = 10;
