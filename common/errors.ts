/** The 400 answer of every call: a list of these, each shown under its field. */
export interface FieldError {
  field: string;
  errorText: string;
}

export const GENERIC_ERROR_TEXT = 'Something went wrong. Please try again later or contact us.';

/** 507: a write found the server's disk full. The transaction it was part of rolled back, so nothing moved. */
export const OUT_OF_SPACE_TEXT =
  'The server has run out of storage space, so nothing was saved and nothing was charged. Please try again later.';
