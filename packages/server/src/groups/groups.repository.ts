import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { jsonObjectColumn } from '../db/json-columns.js';
import type { MemberRow } from '../members/members.table.js';
import type { GroupRow, GroupUpdate, NewGroupRow } from './groups.table.js';

export type GroupWithCount = GroupRow & { membercount: number };

function selectGroups(db: Kysely<Database>) {
  return db
    .selectFrom('groups as g')
    .selectAll('g')
    .select((eb) =>
      eb
        .selectFrom('members as m')
        .select((count) => count.fn.countAll<number>().as('n'))
        .whereRef('m.group_id', '=', 'g.id')
        .as('membercount'),
    );
}

export async function listGroups(db: Kysely<Database>): Promise<GroupWithCount[]> {
  return (await selectGroups(db).orderBy('g.created').orderBy('g.id').execute()) as GroupWithCount[];
}

export async function findGroup(db: Kysely<Database>, id: string): Promise<GroupWithCount | undefined> {
  return (await selectGroups(db).where('g.id', '=', id).executeTakeFirst()) as GroupWithCount | undefined;
}

export async function groupExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await db.selectFrom('groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/**
 * Whether the group exists, holding it until the transaction ends (PostgreSQL: `FOR KEY SHARE`;
 * SQLite has one writer), so that a member put in it meanwhile never points at a deleted group.
 */
export async function lockGroup(trx: Transaction<Database>, dialect: Dialect, id: string): Promise<boolean> {
  const query = trx.selectFrom('groups').select('id').where('id', '=', id);
  return (await (dialect === 'postgres' ? query.forKeyShare() : query).executeTakeFirst()) !== undefined;
}

/** Answers false when the name or alias is taken (by constraint, so concurrent creates cannot both win). */
export async function insertGroup(db: Kysely<Database>, row: NewGroupRow): Promise<boolean> {
  const inserted = await db
    .insertInto('groups')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function aliasTaken(db: Kysely<Database>, alias: string): Promise<boolean> {
  const row = await db
    .selectFrom('groups')
    .select('id')
    // Aliases are [A-Za-z0-9_-]: lower() folds them alike on every engine.
    .where(sql`lower(alias)`, '=', alias.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateGroup(db: Kysely<Database>, id: string, change: GroupUpdate): Promise<void> {
  if (Object.keys(change).length > 0)
    await db.updateTable('groups').set(change).where('id', '=', id).execute();
}

/** The group and every group above it, nearest first. */
export async function ancestorIds(db: Kysely<Database>, id: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    with recursive up(id, parent_id) as (
      select id, parent_id from groups where id = ${id}
      union
      select g.id, g.parent_id from groups g join up on g.id = up.parent_id
    )
    select id from up`.execute(db);
  return result.rows.map((row) => row.id);
}

/** The group and every group below it, at any depth; empty when the group does not exist. */
export async function descendantIds(db: Kysely<Database>, id: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    with recursive down(id) as (
      select id from groups where id = ${id}
      union
      select g.id from groups g join down on g.parent_id = down.id
    )
    select id from down`.execute(db);
  return result.rows.map((row) => row.id);
}

/** Serialises moves in the tree on PostgreSQL, so two concurrent moves cannot make a cycle together. */
export async function lockTree(trx: Transaction<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  // SQLite runs one write transaction at a time already.
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(72842001)`.execute(trx);
}

export async function hasSubgroups(db: Kysely<Database>, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('groups').select('id').where('parent_id', '=', id).executeTakeFirst()) !== undefined
  );
}

/**
 * Deletes a group; its members become members of no group. Answers the ids of those members (each
 * has an audit entry of its own), or undefined when there was no such group.
 */
export async function deleteGroup(trx: Transaction<Database>, id: string): Promise<string[] | undefined> {
  const released = await trx
    .updateTable('members')
    .set({ group_id: null })
    .where('group_id', '=', id)
    .returning('id')
    .execute();
  const result = await trx.deleteFrom('groups').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? released.map((row) => row.id) : undefined;
}

/** Members of one group, or of no group when `groupId` is null. */
export async function listGroupMembers(db: Kysely<Database>, groupId: string | null): Promise<MemberRow[]> {
  const query = db.selectFrom('members').selectAll();
  return (
    groupId === null ? query.where('group_id', 'is', null) : query.where('group_id', '=', groupId)
  ).execute();
}

/** Every member that is in some group. */
export async function listGroupedMembers(db: Kysely<Database>): Promise<MemberRow[]> {
  return db.selectFrom('members').selectAll().where('group_id', 'is not', null).execute();
}

/**
 * Puts a member in a group unless it is in another one; one conditional statement, so two
 * concurrent adds to different groups cannot both succeed.
 */
export async function addToGroup(db: Kysely<Database>, memberId: string, groupId: string): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ group_id: groupId })
    .where('id', '=', memberId)
    .where((eb) => eb.or([eb('group_id', 'is', null), eb('group_id', '=', groupId)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function removeFromGroup(
  db: Kysely<Database>,
  memberId: string,
  groupId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ group_id: null })
    .where('id', '=', memberId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The id of the group with exactly this alias, if any. */
export async function findGroupIdByAlias(db: Kysely<Database>, alias: string): Promise<string | undefined> {
  return (await db.selectFrom('groups').select('id').where('alias', '=', alias).executeTakeFirst())?.id;
}

// `groups.config` and `groups.extra`, read and written only through these.

/** The wire's view of `config` or `extra`: the object, or `[]` when empty or unreadable. */
export const parseGroupObject = (text: string | null): Record<string, unknown> | [] => jsonObjectColumn(text);

/** `config` or `extra` as stored: `{}` for none (or the `[]` a client sends for an empty object). */
export const groupObjectText = (value: object | null | undefined): string =>
  JSON.stringify(!value || Array.isArray(value) ? {} : value);
