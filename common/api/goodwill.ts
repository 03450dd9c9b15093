import { Type, type Static } from 'typebox';
import { GOODWILL_CSV_NAME, GOODWILL_PAGE_MAX } from '../goodwill';
import { CsvFile, Digits, Nullable } from './shared';

/** One of the six causes of docs/product.md#goodwill; anything else is a 400. */
export const GoodWillType = Type.Union([
  Type.Literal('THIRD_COUNTRY'),
  Type.Literal('ENVIRONMENTAL'),
  Type.Literal('HUMAN_RIGHTS'),
  Type.Literal('SCIENCE'),
  Type.Literal('POLITICS'),
  Type.Literal('OPEN_SOURCE'),
]);
export type GoodWillType = Static<typeof GoodWillType>;

/** GET /api/user/good-will: the chosen cause, or the default until one is chosen. */
export const GoodWillValue = Type.Object({ value: GoodWillType });
export type GoodWillValue = Static<typeof GoodWillValue>;

/** POST /api/user/good-will. */
export const GoodWillBody = Type.Object({ goodWill: GoodWillType });
export type GoodWillBody = Static<typeof GoodWillBody>;

/** GET /api/user/good-will/payments: newest first, `beforeId` pages back. */
export const GoodWillPaymentsQuery = Type.Object({
  beforeId: Type.Optional(Digits(15, 'Payments older than this id')),
  limit: Type.Optional(Digits(3, `At most ${GOODWILL_PAGE_MAX}`)),
});
export type GoodWillPaymentsQuery = Static<typeof GoodWillPaymentsQuery>;

/** One share of one spend: half of it (rounded down), to the cause chosen at the moment of the spend. */
export const GoodWillPayment = Type.Object({
  id: Type.Integer(),
  /** Cents. */
  amount: Type.Integer(),
  goodWillType: GoodWillType,
  paidOn: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('FORWARDED')]),
  /** The reference of the batch that forwarded it; null while pending. */
  reference: Nullable(Type.String()),
});
export type GoodWillPayment = Static<typeof GoodWillPayment>;

export const GoodWillPayments = Type.Array(GoodWillPayment);
export type GoodWillPayments = Static<typeof GoodWillPayments>;

/** GET /api/good-will/totals (public): per cause, cents paid in, waiting to be forwarded, and forwarded. */
export const GoodWillTotals = Type.Object({
  causes: Type.Array(
    Type.Object({
      cause: GoodWillType,
      paidIn: Type.Integer(),
      pending: Type.Integer(),
      forwarded: Type.Integer(),
    }),
  ),
});
export type GoodWillTotals = Static<typeof GoodWillTotals>;

/** GET /api/good-will/payments (public): the CSV of forwarded batches. */
export const GoodWillCsv = CsvFile(
  `Every forwarded batch, as ${GOODWILL_CSV_NAME}: batchId,cause,amount,forwardedOn,reference`,
);
