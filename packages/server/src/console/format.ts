import { stringsFor } from '../pages/strings.js';
import type { Language } from '../variants/variant.types.js';

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  locale: string,
  options: Intl.DateTimeFormatOptions,
) {
  let format = cache.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    cache.set(locale, format);
  }
  return format;
}

/** A stored moment as a date in the console's language ("25 Nov 2026"); '' for none. */
export function consoleDate(language: Language, moment: string | null | undefined): string {
  if (!moment) return '';
  const date = new Date(moment);
  if (Number.isNaN(date.getTime())) return moment;
  return formatter(dateFormats, stringsFor(language).locale, { dateStyle: 'medium' }).format(date);
}

/** A stored moment as date and time in the console's language, in UTC ("25 Nov 2026, 14:05 UTC"). */
export function consoleDateTime(language: Language, moment: string | null | undefined): string {
  if (!moment) return '';
  const date = new Date(moment);
  if (Number.isNaN(date.getTime())) return moment;
  const text = formatter(timeFormats, stringsFor(language).locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(date);
  return `${text} UTC`;
}

/** A whole number in the console's language (1,000 / 1.000). */
export function consoleNumber(language: Language, value: number): string {
  return value.toLocaleString(stringsFor(language).locale);
}
