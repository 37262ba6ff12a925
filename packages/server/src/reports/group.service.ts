import { GROUP_REPORT_TYPES, type Report, type ReportCreate } from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import { parseCampaignConfig } from '../campaigns/campaigns.repository.js';
import { type Database, isForeignKeyViolation } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { type RaterGroup, raterGroupOf, raterParticipation } from '../pdf/feedback-model.js';
import { formatDate } from '../util/dates.js';
import { randomId, randomSecret } from '../util/ids.js';
import { isStorableText } from '../util/text.js';
import { isLanguage, type Language, type Variant } from '../variants/variant.types.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { queueEvent } from '../webhooks/events.js';
import { variantLanguage } from './answers.js';
import type { ReportDeps } from './personal.service.js';
import * as repo from './reports.repository.js';
import type { ReportRow } from './reports.table.js';
import { toReport } from './reports.wire.js';
import { type Sheet, summarize } from './statistics.js';

/** The fewest personal reports an anonymous group report shows (or the campaign's minparticipants). */
export const ANONYMOUS_MINIMUM = 3;

/** The most personal reports one group report takes. */
export const MAX_SELECTED = 10_000;

export type GroupReportType = (typeof GROUP_REPORT_TYPES)[number];

/** `a,b,c` or `["a","b"]` as a list of trimmed ids, blanks left out. */
export function idList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (parts === undefined) throw new BusinessError(`${field}: must be a comma-separated list of report ids`);
  const ids: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string')
      throw new BusinessError(`${field}: must be a comma-separated list of report ids`);
    const id = part.trim();
    if (id !== '') ids.push(id);
  }
  return ids;
}

/** A variant named in a request body: a business failure when none is installed under that alias. */
export function knownVariant(deps: Pick<ReportDeps, 'variants'>, alias: string): Variant {
  const lookup = lookupVariant(deps.variants, alias);
  if (!lookup.found) throw new BusinessError(`variant: unknown variant ${lookup.alias}`);
  return lookup.variant;
}

/** The role a personal report was given under (`config.campaignparams.role`), if any. */
export function roleOf(row: Pick<ReportRow, 'config'>): string | undefined {
  const params = repo.parseReportObject(row.config).campaignparams as { role?: unknown } | null | undefined;
  const role = params?.role;
  return typeof role === 'string' && role !== '' ? role : undefined;
}

type Db = Kysely<Database> | Transaction<Database>;

/** What a 360 needs to know of a personal report: its role, its member, and whose rater it is. */
export interface FeedbackPart {
  readonly role: string | undefined;
  readonly memberId: string | null;
  /** The subject (a member id) a rater answered about, from the campaign member's `extra`. */
  readonly subject: string | undefined;
}

/** The 360 parts of these reports (`roleOf`, `config.extra.subject`); unknown ids left out. */
export async function feedbackParts(
  deps: Pick<ReportDeps, 'db'>,
  ids: readonly string[],
): Promise<Map<string, FeedbackPart>> {
  const rows = await repo.findReports(deps.db, ids);
  return new Map(
    [...rows.values()].map((row) => {
      const extra = repo.parseReportObject(row.config).extra as { subject?: unknown } | null | undefined;
      const subject = typeof extra?.subject === 'string' && extra.subject !== '' ? extra.subject : undefined;
      return [row.id, { role: roleOf(row), memberId: row.member_id, subject }];
    }),
  );
}

/** The list rows of reports chosen by hand, in the order chosen (the console's picking page). */
export function chosenReports(deps: Pick<ReportDeps, 'db'>, ids: readonly string[]) {
  return repo.findReportListRows(deps.db, ids);
}

/** Why each left-out free-text answer of a group report was left out, as the console gave it. */
export function verbatimReasons(deps: Pick<ReportDeps, 'db'>, reportId: string) {
  return repo.verbatimReasonsOf(deps.db, reportId);
}

/** A checked POST /reports. */
interface GroupRequest {
  type: GroupReportType;
  variant: Variant;
  language: Language;
  name: string;
  selected: string[];
  master: string | null;
  memberId: string | null;
  campaignId: string | null;
  excluded: string[];
}

function checkRequest(
  deps: ReportDeps,
  body: ReportCreate,
): Omit<GroupRequest, 'name' | 'campaignId' | 'memberId'> & {
  name: string | undefined;
  campaignId: string | undefined;
  memberId: string | undefined;
} {
  const given = (body.reportType ?? body.type ?? '').trim();
  if (given === '')
    throw new BusinessError(`reportType: is required (one of ${GROUP_REPORT_TYPES.join(', ')})`);
  if (!(GROUP_REPORT_TYPES as readonly string[]).includes(given)) {
    throw new BusinessError(
      given === 'personal'
        ? 'reportType: a personal report is made by completing a questionnaire or by POST /reports/import/{variant}'
        : `reportType: must be one of ${GROUP_REPORT_TYPES.join(', ')}`,
    );
  }
  const type = given as GroupReportType;
  if (body.variant === undefined || body.variant === '') throw new BusinessError('variant: is required');
  const variant = knownVariant(deps, String(body.variant));
  if (!variant.reportTypes.includes(type)) {
    throw new BusinessError(`reportType: ${variant.alias} offers ${variant.reportTypes.join(', ')}`);
  }
  const language = variantLanguage(variant, body.language);
  const selected = idList(body.selectedReports, 'selectedReports');
  if (selected.length === 0)
    throw new BusinessError('selectedReports: is required (comma-separated report ids)');
  if (selected.length > MAX_SELECTED)
    throw new BusinessError(`selectedReports: at most ${MAX_SELECTED} reports`);
  const seen = new Set<string>();
  for (const id of selected) {
    if (seen.has(id)) throw new BusinessError(`selectedReports: ${id} is selected twice`);
    seen.add(id);
  }
  const master = (body.selectedReportsMaster ?? '').trim() || null;
  if (master !== null) {
    if (type !== 'group')
      throw new BusinessError('selectedReportsMaster: only a group (360) report takes a master report');
    if (seen.has(master))
      throw new BusinessError(`selectedReportsMaster: ${master} is also in selectedReports`);
  }
  return {
    type,
    variant,
    language,
    name: body.name?.trim() || undefined,
    selected,
    master,
    memberId: (body.selectedMember ?? '').trim() || undefined,
    campaignId: (body.campaignid ?? '').trim() || undefined,
    excluded: excludedAnswers(
      body.excludedVerbatims,
      variant,
      master === null ? seen : new Set([...seen, master]),
    ),
  };
}

/**
 * `excludedVerbatims`: each `<reportid>:<code>` names a free-text question of the variant, and each
 * report (bare or with a code) is one of the selection; throws naming the entry.
 */
function excludedAnswers(value: unknown, variant: Variant, selection: ReadonlySet<string>): string[] {
  const entries = idList(value, 'excludedVerbatims');
  for (const entry of entries) {
    const [reportId = '', code, ...rest] = entry.split(':');
    if (!selection.has(reportId))
      throw new BusinessError(`excludedVerbatims: ${reportId} is not a selected report`);
    if (
      rest.length > 0 ||
      (code !== undefined && !variant.questions.some((q) => q.code === code && q.type === 'text'))
    )
      throw new BusinessError(
        `excludedVerbatims: ${entry} is not <reportid> or <reportid>:<code> of a free-text question of ${variant.alias}`,
      );
  }
  return entries;
}

/** Checks that a selected report may feed this group report; throws naming the field. */
function checkSource(row: ReportRow | undefined, id: string, field: string, variant: Variant): ReportRow {
  if (!row) throw new BusinessError(`${field}: unknown report ${id}`);
  if (row.type !== 'personal')
    throw new BusinessError(`${field}: ${id} is a ${row.type} report, not a personal report`);
  if (row.variant !== variant.alias) {
    throw new BusinessError(`${field}: ${id} is a report of ${row.variant}, not ${variant.alias}`);
  }
  return row;
}

/** The group's statistics, stored as the group report's `processed` (no names in it). */
export function groupProcessed(variant: Variant, language: Language, rows: readonly ReportRow[]) {
  const sheets: Sheet[] = rows.map((row) => ({
    raw: repo.parseReportObject(row.raw),
    processed: repo.parseReportObject(row.processed),
  }));
  return summarize(variant, language, sheets);
}

/**
 * POST /reports: a group-type report over personal reports of one variant. Checks the selection
 * (every id known, personal, of the variant, once; a 360's master a self report; the anonymity
 * minimum), then writes the report and its sources in one transaction, the sources locked so that
 * none can be deleted before the group report that uses it is recorded.
 */
export async function createGroupReport(
  deps: ReportDeps,
  caller: { userId: string },
  body: ReportCreate,
  actor: Actor,
  options: { reasons?: ReadonlyMap<string, string> } = {},
): Promise<Report> {
  const request = checkRequest(deps, body);
  const reasons = options.reasons === undefined ? [] : checkReasons(request.excluded, options.reasons);
  const { variant, type, language, selected, master } = request;
  const now = formatDate(deps.clock());
  const id = randomId();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const ids = master === null ? selected : [master, ...selected];
      const rows = await repo.lockSourceReports(trx, ids);
      const { sources, masterRow, campaignId, minimum } = await planSelection(trx, request, rows);
      if (minimum !== null && sources.length < minimum) {
        throw new BusinessError(
          `selectedReports: an anonymous group report needs at least ${minimum} reports (got ${sources.length})`,
        );
      }
      let memberId = masterRow?.member_id ?? null;
      if (request.memberId !== undefined) {
        if (!(await repo.memberExists(trx, request.memberId)))
          throw new BusinessError(`selectedMember: unknown member ${request.memberId}`);
        memberId = request.memberId;
      }
      const texts = variant.texts[language] ?? {};
      await repo.insertReports(trx, [
        {
          id,
          type,
          name: request.name ?? texts[`report.${type}.title`] ?? type,
          variant: variant.alias,
          language,
          campaign_id: campaignId,
          member_id: memberId,
          token: randomSecret(),
          config: repo.reportObjectText({
            variant: variant.alias,
            language,
            reportType: type,
            selectedReports: selected.join(','),
            selectedReportsMaster: master ?? '',
            selectedMember: request.memberId ?? '',
            excludedVerbatims: request.excluded.join(','),
          }),
          raw: repo.reportObjectText({}),
          processed: repo.reportObjectText(groupProcessed(variant, language, sources)),
          extra: repo.reportObjectText({ member: { basic: [], extras: [], xparam: null } }),
          tags: repo.tagsText([]),
          testcase: sources.every((row) => row.testcase === 1) ? 1 : 0,
          status: 'active',
          date: now,
          lastopened: null,
          created_by: caller.userId,
          created: now,
        },
      ]);
      await repo.insertSources(trx, id, [
        ...(master === null ? [] : [{ id: master, position: -1 }]),
        ...selected.map((source, position) => ({ id: source, position })),
      ]);
      if (reasons.length > 0) await repo.insertVerbatimReasons(trx, id, reasons);
      await queueEvent(
        trx,
        'report.created',
        { reportid: id, type, variant: variant.alias, memberid: memberId, campaignid: campaignId },
        { now, orderKey: memberId },
      );
      await recordChange(trx, actor, { resource: 'report', id, action: 'create' });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new BusinessError(
        'selectedReports: a selected report or member was deleted meanwhile; nothing was made',
      );
    }
    throw error;
  }
  const row = await repo.findReportListRow(deps.db, id);
  if (!row) throw new BusinessError('report: deleted meanwhile');
  return toReport(row);
}

/** The most characters a reason for leaving out a free-text answer may have. */
export const MAX_REASON = 500;

/**
 * Why each left-out free-text answer is left out (the console asks; the API's POST /reports takes
 * none): every entry of `excludedVerbatims` needs a reason, and a reason needs an entry. Kept
 * beside the report (`report_verbatim_reasons`), not in its config, so no wire shape changes.
 */
function checkReasons(
  excluded: readonly string[],
  reasons: ReadonlyMap<string, string>,
): { entry: string; reason: string }[] {
  for (const entry of reasons.keys()) {
    if (!excluded.includes(entry))
      throw new BusinessError(`excludedVerbatims: ${entry} has a reason but is not left out`);
  }
  return excluded.map((entry) => {
    const reason = (reasons.get(entry) ?? '').trim();
    if (reason === '') throw new BusinessError(`excludedVerbatims: a reason is required for ${entry}`);
    if (!isStorableText(reason))
      throw new BusinessError(`excludedVerbatims: the reason for ${entry} is not valid text`);
    if ([...reason].length > MAX_REASON)
      throw new BusinessError(
        `excludedVerbatims: the reason for ${entry} has more than ${MAX_REASON} characters`,
      );
    return { entry, reason };
  });
}

/**
 * The checks of a selection against its rows (read, or locked by the caller): every report known,
 * personal, of the variant; a 360's roles; the campaign. Also the anonymity minimum, which the
 * caller enforces (making) or shows (planning).
 */
async function planSelection(
  db: Db,
  request: ReturnType<typeof checkRequest>,
  rows: ReadonlyMap<string, ReportRow>,
) {
  const { variant, selected, master, type } = request;
  const sources = selected.map((source) => checkSource(rows.get(source), source, 'selectedReports', variant));
  const masterRow =
    master === null ? undefined : checkSource(rows.get(master), master, 'selectedReportsMaster', variant);
  check360(variant, sources, masterRow);
  const campaignId = await campaignOf(
    db,
    request.campaignId,
    variant,
    masterRow ? [masterRow, ...sources] : sources,
  );
  const minimum =
    type === 'groupanon' ? Math.max(ANONYMOUS_MINIMUM, await minParticipants(db, campaignId)) : null;
  return { sources, masterRow, campaignId, minimum };
}

/** What POST /reports would make of a body, found by its own checks, without making anything. */
export interface GroupReportPlan {
  readonly type: GroupReportType;
  readonly variant: string;
  readonly language: Language;
  /** The personal reports it would use (a 360's raters; its master apart). */
  readonly count: number;
  readonly master: string | null;
  readonly campaignId: string | null;
  /** An anonymous report's minimum (3, or the campaign's larger minparticipants) and whether it is met. */
  readonly anonymous?: { readonly minimum: number; readonly met: boolean };
  /** A 360's rater groups, each shown or left out by the anonymity minimum of a rater group. */
  readonly raterGroups?: readonly RaterGroup[];
  readonly excluded: readonly string[];
}

/**
 * The check before making a group report (the console's check page): the very checks of
 * `createGroupReport`, refusing with its messages, except that an anonymous report below its
 * minimum is answered as not met rather than refused. Writes nothing.
 */
export async function planGroupReport(deps: ReportDeps, body: ReportCreate): Promise<GroupReportPlan> {
  const request = checkRequest(deps, body);
  const ids = request.master === null ? request.selected : [request.master, ...request.selected];
  const rows = await repo.findReports(deps.db, ids);
  const { sources, masterRow, campaignId, minimum } = await planSelection(deps.db, request, rows);
  const counts = new Map<string, number>();
  for (const row of sources) {
    const code = raterGroupOf(request.variant, roleOf(row));
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return {
    type: request.type,
    variant: request.variant.alias,
    language: request.language,
    count: sources.length,
    master: masterRow?.id ?? null,
    campaignId,
    ...(minimum === null ? {} : { anonymous: { minimum, met: sources.length >= minimum } }),
    ...(masterRow === undefined
      ? {}
      : { raterGroups: raterParticipation(request.variant, request.language, counts) }),
    excluded: request.excluded,
  };
}

/**
 * A 360: with a master, the master is the subject's self report and the others are raters; without
 * one, no selected report may carry a rater role (that would be a 360 without its subject).
 */
function check360(variant: Variant, sources: readonly ReportRow[], master: ReportRow | undefined): void {
  const roles = new Set(variant.roles.map((role) => role.role));
  if (master) {
    const role = roleOf(master);
    if (roles.has('self') && role !== undefined && role !== 'self') {
      throw new BusinessError(
        `selectedReportsMaster: ${master.id} is a ${role} report, not the subject's self report`,
      );
    }
    for (const row of sources) {
      if (roleOf(row) === 'self') {
        throw new BusinessError(
          `selectedReports: ${row.id} is a self report; a 360 takes one, as selectedReportsMaster`,
        );
      }
    }
    return;
  }
  for (const row of sources) {
    const role = roleOf(row);
    if (role !== undefined && role !== 'self') {
      throw new BusinessError(
        `selectedReportsMaster: is required: ${row.id} is a ${role} report, and a 360 report needs the subject's self report`,
      );
    }
  }
}

async function campaignOf(trx: Db, given: string | undefined, variant: Variant, rows: readonly ReportRow[]) {
  if (given !== undefined) {
    const campaign = await repo.findCampaignVariant(trx, given);
    if (!campaign) throw new BusinessError(`campaignid: unknown campaign ${given}`);
    // As an import: a report lists under a campaign of its own variant only.
    if (campaign.variant !== variant.alias)
      throw new BusinessError(
        `campaignid: campaign ${campaign.id} is of variant ${campaign.variant}, not ${variant.alias}`,
      );
    return campaign.id;
  }
  const first = rows[0]?.campaign_id ?? null;
  return first !== null && rows.every((row) => row.campaign_id === first) ? first : null;
}

async function minParticipants(trx: Db, campaignId: string | null): Promise<number> {
  if (campaignId === null) return 0;
  const config = await repo.findCampaignConfig(trx, campaignId);
  const value = config === undefined ? undefined : (parseCampaignConfig(config).minparticipants as unknown);
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Recomputes a group report's statistics from its sources (recalc). */
export async function recalcGroup(
  deps: ReportDeps,
  trx: Transaction<Database>,
  row: ReportRow,
): Promise<void> {
  const variant = deps.variants.get(row.variant);
  if (!variant) throw new BusinessError(`variant: ${row.variant} is no longer installed`);
  const sources = await repo.sourcesOf(trx, row.id);
  const found = await repo.findReports(
    trx,
    sources.filter((source) => source.position >= 0).map((source) => source.id),
  );
  const rows = [...found.values()];
  const language = isLanguage(row.language) ? row.language : variant.defaultLanguage;
  await repo.updateReport(trx, row.id, {
    processed: repo.reportObjectText(groupProcessed(variant, language, rows)),
  });
}
