/**
 * The rules of a platform user, each written once: every place that checks or shows one imports it.
 * (The first migration writes the colour as its column default too: migrations are frozen in time and
 * import no app code, so a new default here must come with a migration of its own.)
 */

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
