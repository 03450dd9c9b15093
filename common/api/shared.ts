import { Type, type Static, type TSchema } from 'typebox';

/**
 * Shapes every domain's answers share (DESIGN.md §2 "Errors"). The server declares its routes from these schemas;
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

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Numbers in a URL are matched as digits: a numeric schema would let "1e400" through as Infinity. Routes turn them
 * into numbers with `Number()`.
 */
export const Digits = (max: number, description: string) => Type.String({ pattern: `^[0-9]{1,${max}}$`, description });
