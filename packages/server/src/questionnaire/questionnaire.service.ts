import type { Transaction } from 'kysely';
import { type Actor, participantActor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import { parseMemberExtra } from '../campaigns/campaign-members.repository.js';
import { emptyCounts, statusCounts } from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, nowOf } from '../campaigns/campaigns.service.js';
import { campaignStatus } from '../campaigns/campaigns.wire.js';
import { completeParticipation } from '../campaigns/completion.service.js';
import type { Database } from '../db/database.js';
import { AnswerError, checkAnswer, checkAnswers, MAX_TEXT_ANSWER } from '../reports/answers.js';
import {
  isLanguage,
  type Language,
  type Page,
  type Question,
  type Variant,
} from '../variants/variant.types.js';
import { queueEvent } from '../webhooks/events.js';
import { questionnaireLink } from './links.js';
import {
  findFirstname,
  findParticipation,
  findParticipationLocked,
  findReportOfToken,
  findRetiredToken,
  hintVariant,
  markStartedRow,
  mergeAnswers,
  type PageCampaign,
  type PageMember,
  parseAnswers,
  saveOpenPage,
  variantHint,
} from './questionnaire.repository.js';

/** A participation token as Assay makes them: 256 bits in base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** An open participation: the member's row, its campaign, the variant and the language of the pages. */
export interface Participation {
  /** What the pages use of the campaign member. */
  readonly member: PageMember;
  /** What the pages use of the campaign. */
  readonly campaign: PageCampaign;
  readonly variant: Variant;
  readonly language: Language;
  /** active, inactive (not open yet) or ended. */
  readonly campaignStatus: 'active' | 'inactive' | 'ended';
  readonly answers: Record<string, number | string>;
  /** The participant's role (`extra.role`), e.g. self or peer in a 360. */
  readonly role: string | undefined;
  /** In a 360, the first name of the person a rater gives feedback on (`extra.subject`). */
  readonly subjectName: string | undefined;
}

/** What a link leads to. */
export type Lookup =
  | { readonly kind: 'found'; readonly participation: Participation }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'reset'; readonly language?: Language }
  | { readonly kind: 'removed'; readonly language?: Language };

export type QuestionnaireDeps = CampaignDeps;

/**
 * The participation a token opens, or why it opens none (reset and removed links are remembered).
 * For an open campaign that is one prepared statement, the member with its campaign.
 */
export async function lookup(deps: QuestionnaireDeps, token: string): Promise<Lookup> {
  if (!TOKEN_PATTERN.test(token)) return { kind: 'unknown' };
  const found = await findParticipation(deps.db, deps.dialect, token);
  if (!found) {
    const retired = await findRetiredToken(deps.db, token);
    if (!retired) return { kind: 'unknown' };
    // The page that says so speaks the campaign's language, while the campaign is there.
    const variant = retired.variant ? deps.variants.get(retired.variant) : undefined;
    const language =
      variant && isLanguage(retired.language) && variant.languages.includes(retired.language)
        ? retired.language
        : undefined;
    return language ? { kind: retired.reason, language } : { kind: retired.reason };
  }
  hintVariant(deps.db, deps.dialect, token, found.campaign.variant);
  return participationOf(deps, deps.db, found.member, found.campaign);
}

/** What lookup answers for a member's row and its campaign's. */
async function participationOf<M extends PageMember, C extends PageCampaign>(
  deps: QuestionnaireDeps,
  db: Transaction<Database> | CampaignDeps['db'],
  member: M,
  campaign: C,
): Promise<
  { kind: 'found'; participation: Participation & { member: M; campaign: C } } | { kind: 'removed' }
> {
  const variant = deps.variants.get(campaign.variant);
  if (!variant) return { kind: 'removed' };
  // An `auto` campaign ends when every member has sent; a member who has not cannot be in an
  // ended one, so only a completed member's page needs the counts.
  const counts =
    campaign.closingtype === 'auto' && member.status === 'completed'
      ? ((await statusCounts(db, campaign.id)).get(campaign.id) ?? emptyCounts())
      : emptyCounts();
  const language: Language =
    isLanguage(campaign.language) && variant.languages.includes(campaign.language)
      ? campaign.language
      : variant.defaultLanguage;
  const extra = parseMemberExtra(member.extra) ?? {};
  const role = typeof extra.role === 'string' && extra.role !== '' ? extra.role : undefined;
  let subjectName: string | undefined;
  if (typeof extra.subject === 'string' && extra.subject !== member.member_id) {
    subjectName = await findFirstname(db, extra.subject);
  }
  return {
    kind: 'found',
    participation: {
      role,
      subjectName,
      member,
      campaign,
      variant,
      language,
      campaignStatus: campaignStatus(campaign, counts, nowOf(deps)),
      answers: parseAnswers(member.answers),
    },
  };
}

/**
 * The participant starts (the start page's button): status `started`, `datestarted`, `sessionurl`,
 * by `actor` (the member), unless they had started already. Opening a link changes nothing (a mail
 * scanner fetches every link of a message): starting is the participant's first POST, this one or
 * the first page saved (`saveAnswers`), whichever comes first.
 */
export async function markStarted(
  deps: QuestionnaireDeps,
  participation: Participation,
  actor: Actor,
): Promise<void> {
  if (!notStarted(participation.member)) return;
  const started = await deps.db
    .transaction()
    .execute((trx) => startWithin(deps, trx, participation.member, actor));
  if (started) deps.mailQueued();
}

/** Whether the member has not started yet (new or invited): their first POST starts them. */
const notStarted = (member: Pick<PageMember, 'status'>) =>
  member.status === 'new' || member.status === 'invited';

/**
 * Starts the member in `trx`, once: the row (unless another request started it first), the
 * `campaignmember.started` event and the audit entry. Answers whether it started them now.
 */
async function startWithin(
  deps: QuestionnaireDeps,
  trx: Transaction<Database>,
  member: Pick<PageMember, 'id' | 'token' | 'campaign_id' | 'member_id'>,
  actor: Actor,
): Promise<boolean> {
  const datestarted = nowOf(deps);
  const sessionurl = questionnaireLink(deps, member.token);
  if (!(await markStartedRow(trx, member, { datestarted, sessionurl }))) return false;
  await queueEvent(
    trx,
    'campaignmember.started',
    { campaignid: member.campaign_id, memberid: member.member_id, datestarted },
    { now: datestarted, orderKey: member.member_id },
  );
  await recordChange(trx, actor, { resource: 'campaign_member', id: member.member_id, action: 'start' });
  return true;
}

const isAnswered = (answers: Readonly<Record<string, unknown>>, question: Question) => {
  const value = answers[question.code];
  return value !== undefined && value !== '';
};

/** 1-based number of the first page with a required question unanswered; 0 when every page is done. */
export function firstIncompletePage(variant: Variant, answers: Readonly<Record<string, unknown>>): number {
  const index = variant.pages.findIndex((page) =>
    page.questions.some((question) => question.required && !isAnswered(answers, question)),
  );
  return index + 1;
}

/** A problem with one answer of a page, in the page's words. */
export interface AnswerProblem {
  readonly code: string;
  readonly kind: 'missing' | 'invalid' | 'too-long';
}

/** A page as submitted: the answers to store, what was typed (to show again), and the problems. */
export interface PageSubmission {
  readonly answers: Record<string, number | string>;
  readonly typed: Record<string, string>;
  readonly problems: AnswerProblem[];
}

/**
 * Reads one page's answers from a form: each value checked as the reports service checks answers;
 * a blank answer removes a saved one; a missing required answer is a problem only when the
 * participant goes on (`requireAll`), not when they save to come back later.
 */
export function readPage(
  variant: Variant,
  page: Page,
  form: Readonly<Record<string, unknown>>,
  saved: Readonly<Record<string, number | string>>,
  requireAll: boolean,
): PageSubmission {
  const answers: Record<string, number | string> = { ...saved };
  const typed: Record<string, string> = {};
  const problems: AnswerProblem[] = [];
  for (const question of page.questions) {
    const raw = form[question.code];
    const value = typeof raw === 'string' ? raw : undefined;
    if (value !== undefined) typed[question.code] = value;
    if (value === undefined || value.trim() === '') {
      delete answers[question.code];
      if (question.required && requireAll) problems.push({ code: question.code, kind: 'missing' });
      continue;
    }
    try {
      answers[question.code] = checkAnswer(variant, question, value);
    } catch (error) {
      if (!(error instanceof AnswerError)) throw error;
      delete answers[question.code];
      const tooLong = question.type === 'text' && value.trim().length > MAX_TEXT_ANSWER;
      problems.push({ code: question.code, kind: tooLong ? 'too-long' : 'invalid' });
    }
  }
  return { answers, typed, problems };
}

/** A page's answers as a merge patch: each of its questions, an answer to set or null to remove one. */
function pagePatch(page: Page, answers: Readonly<Record<string, number | string>>) {
  const patch: Record<string, number | string | null> = {};
  for (const question of page.questions) patch[question.code] = answers[question.code] ?? null;
  return patch;
}

/**
 * A page sent: `saved` when it was saved with nothing to show again (no problem, or saved to come
 * back later), all the page needs to say where to go next; otherwise the participation as it is
 * now, with the page as submitted when it could take answers.
 */
export type SaveOutcome =
  | {
      readonly kind: 'saved';
      readonly token: string;
      readonly variant: Variant;
      readonly submission: PageSubmission;
    }
  | { readonly kind: 'looked-up'; readonly found: Lookup; readonly submission?: PageSubmission };

/**
 * Saves the answers of a page under the token, unless the questionnaire was sent or the link reset
 * meanwhile. The page's answers are checked, then written in one statement that merges them into
 * the stored answers of that moment (only the page's questions change), so two tabs never lose
 * each other's pages and no transaction is held open across round trips. On PostgreSQL, when the
 * token's variant is known (variantHints), that statement is the only one for a page without a
 * problem: it also checks that the page can take answers (a page with problems is read back to
 * be shown again). Otherwise the participation is read first, without a lock; when the save
 * finds the row no longer open (reset, removed, sent since it was read), nothing is saved and the
 * lookup is made again to say why. The save is recorded in the audit log with it, as the member's
 * from `address` (the participant is known by the token alone: the member is the token's). The
 * first page saved by a member who has not started starts them in the same transaction (the one
 * statement writes only for a member who has started, so that save takes the way of the lookup).
 */
export async function saveAnswers(
  deps: QuestionnaireDeps,
  token: string,
  pageNumber: (variant: Variant) => number,
  form: Readonly<Record<string, unknown>>,
  requireAll: boolean,
  address: string | null,
): Promise<SaveOutcome> {
  const alias = variantHint(deps.db, deps.dialect, token);
  const hinted = alias === undefined ? undefined : deps.variants.get(alias);
  const hintedNumber = hinted ? pageNumber(hinted) : 0;
  if (alias !== undefined && hinted && hintedNumber > 0) {
    const page = hinted.pages[hintedNumber - 1] as Page;
    const submission = readPage(hinted, page, form, {}, requireAll);
    const patch = pagePatch(page, submission.answers);
    const stored = await saveOpenPage(deps.db, token, alias, nowOf(deps), patch, address);
    if (stored !== undefined) {
      // What is stored now: this page merged with whatever another tab saved meanwhile.
      const saved = { ...submission, answers: parseAnswers(stored) };
      if (!requireAll || saved.problems.length === 0)
        return { kind: 'saved', token, variant: hinted, submission: saved };
      return { kind: 'looked-up', found: await lookup(deps, token), submission: saved };
    }
    // Nothing saved (not open, reset, removed or sent): the lookup below says why.
  }
  const found = await lookup(deps, token);
  if (found.kind !== 'found') return { kind: 'looked-up', found };
  const { participation } = found;
  const number = pageNumber(participation.variant);
  const open = participation.member.status !== 'completed' && participation.campaignStatus === 'active';
  if (!open || number === 0) return { kind: 'looked-up', found };
  const page = participation.variant.pages[number - 1] as Page;
  const submission = readPage(participation.variant, page, form, participation.answers, requireAll);
  const actor = participantActor(participation.member.member_id, address);
  let started = false;
  const stored = await deps.db.transaction().execute(async (trx) => {
    const merged = await mergeAnswers(
      trx,
      deps.dialect,
      participation.member,
      pagePatch(page, submission.answers),
    );
    if (merged === undefined) return undefined;
    // The first page saved starts a participant who skipped the start page's button.
    if (notStarted(participation.member)) started = await startWithin(deps, trx, participation.member, actor);
    // The entry names no field: the page's questions would tell its answers apart, never needed.
    await recordChange(trx, actor, { resource: 'answers', id: actor.id, action: 'save' });
    return merged;
  });
  if (started) deps.mailQueued();
  if (stored === undefined) return { kind: 'looked-up', found: await lookup(deps, token) };
  // What is stored now: this page merged with whatever another tab saved meanwhile.
  const answers = parseAnswers(stored);
  return {
    kind: 'looked-up',
    found: {
      kind: 'found',
      participation: { ...participation, member: { ...participation.member, answers: stored }, answers },
    },
    submission: { ...submission, answers },
  };
}

/** Why a completion did not happen. */
export type CompletionOutcome =
  | { readonly kind: 'completed'; readonly reportId: string }
  | { readonly kind: 'incomplete'; readonly page: number }
  | { readonly kind: 'closed' }
  | { readonly kind: 'gone' };

/**
 * "Confirm and send", in one transaction with the member's row locked: the personal report, status
 * `completed`, the mails (completeParticipation). A second send (two browsers, the back button)
 * finds the member completed and makes nothing again.
 */
export async function complete(
  deps: QuestionnaireDeps,
  token: string,
  actor: Actor,
): Promise<CompletionOutcome> {
  if (!TOKEN_PATTERN.test(token)) return { kind: 'gone' };
  const outcome = await deps.db.transaction().execute(async (trx): Promise<CompletionOutcome> => {
    // The whole rows (the report and the mails need them), the member's locked.
    const rows = await findParticipationLocked(trx, deps.dialect, token);
    if (!rows) return { kind: 'gone' };
    const found = await participationOf(deps, trx, rows.member, rows.campaign);
    if (found.kind !== 'found') return { kind: 'gone' };
    const { participation } = found;
    const { member, campaign, variant } = participation;
    if (member.status === 'completed') {
      return {
        kind: 'completed',
        reportId: await completeParticipation(deps, trx, campaign, member, {}, actor),
      };
    }
    if (participation.campaignStatus !== 'active') return { kind: 'closed' };
    const page = firstIncompletePage(variant, participation.answers);
    if (page > 0) return { kind: 'incomplete', page };
    let answers: Record<string, number | string>;
    try {
      answers = checkAnswers(variant, participation.answers);
    } catch (error) {
      if (error instanceof AnswerError) return { kind: 'incomplete', page: 1 };
      throw error;
    }
    return {
      kind: 'completed',
      reportId: await completeParticipation(deps, trx, campaign, member, answers, actor),
    };
  });
  if (outcome.kind === 'completed') deps.mailQueued();
  return outcome;
}

/** The personal report made under a token, as its page shows it. */
export interface TokenReport {
  readonly id: string;
  /** The variant, when still installed (its name heads the page). */
  readonly variant: Variant | undefined;
  /** The report's language, the page's: one of the variant's, else its default (English without one). */
  readonly language: Language;
}

/** The personal report made under a token (the latest, should there be several), if any. */
export async function reportOfToken(
  deps: QuestionnaireDeps,
  token: string,
): Promise<TokenReport | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const row = await findReportOfToken(deps.db, token);
  if (!row) return undefined;
  const variant = deps.variants.get(row.variant);
  const language: Language =
    isLanguage(row.language) && (!variant || variant.languages.includes(row.language))
      ? row.language
      : (variant?.defaultLanguage ?? 'enUS');
  return { id: row.id, variant, language };
}
