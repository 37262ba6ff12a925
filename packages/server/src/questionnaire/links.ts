/**
 * The participant's links, one rule for every place that shows one: the invitation and reminder
 * mails, `sessionurl`, the report mail and the pages' own links all build them here.
 */

/** What a link is made from: the instance's `ASSAY_QUESTIONNAIRE_URL`. */
export interface LinkConfig {
  readonly config: { readonly questionnaireUrl: string };
}

/** The path under which the participant pages live: the questionnaire URL's own path, if any. */
export function questionnairePrefix(questionnaireUrl: string): string {
  return new URL(questionnaireUrl).pathname.replace(/\/+$/, '');
}

/** A questionnaire page's path below the prefix: `/q/<token>`, then `rest` (`/page/2`, `/done`). */
export const questionnairePath = (token: string, rest = '') => `/q/${token}${rest}`;

/** The path of the report made from a participant's answers. */
export const reportPath = (token: string) => `/r/${token}`;

/** The member's questionnaire link as the mails give it (and `sessionurl` records it). */
export const questionnaireLink = (deps: LinkConfig, token: string) =>
  `${deps.config.questionnaireUrl}${questionnairePath(token)}`;

/** The link at which a participant opens the report made from their answers. */
export const reportLink = (deps: LinkConfig, token: string) =>
  `${deps.config.questionnaireUrl}${reportPath(token)}`;

/** The self-registration link of a campaign (its alias), as the console shows it. */
export const signupLink = (deps: LinkConfig, alias: string) => `${deps.config.questionnaireUrl}/s/${alias}`;
