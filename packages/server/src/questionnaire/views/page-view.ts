import { fill, type PageStrings, stringsFor } from '../../pages/strings.js';
import { parseDate } from '../../util/dates.js';
import { questionnairePath, reportPath } from '../links.js';
import type { Participation } from '../questionnaire.service.js';

/** What a page template reads: the layout's fields and the page's own. */
export type PageModel = Record<string, unknown> & { t: PageStrings; title: string };

/** A page to show: which template, with what. Routes send it; views make it without a request. */
export interface PageView {
  readonly template: string;
  readonly model: PageModel;
}

/** The addresses of the participant pages, below the instance's questionnaire prefix. */
export interface PagePaths {
  /** `/q/<token>` and what follows it (`/page/2`, `/done`). */
  q(token: string, rest?: string): string;
  /** `/r/<token>`: the report made from the participant's answers. */
  report(token: string): string;
  /** `/s/<alias>`: a campaign's self-registration. */
  signup(alias: string): string;
}

export function pagePaths(prefix: string): PagePaths {
  return {
    q: (token, rest = '') => `${prefix}${questionnairePath(token, rest)}`,
    report: (token) => `${prefix}${reportPath(token)}`,
    signup: (alias) => `${prefix}/s/${alias}`,
  };
}

/** The layout fields every page of a participation shares: its words and the campaign's name. */
export interface Chrome {
  readonly t: PageStrings;
  readonly serviceName?: string;
}

export function chromeOf(participation: Pick<Participation, 'campaign' | 'variant' | 'language'>) {
  const { campaign, variant, language } = participation;
  const texts = variant.texts[language] ?? {};
  return {
    t: stringsFor(language),
    serviceName: campaign.name || texts['variant.name'] || variant.alias,
  } satisfies Chrome;
}

/** The one page of a heading, some paragraphs and at most one link: notices, clear pages, errors. */
export function messageView(
  base: Chrome,
  heading: string,
  paragraphs: readonly string[],
  link?: { href: string; text: string },
): PageView {
  return {
    template: 'message',
    model: { ...base, title: heading, heading, paragraphs, ...(link ? { link } : {}) },
  };
}

/** A moment as the pages show it: "November 26, 2026 at 9:00 AM UTC", in the page's language. */
export function longDate(text: string, t: PageStrings): string {
  const date = parseDate(text);
  if (!date) return text;
  return `${new Intl.DateTimeFormat(t.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

/** "This questionnaire opens on ...": a campaign not open yet. */
export const notOpenView = (base: Chrome, startAt: string) =>
  messageView(base, base.t.notOpenTitle, [fill(base.t.notOpenBody, { start: longDate(startAt, base.t) })]);

/** A campaign that has ended. */
export const endedView = (base: Chrome) => messageView(base, base.t.endedTitle, [base.t.endedBody]);

/** A form without this browser's form token: nothing changed, `back` tries again. */
export const expiredView = (base: Chrome, back: string) =>
  messageView(base, base.t.expiredTitle, [base.t.expiredBody], { href: back, text: base.t.tryAgain });
