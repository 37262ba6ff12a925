/**
 * The rules of a platform user, each written once: every place that checks or shows one imports it.
 * (The first migration writes the colour as its column default too: migrations are frozen in time and
 * import no app code, so a new default here must come with a migration of its own.)
 */

import { lineProblem } from '../util/safe-text.js';
import { isStorableText } from '../util/text.js';

/** The longest first or last name, in Unicode code points (as PostgreSQL counts `varchar(255)`). */
export const NAME_MAX = 255;
// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * A first or last name: one line, not empty, at most NAME_MAX characters; surrounding white space
 * dropped. A problem is the words after the field's name (the CLI puts `--firstname: ` in front,
 * the console shows it next to its field).
 */
export function checkPersonName(value: string): { ok: true; value: string } | { ok: false; problem: string } {
  const name = value.trim();
  if (name === '') return { ok: false, problem: 'must not be empty' };
  if (CONTROL.test(name)) return { ok: false, problem: 'must be one line, without control characters' };
  // Bidirectional controls and invisible characters (docs/decisions.md, "Text that reaches a mail").
  const problem = lineProblem(name);
  if (problem !== undefined) return { ok: false, problem };
  const length = [...name].length;
  if (length > NAME_MAX) return { ok: false, problem: `at most ${NAME_MAX} characters, got ${length}` };
  if (!isStorableText(name)) return { ok: false, problem: 'contains a character that cannot be stored' };
  return { ok: true, value: name };
}

/** The shortest password a user may sign in with (Authorization Code flow). */
export const MIN_PASSWORD_LENGTH = 12;

/** What is wrong with a password, as the words after its field name, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  return password.length < MIN_PASSWORD_LENGTH
    ? `must be at least ${MIN_PASSWORD_LENGTH} characters`
    : undefined;
}

/**
 * The brand colour of a user's reports until one is set, and of a report no user brands (a sample,
 * a report whose campaign is gone). GOV.UK's blue, whose question-page patterns the participant pages
 * follow: 5.2:1 against white. See docs/decisions.md, "One default brand colour".
 */
export const DEFAULT_BRAND_COLOR = '#1d70b8';
