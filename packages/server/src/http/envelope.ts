/** The success envelope of every JSON endpoint. */
export const ok = <T>(data: T) => ({ status: 'OK' as const, data });

/** A business failure: HTTP 200, `data` a short message, never an object. */
export const failure = (message: string) => ({ status: 'ERROR' as const, data: message });

/** The spec serialises an empty object as `[]` (config, extra, tags, mailconfig, results). */
export function objectOrEmptyArray<T extends object>(value: T | null | undefined): T | [] {
  if (!value) return [];
  for (const _ in value) return value;
  return [];
}

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
