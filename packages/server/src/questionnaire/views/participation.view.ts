import { signupStringsFor } from '../../pages/signup-strings.js';
import { fill, stringsFor } from '../../pages/strings.js';
import type { Language } from '../../variants/variant.types.js';
import { questionnaireMinutes } from '../duration.js';
import type { Lookup, Participation, TokenReport } from '../questionnaire.service.js';
import {
  chromeOf,
  endedView,
  longDate,
  messageView,
  notOpenView,
  type PagePaths,
  type PageView,
} from './page-view.js';

/** The address of the raters page when this participant may nominate raters (a 360's subject). */
export function ratersHref(participation: Participation, paths: PagePaths): string | undefined {
  const role = participation.variant.roles.find((entry) => entry.role === participation.role);
  return role?.canaddparticipants && participation.campaignStatus !== 'ended'
    ? paths.q(participation.member.token, '/raters')
    : undefined;
}

/**
 * What a participation that cannot take answers now leads to: the confirmation once sent (a
 * redirect), a page when the campaign is not open yet or has ended; undefined when it can.
 */
export function stateGate(
  participation: Participation,
  paths: PagePaths,
): { redirect: string } | { status: number; view: PageView } | undefined {
  if (participation.member.status === 'completed')
    return { redirect: paths.q(participation.member.token, '/done') };
  if (participation.campaignStatus === 'inactive')
    return { status: 200, view: notOpenView(chromeOf(participation), participation.campaign.start_at) };
  if (participation.campaignStatus === 'ended')
    return { status: 410, view: endedView(chromeOf(participation)) };
  return undefined;
}

/** The page of a link that opens nothing: in its campaign's language, else the browser's. */
export function clearView(
  found: Exclude<Lookup, { kind: 'found' }>,
  browserLanguage: Language,
): { status: number; view: PageView } {
  const t = stringsFor(('language' in found ? found.language : undefined) ?? browserLanguage);
  if (found.kind === 'reset') return { status: 410, view: messageView({ t }, t.resetTitle, [t.resetBody]) };
  if (found.kind === 'removed')
    return { status: 410, view: messageView({ t }, t.removedTitle, [t.removedBody]) };
  return { status: 404, view: messageView({ t }, t.unknownTitle, [t.unknownBody]) };
}

/**
 * The start page: the variant's introduction (the general words stand in for a variant without
 * one), then how long it takes, the figure the invitation mail states (`questionnaireMinutes`).
 * Its button posts (`csrf`, the browser's form token): starting is a POST, never the link opened.
 */
export function introView(participation: Participation, paths: PagePaths, csrf: string): PageView {
  const { variant, language, member } = participation;
  const texts = variant.texts[language] ?? {};
  const base = chromeOf(participation);
  const minutes = questionnaireMinutes(variant);
  const heading = texts['variant.name'] ?? base.serviceName;
  return {
    template: 'intro',
    model: {
      ...base,
      title: heading,
      heading,
      paragraphs: [
        texts['questionnaire.intro'] ?? base.t.startIntro,
        ...(minutes === undefined ? [] : [fill(base.t.duration, { minutes })]),
      ],
      startAction: paths.q(member.token),
      csrf,
      ratersHref: ratersHref(participation, paths),
      ratersText: signupStringsFor(language).nominateLink,
    },
  };
}

/** "Save and come back later": saved, and until when the same link brings them back. */
export function savedView(participation: Participation, paths: PagePaths): PageView {
  const base = chromeOf(participation);
  const { t } = base;
  const { campaign, member } = participation;
  const until =
    campaign.closingtype === 'date' && campaign.end_at
      ? fill(t.savedUntil, { end: longDate(campaign.end_at, t) })
      : t.savedNoEnd;
  return messageView(base, t.savedTitle, [t.savedBody, until], {
    href: paths.q(member.token),
    text: t.continueAnswering,
  });
}

/**
 * The confirmation: the variant's thanks, what happens next, and the report: a button that opens
 * it (a POST: opening is recorded, `lastopened`) and the mail that brings it when the campaign
 * sends reports, else who decides.
 */
export function doneView(participation: Participation, paths: PagePaths, csrf: string): PageView {
  const { member, campaign, variant, language } = participation;
  const base = chromeOf(participation);
  const offered = campaign.sendreportdelivery === 1;
  return {
    template: 'done',
    model: {
      ...base,
      title: base.t.doneTitle,
      thanks: variant.texts[language]?.['questionnaire.thanks'] ?? '',
      reportAction: offered ? paths.report(member.token) : undefined,
      csrf,
      ratersHref: ratersHref(participation, paths),
      ratersText: signupStringsFor(language).nominateLink,
    },
  };
}

/** The report link before the report exists: it is made when the answers are sent. */
export function reportNotReadyView(participation: Participation, paths: PagePaths): PageView {
  const base = chromeOf(participation);
  return messageView(base, base.t.reportNotReadyTitle, [base.t.reportNotReadyBody], {
    href: paths.q(participation.member.token),
    text: base.t.tryAgain,
  });
}

/**
 * The report link's page (`/r/<token>`): the report is ready, and a button opens it. The GET of
 * the link changes nothing (a mail scanner fetches every link); the button's POST records the
 * opening (`lastopened`) and leads to the PDF. In the report's language, headed by the variant's
 * name: the page outlives the campaign, whose name may be gone.
 */
export function reportView(report: TokenReport, token: string, paths: PagePaths, csrf: string): PageView {
  const t = stringsFor(report.language);
  const serviceName = report.variant?.texts[report.language]?.['variant.name'] ?? report.variant?.alias;
  return {
    template: 'report',
    model: {
      t,
      ...(serviceName ? { serviceName } : {}),
      title: t.reportTitle,
      action: paths.report(token),
      csrf,
    },
  };
}
