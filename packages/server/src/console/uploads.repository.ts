import type { MemberImportQuery, MemberImportResult } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { isJsonObject, parseJsonColumn } from '../db/json-columns.js';
import type { ConsoleUploadRow } from './uploads.table.js';

// Files uploaded to the console (uploads.table.ts), each bound to the session that uploaded it.

export async function insertUpload(db: Kysely<Database>, row: ConsoleUploadRow): Promise<void> {
  await db.insertInto('console_uploads').values(row).execute();
}

/** An upload of this session, or undefined (another session's is never found). */
export async function findUpload(
  db: Kysely<Database>,
  id: string,
  sessionIdHash: string,
): Promise<ConsoleUploadRow | undefined> {
  return db
    .selectFrom('console_uploads')
    .selectAll()
    .where('id', '=', id)
    .where('session_id_hash', '=', sessionIdHash)
    .executeTakeFirst();
}

/**
 * Marks an upload as being imported, only if no import of it has started: one conditional
 * statement, so that of two confirmations posted at once exactly one imports.
 */
export async function claimUpload(
  db: Kysely<Database>,
  id: string,
  sessionIdHash: string,
  mark: string,
): Promise<boolean> {
  const result = await db
    .updateTable('console_uploads')
    .set({ imported: mark })
    .where('id', '=', id)
    .where('session_id_hash', '=', sessionIdHash)
    .where('imported', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setImported(db: Kysely<Database>, id: string, imported: string | null): Promise<void> {
  await db.updateTable('console_uploads').set({ imported }).where('id', '=', id).execute();
}

/** Deletes uploads made before `before`, and (once imported) their content with them. */
export async function deleteUploadsBefore(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('console_uploads').where('created', '<', before).execute();
}

/**
 * What an upload is for: the members import (options `{ groupid, update }`) or, when its options
 * say `kind: "reports"`, the import of answers as reports. Each import finds only its own uploads.
 */
export function uploadKind(upload: ConsoleUploadRow): 'members' | 'reports' {
  const options = parseJsonColumn(upload.options);
  return isJsonObject(options) && options.kind === 'reports' ? 'reports' : 'members';
}

/** The `options` column's codec: the import's options (group, update) as the upload form gave them. */
export const parseUploadOptions = (text: string): MemberImportQuery => JSON.parse(text) as MemberImportQuery;
export const uploadOptionsText = (options: MemberImportQuery): string => JSON.stringify(options);

/** The `imported` column's codec: what the import of the upload answered. */
export const parseImported = (text: string): MemberImportResult => JSON.parse(text) as MemberImportResult;
export const importedText = (result: MemberImportResult): string => JSON.stringify(result);

/** The `options` column's codec for a file of answers: its questionnaire (the report import's form). */
export const parseReportUploadOptions = <T>(text: string): T => JSON.parse(text) as T;
/** The `imported` column's codec for a file of answers: what the report import answered. */
export const parseReportImported = <T>(text: string): T => JSON.parse(text) as T;
/** The options of an upload of answers, as its column holds them. */
export const reportUploadOptionsText = (options: object): string => JSON.stringify(options);
/** The result of an import of answers, as its column holds it. */
export const reportImportedText = (result: object): string => JSON.stringify(result);
