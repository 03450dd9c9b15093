/** Causes a user can send half of their spending to (docs/product.md#goodwill, Goodwill payment). */
export const GOODWILL_TYPES = [
  'THIRD_COUNTRY',
  'ENVIRONMENTAL',
  'HUMAN_RIGHTS',
  'SCIENCE',
  'POLITICS',
  'OPEN_SOURCE',
] as const;
export type GoodWillType = (typeof GOODWILL_TYPES)[number];
export const DEFAULT_GOODWILL: GoodWillType = 'OPEN_SOURCE';

/** Largest top-up: six digits of whole dollars (docs/product.md#top-up). */
export const MAX_TOPUP_CENTS = 999_999 * 100;
export const DEFAULT_TOPUP_CENTS = 500;

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
