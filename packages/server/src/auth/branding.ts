import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { NotFound } from '../domain/errors.js';
import { lineProblem } from '../util/safe-text.js';
import { isStorableText } from '../util/text.js';
import type { UserChange } from './auth.repository.js';
import { changeUser } from './auth.service.js';
import type { UserRow } from './auth.table.js';
import { DEFAULT_BRAND_COLOR } from './user-rules.js';

/**
 * The branding of a user's reports (agency name, footer, colour), each rule written once: the CLI's
 * `users create|update` and the console's branding page both check through here. A problem is the
 * words after the field's name; the CLI puts `--agency-name: ` in front, the console shows it next
 * to its field. (The API sets no branding, so no API answer depends on these rules.)
 */

export const AGENCY_NAME_MAX = 255;
export const AGENCY_FOOTER_MAX = 1000;
/** WCAG 2.x AA for normal text: the brand colour is used for text-sized marks on white. */
export const MIN_TEXT_CONTRAST = 4.5;

export type BrandingField = 'agency-name' | 'agency-footer' | 'color';
export type Checked = { ok: true; value: string } | { ok: false; problem: string };

const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_BUT_NEWLINE_OR_TAB = /[^\P{Cc}\n\t]|[\u2028\u2029]/u;

/** A value quoted on one line, shortened when long: for messages. */
export function shown(value: string): string {
  const chars = [...value];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : value);
}

/** What is wrong with the length or the characters of a stored text, or undefined. */
export function lengthProblem(value: string, max: number): string | undefined {
  const length = [...value].length;
  if (length > max) return `at most ${max} characters, got ${length}`;
  if (!isStorableText(value)) return 'contains a character that cannot be stored';
  return undefined;
}

/** `#rgb` or `#rrggbb` (any case, around white space) as lowercase `#rrggbb`, or undefined. */
export function normalColor(value: string): string | undefined {
  const match = COLOR.exec(value.trim());
  if (!match) return undefined;
  const hex = (match[1] as string).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/** WCAG 2.x relative luminance of red, green and blue from 0 to 255. */
export function relativeLuminance(rgb: readonly number[]): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG 2.x contrast ratio of a colour against white, from 1 to 21. */
export function contrastWithWhite(rgb: readonly number[]): number {
  return 1.05 / (relativeLuminance(rgb) + 0.05);
}

/** Red, green and blue of a lowercase `#rrggbb`. */
export const rgbOf = (hex: string): number[] =>
  [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** A ratio as people read it: one decimal, rounded down so that 4.49 never shows as 4.5. */
export const ratioText = (ratio: number) => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;

/** The brand colour: well formed, and dark enough against white for text (WCAG AA, 4.5:1). */
export function checkBrandColor(value: string): Checked {
  const color = normalColor(value);
  if (color === undefined) {
    return {
      ok: false,
      problem: `must be #rgb or #rrggbb (like ${DEFAULT_BRAND_COLOR}), got ${shown(value)}`,
    };
  }
  const ratio = contrastWithWhite(rgbOf(color));
  if (ratio < MIN_TEXT_CONTRAST) {
    return {
      ok: false,
      problem: `the colour ${color} has a contrast of ${ratioText(ratio)} against white; text needs at least ${MIN_TEXT_CONTRAST}:1`,
    };
  }
  return { ok: true, value: color };
}

/** The agency name: one line, possibly empty (mail then goes out under MAIL_FROM's name). */
export function checkAgencyName(value: string): Checked {
  const name = value.trim();
  if (CONTROL.test(name)) return { ok: false, problem: 'must be one line, without control characters' };
  // Bidirectional controls and invisible characters (docs/decisions.md, "Text that reaches a mail").
  const problem = lineProblem(name) ?? lengthProblem(name, AGENCY_NAME_MAX);
  return problem === undefined ? { ok: true, value: name } : { ok: false, problem };
}

/** The agency footer: lines (CRLF becomes LF), possibly empty. */
export function checkAgencyFooter(value: string): Checked {
  const footer = value.replace(/\r\n?/g, '\n').trim();
  if (CONTROL_BUT_NEWLINE_OR_TAB.test(footer)) {
    return { ok: false, problem: 'must not contain control characters other than line breaks and tabs' };
  }
  const problem = lengthProblem(footer, AGENCY_FOOTER_MAX);
  return problem === undefined ? { ok: true, value: footer } : { ok: false, problem };
}

export interface BrandingInput {
  readonly agencyname?: string;
  readonly agencyfooter?: string;
  readonly color?: string;
}

export interface BrandingProblem {
  readonly field: BrandingField;
  readonly problem: string;
}

/** The change the given values ask for, each checked; every problem, in form order. */
export function brandingChange(input: BrandingInput): { change: UserChange; problems: BrandingProblem[] } {
  const change: UserChange = {};
  const problems: BrandingProblem[] = [];
  const take = (field: BrandingField, value: string | undefined, check: (v: string) => Checked) => {
    if (value === undefined) return undefined;
    const checked = check(value);
    if (!checked.ok) problems.push({ field, problem: checked.problem });
    return checked.ok ? checked.value : undefined;
  };
  const name = take('agency-name', input.agencyname, checkAgencyName);
  const footer = take('agency-footer', input.agencyfooter, checkAgencyFooter);
  const color = take('color', input.color, checkBrandColor);
  if (name !== undefined) change.agencyname = name;
  if (footer !== undefined) change.agencyfooter = footer;
  if (color !== undefined) change.color = color;
  return { change, problems };
}

/**
 * Sets a user's branding: every value checked first, nothing written when one is refused.
 * Answers the problems (empty when saved).
 */
export async function updateBranding(
  db: Kysely<Database>,
  user: Pick<UserRow, 'id'>,
  input: BrandingInput,
  actor: Actor,
): Promise<BrandingProblem[]> {
  const { change, problems } = brandingChange(input);
  if (problems.length > 0) return problems;
  await changeUser(db, user.id, change, actor, () => {
    throw new NotFound('user');
  });
  return [];
}
