import fs from 'node:fs';
import path from 'node:path';
import {
  MemberCreate,
  MemberImport,
  type MemberImportResult,
  MemberImportUpdateRow,
  type MemberImportUpdateRow as UpdateRow,
} from '@assay/schema';
import type { Kysely } from 'kysely';
import { cliActor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { IMPORT_CHUNK_ROWS, importMembers, membersFromCsv } from '../members/members.service.js';
import { caseFold, utf8Body } from '../util/text.js';
import { validate } from '../validation/validator.js';

/**
 * `assay members import FILE`: the rows of a CSV or JSON file imported by the rules of
 * POST /members/import (`importMembers`), in chunks so that a terminal can show progress.
 *
 * - CSV: a header row of field names, then one member a line (`membersFromCsv`). JSON: an array of
 *   members, or the API's body `{"members": [...], "groupid": ..., "update": ...}` (the flags win).
 *   `.csv` and `.json` files are read as such; another name by its first character.
 * - Rows are numbered from 1 as the API numbers them: the first member (the line after a CSV's
 *   header) is row 1.
 * - Each chunk is written in a transaction of its own: a chunk is kept whole or not at all, and an
 *   interrupted import keeps the chunks before it (run it again with `--update`). An e-mail given
 *   twice in the file is refused the second time, whichever chunk it falls in, as the API does.
 */

/** Errors the summary prints; `--json` gives them all. */
export const SUMMARY_ERRORS = 20;

export interface MembersFile {
  format: 'csv' | 'json';
  members: unknown[];
  groupid?: string;
  update?: boolean;
}

/** What a failure to read the file says, in one line. */
function unreadable(file: string, error: unknown): BusinessError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'is a folder, not a file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot be read (permission denied)'
          : `cannot be read (${code ?? (error as Error).message})`;
  return new BusinessError(`${file}: ${why}`);
}

/** A failure of the file's content, in the words of the API without its `body: `. */
const ofFile = (file: string, error: unknown) =>
  error instanceof BusinessError
    ? new BusinessError(`${file}: ${error.message.replace(/^body: /, '')}`)
    : error;

/** Reads and parses a members file; throws one line naming the file when it cannot be used. */
export function readMembersFile(file: string): MembersFile {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  const text = utf8Body(bytes, undefined);
  if (text === undefined) throw new BusinessError(`${file}: not UTF-8 (save it as UTF-8)`);
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new BusinessError(`${file}: the file is empty`);
  const extension = path.extname(file).toLowerCase();
  const json = extension === '.json' || (extension !== '.csv' && /^\s*[[{]/.test(body));
  if (!json) {
    let members: unknown[];
    try {
      members = membersFromCsv(body);
    } catch (error) {
      throw ofFile(file, error);
    }
    return nonEmpty(file, { format: 'csv', members });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new BusinessError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(parsed)) return nonEmpty(file, { format: 'json', members: parsed });
  if (parsed === null || typeof parsed !== 'object' || !('members' in parsed)) {
    throw new BusinessError(`${file}: JSON must be an array of members or {"members": [...]}`);
  }
  let input: MemberImport;
  try {
    input = validate(MemberImport, parsed, 'body') as MemberImport;
  } catch (error) {
    throw ofFile(file, error);
  }
  return nonEmpty(file, {
    format: 'json',
    members: input.members,
    groupid: input.groupid,
    update: input.update,
  });
}

function nonEmpty(file: string, read: MembersFile): MembersFile {
  if (read.members.length === 0) throw new BusinessError(`${file}: no members in it`);
  return read;
}

export interface ImportOptions {
  groupid?: string;
  /** Where the group id came from, for the message when there is no such group. */
  groupSource?: string;
  update?: boolean;
  /** Told before the first chunk and after each: the rows of the file done so far, of all. */
  progress?: (done: number, total: number) => void;
  chunkRows?: number;
}

/**
 * Imports the rows in chunks, each by `importMembers`, and answers one result for the whole file
 * with the file's row numbers.
 */
export async function importRows(
  db: Kysely<Database>,
  members: readonly unknown[],
  options: ImportOptions = {},
): Promise<MemberImportResult> {
  const result: MemberImportResult = { created: [], updated: [], errors: [] };
  const chunkRows = options.chunkRows ?? IMPORT_CHUNK_ROWS;
  // The API refuses an e-mail's second valid row in an import: across chunks that is found here.
  const rowSchema = options.update ? MemberImportUpdateRow : MemberCreate;
  const seen = new Set<string>();
  const rows: number[] = [];
  members.forEach((raw, index) => {
    let row: UpdateRow;
    try {
      row = validate(rowSchema, raw, 'body') as UpdateRow;
    } catch (error) {
      if (!(error instanceof BusinessError)) throw error;
      // An invalid row goes to `importMembers`, which says what is wrong with it.
      rows.push(index);
      return;
    }
    const key = caseFold(row.email);
    if (seen.has(key)) result.errors.push({ row: index + 1, message: 'email: appears twice in this import' });
    else {
      seen.add(key);
      rows.push(index);
    }
  });
  const total = members.length;
  options.progress?.(0, total);
  for (let start = 0; start < rows.length; start += chunkRows) {
    const chunk = rows.slice(start, start + chunkRows);
    let part: MemberImportResult;
    try {
      part = await importMembers(db, cliActor(), {
        members: chunk.map((index) => members[index]),
        groupid: options.groupid,
        update: options.update,
      });
    } catch (error) {
      if (error instanceof BusinessError && error.message.startsWith('groupid: no such group')) {
        const kept = result.created.length + result.updated.length;
        throw new BusinessError(
          `${options.groupSource ?? '--group'}: no group ${options.groupid}${kept > 0 ? ` (it went away during the import; ${kept} rows were written before)` : ''}`,
        );
      }
      throw error;
    }
    result.created.push(...part.created);
    result.updated.push(...part.updated);
    for (const error of part.errors) {
      result.errors.push({ row: (chunk[error.row - 1] as number) + 1, message: error.message });
    }
    // Every row up to the chunk's last is done (a second e-mail among them was refused above).
    const done = start + chunkRows >= rows.length ? total : (chunk.at(-1) as number) + 1;
    options.progress?.(done, total);
  }
  if (rows.length === 0) options.progress?.(total, total);
  result.errors.sort((a, b) => a.row - b.row);
  return result;
}

/** The summary: counts, then the first errors with their row numbers. */
export function summaryLines(file: string, result: MemberImportResult, shown = SUMMARY_ERRORS): string[] {
  const { created, updated, errors } = result;
  const lines = [
    `${file}: ${created.length} created, ${updated.length} updated, ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}${errors.length > 0 ? ' (rows counted from 1, the first member)' : ''}`,
  ];
  for (const error of errors.slice(0, shown)) lines.push(`  row ${error.row}: ${error.message}`);
  if (errors.length > shown) lines.push(`  … and ${errors.length - shown} more (--json lists them all)`);
  return lines;
}

/**
 * A progress bar drawn on one line of a terminal (`\r` and erase-to-end): what `members import`
 * shows on stderr when stderr is a terminal. `end` clears the line.
 */
export function progressBar(stream: NodeJS.WriteStream, label: string) {
  let last = '';
  return {
    update(done: number, total: number) {
      const fraction = total === 0 ? 1 : done / total;
      const counts = `${done}/${total} rows (${Math.floor(fraction * 100)}%)`;
      const room = (stream.columns || 80) - label.length - counts.length - 5;
      const width = Math.max(10, Math.min(40, room));
      const filled = Math.round(fraction * width);
      const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts}`;
      if (line === last) return;
      last = line;
      stream.write(`\r${line}\x1b[K`);
    },
    end() {
      if (last !== '') stream.write('\r\x1b[K');
    },
  };
}
