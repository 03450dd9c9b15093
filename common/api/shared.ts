import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';

/**
 * Shapes every domain's answers share (docs/product.md#errors). The server declares its routes from these schemas;
 * the web client imports only their types (`import type`), so no schema code reaches the browser bundle.
 */
export const Message = Type.Object({ message: Type.String() });
export type Message = Static<typeof Message>;

/** The 400 answer: a list of {field, errorText}, each shown under its field. */
export const FieldErrors = Type.Array(Type.Object({ field: Type.String(), errorText: Type.String() }));
export type FieldErrors = Static<typeof FieldErrors>;

/** 402: what the balance is short of, in cents; the client opens the top-up popup with it. */
export const Missing = Type.Object({ missing: Type.Integer() });
export type Missing = Static<typeof Missing>;

export const UrlAnswer = Type.Object({ url: Type.String() });
export type UrlAnswer = Static<typeof UrlAnswer>;

/**
 * What every paid answer carries (docs/decisions.md, "Issue 23, item 4: one wallet"): the caller's available balance
 * after the call, read in the call's transaction. Every call that spends or credits the caller's money answers it,
 * and the web client's wallet (web/src/features/wallet/) writes it into the cached profile.
 */
export const Paid = Type.Object({
  balance: Type.Integer({ description: "The caller's available balance after the call, cents" }),
});
export type Paid = Static<typeof Paid>;

/** A paid call's answer: its own fields and the balance after it (`Paid`). */
export const paidAnswer = <T extends TProperties>(answer: TObject<T>) =>
  Type.Object({ ...answer.properties, ...Paid.properties });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Numbers in a URL are matched as digits: a numeric schema would let "1e400" through as Infinity. Routes turn them
 * into numbers with `Number()`.
 */
export const Digits = (max: number, description: string) => Type.String({ pattern: `^[0-9]{1,${max}}$`, description });

/**
 * Answers an operation gives by its nature rather than by what it does (docs/product.md#errors): the server adds them
 * to every route it documents, by the rule in server/src/http/openapi.ts, so no route can forget one.
 */
export const SharedAnswers = {
  /** Any call: a NUL or a broken %-encoding in the address, or a parameter that fails its schema. */
  any: { 400: FieldErrors, 503: Message },
  /** A call that changes something, sent by another site's page (a foreign Origin). */
  crossSite: { 403: Message },
  /** A call with a body: too slow to arrive (408), too large (413), of a type the call does not read (415). */
  body: { 408: Message, 413: Message, 415: Message },
  /** A call with a rate limit. */
  limited: { 429: Message },
  /**
   * A call a suspended user may not make (the 'member' rule, docs/product.md#suspension): 403 `{message,
   * suspendedUntil}` (common/api/moderation.ts `Suspended`), or `{message}` for its other refusals.
   */
  member: {
    403: Type.Object(
      {
        message: Type.String(),
        suspendedUntil: Type.Optional(
          Nullable(Type.String({ description: 'ISO 8601: when the suspension ends; null for good' })),
        ),
      },
      {
        description:
          "Not allowed: the caller is suspended ({message, suspendedUntil}), or another user's or an admin-only " +
          "resource, or a call sent by another site's page",
      },
    ),
  },
} as const;

/** A CSV download's 200 (a file, not JSON). */
export const CsvFile = (description: string) => ({
  description,
  content: { 'text/csv': { schema: Type.String({ description: 'Comma-separated values, a header row first' }) } },
});

/** An answer without a body (a redirect, a 304), only described. */
export const NoBody = (description: string) => ({ description, type: 'null' as const });

/** An image file's 200. */
export const ImageFileAnswer = (description: string) => ({
  description,
  content: { 'image/*': { schema: Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' }) } },
});
