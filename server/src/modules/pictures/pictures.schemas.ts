import { Type, type Static } from 'typebox';
import { MAX_TOPUP_CENTS } from '../../../../common/constants';
import { Message, FieldErrors } from '../../http/schemas';

export { Message, FieldErrors };

/** Any price on the wall: whole cents, above zero, at most six digits of dollars (SPEC §5 "Money entry"). */
export const MAX_PICTURE_CENTS = MAX_TOPUP_CENTS;
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
/** Deep offsets cost a walk down an index; past this a client should not need to go by scrolling. */
export const MAX_OFFSET = 1_000_000;
export const MAX_TITLE = 100;

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/**
 * Numbers in a URL are matched as digits: ajv would coerce "1e400" to Infinity and let it past `maximum`.
 * Routes turn them into numbers with `Number()`.
 */
const Digits = (max: number, description: string) => Type.String({ pattern: `^[0-9]{1,${max}}$`, description });

export const Missing = Type.Object({ missing: Type.Integer() });

export const Purchase = Type.Object({ amount: Type.Integer(), paidOn: Type.String() });

export const Picture = Type.Object({
  id: Type.Integer(),
  authorId: Type.Integer(),
  authorName: Type.String(),
  authorProfileImgId: Type.Union([Type.Integer(), Type.Null()]),
  authorProfileUrl: Type.Union([Type.String(), Type.Null()]),
  url: Type.String(),
  title: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  commentCount: Type.Integer(),
  lastAuthorPayment: Type.String(),
  /** The newest purchases (at most RECENT_PURCHASES), oldest first. */
  purchases: Type.Array(Purchase),
  /** Every older purchase folded into one figure (common/trending.ts); null when there are none. */
  earlierPurchases: Type.Union([
    Type.Object({ count: Type.Integer(), amount: Type.Integer(), score: Type.Number(), at: Type.String() }),
    Type.Null(),
  ]),
  purchaseCount: Type.Integer(),
  totalAmount: Type.Integer(),
  createdOn: Type.String(),
  /** The score when the answer was made; the client recomputes it every second from the two fields above. */
  trendingScore: Type.Number(),
});
export type Picture = Static<typeof Picture>;

export const ListQuery = Type.Object({
  sort: Type.Optional(Type.Union([Type.Literal('top'), Type.Literal('trending'), Type.Literal('profile')])),
  authorId: Type.Optional(Digits(15, 'user id')),
  offset: Type.Optional(Digits(7, `0 to ${MAX_OFFSET}`)),
  limit: Type.Optional(Digits(3, `1 to ${MAX_PAGE}`)),
});

export const IdParams = Type.Object({ id: Digits(15, 'picture id') });

export const FundBody = Type.Object({
  imageId: Id,
  amount: Type.Integer({ minimum: 1, maximum: MAX_PICTURE_CENTS }),
  /** The client's view of its balance: carried by the spec's payload, never trusted (DESIGN.md §3). */
  balance: Type.Optional(Type.Unknown()),
});

export const ProfileImageQuery = Type.Object({ imageId: Digits(15, 'picture id') });
export const ProfileImageAnswer = Type.Object({ profileImageUrl: Type.String() });
export const UrlAnswer = Type.Object({ url: Type.String() });
export const ImageParams = Type.Object({ key: Type.String({ maxLength: 80 }) });
