/** The wire form of a moment: `2026-11-22T11:46:36+00:00` (UTC, whole seconds). */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** The wire form of the moment `days` whole days before `date`: a retention's cutoff. */
export function daysBefore(date: Date, days: number): string {
  return formatDate(new Date(date.getTime() - days * 86_400_000));
}

/** Now, in the wire form. */
export function nowText(clock: () => Date = () => new Date()): string {
  return formatDate(clock());
}

const TOLERANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses a date the way the spec asks clients to: `T` or a space between date and time, an offset
 * or none (meaning UTC), or a bare date. Answers undefined for anything else.
 */
export function parseDate(text: string): Date | undefined {
  const match = TOLERANT.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = match;
  let offset = 'Z';
  if (zone && zone !== 'Z') offset = zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject dates the Date constructor rolls over, such as 2026-02-31.
  if (zone === undefined || zone === 'Z') {
    if (date.getUTCDate() !== Number(d) || date.getUTCMonth() + 1 !== Number(mo)) return undefined;
  }
  return date;
}
