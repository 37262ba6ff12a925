/**
 * Tolerant reading of single values, as the interface tells clients to read: booleans as
 * true/false, 1/0 or "1"/"0"; an empty object that may come as `[]`; dates with a space or without
 * an offset; numbers as numeric strings. Each reader returns the type the spec documents.
 */

/** true for true, 1, "1", "true", "yes", "on" (any case); false for anything else. */
export function toBoolean(value: unknown): boolean {
  if (value === true || value === 1 || value === '1') return true;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    return text === '1' || text === 'true' || text === 'yes' || text === 'on';
  }
  return false;
}

/** A boolean as the strings "0"/"1" (campaign-member `testuser`, report `testcase`). */
export function toZeroOne(value: unknown): '0' | '1' {
  if (value === '0' || value === '1') return value;
  return toBoolean(value) ? '1' : '0';
}

/** A plain object: `[]` (the wire's empty object), null or undefined become `{}`. */
export function toObject<T extends object>(value: unknown): T {
  if (value === null || value === undefined || Array.isArray(value)) {
    // A non-empty array where an object belongs is kept as sent: it is not an empty object.
    return (Array.isArray(value) && value.length > 0 ? value : {}) as T;
  }
  return value as T;
}

/** An object or null: `[]` becomes `{}`, null stays null. */
export function toObjectOrNull<T extends object>(value: unknown): T | null {
  return value === null || value === undefined ? null : toObject<T>(value);
}

/** An array: null, undefined and `{}` become `[]`. */
export function toArray<T>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  if (value === null || value === undefined) return [];
  if (typeof value === 'object' && Object.keys(value).length === 0) return [];
  return value as T[];
}

/** An integer from a number or a numeric string; null and undefined stay as they are. */
export function toInteger<T extends null | undefined = never>(value: unknown): number | T {
  if (typeof value === 'number') return value;
  if (value === null || value === undefined) return value as T;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    if (Number.isFinite(number)) return number;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as number;
}

/** A count or a numeric string as a string ("3"); null stays null. */
export function toNumericString(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  return String(value);
}

/** A value that should be a JSON-encoded string: an object or array sent as such is encoded. */
export function toJsonString(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? null);
}

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const TOLERANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses a date as the spec asks: `T` or a space between date and time, an offset (`Z`, `+01:00`,
 * `+0100`, `+01`) or none, meaning UTC, seconds or none, or a bare date. Undefined for anything else
 * (including the zero date `0000-00-00 00:00:00`).
 */
export function parseDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const match = TOLERANT.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = match;
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    offset = `${digits.slice(0, 3)}:${digits.slice(3) || '00'}`;
  }
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  if (Number.isNaN(date.getTime()) || Number(y) === 0) return undefined;
  return date;
}

const isZeroDate = (value: unknown) => typeof value === 'string' && value.startsWith('0000-00-00');

/** A moment in the wire form the spec documents and Assay writes: `2026-11-22T11:46:36+00:00`. */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/**
 * A date field, read tolerantly and given back in the wire form (UTC, whole seconds). A value that is
 * not a date at all is returned unchanged (a required field) or as null (a nullable one).
 */
export function toDate(value: unknown): string;
export function toDate(value: unknown, nullable: true): string | null;
export function toDate(value: unknown, nullable = false): string | null {
  if (typeof value === 'string' && CANONICAL.test(value)) return value;
  const date = parseDate(value);
  if (date) return formatDate(date);
  if (nullable && (value === null || value === undefined || value === '' || isZeroDate(value))) return null;
  return value as string;
}
