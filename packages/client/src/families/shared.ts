import { AssayError } from '../errors.js';
import type { Transport } from '../transport.js';

/** A path segment: ids and names are percent-encoded, so no value can change the path. */
export const seg = (value: string) => encodeURIComponent(value);

/** The answer of a dupecheck: whether the value is already taken. */
export interface DupecheckResult {
  /** true when the value is taken (the API answered `ERROR`), false when it is free (`OK`). */
  duplicate: boolean;
}

/**
 * POST …/dupecheck `{ value }`. The body always has the key `value`: any other key would silently
 * answer `OK` (a false negative, as the interface warns).
 */
export async function dupecheck(http: Transport, path: string, value: string): Promise<DupecheckResult> {
  try {
    await http.call('POST', path, undefined, { body: { json: { value } } });
    return { duplicate: false };
  } catch (error) {
    if (error instanceof AssayError) return { duplicate: true };
    throw error;
  }
}

/** Calls whose success is the empty string resolve to nothing. */
export const nothing = (): undefined => undefined;
