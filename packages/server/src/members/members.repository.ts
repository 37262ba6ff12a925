import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { jsonObjectColumn } from '../db/json-columns.js';
import { batchSizes, cursorOf, keysetBatches } from '../db/keyset-batches.js';
import { preparedPerDb } from '../db/prepared.js';
import { canonicalEmail } from '../util/safe-text.js';
import { caseFold } from '../util/text.js';
import type { MemberRow, MemberUpdate, NewMemberRow } from './members.table.js';

/** A row of the list shape, named as on the wire (testuser still 0/1). */
export interface MemberListRow {
  memberid: string;
  title: string | null;
  firstname: string;
  middlename: string | null;
  lastname: string;
  email: string;
  phone: string;
  company: string;
  jobtitle: string;
  status: string | null;
  level: string | null;
  testuser: number | boolean;
  group: string | null;
}

/**
 * Every member in the list shape, a batch of rows at a time (the columns are already the wire
 * names), in the order of the primary key (the interface asks for no order; this one is stable and
 * the same on both engines). Keyset batches (`keysetBatches`): nothing of the database is held
 * between them, so a client slow to take the answer holds neither SQLite's single connection nor a
 * pooled PostgreSQL one while it waits; no member is ever sent twice, and one added or deleted
 * while the list is sent may or may not be in it.
 */
export function streamMemberList(db: Kysely<Database>): AsyncGenerator<MemberListRow[]> {
  const batch = memberListBatch(db);
  // No id is empty: the first batch starts after ''.
  return keysetBatches(
    (after: string | undefined, limit) => batch(after ?? '', limit),
    (row) => row.memberid,
    batchSizes(db),
    cursorOf(db, () => memberListQuery(db).orderBy('m.id')),
  );
}

// Compiled once; on PostgreSQL a named statement, planned once per connection.
const memberListBatch = preparedPerDb(2, (db, after: string, limit: number) =>
  memberListQuery(db).where('m.id', '>', after).orderBy('m.id').limit(limit),
);

function memberListQuery(db: Kysely<Database>) {
  return db
    .selectFrom('members as m')
    .leftJoin('groups as g', 'g.id', 'm.group_id')
    .select([
      'm.id as memberid',
      'm.title',
      'm.firstname',
      'm.middlename',
      'm.lastname',
      'm.email',
      'm.phone',
      'm.company',
      'm.jobtitle',
      'm.status',
      'm.level',
      'm.testuser',
      'g.name as group',
    ]);
}

export async function findMember(db: Kysely<Database>, id: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
}

const memberDetailQuery = preparedPerDb(1, (db, id: string) =>
  db
    .selectFrom('members as m')
    .selectAll('m')
    .select((eb) =>
      eb
        .exists(eb.selectFrom('users as u').select('u.id').whereRef('u.email_key', '=', 'm.email_key'))
        .$castTo<number>()
        .as('useraccount'),
    )
    .where('m.id', '=', id),
);

/** The member with whether a platform user has the same e-mail address (on every detail call). */
export async function findMemberDetail(
  db: Kysely<Database>,
  id: string,
): Promise<(MemberRow & { useraccount: number }) | undefined> {
  return (await memberDetailQuery(db)(id))[0];
}

/** The member of an address, as it is stored (`a@Example.com.` finds `a@example.com`). */
export async function findMemberIdByEmail(db: Kysely<Database>, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('email_key', '=', caseFold(canonicalEmail(email)))
    .executeTakeFirst();
  return row?.id;
}

/** Members whose e-mail is one of `emails` (compared without case), keyed by `caseFold(email)`. */
export async function findMembersByEmails(
  db: Kysely<Database>,
  emails: string[],
): Promise<Map<string, { id: string; group_id: string | null }>> {
  const found = new Map<string, { id: string; group_id: string | null }>();
  for (let i = 0; i < emails.length; i += 500) {
    const chunk = emails.slice(i, i + 500).map(caseFold);
    const rows = await db
      .selectFrom('members')
      .select(['id', 'group_id', 'email_key'])
      .where('email_key', 'in', chunk)
      .execute();
    for (const row of rows) found.set(row.email_key, { id: row.id, group_id: row.group_id });
  }
  return found;
}

/**
 * Inserts members; a row whose e-mail is taken (even by a concurrent insert) is skipped by the
 * unique index rather than failing the batch. Answers the ids that were inserted.
 */
export async function insertMembers(db: Kysely<Database>, rows: NewMemberRow[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  // 16 columns a row: 500 rows stay below every engine's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 500) {
    const result = await db
      .insertInto('members')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    for (const row of result) inserted.add(row.id);
  }
  return inserted;
}

export async function updateMember(db: Kysely<Database>, id: string, change: MemberUpdate): Promise<boolean> {
  if (Object.keys(change).length === 0) return (await findMember(db, id)) !== undefined;
  const result = await db.updateTable('members').set(change).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Updates the member only while its e-mail still has the key it was found by, so that an import
 * never writes over a member whose address changed meanwhile (nor collides with another's), and,
 * when it puts the member in `groupId`, only while the member is in no other group. One
 * conditional statement: a concurrent add to another group cannot be overwritten.
 */
export async function updateMemberWithKey(
  trx: Kysely<Database>,
  id: string,
  emailKey: string,
  change: MemberUpdate,
  groupId?: string,
): Promise<boolean> {
  let query = trx.updateTable('members').set(change).where('id', '=', id).where('email_key', '=', emailKey);
  if (groupId !== undefined) {
    query = query.where((eb) => eb.or([eb('group_id', 'is', null), eb('group_id', '=', groupId)]));
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteMember(trx: Transaction<Database>, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('members').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function memberEmailTaken(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await findMemberIdByEmail(db, email)) !== undefined;
}

// `members.extra`, the member's free fields, read and written only through this codec.

/** The wire's view of `extra`: the object, or `[]` when empty or unreadable (the spec's empty object). */
export const parseExtra = (text: string | null): Record<string, unknown> | [] => jsonObjectColumn(text);

/** `extra` as stored: `{}` for none (or the `[]` a client sends for an empty object). */
export const extraText = (extra: object | null | undefined): string =>
  JSON.stringify(Array.isArray(extra) || !extra ? {} : extra);

/** A member as the console's list shows it. */
export interface MemberPageRow {
  id: string;
  firstname: string;
  middlename: string | null;
  lastname: string;
  email: string;
  email_key: string;
  status: string | null;
  group_id: string | null;
  group_name: string | null;
}

/**
 * One page of members in the byte order of their e-mail key (served by `members_email_key` on
 * SQLite, `members_search_email` on PostgreSQL: the same order on both engines), `limit` rows after
 * (or before) the member `after`/`before`: keyset paging, as cheap on the last page of 100,000
 * members as on the first, and no count of them all.
 *
 * `search` (already lower-cased) matches a member whose e-mail, first name or last name starts
 * with it (not a word inside them): three ranges in byte order, each served by its own index on
 * both engines (the migration 20261129T1200-console-uploads), each taking at most `limit` members
 * in key order before the three are merged, so that no planner is tempted to walk every member in
 * order and test each. SQLite's lower() folds ASCII letters only: there a name that starts with an
 * accented capital is found by that capital.
 */
export async function memberPage(
  db: Kysely<Database>,
  input: { search?: string; after?: string; before?: string; limit: number },
): Promise<MemberPageRow[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const bytes = postgres ? sql` collate "C"` : sql``;
  const backwards = input.before !== undefined;
  const from = backwards ? input.before : input.after;
  const direction = backwards ? sql`desc` : sql`asc`;
  const keyOf = (id: string) => sql`(select k.email_key${bytes} from members k where k.id = ${id})`;
  const keyset = (alias: string) =>
    from === undefined
      ? sql<boolean>`1 = 1`
      : sql<boolean>`${sql.ref(`${alias}.email_key`)}${bytes} ${backwards ? sql`<` : sql`>`} ${keyOf(from)}`;
  let query = db
    .selectFrom('members as m')
    .leftJoin('groups as g', 'g.id', 'm.group_id')
    .select([
      'm.id',
      'm.firstname',
      'm.middlename',
      'm.lastname',
      'm.email',
      'm.email_key',
      'm.status',
      'm.group_id',
      'g.name as group_name',
    ])
    .where(keyset('m'));
  if (input.search) {
    const start = input.search;
    const end = `${input.search}\u{10FFFF}`;
    const branch = (name: string, column: ReturnType<typeof sql>) =>
      db
        .selectFrom(
          db
            .selectFrom('members as s')
            .select('s.id')
            .where(sql<boolean>`${column}${bytes} >= ${start} and ${column}${bytes} < ${end}`)
            .where(keyset('s'))
            .orderBy(sql`s.email_key${bytes} ${direction}`)
            .limit(input.limit)
            .as(name),
        )
        .select(`${name}.id` as 'e.id');
    const matches = branch('e', sql`s.email_key`)
      .union(branch('l', sql`lower(s.lastname)`))
      .union(branch('f', sql`lower(s.firstname)`));
    query = query.where('m.id', 'in', matches);
  }
  const rows = await query.orderBy(sql`m.email_key${bytes} ${direction}`).limit(input.limit).execute();
  return backwards ? rows.reverse() : rows;
}
