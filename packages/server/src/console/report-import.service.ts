import type { ReportImportResult } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import {
  checkReportImport,
  type ImportRow,
  importReports,
  importRowsFromText,
  type ReportDeps,
  type ReportImportCheck,
} from '../reports/personal.service.js';
import { csvLine } from '../util/csv-write.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import type { Variant } from '../variants/variant.types.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { cutoff } from './member-import.service.js';
import * as repo from './uploads.repository.js';
import type { ConsoleUploadRow } from './uploads.table.js';

// Answers imported as reports from the console, as the members import does it: the file is kept
// for the session (console_uploads, its options marked `kind: "reports"`), checked by
// POST /reports/import/{variant}'s own rules (`checkReportImport`, nothing written) and imported by
// the API's own `importReports` once the operator confirms; a second confirmation imports nothing.

/** How an upload's text is read: as the API reads a `text/csv` or an `application/json` body. */
export type ReportImportFormat = 'csv' | 'json';

/** The options kept with an upload of answers. */
export interface ReportUploadOptions {
  readonly kind: 'reports';
  readonly variant: string;
  readonly format: ReportImportFormat;
}

/**
 * The format of an uploaded text: JSON when it starts (after blanks and a byte-order mark) with
 * `{` or `[`, which no CSV header of an import can (it needs a memberid or email column); else CSV.
 */
export function formatOf(text: string): ReportImportFormat {
  return /^[\uFEFF\s]*[{[]/.test(text) ? 'json' : 'csv';
}

/**
 * The variant's columns as a CSV header: what a file of answers for it may hold. Written as every
 * CSV is (csvLine), though a question's code (a letter, then letters, digits and `_`) never needs
 * quoting or starts a formula.
 */
export function sampleCsv(variant: Variant): string {
  const columns = ['email', 'campaignid', 'language', 'date'];
  if (variant.roles.length > 0) columns.push('role');
  columns.push(...variant.questions.map((question) => question.code));
  return csvLine(columns);
}

/** Keeps a file of answers for a session (and forgets the uploads that expired); answers its id. */
export async function storeReportUpload(
  db: Kysely<Database>,
  now: Date,
  sessionIdHash: string,
  input: { name: string; content: string; variant: string },
): Promise<string> {
  await repo.deleteUploadsBefore(db, cutoff(now));
  const id = randomId(20);
  const options: ReportUploadOptions = {
    kind: 'reports',
    variant: input.variant,
    format: formatOf(input.content),
  };
  await repo.insertUpload(db, {
    id,
    session_id_hash: sessionIdHash,
    name: input.name.slice(0, 255),
    content: input.content,
    options: repo.reportUploadOptionsText(options),
    imported: null,
    created: formatDate(now),
  });
  return id;
}

/** A session's upload of answers that has not expired (another session's, or a members file, never). */
export async function findReportUpload(
  db: Kysely<Database>,
  now: Date,
  id: string,
  sessionIdHash: string,
): Promise<ConsoleUploadRow | undefined> {
  const upload = await repo.findUpload(db, id, sessionIdHash);
  return upload && upload.created >= cutoff(now) && repo.uploadKind(upload) === 'reports'
    ? upload
    : undefined;
}

export const reportUploadOptions = (upload: ConsoleUploadRow) =>
  repo.parseReportUploadOptions<ReportUploadOptions>(upload.options);

/**
 * What a check of an upload answers: the rows as the import would take them (`rows` and `check`),
 * or the whole file's refusal (`problem`), or neither when its variant is no longer installed.
 */
export interface ReportUploadCheck {
  readonly upload: ConsoleUploadRow;
  readonly options: ReportUploadOptions;
  readonly variant?: Variant;
  readonly problem?: string;
  readonly rows?: readonly ImportRow[];
  readonly check?: ReportImportCheck;
}

/** Checks an upload with the import's rules, writing nothing; undefined when it is gone. */
export async function checkReportUpload(
  deps: ReportDeps,
  id: string,
  sessionIdHash: string,
  caller: { userId: string },
): Promise<ReportUploadCheck | undefined> {
  const now = deps.clock();
  const upload = await findReportUpload(deps.db, now, id, sessionIdHash);
  if (!upload) return undefined;
  const options = reportUploadOptions(upload);
  const lookup = lookupVariant(deps.variants, options.variant);
  if (!lookup.found) return { upload, options };
  const variant = lookup.variant;
  try {
    const rows = importRowsFromText(variant, upload.content, options.format);
    const check = await checkReportImport(deps, caller, variant, rows, formatDate(now));
    return { upload, options, variant, rows, check };
  } catch (error) {
    if (error instanceof BusinessError) return { upload, options, variant, problem: error.message };
    throw error;
  }
}

/** What the import of an upload answered (once it ran), for the page that says so. */
export function importedReportResult(upload: ConsoleUploadRow): ReportImportResult | undefined {
  return upload.imported ? repo.parseReportImported<ReportImportResult>(upload.imported) : undefined;
}

/**
 * Imports an upload as POST /reports/import/{variant} does (`importReports`: same code, one
 * transaction), once: the upload is claimed first, so a confirmation posted twice, even at the same
 * moment, imports it once. Answers undefined when the upload is gone, `imported` when it was
 * imported before; a whole-file refusal throws its BusinessError and leaves the upload to confirm again.
 */
export async function confirmReportUpload(
  deps: ReportDeps,
  id: string,
  sessionIdHash: string,
  caller: { userId: string },
  actor: Actor,
): Promise<ReportImportResult | 'imported' | undefined> {
  const upload = await findReportUpload(deps.db, deps.clock(), id, sessionIdHash);
  if (!upload) return undefined;
  const claimed: ReportImportResult = { created: [], errors: [] };
  if (!(await repo.claimUpload(deps.db, id, sessionIdHash, repo.reportImportedText(claimed))))
    return 'imported';
  try {
    const options = reportUploadOptions(upload);
    const lookup = lookupVariant(deps.variants, options.variant);
    if (!lookup.found) throw new BusinessError(`variant: ${options.variant} is not installed`);
    const rows = importRowsFromText(lookup.variant, upload.content, options.format);
    const result = await importReports(deps, caller, lookup.variant, rows, actor);
    await repo.setImported(deps.db, id, repo.reportImportedText(result));
    return result;
  } catch (error) {
    // Nothing was imported (a whole-file refusal, or a failure): the upload may be confirmed again.
    await repo.setImported(deps.db, id, null);
    throw error;
  }
}
