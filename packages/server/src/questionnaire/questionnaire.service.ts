import type { Transaction } from 'kysely';
import { emptyCounts, statusCounts } from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, nowOf } from '../campaigns/campaigns.service.js';
import type { CampaignMemberRow, CampaignRow } from '../campaigns/campaigns.table.js';
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

/** A participation token as Assay makes them: 256 bits in base64url. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** An open participation: the member's row, its campaign, the variant and the language of the pages. */
export interface Participation {
  readonly member: CampaignMemberRow;
  readonly campaign: CampaignRow;
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

function parseAnswers(text: string): Record<string, number | string> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const answers: Record<string, number | string> = {};
    for (const [code, answer] of Object.entries(value)) {
      if (typeof answer === 'number' || typeof answer === 'string') answers[code] = answer;
    }
    return answers;
  } catch {
    return {};
  }
}

/** The participation a token opens, or why it opens none (reset and removed links are remembered). */
export async function lookup(
  deps: QuestionnaireDeps,
  token: string,
  db: Transaction<Database> | CampaignDeps['db'] = deps.db,
  lock = false,
): Promise<Lookup> {
  if (!TOKEN_PATTERN.test(token)) return { kind: 'unknown' };
  const query = db.selectFrom('campaign_members').selectAll().where('token', '=', token);
  const member = await (lock && deps.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (!member) {
    const retired = await db
      .selectFrom('retired_tokens as t')
      .leftJoin('campaigns as c', 'c.id', 't.campaign_id')
      .select(['t.reason', 'c.language', 'c.variant'])
      .where('t.token', '=', token)
      .executeTakeFirst();
    if (!retired) return { kind: 'unknown' };
    // The page that says so speaks the campaign's language, while the campaign is there.
    const variant = retired.variant ? deps.variants.get(retired.variant) : undefined;
    const language =
      variant && isLanguage(retired.language) && variant.languages.includes(retired.language)
        ? retired.language
        : undefined;
    return language ? { kind: retired.reason, language } : { kind: retired.reason };
  }
  const campaign = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', member.campaign_id)
    .executeTakeFirst();
  const variant = campaign ? deps.variants.get(campaign.variant) : undefined;
  if (!campaign || !variant) return { kind: 'removed' };
  const counts =
    campaign.closingtype === 'auto'
      ? ((await statusCounts(db, campaign.id)).get(campaign.id) ?? emptyCounts())
      : emptyCounts();
  const language: Language =
    isLanguage(campaign.language) && variant.languages.includes(campaign.language)
      ? campaign.language
      : variant.defaultLanguage;
  let extra: { role?: unknown; subject?: unknown } = {};
  try {
    extra = (JSON.parse(member.extra ?? '{}') as typeof extra) ?? {};
  } catch {
    extra = {};
  }
  const role = typeof extra.role === 'string' && extra.role !== '' ? extra.role : undefined;
  let subjectName: string | undefined;
  if (typeof extra.subject === 'string' && extra.subject !== member.member_id) {
    const subject = await db
      .selectFrom('members')
      .select('firstname')
      .where('id', '=', extra.subject)
      .executeTakeFirst();
    subjectName = subject?.firstname;
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

/** The first time the link is opened: status `started`, `datestarted`, `sessionurl`. */
export async function markStarted(deps: QuestionnaireDeps, participation: Participation): Promise<void> {
  const { member } = participation;
  if (member.status !== 'new' && member.status !== 'invited') return;
  await deps.db
    .updateTable('campaign_members')
    .set({
      status: 'started',
      datestarted: nowOf(deps),
      sessionurl: `${deps.config.questionnaireUrl}/q/${member.token}`,
    })
    .where('id', '=', member.id)
    .where('token', '=', member.token)
    .where('status', 'in', ['new', 'invited'])
    .execute();
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

/**
 * Saves the answers of a page under the token, unless the questionnaire was sent or the link reset
 * meanwhile (the row is locked while it is read and written, so two tabs never lose each other's
 * pages). Answers false when nothing could be saved.
 */
export async function saveAnswers(
  deps: QuestionnaireDeps,
  token: string,
  pageNumber: (participation: Participation) => number,
  form: Readonly<Record<string, unknown>>,
  requireAll: boolean,
): Promise<{ found: Lookup; submission?: PageSubmission }> {
  return deps.db.transaction().execute(async (trx) => {
    // One lookup, with the row locked: the request reads the participation once, in here.
    const found = await lookup(deps, token, trx, true);
    if (found.kind !== 'found') return { found };
    const { participation } = found;
    const number = pageNumber(participation);
    const open = participation.member.status !== 'completed' && participation.campaignStatus === 'active';
    if (!open || number === 0) return { found };
    const page = participation.variant.pages[number - 1] as Page;
    const submission = readPage(participation.variant, page, form, participation.answers, requireAll);
    await trx
      .updateTable('campaign_members')
      .set({ answers: JSON.stringify(submission.answers) })
      .where('id', '=', participation.member.id)
      .execute();
    return { found, submission };
  });
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
export async function complete(deps: QuestionnaireDeps, token: string): Promise<CompletionOutcome> {
  const outcome = await deps.db.transaction().execute(async (trx): Promise<CompletionOutcome> => {
    const found = await lookup(deps, token, trx, true);
    if (found.kind !== 'found') return { kind: 'gone' };
    const { participation } = found;
    const { member, campaign, variant } = participation;
    if (member.status === 'completed') {
      return { kind: 'completed', reportId: await completeParticipation(deps, trx, campaign, member, {}) };
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
    return { kind: 'completed', reportId: await completeParticipation(deps, trx, campaign, member, answers) };
  });
  if (outcome.kind === 'completed') deps.mailQueued();
  return outcome;
}

/** The personal report made under a token (the latest, should there be several), if any. */
export async function reportOfToken(deps: QuestionnaireDeps, token: string): Promise<string | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const row = await deps.db
    .selectFrom('reports')
    .select('id')
    .where('token', '=', token)
    .where('type', '=', 'personal')
    .orderBy('seq', 'desc')
    .executeTakeFirst();
  return row?.id;
}
