import { isUtf8 } from 'node:buffer';
import { setImmediate } from 'node:timers/promises';
import { MemberImport, type MemberImportQuery, type MemberImportResult } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { CsvError, CsvReader, csvHeader, csvObject } from '../util/csv.js';
import { validate } from '../validation/validator.js';
import {
  checkCsvShape,
  IMPORT_CHUNK_ROWS,
  type ImportMode,
  importMemberChunks,
  importMembers,
  memberFromCsv,
} from './members.service.js';

// A body of POST /members/import (up to 64 MiB, some 600,000 rows) is never parsed whole at once:
// parsing 64 MiB blocks the event loop for about a second, and the rows as objects take several
// times the body. Each body is read twice instead: first checked through to its end (so that a
// broken body is refused whole with nothing written, as before), then read a chunk of rows at a
// time as the import writes them. The event loop is given back between chunks both times.

/** Bytes of a JSON body scanned between two turns of the event loop. */
const SCAN_BYTES = 1 << 20;

/** A JSON body of the import, kept as its bytes until the import reads it a chunk at a time. */
export class JsonImportBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string | undefined,
  ) {}
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The index of the quote that closes the string opened at `at`, or -1. */
function stringEnd(bytes: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let i = quote - 1; bytes[i] === BACKSLASH; i--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Where a JSON import body's `members` array is, and where its chunks of rows start and end. */
interface JsonLayout {
  /** The body without the rows: the top-level object with `"members":[]`. */
  skeleton: string;
  /** Each chunk's bytes: the rows between two commas of the array (or its brackets). */
  chunks: [number, number][];
}

/**
 * Finds the `members` array of `{"members":[...], ...}` without parsing its rows, and the commas
 * between every IMPORT_CHUNK_ROWS-th row. Answers undefined for any body of another form, or one
 * this scan finds malformed: the caller then parses it whole, as any JSON body is, for the very
 * same answer (whose rows are not read a chunk at a time, but such a body is refused anyway).
 * The scan only cuts; JSON.parse of the skeleton and of every chunk is what checks the syntax.
 */
async function layoutJson(bytes: Buffer): Promise<JsonLayout | undefined> {
  const length = bytes.length;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (isSpace(bytes[i])) i++;
  if (bytes[i] !== OPEN_OBJECT) return undefined;
  const start = i;
  let end = -1;
  let depth = 0;
  // Inside the top-level object: whether the next string is a key, the key read last, and whether
  // its value starts at the next byte that is not white space.
  let expectKey = false;
  let key: string | undefined;
  let valueNext = false;
  // The array of the last `members` key (null: that key's value is not an array) and the one open.
  let members: { open: number; close: number; cuts: number[] } | null | undefined;
  let open: { open: number; close: number; cuts: number[] } | undefined;
  let rows = 0;
  let pause = i + SCAN_BYTES;
  for (; i < length; i++) {
    if (i >= pause) {
      await setImmediate();
      pause = i + SCAN_BYTES;
    }
    const byte = bytes[i] as number;
    if (isSpace(byte)) continue;
    if (valueNext) {
      valueNext = false;
      if (key === 'members') {
        if (byte === OPEN_ARRAY) {
          open = { open: i, close: -1, cuts: [] };
          rows = 0;
        } else members = null;
      }
    }
    if (byte === QUOTE) {
      const close = stringEnd(bytes, i);
      if (close < 0) return undefined;
      if (depth === 1 && expectKey) {
        try {
          key = JSON.parse(bytes.toString('utf8', i, close + 1)) as string;
        } catch {
          return undefined;
        }
        expectKey = false;
      }
      i = close;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      if (depth === 1) expectKey = true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 1 && open && byte === CLOSE_ARRAY) {
        open.close = i;
        members = open;
        open = undefined;
      } else if (depth === 0) {
        end = i + 1;
        break;
      } else if (depth < 0) return undefined;
    } else if (byte === COMMA) {
      if (depth === 1) expectKey = true;
      else if (depth === 2 && open && ++rows % IMPORT_CHUNK_ROWS === 0) open.cuts.push(i);
    } else if (byte === COLON && depth === 1) {
      valueNext = true;
    }
  }
  if (end < 0 || !members) return undefined;
  for (let j = end; j < length; j++) if (!isSpace(bytes[j])) return undefined;
  const chunks: [number, number][] = [];
  let from = members.open + 1;
  for (const cut of members.cuts) {
    chunks.push([from, cut]);
    from = cut + 1;
  }
  chunks.push([from, members.close]);
  const skeleton =
    bytes.toString('utf8', start, members.open + 1) + bytes.toString('utf8', members.close, end);
  return { skeleton, chunks };
}

const notJson = () => new BusinessError('body: not valid JSON');

/** The rows of one chunk of the `members` array. */
function parseChunk(bytes: Buffer, [from, to]: [number, number]): unknown[] {
  try {
    return JSON.parse(`[${bytes.toString('utf8', from, to)}]`) as unknown[];
  } catch {
    throw notJson();
  }
}

/**
 * POST /members/import with a JSON body: the same checks and answers as a body parsed whole (`body:
 * must be UTF-8`, `body: not valid JSON`, the body's fields), with the rows read and written a
 * chunk at a time.
 */
export async function importMembersFromJson(
  db: Kysely<Database>,
  actor: Actor,
  body: JsonImportBody,
): Promise<MemberImportResult> {
  const { bytes, contentType } = body;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if ((charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') || !isUtf8(bytes)) {
    throw new BusinessError('body: must be UTF-8');
  }
  const layout = await layoutJson(bytes);
  if (!layout) {
    // Not the usual form: parsed whole, as the API parses every JSON body.
    const text = bytes.toString('utf8').trim();
    let parsed: unknown = null;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw notJson();
      }
    }
    return importMembers(db, actor, validate(MemberImport, parsed, 'body') as MemberImport);
  }
  let top: unknown;
  try {
    top = JSON.parse(layout.skeleton);
  } catch {
    throw notJson();
  }
  // The rows are checked through to the end before anything is written: a comma too many in the
  // last row refuses the body whole, as it always has.
  for (const chunk of layout.chunks) {
    const rows = parseChunk(bytes, chunk);
    // A chunk of no rows between two commas is a missing row (`[{}, , {}]`).
    if (rows.length === 0 && layout.chunks.length > 1) throw notJson();
    await setImmediate();
  }
  const input = validate(MemberImport, top, 'body') as MemberImport;
  return importMemberChunks(db, input, jsonChunks(bytes, layout.chunks), { actor });
}

function* jsonChunks(bytes: Buffer, chunks: [number, number][]): Generator<unknown[]> {
  for (const chunk of chunks) yield parseChunk(bytes, chunk);
}

/**
 * POST /members/import with a CSV body: the same checks and answers as `membersFromCsv` on the whole
 * text (a broken file is refused whole, with the message it always had), with the rows read and
 * written a chunk at a time.
 */
export async function importMembersFromCsv(
  db: Kysely<Database>,
  text: string,
  query: MemberImportQuery,
  mode: ImportMode,
): Promise<MemberImportResult> {
  const reader = new CsvReader(text);
  let names: string[] = [];
  let problem: CsvError | undefined;
  // What the text's own shape refuses; anything else is thrown.
  const csvProblem = (error: unknown): CsvError => {
    if (!(error instanceof CsvError)) throw error;
    return error;
  };
  // Where each chunk's first row starts.
  const starts: number[] = [];
  let rows = 0;
  try {
    const header = reader.next();
    if (header) {
      try {
        names = csvHeader(header);
      } catch (error) {
        problem = csvProblem(error);
      }
    }
    for (
      let at = reader.position, cells = reader.next();
      cells;
      at = reader.position, cells = reader.next()
    ) {
      if (rows % IMPORT_CHUNK_ROWS === 0) starts.push(at);
      rows++;
      if (problem === undefined) {
        try {
          csvObject(names, cells, rows);
        } catch (error) {
          problem = csvProblem(error);
        }
      }
      if (rows % IMPORT_CHUNK_ROWS === 0) await setImmediate();
    }
  } catch (error) {
    // A quote never closed: found at the end, it is what the whole file is refused for.
    problem = csvProblem(error);
  }
  if (problem) throw new BusinessError(`body: not valid CSV: ${problem.message}`);
  checkCsvShape(names, rows);
  return importMemberChunks(db, query, csvChunks(text, names, starts), mode);
}

function* csvChunks(text: string, names: string[], starts: number[]): Generator<unknown[]> {
  let row = 0;
  for (const start of starts) {
    const reader = new CsvReader(text, start);
    const members: unknown[] = [];
    while (members.length < IMPORT_CHUNK_ROWS) {
      const cells = reader.next();
      if (!cells) break;
      members.push(memberFromCsv(csvObject(names, cells, ++row)));
    }
    yield members;
  }
}
