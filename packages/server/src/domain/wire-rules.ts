/** Rules of the spec's representation that the wire mappers (`*.wire.ts`) share. */

/** The spec serialises an empty object as `[]` (config, extra, tags, mailconfig, results). */
export function objectOrEmptyArray<T extends object>(value: T | null | undefined): T | [] {
  if (!value) return [];
  for (const _ in value) return value;
  return [];
}
