import { objectOrEmptyArray } from '../domain/wire-rules.js';

/*
 * The shared pieces of the JSON column codecs. Each JSON column has its codec in its repository
 * (`*.repository.ts`), built from these, so that no service ever sees a column's text.
 */

/**
 * The value a JSON column's text holds, or undefined when the text is not JSON (a row written by
 * hand or by an older version): each codec reads that as its "none". Only the parse's own refusal
 * is taken for that; anything else is thrown.
 */
export function parseJsonColumn(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** True for a JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses a JSON object column; `[]` for an empty or unreadable one. */
export function jsonObjectColumn(text: string | null): Record<string, unknown> | [] {
  if (!text || text === '{}' || text === '[]') return [];
  const value = parseJsonColumn(text);
  return isJsonObject(value) ? objectOrEmptyArray(value) : [];
}
