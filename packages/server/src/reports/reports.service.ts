import type {
  Report,
  ReportCounts,
  ReportData,
  ReportPatch,
  ReportShort,
  SummaryDefinition,
  SummaryResult,
} from '@assay/schema';
import type { Static } from 'typebox';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { formatDate } from '../util/dates.js';
import { caseFold } from '../util/text.js';
import { scoreAnswers, verbatims as verbatimsOf } from '../variants/scoring.js';
import { isLanguage, REPORT_TYPES, type Variant } from '../variants/variant.types.js';
import { queueEvent } from '../webhooks/events.js';
import { languageProblem, questionsByCode, variantLanguage } from './answers.js';
import { idList, knownVariant, recalcGroup } from './group.service.js';
import type { ReportDeps } from './personal.service.js';
import * as repo from './reports.repository.js';
import type { ReportRow } from './reports.table.js';
import { toMemberReport, toReport, toReportData, toReportShort } from './reports.wire.js';
import { summarize } from './statistics.js';

/** 404 unless the member, campaign or group of a path exists. */
async function requireRow(
  deps: ReportDeps,
  table: 'members' | 'campaigns' | 'groups',
  id: string,
  what: string,
): Promise<void> {
  if (!(await repo.entityExists(deps.db, table, id))) throw notFound(what);
}

async function existing(deps: ReportDeps, id: string): Promise<ReportRow> {
  const row = await repo.findReport(deps.db, id);
  if (!row) throw notFound('report');
  return row;
}

/** Every report, in the list shape, a batch at a time (see `streamReports`). */
export function allReports(deps: ReportDeps): AsyncGenerator<repo.ReportListRow[]> {
  return repo.streamReports(deps.db, { all: true });
}

/** Campaigns, members and groups whose name (or alias, or e-mail) contains the term. */
export function search(deps: ReportDeps, term: string) {
  return repo.search(deps.db, term);
}

export async function getShort(deps: ReportDeps, id: string): Promise<ReportShort> {
  const row = await repo.findReportDetail(deps.db, id);
  if (!row) throw notFound('report');
  return toReportShort(row);
}

export async function getData(deps: ReportDeps, id: string): Promise<ReportData> {
  const row = await repo.findReportDetail(deps.db, id);
  if (!row) throw notFound('report');
  return toReportData(row);
}

/** GET /reports/{id}/usage: the group reports this report feeds. */
export async function usage(deps: ReportDeps, id: string) {
  await existing(deps, id);
  return repo.streamReports(deps.db, { usedBy: id });
}

/** The MemberReport list of a member (404 for an unknown member), optionally of one campaign. */
export async function memberReports(deps: ReportDeps, memberId: string, campaignId?: string) {
  await requireRow(deps, 'members', memberId, 'member');
  if (campaignId !== undefined) {
    await requireRow(deps, 'campaigns', campaignId, 'campaign');
  }
  return (await repo.memberReports(deps.db, memberId, campaignId)).map((row) => toMemberReport(row));
}

export async function campaignReports(deps: ReportDeps, campaignId: string) {
  await requireRow(deps, 'campaigns', campaignId, 'campaign');
  return repo.streamReports(deps.db, { campaignId });
}

export async function groupReports(deps: ReportDeps, groupId: string, variant?: string) {
  await requireRow(deps, 'groups', groupId, 'group');
  return repo.streamReports(deps.db, variant === undefined ? { groupId } : { groupId, variant });
}

/**
 * Count strings by variant and type: every installed variant with every report type it offers
 * (zeros included), plus any variant that has reports but is no longer installed.
 */
export async function counts(deps: ReportDeps, groupId?: string): Promise<Static<typeof ReportCounts>> {
  if (groupId !== undefined) {
    await requireRow(deps, 'groups', groupId, 'group');
  }
  const result: Record<string, Record<string, string>> = {};
  for (const variant of deps.variants.list()) {
    const byType: Record<string, string> = {};
    for (const type of REPORT_TYPES) byType[type] = '0';
    result[variant.alias] = byType;
  }
  for (const row of await repo.countReports(deps.db, groupId)) {
    let byType = result[row.variant];
    if (byType === undefined) {
      byType = Object.fromEntries(REPORT_TYPES.map((type) => [type, '0']));
      result[row.variant] = byType;
    }
    byType[row.type] = String(row.n);
  }
  return result;
}

/** PATCH /reports/{id}: `name` (group reports), `language`, `tags`, `testcase`; the rest is fixed. */
export async function patchReport(
  deps: ReportDeps,
  id: string,
  body: ReportPatch,
  actor: Actor,
): Promise<Report> {
  const row = await existing(deps, id);
  const change: Parameters<typeof repo.updateReport>[2] = {};
  if (body.name !== undefined) {
    if (row.type === 'personal') throw new BusinessError('name: only a group report has a name');
    change.name = body.name.trim();
    if (change.name === '') throw new BusinessError('name: must not be empty');
  }
  if (body.language !== undefined) {
    const variant = deps.variants.get(row.variant);
    if (!variant) throw new BusinessError(`language: ${row.variant} is no longer installed`);
    change.language = variantLanguage(variant, body.language === '' ? undefined : body.language);
    // A group report's config names its language too: both say the same.
    const config = repo.parseReportObject(row.config);
    if ('language' in config) change.config = repo.reportObjectText({ ...config, language: change.language });
  }
  if (body.tags !== undefined) change.tags = repo.tagsText([...new Set(body.tags)]);
  if (body.testcase !== undefined)
    change.testcase = body.testcase === true || body.testcase === '1' || body.testcase === 1 ? 1 : 0;
  if (Object.keys(change).length > 0) {
    // The names the caller changed: a group report's config follows its language, as one change.
    const fields = Object.keys(change).filter((field) => field !== 'config');
    await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.updateReport(trx, id, change))) throw notFound('report');
      await recordChange(trx, actor, { resource: 'report', id, action: 'update', fields });
    });
  }
  const updated = await repo.findReportListRow(deps.db, id);
  if (!updated) throw notFound('report');
  return toReport(updated);
}

/**
 * DELETE /reports/{id}: refused while a group report uses it. The row is locked first, and a group
 * report's creation locks its sources, so a report cannot vanish under a group report being made.
 */
export async function deleteReport(deps: ReportDeps, id: string, actor: Actor): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockReport(trx, id))) throw notFound('report');
    const users = await repo.usersOf(trx, id);
    if (users.length > 0) {
      throw new BusinessError(
        `report: used by group report${users.length > 1 ? 's' : ''} ${users.join(', ')}; delete ${users.length > 1 ? 'them' : 'it'} first`,
      );
    }
    const row = (await repo.findReport(trx, id)) as ReportRow;
    await repo.deleteReport(trx, id);
    await queueEvent(
      trx,
      'report.deleted',
      { reportid: id, type: row.type, memberid: row.member_id, campaignid: row.campaign_id },
      { now: formatDate(deps.clock()), orderKey: row.member_id },
    );
    await recordChange(trx, actor, { resource: 'report', id, action: 'delete' });
  });
}

/** POST /reports/{id}/recalc: re-scores a personal report's answers, or a group report's statistics. */
export async function recalc(deps: ReportDeps, id: string, actor: Actor): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.lockReport(trx, id))) throw notFound('report');
    const row = (await repo.findReport(trx, id)) as ReportRow;
    await recordChange(trx, actor, { resource: 'report', id, action: 'recalc', fields: ['processed'] });
    if (row.type !== 'personal') return recalcGroup(deps, trx, row);
    const variant = deps.variants.get(row.variant);
    if (!variant) throw new BusinessError(`variant: ${row.variant} is no longer installed`);
    await repo.updateReport(trx, id, {
      processed: repo.reportObjectText(scoreAnswers(variant, repo.parseReportObject(row.raw))),
    });
  });
}

/** `lastopened` is the moment the PDF was last opened. */
export async function markOpened(deps: ReportDeps, id: string): Promise<void> {
  await repo.updateReport(deps.db, id, { lastopened: formatDate(deps.clock()) });
}

export interface VerbatimRow {
  reportid: string;
  code: string;
  question: string;
  answer: string;
}

/**
 * GET /reports/verbatims?reports=a,b: the free-text answers of those personal reports, each with
 * its question in the report's language, in the order selected.
 */
export async function verbatims(deps: ReportDeps, selection: unknown): Promise<VerbatimRow[]> {
  const ids = typeof selection === 'string' || Array.isArray(selection) ? idList(selection, 'reports') : [];
  if (ids.length === 0) throw new BusinessError('no reports selected');
  if (ids.length > 10_000) throw new BusinessError('reports: at most 10000 reports');
  const rows = await repo.findReports(deps.db, ids);
  const result: VerbatimRow[] = [];
  for (const id of new Set(ids)) {
    const row = rows.get(id);
    if (!row) throw new BusinessError(`reports: unknown report ${id}`);
    if (row.type !== 'personal')
      throw new BusinessError(`reports: ${id} is a ${row.type} report, not a personal report`);
    const variant = deps.variants.get(row.variant);
    if (variant) result.push(...reportVerbatims(variant, row));
  }
  return result;
}

/**
 * The free-text answers of one personal report, each with its question in the report's language:
 * what GET /reports/verbatims answers for it (the campaign export's verbatims too).
 */
export function reportVerbatims(
  variant: Variant,
  row: Pick<ReportRow, 'id' | 'language' | 'processed'>,
): VerbatimRow[] {
  const language = isLanguage(row.language) ? row.language : variant.defaultLanguage;
  return verbatimsOf(variant, repo.parseReportObject(row.processed)).map((verbatim) => ({
    reportid: row.id,
    code: verbatim.code,
    question: questionsByCode(variant).get(verbatim.code)?.texts[language] ?? verbatim.code,
    answer: verbatim.answer,
  }));
}

/** GET /reports/summary/{variant}: what POST /reports/summary computes for this variant. */
export function summaryDefinition(
  variant: Variant,
  languageParam: unknown,
): Static<typeof SummaryDefinition> {
  const language =
    typeof languageParam === 'string' &&
    isLanguage(languageParam) &&
    variant.languages.includes(languageParam)
      ? languageParam
      : variant.defaultLanguage;
  if (languageParam !== undefined && languageParam !== language)
    throw new BusinessError(languageProblem(variant));
  const texts = variant.texts[language] ?? {};
  const text = (key: string) => texts[key] ?? key;
  return {
    variant: variant.alias,
    name: text('variant.name'),
    languages: [...variant.languages],
    statistics: ['n', 'mean', 'sd', 'distribution'],
    scale: {
      min: 0,
      max: 100,
      description:
        'dimension and facet scores run from 0 to 100; question statistics are over the answers as given',
    },
    bands: variant.bands.map((band) => ({
      code: band.code,
      name: text(`band.${band.code}`),
      min: band.min,
      max: band.max,
    })),
    dimensions: variant.dimensions.flatMap((dimension) => [
      { code: dimension.code, name: text(`dimension.${dimension.code}.name`), parent: null },
      ...dimension.facets.map((facet) => ({
        code: facet,
        name: text(`facet.${facet}.name`),
        parent: dimension.code,
      })),
    ]),
    questions: variant.questions
      .filter((question) => question.type !== 'text')
      .map((question) => ({
        code: question.code,
        type: question.type,
        question: question.texts[language] ?? question.code,
        dimension: question.type === 'likert' ? (question.dimension ?? null) : null,
        points:
          question.type === 'likert'
            ? [...(variant.scales[question.scale]?.points ?? [])]
            : question.type === 'choice'
              ? [...question.options]
              : [],
      })),
  };
}

/** POST /reports/summary `{ variant, language, selectedReports }`. */
export async function summary(deps: ReportDeps, body: Record<string, unknown>): Promise<SummaryResult> {
  if (typeof body.variant !== 'string' || body.variant === '')
    throw new BusinessError('variant: is required');
  const variant = knownVariant(deps, body.variant);
  const language = variantLanguage(variant, body.language);
  const ids = idList(body.selectedReports, 'selectedReports');
  if (ids.length === 0) throw new BusinessError('selectedReports: is required (comma-separated report ids)');
  if (ids.length > 100_000) throw new BusinessError('selectedReports: at most 100000 reports');
  const unique = [...new Set(ids)];
  const rows = await repo.findReports(deps.db, unique);
  const sheets = unique.map((id) => {
    const row = rows.get(id);
    if (!row) throw new BusinessError(`selectedReports: unknown report ${id}`);
    if (row.type !== 'personal')
      throw new BusinessError(`selectedReports: ${id} is a ${row.type} report, not a personal report`);
    if (row.variant !== variant.alias)
      throw new BusinessError(`selectedReports: ${id} is a report of ${row.variant}, not ${variant.alias}`);
    return { raw: repo.parseReportObject(row.raw), processed: repo.parseReportObject(row.processed) };
  });
  return summarize(variant, language, sheets);
}

/** Reports a page of the console's list shows. */
export const REPORT_PAGE_SIZE = 50;

/** The console's report filters as asked (already checked for shape by the route). */
export interface ReportListFilter {
  readonly variant?: string;
  readonly type?: string;
  readonly campaignId?: string;
  /** Days `YYYY-MM-DD`, both included. */
  readonly from?: string;
  readonly to?: string;
  readonly name?: string;
  readonly after?: number;
  readonly before?: number;
}

export interface ReportListPage {
  readonly rows: repo.ReportPageRow[];
  /** The `seq` to page back from (newer reports), and forward from (older ones). */
  readonly previous?: number;
  readonly next?: number;
}

const nextDay = (day: string) => formatDate(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));

/**
 * A page of the report list, newest first: keyset paging on the reports' row number, one query of
 * `REPORT_PAGE_SIZE + 1` rows and no count (fast with any number of reports).
 */
export async function reportListPage(
  deps: Pick<ReportDeps, 'db'>,
  filter: ReportListFilter,
): Promise<ReportListPage> {
  const name = filter.name ? caseFold(filter.name.trim()).slice(0, 100) : undefined;
  const rows = await repo.reportPage(deps.db, {
    variant: filter.variant,
    type: filter.type,
    campaignId: filter.campaignId,
    from: filter.from ? formatDate(new Date(`${filter.from}T00:00:00Z`)) : undefined,
    to: filter.to ? nextDay(filter.to) : undefined,
    name: name || undefined,
    after: filter.after,
    before: filter.before,
    limit: REPORT_PAGE_SIZE + 1,
  });
  const more = rows.length > REPORT_PAGE_SIZE;
  const seqOf = (row: repo.ReportPageRow | undefined) => (row === undefined ? undefined : Number(row.seq));
  if (filter.before !== undefined) {
    const shown = more ? rows.slice(1) : rows;
    return { rows: shown, previous: more ? seqOf(shown[0]) : undefined, next: seqOf(shown.at(-1)) };
  }
  const shown = more ? rows.slice(0, REPORT_PAGE_SIZE) : rows;
  return {
    rows: shown,
    previous: filter.after !== undefined ? seqOf(shown[0]) : undefined,
    next: more ? seqOf(shown.at(-1)) : undefined,
  };
}

/** A report's page in the console: its detail row (the data GET /reports/{id}/data shows) and variant. */
export async function reportDetail(deps: ReportDeps, id: string) {
  const row = await repo.findReportDetail(deps.db, id);
  if (!row) throw notFound('report');
  return {
    data: toReportData(row),
    campaignName: row.campaignname,
    lastOpened: row.lastopened,
    processed: repo.parseReportObject(row.processed),
    variant: deps.variants.get(row.variant),
  };
}
