// NUL cannot be stored in a PostgreSQL text column, and a lone surrogate is not Unicode at all:
// such strings are refused at the edge rather than failing (or being altered) in the database.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string can be stored and read back unchanged on both engines. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}
