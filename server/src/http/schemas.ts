import { Type } from 'typebox';

/** Response schemas every module shares (DESIGN.md §2 "Errors"). */
export const Message = Type.Object({ message: Type.String() });

/** The 400 answer: a list of {field, errorText}, each shown under its field. */
export const FieldErrors = Type.Array(Type.Object({ field: Type.String(), errorText: Type.String() }));
