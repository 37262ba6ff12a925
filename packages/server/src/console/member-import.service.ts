import type { MemberImportQuery, MemberImportResult } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { importMembersFromCsv } from '../members/import-body.js';
import { CsvReader } from '../util/csv.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import * as repo from './uploads.repository.js';
import type { ConsoleUploadRow } from './uploads.table.js';

// The console's CSV import, the GOV.UK Notify way: the file is kept server-side (bound to the
// session), checked by POST /members/import's own code in its `check` mode (nothing written), and
// imported by that same code once the operator confirms; a second confirmation imports nothing.

/** How long an upload waits for its confirmation. */
export const UPLOAD_HOURS = 24;

/** What a check of an upload answers: each row as the import would answer it, or the whole file's problem. */
export type UploadCheck =
  | { readonly upload: ConsoleUploadRow; readonly result: MemberImportResult; readonly problem?: undefined }
  | { readonly upload: ConsoleUploadRow; readonly problem: string; readonly result?: undefined };

/** The moment before which an upload has expired. */
export const cutoff = (now: Date) => formatDate(new Date(now.getTime() - UPLOAD_HOURS * 3_600_000));

/** Keeps a file for a session (and forgets the uploads that expired); answers its id. */
export async function storeUpload(
  db: Kysely<Database>,
  now: Date,
  sessionIdHash: string,
  input: { name: string; content: string; options: MemberImportQuery },
): Promise<string> {
  await repo.deleteUploadsBefore(db, cutoff(now));
  const id = randomId(20);
  await repo.insertUpload(db, {
    id,
    session_id_hash: sessionIdHash,
    name: input.name.slice(0, 255),
    content: input.content,
    options: repo.uploadOptionsText(input.options),
    imported: null,
    created: formatDate(now),
  });
  return id;
}

/** A session's upload that has not expired. */
async function uploadOf(db: Kysely<Database>, now: Date, id: string, sessionIdHash: string) {
  const upload = await repo.findUpload(db, id, sessionIdHash);
  return upload && upload.created >= cutoff(now) && repo.uploadKind(upload) === 'members'
    ? upload
    : undefined;
}

const optionsOf = (upload: ConsoleUploadRow) => repo.parseUploadOptions(upload.options);

/** Checks an upload with the import's rules, writing nothing; undefined when it is gone. */
export async function checkUpload(
  db: Kysely<Database>,
  now: Date,
  id: string,
  sessionIdHash: string,
): Promise<UploadCheck | undefined> {
  const upload = await uploadOf(db, now, id, sessionIdHash);
  if (!upload) return undefined;
  try {
    return { upload, result: await importMembersFromCsv(db, upload.content, optionsOf(upload), 'check') };
  } catch (error) {
    if (error instanceof BusinessError) return { upload, problem: error.message };
    throw error;
  }
}

/** What the import of an upload answered (once it ran), for the page that says so. */
export function importedResult(upload: ConsoleUploadRow): MemberImportResult | undefined {
  return upload.imported ? repo.parseImported(upload.imported) : undefined;
}

/** An upload of the session as it is now (imported or not), undefined when gone. */
export const findUpload = uploadOf;

/**
 * Imports an upload as POST /members/import does (same code, same transactions), once: the upload
 * is claimed first, so a confirmation posted twice, even at the same moment, imports it once.
 * Answers undefined when the upload is gone, `imported` when it was imported before.
 */
export async function confirmUpload(
  db: Kysely<Database>,
  actor: Actor,
  now: Date,
  id: string,
  sessionIdHash: string,
): Promise<MemberImportResult | 'imported' | undefined> {
  const upload = await uploadOf(db, now, id, sessionIdHash);
  if (!upload) return undefined;
  if (
    !(await repo.claimUpload(
      db,
      id,
      sessionIdHash,
      repo.importedText({ created: [], updated: [], errors: [] }),
    ))
  ) {
    return 'imported';
  }
  try {
    const result = await importMembersFromCsv(db, upload.content, optionsOf(upload), { actor });
    await repo.setImported(db, id, repo.importedText(result));
    return result;
  } catch (error) {
    // Nothing was imported (a whole-file refusal): the upload may be confirmed again.
    await repo.setImported(db, id, null);
    throw error;
  }
}

/** The file's header and the rows of these numbers (1-based, as the import numbers them). */
export function csvRows(
  text: string,
  wanted: ReadonlySet<number>,
): { names: string[]; rows: Map<number, string[]> } {
  const reader = new CsvReader(text);
  const names = reader.next() ?? [];
  const rows = new Map<number, string[]>();
  const last = Math.max(0, ...wanted);
  for (let row = 1; row <= last; row++) {
    const cells = reader.next();
    if (!cells) break;
    if (wanted.has(row)) rows.set(row, cells);
  }
  return { names: names.map((name) => name.trim()), rows };
}
