import { Type, type Static } from 'typebox';
import { TIERS } from '../items';
import { MAX_KEYS_PER_PURCHASE } from '../lootboxes';
import { Digits, Nullable, paidAnswer } from './shared';

/** POST /api/purchase/key */
export const KeyPurchaseBody = Type.Object({
  keyCount: Type.Integer({ minimum: 1, maximum: MAX_KEYS_PER_PURCHASE }),
  /** The client's view of its balance: carried by the API's payload, never trusted (docs/product.md#money). */
  balance: Type.Optional(Type.Unknown()),
});
export type KeyPurchaseBody = Static<typeof KeyPurchaseBody>;
export const KeyCountAnswer = paidAnswer(Type.Object({ keyCount: Type.Integer() }));
export type KeyCountAnswer = Static<typeof KeyCountAnswer>;

/** POST /api/purchase/lootbox: one free box. */
export const LootBoxCountAnswer = Type.Object({ lootBoxCount: Type.Integer() });
export type LootBoxCountAnswer = Static<typeof LootBoxCountAnswer>;

/** POST /api/open/lootbox (docs/product.md#lootboxes). */
export const LootboxResult = Type.Object({
  lootSequence: Type.Array(Type.String()),
  /** L or R per item: which end of the row each is revealed from. */
  openSequence: Type.String({ pattern: '^[LR]*$' }),
  lootFound: Type.Boolean(),
  /** Beyond the three of docs/product.md#lootboxes: the opening's id and nonce (its entry on the fairness page) and the counters after it. */
  openingId: Type.Integer(),
  nonce: Type.Integer(),
  keyCount: Type.Integer(),
  lootBoxCount: Type.Integer(),
});
export type LootboxResult = Static<typeof LootboxResult>;

/** Calls that take nothing (the client sends `{}` or no body). */
export const EmptyBody = Type.Unknown();
export const Done = Type.Object({});

const TierName = Type.Enum(TIERS);
export const Weights = Type.Object({
  LETTER: Type.Integer(),
  UNCOMMON: Type.Integer(),
  RARE: Type.Integer(),
  EPIC: Type.Integer(),
  ELUSIVE: Type.Integer(),
});

/** GET /api/lootbox/odds (public): the weights of the next opening and the items each tier draws from. */
export const Odds = Type.Object({
  oddsVersion: Type.Integer(),
  total: Type.Integer(),
  /** Elusive units on sale, which set the elusive weight: floor(100000 / (1 + elusiveOnSale)). */
  elusiveOnSale: Type.Integer(),
  tiers: Type.Array(Type.Object({ rarity: TierName, weight: Type.Integer(), items: Type.Array(Type.String()) })),
});
export type Odds = Static<typeof Odds>;

/** GET and PUT /api/lootbox/fairness */
export const Fairness = Type.Object({
  serverSeedHash: Type.String(),
  clientSeed: Type.String(),
  nonce: Type.Integer(),
});
export type Fairness = Static<typeof Fairness>;
/** 1 to 64 printable ASCII characters (0x21–0x7E), taken as typed. */
export const ClientSeedBody = Type.Object({ clientSeed: Type.String() });
export type ClientSeedBody = Static<typeof ClientSeedBody>;

/** POST /api/lootbox/fairness/rotate: the old seed revealed, a new one committed to. */
export const Rotation = Type.Object({
  previousServerSeed: Type.String(),
  previousServerSeedHash: Type.String(),
  serverSeedHash: Type.String(),
  clientSeed: Type.String(),
  nonce: Type.Literal(0),
});
export type Rotation = Static<typeof Rotation>;

/** GET /api/lootbox/openings: the caller's openings, newest first, `limit` at a time before the id `before`. */
export const OpeningsQuery = Type.Object({
  limit: Type.Optional(Digits(3, '1 to 100, 20 by default')),
  before: Type.Optional(Digits(15, 'the id of the oldest opening already shown')),
});
export const Opening = Type.Object({
  id: Type.Integer(),
  nonce: Type.Integer(),
  clientSeed: Type.String(),
  serverSeedHash: Type.String(),
  /** Null while that seed is still in use: it is revealed by rotating. */
  serverSeed: Nullable(Type.String()),
  oddsVersion: Type.Integer(),
  weights: Weights,
  lootSequence: Type.Array(Type.String()),
  openSequence: Type.String(),
  lootFound: Type.Boolean(),
  openedOn: Type.String(),
});
export type Opening = Static<typeof Opening>;
export const OpeningList = Type.Array(Opening);
