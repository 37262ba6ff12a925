import type { ReportImportResult } from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChanges } from '../audit/audit.service.js';
import type { AppContext } from '../context.js';
import { type Database, isForeignKeyViolation } from '../db/database.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { CsvError, csvToObjects } from '../util/csv.js';
import { formatDate, parseDate } from '../util/dates.js';
import { randomId, randomSecret } from '../util/ids.js';
import { canonicalEmail } from '../util/safe-text.js';
import { caseFold } from '../util/text.js';
import { scoreAnswers } from '../variants/scoring.js';
import { isLanguage, type Language, type Variant } from '../variants/variant.types.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { queueEvents } from '../webhooks/events.js';
import { AnswerError, checkAnswers, languageProblem, questionsByCode } from './answers.js';
import * as repo from './reports.repository.js';
import type { NewReportRow } from './reports.table.js';

/** What the report services need. */
export type ReportDeps = Pick<AppContext, 'db' | 'dialect' | 'variants' | 'config' | 'clock'>;

/** The most rows one import takes; a larger file is split by the caller. */
export const MAX_IMPORT_ROWS = 10_000;

/** One personal report to make: checked answers of one member, with where they came from. */
export interface PersonalReportRequest {
  readonly variant: Variant;
  readonly language: Language;
  readonly memberId: string;
  /** The member's (or campaign member's) test flag: the report's `testcase`. */
  readonly testuser: boolean;
  /** Answers as `checkAnswers` gives them. */
  readonly answers: Readonly<Record<string, number | string>>;
  readonly campaignId: string | null;
  /** The participation token the answers were given under; a new access token when null. */
  readonly token: string | null;
  /** The campaign member's `extra`, copied into `config.extra`. */
  readonly extra: Readonly<Record<string, unknown>> | null;
  /** The rater's role in a 360 (`config.campaignparams.role`). */
  readonly role: string | null;
  /** The completion moment in the wire form. */
  readonly date: string;
  /** The platform user who made it (import), for the PDF's branding when no campaign owner brands it. */
  readonly createdBy: string | null;
}

const isEmpty = (value: object | null) => value === null || Object.keys(value).length === 0;

/**
 * The stored row of a personal report: `raw` the answers, `processed` their scoring, `config`
 * `{ extra, campaignparams }`, `extra` `{ member: { basic, extras, xparam } }` (docs/reports.md).
 */
export function personalReportRow(request: PersonalReportRequest, now: string): NewReportRow {
  const campaignparams = request.role === null ? {} : { role: request.role };
  const extras = Object.entries(request.extra ?? {}).map(([name, value]) => ({ name, value }));
  return {
    id: randomId(),
    type: 'personal',
    name: null,
    variant: request.variant.alias,
    language: request.language,
    campaign_id: request.campaignId,
    member_id: request.memberId,
    token: request.token ?? randomSecret(),
    config: repo.reportObjectText({
      extra: isEmpty(request.extra) ? [] : request.extra,
      campaignparams: request.role === null ? [] : campaignparams,
    }),
    raw: repo.reportObjectText(request.answers),
    processed: repo.reportObjectText(scoreAnswers(request.variant, request.answers)),
    extra: repo.reportObjectText({
      member: { basic: [], extras, xparam: request.role === null ? null : campaignparams },
    }),
    tags: repo.tagsText([]),
    testcase: request.testuser ? 1 : 0,
    status: 'active',
    date: request.date,
    lastopened: null,
    created_by: request.createdBy,
    created: now,
  };
}

/**
 * Makes personal reports inside the caller's transaction (the questionnaire's completion, an
 * import) and answers their ids in order.
 */
export async function makePersonalReports(
  trx: Transaction<Database> | Kysely<Database>,
  requests: readonly PersonalReportRequest[],
  now: string,
): Promise<string[]> {
  const rows = requests.map((request) => personalReportRow(request, now));
  await repo.insertReports(trx, rows);
  await queueEvents(
    trx,
    'report.created',
    rows.map((row) => ({
      reportid: row.id,
      type: 'personal',
      variant: row.variant,
      memberid: row.member_id ?? null,
      campaignid: row.campaign_id ?? null,
    })),
    { now, orderKey: (data) => (data.memberid as string | null) ?? null },
  );
  return rows.map((row) => row.id);
}

/** The variant of a path, or 404. */
export function variantOf(deps: ReportDeps, alias: string): Variant {
  const lookup = lookupVariant(deps.variants, alias);
  if (!lookup.found) throw notFound('variant');
  return lookup.variant;
}

/** A row of an import as read from JSON or CSV, before it is checked. */
export type ImportRow = Record<string, unknown>;

const IMPORT_COLUMNS = new Set(['memberid', 'email', 'campaignid', 'language', 'date', 'role']);

/** The rows of a CSV import: a `memberid` or `email` column, optional columns, one per question code. */
export function importRowsFromCsv(variant: Variant, text: string): ImportRow[] {
  let csv: { names: string[]; rows: Record<string, string>[] };
  try {
    csv = csvToObjects(text);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new BusinessError(`body: not valid CSV: ${error.message}`);
  }
  const names = csv.names.map((name) => name.trim());
  if (!names.some((name) => name.toLowerCase() === 'memberid' || name.toLowerCase() === 'email')) {
    throw new BusinessError(
      'body: not valid CSV: the header has no memberid or email column (is the separator a comma?)',
    );
  }
  const codes = questionsByCode(variant);
  for (const name of names) {
    if (!IMPORT_COLUMNS.has(name.toLowerCase()) && !codes.has(name)) {
      throw new BusinessError(`body: column "${name}" is not a question code of ${variant.alias}`);
    }
  }
  if (csv.rows.length === 0) throw new BusinessError('body: the CSV has a header but no rows');
  return csv.rows.map((cells) => {
    const row: ImportRow = {};
    const answers: Record<string, string> = {};
    for (const [column, value] of Object.entries(cells)) {
      const name = column.trim();
      if (IMPORT_COLUMNS.has(name.toLowerCase())) {
        if (value.trim() !== '') row[name.toLowerCase()] = value.trim();
      } else if (value.trim() !== '') answers[name] = value;
    }
    row.answers = answers;
    return row;
  });
}

/** The largest body POST /reports/import/{variant} takes (32 MiB), and the console's upload with it. */
export const REPORT_IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The rows of an import given as text (a file uploaded to the console), read as the API reads its
 * body: CSV by `importRowsFromCsv`, JSON parsed as the API's JSON parser does (with its message).
 */
export function importRowsFromText(variant: Variant, text: string, format: 'csv' | 'json'): ImportRow[] {
  if (format === 'csv') return importRowsFromCsv(variant, text);
  const trimmed = text.trim();
  let body: unknown;
  try {
    body = trimmed === '' ? undefined : JSON.parse(trimmed);
  } catch {
    throw new BusinessError('body: not valid JSON');
  }
  return importRowsFromJson(body);
}

/** The rows of a JSON import: `{ "reports": [...] }`. */
export function importRowsFromJson(body: unknown): ImportRow[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BusinessError('reports: is required (an array of rows)');
  }
  const rows = (body as { reports?: unknown }).reports;
  if (!Array.isArray(rows)) throw new BusinessError('reports: is required (an array of rows)');
  if (rows.length === 0) throw new BusinessError('reports: has no rows');
  return rows as ImportRow[];
}

interface CampaignInfo {
  id: string;
  variant: string;
  language: string;
  creator: string | null;
}

/** What checking an import's rows answers: each valid row's report request, each bad row's problem. */
export interface ReportImportCheck {
  /** The valid rows in order, each with its place (from 1) and the report it would make. */
  readonly valid: { readonly row: number; readonly request: PersonalReportRequest }[];
  /** The bad rows in order, each with its place (from 1) and the message that names the problem. */
  readonly errors: { row: number; message: string }[];
}

/**
 * Every rule of POST /reports/import/{variant}, writing nothing: the import runs it before it
 * writes, and the console's check page runs it alone, so both refuse the same rows with the same
 * messages. A whole-request refusal (too many rows) throws a BusinessError.
 */
export async function checkReportImport(
  deps: ReportDeps,
  caller: { userId: string },
  variant: Variant,
  rows: ImportRow[],
  now: string,
): Promise<ReportImportCheck> {
  if (rows.length > MAX_IMPORT_ROWS) {
    throw new BusinessError(`reports: at most ${MAX_IMPORT_ROWS} rows a request (got ${rows.length})`);
  }
  const errors: { row: number; message: string }[] = [];

  // Look every referenced member and campaign up at once.
  const memberIds = new Set<string>();
  const emails = new Set<string>();
  const campaignIds = new Set<string>();
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    if (typeof row.memberid === 'string') memberIds.add(row.memberid);
    else if (typeof row.email === 'string') emails.add(caseFold(canonicalEmail(row.email)));
    if (typeof row.campaignid === 'string') campaignIds.add(row.campaignid);
  }
  const members = await repo.findReportSubjects(deps.db, [...memberIds], [...emails]);
  const campaigns = new Map<string, CampaignInfo>();
  for (const id of campaignIds) {
    const campaign = await repo.findReportCampaign(deps.db, id);
    if (campaign) campaigns.set(id, campaign);
  }
  const roles = new Set(variant.roles.map((role) => role.role));

  const valid: { row: number; request: PersonalReportRequest }[] = [];
  /** A row's report request, or the message that names what is wrong with it. */
  const checkRow = (row: ImportRow): PersonalReportRequest | string => {
    const fail = (message: string) => message;
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return fail('row: must be an object');
    let member: repo.ReportSubject | undefined;
    if (row.memberid !== undefined) {
      if (typeof row.memberid !== 'string') return fail('memberid: must be a string');
      member = members.byId.get(row.memberid);
      if (!member) return fail(`memberid: unknown member ${row.memberid}`);
    } else if (row.email !== undefined) {
      if (typeof row.email !== 'string') return fail('email: must be a string');
      member = members.byEmail.get(caseFold(canonicalEmail(row.email)));
      if (!member) return fail(`email: no member has the address ${row.email}`);
    } else return fail('memberid: is required (or email)');
    let campaign: CampaignInfo | undefined;
    if (row.campaignid !== undefined && row.campaignid !== null && row.campaignid !== '') {
      if (typeof row.campaignid !== 'string') return fail('campaignid: must be a string');
      campaign = campaigns.get(row.campaignid);
      if (!campaign) return fail(`campaignid: unknown campaign ${row.campaignid}`);
      if (campaign.variant !== variant.alias) {
        return fail(
          `campaignid: campaign ${campaign.id} is of variant ${campaign.variant}, not ${variant.alias}`,
        );
      }
    }
    const language = row.language ?? campaign?.language ?? variant.defaultLanguage;
    if (!isLanguage(language) || !variant.languages.includes(language)) {
      return fail(languageProblem(variant));
    }
    let date = now;
    if (row.date !== undefined && row.date !== null && row.date !== '') {
      const parsed = typeof row.date === 'string' ? parseDate(row.date) : undefined;
      if (!parsed) return fail('date: not a date (ISO 8601, e.g. 2026-11-22T11:46:36+00:00)');
      date = formatDate(parsed);
    }
    let role: string | null = null;
    if (row.role !== undefined && row.role !== null && row.role !== '') {
      if (typeof row.role !== 'string' || !roles.has(row.role)) {
        return fail(
          roles.size === 0
            ? `role: ${variant.alias} has no participant roles`
            : `role: must be one of ${[...roles].join(', ')}`,
        );
      }
      role = row.role;
    }
    let answers: Record<string, number | string>;
    try {
      answers = checkAnswers(variant, row.answers);
    } catch (error) {
      if (error instanceof AnswerError) return fail(error.message);
      throw error;
    }
    return {
      variant,
      language,
      memberId: member.id,
      testuser: member.testuser,
      answers,
      campaignId: campaign?.id ?? null,
      token: null,
      extra: null,
      role,
      date,
      createdBy: caller.userId,
    };
  };
  for (const [index, row] of rows.entries()) {
    const checked = checkRow(row);
    if (typeof checked === 'string') errors.push({ row: index + 1, message: checked });
    else valid.push({ row: index + 1, request: checked });
  }
  return { valid, errors };
}

/**
 * POST /reports/import/{variant}: each valid row becomes a personal report, each bad row is named
 * in `errors` (its place, from 1), and the valid rows are written in one transaction.
 */
export async function importReports(
  deps: ReportDeps,
  caller: { userId: string },
  variant: Variant,
  rows: ImportRow[],
  actor: Actor,
): Promise<ReportImportResult> {
  const now = formatDate(deps.clock());
  const { valid, errors } = await checkReportImport(deps, caller, variant, rows, now);
  const requests = valid.map((entry) => entry.request);
  let created: string[] = [];
  if (requests.length > 0) {
    try {
      created = await deps.db.transaction().execute(async (trx) => {
        const ids = await makePersonalReports(trx, requests, now);
        await recordChanges(
          trx,
          actor,
          ids.map((id) => ({ resource: 'report', id, action: 'import' })),
        );
        return ids;
      });
    } catch (error) {
      // A member or campaign deleted between the lookup and the write: nothing was written.
      if (isForeignKeyViolation(error)) {
        throw new BusinessError(
          'reports: a member or campaign of the import was deleted meanwhile; nothing was imported',
        );
      }
      throw error;
    }
  }
  return { created, errors };
}
