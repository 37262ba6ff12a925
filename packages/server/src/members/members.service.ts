import { setImmediate } from 'node:timers/promises';
import {
  type MemberCreate,
  MemberCreate as MemberCreateSchema,
  type MemberDetail,
  type MemberImportResult,
  type MemberImportUpdateRow,
  MemberImportUpdateRow as MemberImportUpdateRowSchema,
  type MemberPatch,
} from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { type Change, recordChange, recordChanges } from '../audit/audit.service.js';
import { writeInChunks } from '../db/chunk-transactions.js';
import { type Database, isUniqueViolation, orWhenRaced } from '../db/database.js';
import { accessDenied, BusinessError, notFound } from '../domain/errors.js';
import { groupExists } from '../groups/groups.repository.js';
import { CsvError, csvToObjects } from '../util/csv.js';
import { nowText } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import { canonicalEmail } from '../util/safe-text.js';
import { caseFold, isStorableText } from '../util/text.js';
import { validate } from '../validation/validator.js';
import * as repo from './members.repository.js';
import type { MemberRow, MemberUpdate, NewMemberRow } from './members.table.js';

const emailTaken = () => new BusinessError('email: already exists');

function toDetail(row: MemberRow, useraccount: boolean): MemberDetail {
  return {
    memberid: row.id,
    title: row.title,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    email: row.email,
    status: row.status,
    level: row.level,
    groupid: row.group_id,
    createdon: row.created,
    testuser: row.testuser === 1,
    extra: repo.parseExtra(row.extra) as MemberDetail['extra'],
    // Questionnaire sessions come with campaigns; until then no member has a live one.
    activeusersession: false,
    useraccount,
  };
}

function newRow(input: MemberCreate, created: string): NewMemberRow {
  // Normalised here too for callers that bring an address the validator never saw (sign-up, demo).
  const email = canonicalEmail(input.email);
  return {
    id: randomId(),
    // The detail shape gives these as strings: unset is empty.
    title: input.title ?? '',
    firstname: input.firstname,
    middlename: input.middlename ?? '',
    lastname: input.lastname,
    email,
    email_key: caseFold(email),
    phone: input.phone ?? '',
    company: input.company ?? '',
    jobtitle: input.jobtitle ?? '',
    status: input.status === undefined ? 'active' : input.status,
    level: input.level ?? null,
    testuser: input.testuser ? 1 : 0,
    group_id: null,
    extra: repo.extraText(input.extra),
    created,
  };
}

function changeOf(input: MemberPatch): MemberUpdate {
  const change: MemberUpdate = {};
  if (input.title !== undefined) change.title = input.title ?? '';
  if (input.firstname !== undefined) change.firstname = input.firstname;
  if (input.middlename !== undefined) change.middlename = input.middlename ?? '';
  if (input.lastname !== undefined) change.lastname = input.lastname;
  if (input.email !== undefined) {
    change.email = canonicalEmail(input.email);
    change.email_key = caseFold(change.email);
  }
  if (input.phone !== undefined) change.phone = input.phone ?? '';
  if (input.company !== undefined) change.company = input.company ?? '';
  if (input.jobtitle !== undefined) change.jobtitle = input.jobtitle ?? '';
  if (input.status !== undefined) change.status = input.status;
  if (input.level !== undefined) change.level = input.level;
  if (input.testuser !== undefined) change.testuser = input.testuser ? 1 : 0;
  if (input.extra !== undefined) change.extra = repo.extraText(input.extra);
  return change;
}

// The fields `changeOf` writes, as the wire names them, in the order of the interface's table.
const MEMBER_FIELDS: readonly (keyof MemberPatch)[] = [
  'title',
  'firstname',
  'middlename',
  'lastname',
  'email',
  'phone',
  'company',
  'jobtitle',
  'status',
  'level',
  'testuser',
  'extra',
];

/**
 * The wire names of the fields a write sets (a patch, an import's update row), for its audit entry:
 * the names only, never the values.
 */
function fieldsOf(input: MemberPatch): string[] {
  return MEMBER_FIELDS.filter((name) => input[name] !== undefined);
}

export async function getMember(db: Kysely<Database>, id: string): Promise<MemberDetail> {
  const row = await repo.findMemberDetail(db, id);
  if (!row) throw notFound('member');
  return toDetail(row, Boolean(row.useraccount));
}

export async function createMember(
  db: Kysely<Database>,
  actor: Actor,
  input: MemberCreate,
): Promise<MemberDetail> {
  const id = await db.transaction().execute((trx) => registerMember(trx, actor, input));
  if (id === undefined) throw emailTaken();
  return getMember(db, id);
}

/**
 * Makes a member in the caller's transaction (one step of a sign-up or a rater's nomination):
 * answers its id, or undefined, having changed nothing, when the address is a member's already
 * (made by a concurrent request a moment ago).
 */
export async function registerMember(
  trx: Transaction<Database>,
  actor: Actor,
  input: MemberCreate,
): Promise<string | undefined> {
  const row = newRow(input, nowText());
  if (!(await repo.insertMembers(trx, [row])).has(row.id)) return undefined;
  await recordChange(trx, actor, { resource: 'member', id: row.id, action: 'create' });
  return row.id;
}

/** A PATCH body naming the member's group, which only the groups family may change. */
export function carriesGroup(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('group' in body || 'groupid' in body);
}

export async function patchMember(
  db: Kysely<Database>,
  actor: Actor,
  id: string,
  input: MemberPatch,
): Promise<MemberDetail> {
  // The spec: a member's group is changed through the groups family only.
  if (carriesGroup(input)) throw accessDenied();
  const fields = fieldsOf(input);
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await repo.updateMember(trx, id, changeOf(input)))) throw notFound('member');
      // A patch that sets no field changes nothing, and leaves no entry.
      if (fields.length > 0)
        await recordChange(trx, actor, { resource: 'member', id, action: 'update', fields });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  return getMember(db, id);
}

/** OK when the e-mail is free, ERROR when taken; a body without `value` is OK (the spec's false negative). */
export async function emailIsFree(db: Kysely<Database>, body: unknown): Promise<boolean> {
  const value = (body as { value?: unknown } | null)?.value;
  // A value no member could have is free, and never reaches the database.
  if (typeof value !== 'string' || !isStorableText(value)) return true;
  return !(await repo.memberEmailTaken(db, value.trim()));
}

export interface ImportInput {
  members: unknown[];
  groupid?: string;
  update?: boolean;
}

/**
 * CSV with a header row of field names: each line becomes one MemberWrite. Custom fields have a
 * column each, `extra.<name>`; `testuser` reads TRUE/FALSE as spreadsheets write them.
 */
export function membersFromCsv(text: string): unknown[] {
  let csv: { names: string[]; rows: Record<string, string>[] };
  try {
    csv = csvToObjects(text);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new BusinessError(`body: not valid CSV: ${error.message}`);
  }
  checkCsvShape(csv.names, csv.rows.length);
  return csv.rows.map(memberFromCsv);
}

/** The whole-file refusals of a CSV import, once its header and number of rows are known. */
export function checkCsvShape(names: string[], rows: number): void {
  if (names.length > 0 && rows === 0) {
    throw new BusinessError('body: the CSV has a header but no rows');
  }
  if (rows > 0 && !names.some((name) => name.toLowerCase() === 'email')) {
    throw new BusinessError(
      'body: not valid CSV: the header has no email column (is the separator a comma?)',
    );
  }
}

/** One CSV line (an object of the header's names) as a MemberWrite. */
export function memberFromCsv(cells: Record<string, string>): Record<string, unknown> {
  const member: Record<string, unknown> = {};
  const extra: Record<string, string> = {};
  for (const [column, value] of Object.entries(cells)) {
    // Field names in any case; a custom field's name as written.
    const name = column.toLowerCase();
    if (name.startsWith('extra.') && name.length > 'extra.'.length) {
      extra[column.slice('extra.'.length)] = value;
    } else if (name === 'testuser') member[name] = value.trim().toLowerCase();
    else member[name] = value;
  }
  if (Object.keys(extra).length > 0) member.extra = extra;
  return member;
}

const IN_ANOTHER_GROUP = 'groupid: the member is in another group; remove it from that group first';

/** A row's failure as the import reports it: the message without the `body: ` of a whole body. */
function rowError(row: number, error: unknown): { row: number; message: string } {
  if (!(error instanceof BusinessError)) throw error;
  return { row, message: error.message.replace(/^body: /, '') };
}

type ImportRow = { row: number; key: string; member: MemberImportUpdateRow };
type Existing = Map<string, { id: string; group_id: string | null }>;

/**
 * Rows an import checks and writes at a time, over the API, the console and `assay members import`
 * alike: between chunks the event loop is free (and on SQLite, other writers: each chunk is a
 * transaction of its own), and the command line's progress moves a chunk at a time.
 */
export const IMPORT_CHUNK_ROWS = 500;

/** The rows of an import, a chunk at a time, in their order (as `importMemberChunks` takes them). */
export type ImportChunks = AsyncIterable<unknown[]> | Iterable<unknown[]>;

function* chunksOf(rows: unknown[]): Generator<unknown[]> {
  for (let i = 0; i < rows.length; i += IMPORT_CHUNK_ROWS) yield rows.slice(i, i + IMPORT_CHUNK_ROWS);
}

/**
 * Imports members row by row: valid rows are kept, failed rows are reported with their 1-based
 * number, and no row is half-written. With `update`, a row whose e-mail exists updates that member.
 */
export async function importMembers(
  db: Kysely<Database>,
  actor: Actor,
  input: ImportInput,
): Promise<MemberImportResult> {
  return importMemberChunks(db, input, chunksOf(input.members), { actor });
}

/**
 * `importMembers` over rows that come a chunk at a time (a large body is read in parts, never whole).
 * Each chunk is checked, looked up and written, then the event loop is given back before the next,
 * so that a large import never holds up other requests for long, nor holds every row at once.
 *
 * On PostgreSQL the whole import is one transaction (other requests have connections of their own),
 * so an import into a group deleted meanwhile writes nothing. On SQLite a transaction holds the one
 * connection every request needs, so each chunk is a transaction of its own and other requests are
 * served between chunks: an import of more than one chunk may then be partly written, and when its
 * group is deleted between two chunks, the chunks before stay (in no group, as the deletion leaves
 * them) and the rows from there on fail with `groupid: no such group`.
 *
 * Every member created or updated has its audit entry (`create`; `update` with the fields the row
 * sets), written with its chunk: a chunk rolled back leaves none.
 */
export async function importMemberChunks(
  db: Kysely<Database>,
  input: { groupid?: string; update?: boolean },
  chunks: ImportChunks,
  mode: ImportMode,
): Promise<MemberImportResult> {
  const result: MemberImportResult = { created: [], updated: [], errors: [] };
  if (input.groupid !== undefined && !(await groupExists(db, input.groupid))) {
    throw new BusinessError('groupid: no such group');
  }
  // With `update`, a row needs only its e-mail to find a member; it must be whole to create one.
  const rowSchema = input.update ? MemberImportUpdateRowSchema : MemberCreateSchema;
  const seen = new Set<string>();
  let done = 0;
  const check = (raws: unknown[]): ImportRow[] => {
    const valid: ImportRow[] = [];
    raws.forEach((raw, index) => {
      const row = done + index + 1;
      try {
        const member = validate(rowSchema, raw, 'body') as MemberImportUpdateRow;
        const key = caseFold(member.email);
        if (seen.has(key)) throw new BusinessError('email: appears twice in this import');
        seen.add(key);
        valid.push({ row, key, member });
      } catch (error) {
        result.errors.push(rowError(row, error));
      }
    });
    done += raws.length;
    return valid;
  };
  const write = async (trx: Transaction<Database>, valid: ImportRow[]) => {
    const existing = await repo.findMembersByEmails(
      trx,
      valid.map(({ member }) => member.email),
    );
    await writeRows(trx, input, valid, existing, result, mode);
  };
  const noSuchGroup = new BusinessError('groupid: no such group');
  if (mode === 'check') {
    // The same checks and look-ups, every row answered as the write would answer it now, and
    // nothing written: the console's check page before the operator confirms.
    for await (const raws of chunks) {
      const valid = check(raws);
      if (valid.length > 0) {
        const existing = await repo.findMembersByEmails(
          db,
          valid.map(({ member }) => member.email),
        );
        await writeRows(db, input, valid, existing, result, 'check');
      }
      await setImmediate();
    }
    result.errors.sort((a, b) => a.row - b.row);
    return result;
  }
  let groupGone = false;
  async function* checked() {
    for await (const raws of chunks) {
      const valid = check(raws);
      if (groupGone) for (const { row } of valid) result.errors.push({ row, message: noSuchGroup.message });
      yield groupGone ? [] : valid;
    }
  }
  // A chunk in a transaction of its own (on SQLite, every one) checks the group again: deleted since
  // the chunks before, the rows from there on fail and the chunks before stay. Within the one
  // transaction (PostgreSQL) a group deleted meanwhile fails the new rows' foreign key: nothing is
  // written, as if it never existed.
  await orWhenRaced(
    writeInChunks(db, checked(), async (trx, valid, fresh) => {
      groupGone = fresh && input.groupid !== undefined && !(await groupExists(trx, input.groupid));
      if (!groupGone) return write(trx, valid);
      if (result.created.length === 0 && result.updated.length === 0) throw noSuchGroup;
      for (const { row } of valid) result.errors.push({ row, message: noSuchGroup.message });
    }),
    noSuchGroup,
  );
  result.errors.sort((a, b) => a.row - b.row);
  return result;
}

/**
 * Whether an import writes, as its actor (whom its audit entries name), or only checks (`check`):
 * every rule and look-up is the same, and each row is answered as if written (a row refused only by
 * a write that raced another is then `created` or `updated`: the real import reports it when it comes).
 */
export type ImportMode = { readonly actor: Actor } | 'check';

/** The writing half of an import, in one transaction: updates first, then the new rows in batches. */
async function writeRows(
  trx: Kysely<Database>,
  input: Pick<ImportInput, 'groupid' | 'update'>,
  valid: ImportRow[],
  existing: Existing,
  result: MemberImportResult,
  mode: ImportMode,
): Promise<void> {
  const created = nowText();
  const changes: Change[] = [];
  const toInsert: { row: number; record: NewMemberRow }[] = [];
  for (const { row, key, member } of valid) {
    const found = existing.get(key);
    if (!found) {
      try {
        // Checked again as a create: an update row may lack what a new member needs.
        const whole = input.update ? (validate(MemberCreateSchema, member, 'body') as MemberCreate) : member;
        toInsert.push({
          row,
          record: { ...newRow(whole as MemberCreate, created), group_id: input.groupid ?? null },
        });
      } catch (error) {
        result.errors.push(rowError(row, error));
      }
      continue;
    }
    if (!input.update) {
      result.errors.push({ row, message: 'email: already exists' });
      continue;
    }
    if (input.groupid && found.group_id && found.group_id !== input.groupid) {
      result.errors.push({ row, message: IN_ANOTHER_GROUP });
      continue;
    }
    const change = changeOf(member);
    if (input.groupid) change.group_id = input.groupid;
    if (mode === 'check' || (await repo.updateMemberWithKey(trx, found.id, key, change, input.groupid))) {
      result.updated.push(found.id);
      const fields = fieldsOf(member);
      if (input.groupid) fields.push('groupid');
      changes.push({ resource: 'member', id: found.id, action: 'update', fields });
      continue;
    }
    // Another request came first: the member moved to another group, or changed its address.
    const now = await repo.findMember(trx, found.id);
    result.errors.push({
      row,
      message:
        now && caseFold(now.email) === key
          ? IN_ANOTHER_GROUP
          : 'email: the member changed during the import; try again',
    });
  }
  const records = toInsert.map(({ record }) => record);
  const inserted =
    mode === 'check' ? new Set(records.map((record) => record.id)) : await repo.insertMembers(trx, records);
  for (const { row, record } of toInsert) {
    if (inserted.has(record.id)) {
      result.created.push(record.id);
      changes.push({ resource: 'member', id: record.id, action: 'create' });
    } else result.errors.push({ row, message: 'email: already exists' });
  }
  if (mode !== 'check') await recordChanges(trx, mode.actor, changes, created);
}

/** Every member in the list shape, a batch at a time (see `streamMemberList`). */
export function listMembers(db: Kysely<Database>): AsyncGenerator<repo.MemberListRow[]> {
  return repo.streamMemberList(db);
}

/** Members a page of the console's list shows. */
export const MEMBER_PAGE_SIZE = 50;

/** A page of the member list, with the members to page from (by id) when there are more. */
export interface MemberListPage {
  rows: repo.MemberPageRow[];
  /** The first member shown, when members come before it: the previous page ends before it. */
  previous?: string;
  /** The last member shown, when members come after it: the next page starts after it. */
  next?: string;
}

/**
 * A page of members by e-mail, optionally those whose e-mail, first or last name starts with
 * `search` (see `memberPage` in the repository): the console's member list.
 */
export async function memberListPage(
  db: Kysely<Database>,
  input: { search?: string; after?: string; before?: string },
): Promise<MemberListPage> {
  const search = input.search ? caseFold(input.search).slice(0, 254) : undefined;
  const limit = MEMBER_PAGE_SIZE + 1;
  if (input.before !== undefined) {
    const rows = await repo.memberPage(db, { search, before: input.before, limit });
    const more = rows.length > MEMBER_PAGE_SIZE;
    const shown = more ? rows.slice(1) : rows;
    return { rows: shown, previous: more ? shown[0]?.id : undefined, next: shown.at(-1)?.id };
  }
  const rows = await repo.memberPage(db, { search, after: input.after, limit });
  const more = rows.length > MEMBER_PAGE_SIZE;
  const shown = more ? rows.slice(0, MEMBER_PAGE_SIZE) : rows;
  return {
    rows: shown,
    previous: input.after !== undefined ? shown[0]?.id : undefined,
    next: more ? shown.at(-1)?.id : undefined,
  };
}

/** The whole row of a member (the edit form shows fields the detail shape leaves out). */
export async function memberRow(db: Kysely<Database>, id: string): Promise<MemberRow> {
  const row = await repo.findMember(db, id);
  if (!row) throw notFound('member');
  return row;
}
