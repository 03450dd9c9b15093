/** Web Push's rules both sides use (docs/product.md#push). */

/** The kinds of push a user can switch on and off, each on by default (/notifications' "Push" section). */
export const PUSH_TYPES = [
  'COMMENT',
  'REACTION',
  'PIN',
  'ITEM_SOLD',
  'ITEM_BOUGHT',
  'CHARITY',
  'GOODWILL',
  'CHAT',
] as const;
export type PushType = (typeof PUSH_TYPES)[number];

/** What each switch is called on /notifications. */
export const PUSH_TYPE_LABELS: Record<PushType, string> = {
  COMMENT: 'Comments and replies',
  REACTION: 'Reactions',
  PIN: 'Pins',
  ITEM_SOLD: 'Items sold',
  ITEM_BOUGHT: 'Items bought',
  CHARITY: 'Charity decisions',
  GOODWILL: 'Goodwill forwarded',
  CHAT: 'Chat missed while away',
};

/** A push's plaintext, encrypted to each of the user's devices (RFC 8291): `url` is the path that shows it. */
export interface PushMessage {
  type: PushType;
  title: string;
  body: string;
  url: string;
}

/** The longest a push's title and body may be (a push service takes about 4 KB in all). */
export const MAX_PUSH_TITLE = 100;
export const MAX_PUSH_BODY = 300;
/** The longest endpoint URL a subscription may have. */
export const MAX_PUSH_ENDPOINT = 2048;
/** How many devices one user may keep subscribed; the oldest goes when a new one comes. */
export const MAX_PUSH_DEVICES = 20;
