import { type Report, ReportCreate } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { type CampaignDeps, getCampaign } from '../campaigns/campaigns.service.js';
import type { Database } from '../db/database.js';
import { NotFound } from '../domain/errors.js';
import { getGroup } from '../groups/groups.service.js';
import {
  createGroupReport,
  feedbackParts,
  type GroupReportPlan,
  planGroupReport,
} from '../reports/group.service.js';
import type { ReportDeps } from '../reports/personal.service.js';
import * as reports from '../reports/reports.service.js';
import { validate } from '../validation/validator.js';
import type { ConsoleSessionRow } from './console.table.js';
import { type DraftAnswers, loadDraft, saveDraft, takeDraft } from './drafts.service.js';

/** The types the console offers: the API's four, and a 360 (a `group` report with a master). */
export const GROUP_REPORT_KINDS = ['group', 'groupanon', 'condensed', 'complete', '360'] as const;
export type GroupReportKind = (typeof GROUP_REPORT_KINDS)[number];
export const GROUP_REPORT_SOURCES = ['campaign', 'group', 'reports'] as const;
export type GroupReportSource = (typeof GROUP_REPORT_SOURCES)[number];

/** The most characters of a group report's name, as POST /reports takes it. */
export const MAX_NAME = 255;

/** The operator's choices, kept in the session's draft between the pages. */
export interface GroupReportChoice {
  readonly kind: GroupReportKind;
  readonly source: GroupReportSource;
  readonly campaign: string;
  readonly group: string;
  readonly variant: string;
  readonly language: string;
  readonly name: string;
  /** Hand-picked reports, in the order chosen. */
  readonly picked: readonly string[];
  /** A 360's subject: its self report, when the reports hold several. */
  readonly subject: string;
}

const DRAFT = 'group-report';
const MADE = 'group-report-made';

const isKind = (value: string): value is GroupReportKind =>
  (GROUP_REPORT_KINDS as readonly string[]).includes(value);
const isSource = (value: string): value is GroupReportSource =>
  (GROUP_REPORT_SOURCES as readonly string[]).includes(value);

/** The choices as a draft's strings and back; a draft that is not a whole choice is none. */
export function draftOf(choice: GroupReportChoice): DraftAnswers {
  return { ...choice, picked: choice.picked.join(',') };
}

export function choiceOf(draft: DraftAnswers): GroupReportChoice | undefined {
  const kind = draft.kind ?? '';
  const source = draft.source ?? '';
  if (!isKind(kind) || !isSource(source)) return undefined;
  return {
    kind,
    source,
    campaign: draft.campaign ?? '',
    group: draft.group ?? '',
    variant: draft.variant ?? '',
    language: draft.language ?? '',
    name: draft.name ?? '',
    subject: draft.subject ?? '',
    picked: (draft.picked ?? '').split(',').filter((id) => id !== ''),
  };
}

export async function loadChoice(db: Kysely<Database>, session: ConsoleSessionRow) {
  return choiceOf(await loadDraft(db, session, DRAFT));
}

export async function saveChoice(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  choice: GroupReportChoice,
  now: Date,
) {
  await saveDraft(db, session, DRAFT, draftOf(choice), now);
}

/** The personal reports a choice names, the 360's subject apart, and the source's own words. */
export interface GroupReportSelection {
  readonly variant: string;
  readonly ids: readonly string[];
  readonly master: string | null;
  readonly campaignId?: string;
  readonly sourceName: string;
  /** A choice the console cannot turn into a request (no reports; a 360 without one subject). */
  readonly problem?: 'unknownSource' | 'empty' | 'noSubject' | 'severalSubjects';
  readonly selfCount: number;
  /** A 360's possible subjects (their self reports) when the reports hold several. */
  readonly subjects: readonly string[];
}

async function personalIds(
  batches: AsyncGenerator<{ reportid: string; type: string; variant: string }[]>,
  variant: string,
) {
  const ids: string[] = [];
  for await (const batch of batches) {
    for (const row of batch) if (row.type === 'personal' && row.variant === variant) ids.push(row.reportid);
  }
  return ids;
}

/**
 * The reports a choice uses: a campaign's personal reports (of its variant), a group's direct
 * members' (of the chosen variant), or those hand-picked. For a 360 the one self report among them
 * is the master; the others are the raters. Unknown campaign or group: a business failure.
 */
export async function selectionOf(
  deps: ReportDeps & CampaignDeps,
  caller: { userId: string },
  choice: GroupReportChoice,
): Promise<GroupReportSelection> {
  let variant = choice.variant;
  let ids: string[];
  let campaignId: string | undefined;
  let sourceName = '';
  try {
    if (choice.source === 'campaign') {
      const campaign = await getCampaign(deps, caller, choice.campaign);
      variant = campaign.variant;
      campaignId = campaign.campaignid;
      sourceName = campaign.name;
      ids = await personalIds(await reports.campaignReports(deps, campaign.campaignid), variant);
    } else if (choice.source === 'group') {
      const group = await getGroup(deps.db, caller, choice.group);
      sourceName = group.name;
      ids = await personalIds(await reports.groupReports(deps, group.groupid, variant), variant);
    } else {
      ids = [...choice.picked];
    }
  } catch (error) {
    // Deleted since it was chosen (or never there: a form from elsewhere).
    if (error instanceof NotFound)
      return {
        variant,
        sourceName,
        selfCount: 0,
        subjects: [],
        ids: [],
        master: null,
        problem: 'unknownSource',
      };
    throw error;
  }
  const base = { variant, campaignId, sourceName, selfCount: 0, subjects: [] };
  if (ids.length === 0) return { ...base, ids, master: null, problem: 'empty' };
  if (choice.kind !== '360') return { ...base, ids, master: null };
  // A 360: the subject's self report is the master. Of several, the operator chooses one; its
  // raters are the reports answered about that subject (campaign members' `extra.subject`), and
  // those that name no subject (imported ones).
  const parts = await feedbackParts(deps, ids);
  const selves = ids.filter((id) => parts.get(id)?.role === 'self');
  const master =
    selves.length === 1 ? selves[0] : selves.includes(choice.subject) ? choice.subject : undefined;
  if (master === undefined) {
    return {
      ...base,
      ids: ids.filter((id) => parts.get(id)?.role !== 'self'),
      master: null,
      selfCount: selves.length,
      subjects: selves,
      problem: selves.length === 0 ? 'noSubject' : 'severalSubjects',
    };
  }
  const subjectMember = parts.get(master)?.memberId ?? null;
  const raters = ids.filter((id) => {
    const part = parts.get(id);
    return part?.role !== 'self' && (part?.subject === undefined || part.subject === subjectMember);
  });
  return {
    ...base,
    ids: raters,
    master,
    selfCount: selves.length,
    subjects: selves.length > 1 ? selves : [],
  };
}

/**
 * The POST /reports body of a choice and its selection, checked by the API's own schema (as the
 * route checks it) so that a refusal is the API's message.
 */
export function requestOf(
  choice: GroupReportChoice,
  selection: GroupReportSelection,
  excluded: readonly string[] = [],
): ReportCreate {
  return validate(ReportCreate, bodyOf(choice, selection, excluded), 'body') as ReportCreate;
}

function bodyOf(choice: GroupReportChoice, selection: GroupReportSelection, excluded: readonly string[]) {
  return {
    reportType: choice.kind === '360' ? 'group' : choice.kind,
    variant: selection.variant,
    ...(choice.language ? { language: choice.language } : {}),
    ...(choice.name.trim() ? { name: choice.name.trim() } : {}),
    // As lists (the schema's other form): 10,000 ids joined would pass its 100,000-character string.
    selectedReports: [...selection.ids],
    ...(selection.master ? { selectedReportsMaster: selection.master } : {}),
    ...(selection.campaignId ? { campaignid: selection.campaignId } : {}),
    ...(excluded.length > 0 ? { excludedVerbatims: [...excluded] } : {}),
  };
}

/** The check page's plan: POST /reports's own checks (`planGroupReport`), nothing written. */
export function planOf(deps: ReportDeps, choice: GroupReportChoice, selection: GroupReportSelection) {
  return planGroupReport(deps, requestOf(choice, selection));
}
export type { GroupReportPlan };

/**
 * Makes the report once: the draft is taken (deleted) by the one request that finds it, so a
 * form posted twice makes one report; the second finds the report the first made. A refusal puts
 * the draft back for the check page to show why.
 */
export async function makeOnce(
  deps: ReportDeps & CampaignDeps,
  session: ConsoleSessionRow,
  caller: { userId: string },
  excluded: readonly string[],
  reasons: ReadonlyMap<string, string>,
  actor: Actor,
): Promise<{ made: Report } | { already: string } | { gone: true }> {
  const draft = await takeDraft(deps.db, session, DRAFT);
  const choice = draft === undefined ? undefined : choiceOf(draft);
  if (draft === undefined || choice === undefined) {
    const made = (await loadDraft(deps.db, session, MADE)).reportid;
    return made ? { already: made } : { gone: true };
  }
  try {
    const selection = await selectionOf(deps, caller, choice);
    const report = await createGroupReport(deps, caller, requestOf(choice, selection, excluded), actor, {
      reasons,
    });
    await saveDraft(deps.db, session, MADE, { reportid: report.reportid }, deps.clock());
    return { made: report };
  } catch (error) {
    await saveDraft(deps.db, session, DRAFT, draft, deps.clock());
    throw error;
  }
}
