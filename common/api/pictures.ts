import { Type, type Static } from 'typebox';
import { MAX_TOPUP_CENTS } from '../constants';
import { Digits, Nullable, paidAnswer, UrlAnswer } from './shared';

/** Any price on the wall: whole cents, above zero, at most six digits of dollars (docs/product.md#funding). */
export const MAX_PICTURE_CENTS = MAX_TOPUP_CENTS;
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
/** Deep offsets cost a walk down an index; past this a client should not need to go by scrolling. */
export const MAX_OFFSET = 1_000_000;
export const MAX_TITLE = 100;

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const Purchase = Type.Object({ amount: Type.Integer(), paidOn: Type.String() });

/** docs/product.md#wall, plus the figures the client ranks with. */
export const Picture = Type.Object({
  id: Type.Integer(),
  authorId: Type.Integer(),
  authorName: Type.String(),
  authorProfileImgId: Nullable(Type.Integer()),
  authorProfileUrl: Nullable(Type.String()),
  url: Type.String(),
  title: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  /**
   * The picture at a few widths, as `srcset` lists (`<url> <width>w, …`) per format, best first: AVIF, WebP, and
   * JPEG for browsers without either. Null for a picture uploaded before variants existed: `url` alone then
   * (docs/decisions.md "Issue 28, item 4: responsive images").
   */
  sources: Nullable(Type.Object({ avif: Type.String(), webp: Type.String(), jpeg: Type.String() })),
  /** A ThumbHash of the picture (base64, about 25 bytes), painted blurred until the file arrives; null when none. */
  placeholder: Nullable(Type.String()),
  commentCount: Type.Integer(),
  lastAuthorPayment: Type.String(),
  /** The newest purchases (at most RECENT_PURCHASES), oldest first. */
  purchases: Type.Array(Purchase),
  /** Every older purchase folded into one figure (common/trending.ts); null when there are none. */
  earlierPurchases: Nullable(
    Type.Object({ count: Type.Integer(), amount: Type.Integer(), score: Type.Number(), at: Type.String() }),
  ),
  purchaseCount: Type.Integer(),
  totalAmount: Type.Integer(),
  createdOn: Type.String(),
  /** The score when the answer was made; the client recomputes it every second from the two fields above. */
  trendingScore: Type.Number(),
});
export type Picture = Static<typeof Picture>;

export const PictureList = Type.Array(Picture);

export const WallSort = Type.Union([Type.Literal('top'), Type.Literal('trending'), Type.Literal('profile')]);
export type WallSort = Static<typeof WallSort>;

/** GET /api/pictures */
export const ListQuery = Type.Object({
  sort: Type.Optional(WallSort),
  authorId: Type.Optional(Digits(15, 'user id')),
  offset: Type.Optional(Digits(7, `0 to ${MAX_OFFSET}`)),
  limit: Type.Optional(Digits(3, `1 to ${MAX_PAGE}`)),
});
export type ListQuery = Static<typeof ListQuery>;

export const IdParams = Type.Object({ id: Digits(15, 'picture id') });

/** POST /api/payment/checkout-with-image-fund */
export const FundBody = Type.Object({
  imageId: Id,
  amount: Type.Integer({ minimum: 1, maximum: MAX_PICTURE_CENTS }),
  /** The client's view of its balance: carried by the API's payload, never trusted (docs/product.md#money). */
  balance: Type.Optional(Type.Unknown()),
});
export type FundBody = Static<typeof FundBody>;
/** 200 of a funding: the picture after it, and the payer's balance. */
export const FundAnswer = paidAnswer(Picture);
export type FundAnswer = Static<typeof FundAnswer>;

/** POST /api/payment/checkout-with-image-upload (multipart: file, amount, title) answers the new picture's page. */
export const UploadFields = Type.Object({
  file: Type.String({ format: 'binary', description: 'The picture: JPEG, PNG, WebP or GIF, at most 4 MiB' }),
  amount: Type.String({
    pattern: '^[1-9][0-9]{0,5}00$',
    description: 'The price in cents: whole dollars (1 to 999,999) times 100, digits only (common/upload-rules.ts)',
  }),
  title: Type.Optional(Type.String({ maxLength: MAX_TITLE })),
});
/** 200 of an upload: the new picture's page, and the uploader's balance. */
export const UploadAnswer = paidAnswer(UrlAnswer);
export type UploadAnswer = Static<typeof UploadAnswer>;

/** Any text: a key that names no stored file is a 404 like any other miss, whatever its length (issue 22, item 21). */
export const ImageParams = Type.Object({
  key: Type.String({
    description: 'A storage key: 64 hex digits, for a variant a dash and its width, a dot and the extension',
  }),
});
