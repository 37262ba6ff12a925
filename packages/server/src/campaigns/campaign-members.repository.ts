import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { isJsonObject, jsonObjectColumn, parseJsonColumn } from '../db/json-columns.js';
import { batchSizes, cursorOf, keysetBatches } from '../db/keyset-batches.js';
import { preparedPerDb } from '../db/prepared.js';
import type { CampaignMemberRow, CampaignMemberUpdate, NewCampaignMemberRow } from './campaigns.table.js';

/** A row of GET /campaigns/{id}/members, its columns already named as on the wire. */
export interface CampaignMemberListRow {
  token: string;
  memberid: string;
  title: string;
  firstname: string;
  middlename: string;
  lastname: string;
  email: string;
  groupalias: string | null;
  groupname: string | null;
  status: string;
  testuser: number | string;
  memberstatus: string | null;
  created: string;
  dateinvited: string | null;
  datestarted: string | null;
  datecompleted: string | null;
  datereminded: string | null;
  countreminded: number | string | null;
  extra: string | null;
  tags: string;
  results: string;
  mailconfig: string | null;
  sessionurl: string;
  memberextra: string;
}

function listQuery(db: Kysely<Database>, campaignId: string) {
  return db
    .selectFrom('campaign_members as cm')
    .innerJoin('members as m', 'm.id', 'cm.member_id')
    .leftJoin('groups as g', 'g.id', 'm.group_id')
    .select([
      'cm.token',
      'cm.member_id as memberid',
      'cm.title',
      'cm.firstname',
      'cm.middlename',
      'cm.lastname',
      'cm.email',
      'g.alias as groupalias',
      'g.name as groupname',
      'cm.status',
      'cm.testuser',
      'm.status as memberstatus',
      'cm.created',
      'cm.dateinvited',
      'cm.datestarted',
      'cm.datecompleted',
      'cm.datereminded',
      'cm.countreminded',
      'cm.extra',
      'cm.tags',
      'cm.results',
      'cm.mailconfig',
      'cm.sessionurl',
      'm.extra as memberextra',
    ])
    .where('cm.campaign_id', '=', campaignId);
}

/**
 * A campaign's members in the list shape, a batch of rows at a time (as GET /members streams), in
 * the order of their member ids: the key `(campaign_id, member_id)` serves each batch from its
 * index. Keyset batches (`keysetBatches`): nothing of the database is held between them while a
 * slow client takes the answer; none is ever sent twice, and one added or removed while the list
 * is sent may or may not be in it.
 */
export function streamCampaignMembers(
  db: Kysely<Database>,
  campaignId: string,
  /** Rows a batch holds (the export's are smaller than a list's): by default the list's. */
  sizes?: { first: number; largest: number },
): AsyncGenerator<CampaignMemberListRow[]> {
  const batch = listBatch(db);
  // No member id is empty: the first batch starts after ''.
  return keysetBatches(
    (after: string | undefined, limit) =>
      batch(campaignId, after ?? '', limit) as Promise<CampaignMemberListRow[]>,
    (row) => row.memberid,
    sizes ?? batchSizes(db),
    cursorOf(db, () => listQuery(db, campaignId).orderBy('cm.member_id'), sizes?.largest),
  );
}

// Compiled once; on PostgreSQL a named statement, planned once per connection.
const listBatch = preparedPerDb(3, (db, campaignId: string, after: string, limit: number) =>
  listQuery(db, campaignId).where('cm.member_id', '>', after).orderBy('cm.member_id').limit(limit),
);

/** One campaign member in the list's columns. */
export async function findCampaignMemberView(
  db: Kysely<Database>,
  campaignId: string,
  memberId: string,
): Promise<CampaignMemberListRow | undefined> {
  return (await listQuery(db, campaignId).where('cm.member_id', '=', memberId).executeTakeFirst()) as
    | CampaignMemberListRow
    | undefined;
}

export async function findCampaignMember(
  db: Kysely<Database>,
  campaignId: string,
  memberId: string,
): Promise<CampaignMemberRow | undefined> {
  return db
    .selectFrom('campaign_members')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
}

export async function countCampaignMembers(db: Kysely<Database>, campaignId: string): Promise<number> {
  const row = await db
    .selectFrom('campaign_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member fields a campaign member is copied from. */
export interface MemberToAdd {
  title: string | null;
  firstname: string;
  middlename: string | null;
  lastname: string;
  email: string;
  testuser: number;
}

/**
 * The members of `ids` that exist, by id, with the fields a campaign member copies. On PostgreSQL
 * their rows are key-share locked until the transaction ends: a member deleted meanwhile is waited
 * for and then not found (instead of failing the insert on its foreign key), and one deleted later
 * waits for the add and takes its new memberships with it. Malformed ids are never looked up.
 */
export async function lockMembersToAdd(
  trx: Transaction<Database>,
  dialect: Dialect,
  ids: string[],
): Promise<Map<string, MemberToAdd>> {
  const found = new Map<string, MemberToAdd>();
  const wellFormed = ids.filter((id) => /^[0-9A-Za-z]{10}$/.test(id));
  for (let i = 0; i < wellFormed.length; i += 500) {
    const query = trx
      .selectFrom('members')
      .select(['id', 'title', 'firstname', 'middlename', 'lastname', 'email', 'testuser'])
      .where('id', 'in', wellFormed.slice(i, i + 500));
    const rows = await (dialect === 'postgres' ? query.forKeyShare() : query).execute();
    for (const { id, ...member } of rows) found.set(id, member);
  }
  return found;
}

/** The ids of the direct members of these groups, in a stable order (oldest first, 500 groups at a time). */
export async function memberIdsInGroups(db: Kysely<Database>, groupIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < groupIds.length; i += 500) {
    const rows = await db
      .selectFrom('members')
      .select('id')
      .where('group_id', 'in', groupIds.slice(i, i + 500))
      .orderBy('created')
      .orderBy('id')
      .execute();
    for (const row of rows) ids.push(row.id);
  }
  return ids;
}

/** Which of `memberIds` are in the campaign already. */
export async function membersInCampaign(
  db: Kysely<Database>,
  campaignId: string,
  memberIds: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < memberIds.length; i += 500) {
    const rows = await db
      .selectFrom('campaign_members')
      .select('member_id')
      .where('campaign_id', '=', campaignId)
      .where('member_id', 'in', memberIds.slice(i, i + 500))
      .execute();
    for (const row of rows) found.add(row.member_id);
  }
  return found;
}

/** Inserts campaign members; one already there is skipped by the unique key. Answers the member ids added. */
export async function insertCampaignMembers(
  db: Kysely<Database>,
  rows: NewCampaignMemberRow[],
): Promise<Set<string>> {
  const added = new Set<string>();
  // 16 columns a row: 500 rows (8,000 parameters) stay below every engine's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 500) {
    const result = await db
      .insertInto('campaign_members')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.doNothing())
      .returning('member_id')
      .execute();
    for (const row of result) added.add(row.member_id);
  }
  return added;
}

export async function updateCampaignMember(
  db: Kysely<Database>,
  campaignId: string,
  memberId: string,
  change: CampaignMemberUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('campaign_members')
    .set(change)
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Lets the member take the questionnaire again under a new token. The status is decided in the same
 * statement that writes it, from the row as it is then: an invitation that commits while this waits
 * for the row makes it `invited`, never `new` (which would invite it twice). False when not there.
 * In the caller's transaction (the reset's audit entry goes with it).
 */
export async function resetCampaignMember(
  trx: Transaction<Database>,
  campaignId: string,
  memberId: string,
  token: string,
  now: string,
): Promise<boolean> {
  // The old link is remembered as reset, so that it says so rather than "unknown". The update
  // answers the old token: it is read from the row as the update finds it.
  const old = await trx
    .selectFrom('campaign_members')
    .select('token')
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  const result = await trx
    .updateTable('campaign_members')
    .set((eb) => ({
      status: eb
        .case()
        .when('dateinvited', 'is', null)
        .then(sql.lit<CampaignMemberRow['status']>('new'))
        .else(sql.lit<CampaignMemberRow['status']>('invited'))
        .end(),
      token,
      datestarted: null,
      datecompleted: null,
      // The reminders start again: a remind is how the member gets the new link.
      datereminded: null,
      countreminded: 0,
      sessionurl: '',
      results: '[]',
      answers: '{}',
    }))
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  if (old) await retireTokens(trx, [old.token], 'reset', campaignId, now);
  return true;
}

/** Remembers links that no longer work, and why (a token retired twice keeps its first reason). */
export async function retireTokens(
  db: Kysely<Database> | Transaction<Database>,
  tokens: readonly string[],
  reason: 'reset' | 'removed',
  campaignId: string,
  now: string,
): Promise<void> {
  for (let i = 0; i < tokens.length; i += 500) {
    await db
      .insertInto('retired_tokens')
      .values(
        tokens.slice(i, i + 500).map((token) => ({ token, reason, campaign_id: campaignId, retired: now })),
      )
      .onConflict((oc) => oc.column('token').doNothing())
      .execute();
  }
}

export async function deleteCampaignMember(
  db: Kysely<Database> | Transaction<Database>,
  campaignId: string,
  memberId: string,
  now: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('campaign_members')
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .returning('token')
    .execute();
  await retireTokens(
    db,
    deleted.map((row) => row.token),
    'removed',
    campaignId,
    now,
  );
  return deleted.length === 1;
}

/** Removes every member of the campaign, their links remembered as removed; answers their member ids. */
export async function deleteAllCampaignMembers(
  db: Kysely<Database> | Transaction<Database>,
  campaignId: string,
  now: string,
): Promise<string[]> {
  const deleted = await db
    .deleteFrom('campaign_members')
    .where('campaign_id', '=', campaignId)
    .returning(['token', 'member_id'])
    .execute();
  await retireTokens(
    db,
    deleted.map((row) => row.token),
    'removed',
    campaignId,
    now,
  );
  return deleted.map((row) => row.member_id);
}

/** A member's campaign memberships, with each campaign's fields. */
export async function listMemberCampaigns(db: Kysely<Database>, memberId: string) {
  return db
    .selectFrom('campaign_members as cm')
    .innerJoin('campaigns as c', 'c.id', 'cm.campaign_id')
    .select([
      'c.id as campaignid',
      'c.alias',
      'c.name',
      'c.variant',
      'c.language',
      'c.start_at',
      'c.end_at',
      'c.closingtype',
      'cm.status',
      'cm.token',
      'cm.dateinvited',
      'cm.datestarted',
      'cm.datecompleted',
      'cm.results',
    ])
    .where('cm.member_id', '=', memberId)
    .orderBy('cm.created')
    .execute();
}

/** A campaign member completed: its dates, its link and `results` `{ status, reportid }`. */
export async function markCompleted(
  trx: Transaction<Database>,
  id: string,
  done: { now: string; datestarted: string; sessionurl: string; reportId: string },
): Promise<void> {
  await trx
    .updateTable('campaign_members')
    .set({
      status: 'completed',
      datecompleted: done.now,
      datestarted: done.datestarted,
      sessionurl: done.sessionurl,
      results: resultsText({ status: 'completed', reportid: done.reportId }),
    })
    .where('id', '=', id)
    .execute();
}

// The JSON columns of `campaign_members`, read and written only through these.

/** An object column (`extra`, `results`): the object, or null when empty, unreadable or not one. */
function objectColumn(text: string | null): Record<string, unknown> | null {
  // The texts most rows hold, answered without a parse (the member list reads every row's).
  if (text === null || text === '[]') return null;
  if (text === '{}') return {};
  const value = parseJsonColumn(text);
  return isJsonObject(value) ? value : null;
}

/** `results`: `{ status, reportid }` once completed; null before. */
export const parseResults = (text: string | null): Record<string, unknown> | null => objectColumn(text);
/** None (before completion) is stored as `[]`. */
export const resultsText = (results: { status: string; reportid: string } | null): string =>
  results === null ? '[]' : JSON.stringify(results);

/** `extra`: the participant's role, subject and nomination; null when none. */
export const parseMemberExtra = (text: string | null): Record<string, unknown> | null => objectColumn(text);
/** An empty extra is stored as NULL. */
export const memberExtraText = (extra: Record<string, unknown>): string | null =>
  Object.keys(extra).length === 0 ? null : JSON.stringify(extra);

/** `tags`: the member's tags in this campaign; none when empty or unreadable. */
export function parseMemberTags(text: string): string[] {
  if (text === '[]') return [];
  const value = parseJsonColumn(text);
  return Array.isArray(value) ? (value as string[]) : [];
}

export const memberTagsText = (tags: readonly string[]): string => JSON.stringify(tags);

/** `mailconfig`: the member's own templates by mail stage; null when unset, `[]` when empty. */
export const parseMemberMailConfig = (text: string | null): Record<string, unknown> | [] | null =>
  text === null ? null : jsonObjectColumn(text);

/** None is NULL; anything but an object is stored as `{}`. */
export const memberMailConfigText = (value: object | null): string | null =>
  value === null ? null : JSON.stringify(Array.isArray(value) ? {} : value);

/** The other campaign members (raters, in the order added) with their `extra` decoded. */
export async function otherParticipants(db: Kysely<Database>, campaignId: string, memberId: string) {
  const rows = await db
    .selectFrom('campaign_members')
    .select(['email', 'extra'])
    .where('campaign_id', '=', campaignId)
    .where('member_id', '!=', memberId)
    .orderBy('created')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ email: row.email, extra: parseMemberExtra(row.extra) ?? {} }));
}

/**
 * One page of a campaign's members in the list shape, in the order of their member ids (the key
 * `(campaign_id, member_id)` serves it), of one status when asked: the console's members table.
 */
export async function pageCampaignMembers(
  db: Kysely<Database>,
  campaignId: string,
  options: { status?: CampaignMemberRow['status']; limit: number; offset: number },
): Promise<CampaignMemberListRow[]> {
  // The page's ids first, from the key alone; then their rows with the joins (joining all of a
  // large campaign's members to skip most of them costs more than the page).
  let ids = db.selectFrom('campaign_members').select('member_id').where('campaign_id', '=', campaignId);
  if (options.status !== undefined) ids = ids.where('status', '=', options.status);
  const page = (await ids.orderBy('member_id').limit(options.limit).offset(options.offset).execute()).map(
    (row) => row.member_id,
  );
  if (page.length === 0) return [];
  return (await listQuery(db, campaignId)
    .where('cm.member_id', 'in', page)
    .orderBy('cm.member_id')
    .execute()) as CampaignMemberListRow[];
}

/** The LIKE pattern of a search text: its wildcards taken literally. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Members not in the campaign yet whose name or e-mail address holds `search` (any letter case),
 * by last name, first name and id, a page at a time (`limit` + 1 rows tell whether more follow).
 */
export async function membersOutsideCampaign(
  db: Kysely<Database>,
  campaignId: string,
  options: { search: string; limit: number; offset: number },
) {
  let query = db
    .selectFrom('members as m')
    .select(['m.id', 'm.firstname', 'm.lastname', 'm.email'])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('campaign_members as cm')
            .select('cm.id')
            .where('cm.campaign_id', '=', campaignId)
            .whereRef('cm.member_id', '=', 'm.id'),
        ),
      ),
    );
  const search = options.search.trim();
  if (search !== '') {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or(
        (['m.firstname', 'm.lastname', 'm.email'] as const).map((column) =>
          eb(sql`lower(${sql.ref(column)})`, 'like', sql`${pattern} escape '\\'`),
        ),
      ),
    );
  }
  return query
    .orderBy('m.lastname')
    .orderBy('m.firstname')
    .orderBy('m.id')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}
