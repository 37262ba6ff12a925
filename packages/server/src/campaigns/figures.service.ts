import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { answeredCodes } from '../questionnaire/questionnaire.repository.js';
import type { Variant } from '../variants/variant.types.js';
import { completionMoments, unfinishedAnswers } from './figures.repository.js';

/**
 * How a campaign's questionnaire goes for the people who start it: how long those who sent it took
 * (the median, from starting to sending), and where those who started and have not sent
 * stand: on which page (the page after the last one with an answer saved; page 1 when nothing is
 * saved yet), or at the check page with every page saved. Counts and durations only: no answer
 * leaves this function.
 */
export interface CampaignFigures {
  /** Members who sent, with both moments known and a time between them (imports have none). */
  readonly timed: number;
  /** The median time from starting (`datestarted`) to sending, in seconds; undefined when none is timed. */
  readonly medianSeconds?: number;
  /** Members who started and have not sent, by the page they are on (index 0 is page 1). */
  readonly onPage: readonly number[];
  /** Members who started, saved every page with an answer, and have not sent. */
  readonly atCheck: number;
}

/** The median of some numbers (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The index of the page that asks each question code of the variant. */
export function pagesByCode(variant: Pick<Variant, 'pages'>): Map<string, number> {
  const pages = new Map<string, number>();
  for (const [index, page] of variant.pages.entries())
    for (const question of page.questions) pages.set(question.code, index);
  return pages;
}

/**
 * Where a participant who has not sent stands, from the codes they answered: the index of the
 * page after the last one with an answer (0 when none has one), or the number of pages when the
 * last page has one (the check page). Codes the variant does not ask count for nothing.
 */
export function pageReached(pages: ReadonlyMap<string, number>, codes: Iterable<string>): number {
  let reached = 0;
  for (const code of codes) {
    const index = pages.get(code);
    if (index !== undefined && index + 1 > reached) reached = index + 1;
  }
  return reached;
}

/** The campaign's figures (CampaignFigures); the caller has checked access to the campaign. */
export async function campaignFigures(
  db: Kysely<Database>,
  campaignId: string,
  variant: Pick<Variant, 'pages'>,
): Promise<CampaignFigures> {
  const [moments, unfinished] = await Promise.all([
    completionMoments(db, campaignId),
    unfinishedAnswers(db, campaignId),
  ]);
  const durations: number[] = [];
  for (const { datestarted, datecompleted } of moments) {
    const seconds = (Date.parse(datecompleted) - Date.parse(datestarted)) / 1000;
    if (Number.isFinite(seconds) && seconds > 0) durations.push(seconds);
  }
  const pages = variant.pages.length;
  const byCode = pagesByCode(variant);
  const onPage = Array.from({ length: pages }, () => 0);
  let atCheck = 0;
  for (const text of unfinished) {
    const reached = pageReached(byCode, answeredCodes(text));
    if (reached >= pages) atCheck++;
    else onPage[reached] = (onPage[reached] ?? 0) + 1;
  }
  const middle = median(durations);
  return {
    timed: durations.length,
    ...(middle === undefined ? {} : { medianSeconds: middle }),
    onPage,
    atCheck,
  };
}
