import { objectOrEmptyArray } from '../domain/wire-rules.js';

/*
 * The shared pieces of the JSON column codecs. Each JSON column has its codec in its repository
 * (`*.repository.ts`), built from these, so that no service ever sees a column's text.
 */

/** Parses a JSON object column; `[]` for an empty or unreadable one. */
export function jsonObjectColumn(text: string | null): Record<string, unknown> | [] {
  if (!text || text === '{}' || text === '[]') return [];
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? objectOrEmptyArray(value as Record<string, unknown>)
      : [];
  } catch {
    return [];
  }
}
