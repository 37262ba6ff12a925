/**
 * Schema pieces the tools share. The interface's ids are 10-character case-sensitive strings; the
 * tools name them in camelCase (`memberId`, `groupId`, `campaignId`, `reportId`), and so every other
 * field they give (`firstName`, `createdOn`), while values (statuses, languages, variant aliases)
 * stay as the interface spells them.
 */
import { parseDate } from '@assay/client';
import Type, { type TSchema } from 'typebox';

const ID_PATTERN = '^[0-9A-Za-z]{10}$';

/** An id argument or field: `thing` says whose, e.g. `a member`. */
export const IdOf = (thing: string, description?: string) =>
  Type.String({
    pattern: ID_PATTERN,
    description:
      description ??
      `The id of ${thing}: 10 letters and digits, case-sensitive, as the list and find tools give it.`,
  });

export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

/** A date as the tools give it: ISO 8601 in UTC, e.g. `2026-11-23T09:30:00Z`. */
export const DateText = (description: string) =>
  Type.String({ description: `${description} ISO 8601, UTC.` });

/** A wire date (with a space, an offset, or none) as ISO 8601 in UTC; null when absent or unreadable. */
export function isoDate(value: unknown): string | null {
  const date = parseDate(value);
  return date ? `${date.toISOString().slice(0, 19)}Z` : null;
}

/** `limit` and `offset` of the listing tools. */
export const paging = (defaultLimit: number, maxLimit: number) => ({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxLimit,
      default: defaultLimit,
      description: `How many to give back at most (default ${defaultLimit}, at most ${maxLimit}).`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      default: 0,
      description: 'How many matches to skip first, to page through a long list (default 0).',
    }),
  ),
});

/** The page of `items` that `limit` and `offset` ask for, with the count of all matches. */
export function page<T>(items: readonly T[], limit = 50, offset = 0) {
  return { total: items.length, offset, items: items.slice(offset, offset + limit) };
}

/** Text folded for matching: lower case, accents dropped (`Müller` matches `muller`). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A matcher for a free-text query: every word of it must occur in one of the texts. */
export function matcher(
  query: string | undefined,
): (texts: readonly (string | null | undefined)[]) => boolean {
  const words = fold(query ?? '')
    .split(/\s+/)
    .filter((word) => word.length > 0);
  if (words.length === 0) return () => true;
  return (texts) => {
    const haystack = fold(texts.filter((text) => text).join(' '));
    return words.every((word) => haystack.includes(word));
  };
}

/** A person's name as one string: first, middle and last name. */
export function fullName(person: {
  firstname?: string | null;
  middlename?: string | null;
  lastname?: string | null;
}): string {
  return [person.firstname, person.middlename, person.lastname].filter((part) => part?.trim()).join(' ');
}

/** The URI of a report's PDF resource. */
export const reportPdfUri = (reportId: string) => `assay://reports/${reportId}/pdf`;
