import type { Offset } from '@assay/schema';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { isJsonObject, jsonObjectColumn, parseJsonColumn } from '../db/json-columns.js';
import type { CampaignRow, CampaignShareTable, CampaignUpdate, NewCampaignRow } from './campaigns.table.js';

/** How many of a campaign's members are in each status, and how many are test users. */
export interface StatusCounts {
  new: number;
  invited: number;
  started: number;
  completed: number;
  specialtotal: number;
  specialcompleted: number;
}

export const emptyCounts = (): StatusCounts => ({
  new: 0,
  invited: 0,
  started: 0,
  completed: 0,
  specialtotal: 0,
  specialcompleted: 0,
});

export async function listCampaigns(db: Kysely<Database>): Promise<CampaignRow[]> {
  return db.selectFrom('campaigns').selectAll().orderBy('created').orderBy('id').execute();
}

export async function findCampaign(db: Kysely<Database>, id: string): Promise<CampaignRow | undefined> {
  return db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Reads the campaign and, on PostgreSQL, locks its row until the transaction ends: adds and
 * invitations of one campaign queue behind each other, so a count checked here stays true.
 * (SQLite runs one write transaction at a time already.)
 */
export async function lockCampaign(
  trx: Transaction<Database>,
  dialect: Dialect,
  id: string,
): Promise<CampaignRow | undefined> {
  const query = trx.selectFrom('campaigns').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Answers false when the alias is taken (by constraint, so concurrent creates cannot both win). */
export async function insertCampaign(db: Kysely<Database>, row: NewCampaignRow): Promise<boolean> {
  const inserted = await db
    .insertInto('campaigns')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function aliasTaken(db: Kysely<Database>, alias: string, except?: string): Promise<boolean> {
  let query = db
    .selectFrom('campaigns')
    .select('id')
    // Aliases are [A-Za-z0-9_-]: lower() folds them alike on every engine.
    .where(sql`lower(alias)`, '=', alias.toLowerCase());
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function updateCampaign(
  db: Kysely<Database>,
  id: string,
  change: CampaignUpdate,
): Promise<boolean> {
  const result = await db.updateTable('campaigns').set(change).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteCampaign(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('campaigns').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Drops the campaign's mails still waiting (of one member when given): an invitation to a campaign
 * or a membership that is gone would lead nowhere. Mails sent, failed or in flight stay on record.
 */
export async function cancelQueuedMails(
  db: Kysely<Database>,
  campaignId: string,
  memberId?: string,
): Promise<void> {
  let query = db
    .deleteFrom('mail_outbox')
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'queued');
  if (memberId !== undefined) query = query.where('member_id', '=', memberId);
  await query.execute();
}

/** Asks the scheduler to look at the campaign at its next tick. */
export async function markDue(db: Kysely<Database>, id: string, now: string): Promise<void> {
  await db
    .updateTable('campaigns')
    .set({ due_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('due_at', 'is', null), eb('due_at', '>', now)]))
    .execute();
}

/** Status counts per campaign, for one campaign, some, or all of them: one grouped query. */
export async function statusCounts(
  db: Kysely<Database>,
  campaignIds?: string | string[],
): Promise<Map<string, StatusCounts>> {
  let query = db
    .selectFrom('campaign_members')
    .select(['campaign_id', 'status', 'testuser'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .groupBy(['campaign_id', 'status', 'testuser']);
  if (typeof campaignIds === 'string') query = query.where('campaign_id', '=', campaignIds);
  else if (campaignIds) {
    if (campaignIds.length === 0) return new Map();
    query = query.where('campaign_id', 'in', campaignIds);
  }
  const counts = new Map<string, StatusCounts>();
  for (const row of await query.execute()) {
    let entry = counts.get(row.campaign_id);
    if (!entry) {
      entry = emptyCounts();
      counts.set(row.campaign_id, entry);
    }
    const n = Number(row.n);
    entry[row.status] += n;
    if (row.testuser === 1) {
      entry.specialtotal += n;
      if (row.status === 'completed') entry.specialcompleted += n;
    }
  }
  return counts;
}

/** The people a campaign is shared with, its owner among them, with their user records. */
export async function listAccess(db: Kysely<Database>, campaignId: string) {
  return db
    .selectFrom('campaign_shares as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.campaign_id',
      's.user_id',
      's.type',
      's.created',
      'u.firstname',
      'u.lastname',
      'u.email',
      'u.agencyname',
      'u.agencyfooter',
      'u.color',
    ])
    .where('s.campaign_id', '=', campaignId)
    .orderBy('s.created')
    .orderBy('s.id')
    .execute();
}

/** Answers false when the user already has access. */
export async function insertShare(db: Kysely<Database>, share: CampaignShareTable): Promise<boolean> {
  const inserted = await db
    .insertInto('campaign_shares')
    .values(share)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteShare(
  db: Kysely<Database>,
  campaignId: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('campaign_shares')
    .where('campaign_id', '=', campaignId)
    .where('user_id', '=', userId)
    .where('type', '=', 'editor')
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Locks up to `limit` campaigns that are due, skipping those another process holds (PostgreSQL:
 * `FOR UPDATE SKIP LOCKED`; SQLite has one writer). The caller leases them before committing.
 */
export async function lockDueCampaigns(
  trx: Transaction<Database>,
  dialect: Dialect,
  now: string,
  limit: number,
): Promise<string[]> {
  const query = trx
    .selectFrom('campaigns')
    .select('id')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit);
  const rows = await (dialect === 'postgres' ? query.forUpdate().skipLocked() : query).execute();
  return rows.map((row) => row.id);
}

export async function setDue(trx: Transaction<Database>, ids: string[], moment: string): Promise<void> {
  await trx.updateTable('campaigns').set({ due_at: moment }).where('id', 'in', ids).execute();
}

/**
 * Gives a claimed campaign its next moment, unless a change marked it due meanwhile (then `due_at`
 * is no longer the lease, and the next tick looks again).
 */
export async function releaseDue(
  db: Kysely<Database>,
  id: string,
  lease: string,
  next: string | null,
): Promise<void> {
  await db
    .updateTable('campaigns')
    .set({ due_at: next })
    .where('id', '=', id)
    .where('due_at', '=', lease)
    .execute();
}

/**
 * Counts one more failure in a row of the scheduler on a claimed campaign and puts the campaign off
 * until `retryAt(failures)`; answers the count (0 when the campaign is gone).
 */
export async function deferDue(
  trx: Transaction<Database>,
  id: string,
  retryAt: (failures: number) => string,
): Promise<number> {
  const row = await trx
    .updateTable('campaigns')
    .set((eb) => ({ due_failures: eb('due_failures', '+', 1) }))
    .where('id', '=', id)
    .returning('due_failures')
    .executeTakeFirst();
  if (!row) return 0;
  await trx
    .updateTable('campaigns')
    .set({ due_at: retryAt(row.due_failures) })
    .where('id', '=', id)
    .execute();
  return row.due_failures;
}

/** The scheduler brought the campaign up to date: its next failure waits the shortest time again. */
export async function clearDueFailures(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('campaigns').set({ due_failures: 0 }).where('id', '=', id).execute();
}

/** Which of these member ids exist. */
export async function existingMemberIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    (await db.selectFrom('members').select('id').where('id', 'in', ids).execute()).map((row) => row.id),
  );
}

/** A campaign by its alias, whatever its case. */
export async function findCampaignByAlias(
  db: Kysely<Database>,
  alias: string,
): Promise<CampaignRow | undefined> {
  return db
    .selectFrom('campaigns')
    .selectAll()
    .where(sql<string>`lower(alias)`, '=', alias.toLowerCase())
    .executeTakeFirst();
}

// The JSON columns of `campaigns`, read and written only through these codecs.

/** `inviteoffset`, `reminderoffset`: an Offset, NULL for none; unreadable text reads as none. */
export function parseOffset(text: string | null): Offset | null {
  if (text === null) return null;
  const value = parseJsonColumn(text);
  return isJsonObject(value) ? (value as Offset) : null;
}

export const offsetText = (offset: Offset | null | undefined): string | null =>
  offset ? JSON.stringify(offset) : null;

/** `config`: the campaign's settings object; `{}` when empty, unreadable or not an object. */
export function parseCampaignConfig(text: string | null): Record<string, unknown> {
  if (!text) return {};
  const value = parseJsonColumn(text);
  return isJsonObject(value) ? value : {};
}

export const campaignConfigText = (config: Record<string, unknown>): string => JSON.stringify(config);

/** `admins`: the admins' member ids (legacy rows may hold null entries); none when unreadable. */
export function parseAdmins(text: string): (string | null)[] {
  const value = parseJsonColumn(text);
  return Array.isArray(value) ? (value as (string | null)[]) : [];
}

export const adminsText = (admins: readonly (string | null)[]): string => JSON.stringify(admins);

/** `mailconfig`: the template of each mail stage; `[]` when empty, unreadable or not an object. */
export const parseMailConfig = (text: string | null): Record<string, unknown> | [] => jsonObjectColumn(text);

/** Anything but an object is stored as `{}`. */
export const mailConfigText = (value: object | null | undefined): string =>
  JSON.stringify(!value || Array.isArray(value) ? {} : value);
