import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Where an erasure looks: everything older than `cutoff`, or only one campaign's. */
export interface RetentionScope {
  /** A wire-form moment: what was given before it goes. */
  cutoff: string;
  campaignId?: string;
}

/** The answers a campaign place holds once erased, or before any was given. */
export const NO_ANSWERS = '{}';

/**
 * Campaign places whose answers are past the cutoff: counted from completion, or from the start of
 * a questionnaire never completed. Places already erased (no answers) are not read again, so each
 * batch starts from the first: no cursor is kept between transactions.
 */
export async function expiredPlaces(db: Db, scope: RetentionScope, limit: number): Promise<string[]> {
  let query = db
    .selectFrom('campaign_members')
    .select('id')
    .where('answers', '<>', NO_ANSWERS)
    .where((eb) => eb(eb.fn.coalesce('datecompleted', 'datestarted'), '<', scope.cutoff));
  if (scope.campaignId !== undefined) query = query.where('campaign_id', '=', scope.campaignId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

/**
 * Empties the answers of those places (the place itself, its status and dates stay); answers the
 * members whose answers this call erased, so that two processes erasing at once record each once.
 */
export async function erasePlaceAnswers(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .updateTable('campaign_members')
    .set({ answers: NO_ANSWERS })
    .where('id', 'in', ids)
    .where('answers', '<>', NO_ANSWERS)
    .returning('member_id')
    .execute();
  return rows.map((row) => row.member_id);
}

/** Personal reports dated before the cutoff (the moment their answers were given). */
export async function expiredReports(db: Db, scope: RetentionScope, limit: number): Promise<string[]> {
  let query = db
    .selectFrom('reports')
    .select('id')
    .where('type', '=', 'personal')
    .where('date', '<', scope.cutoff);
  if (scope.campaignId !== undefined) query = query.where('campaign_id', '=', scope.campaignId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => row.id);
}

/** A personal report as its deletion event names it. */
export interface ErasedReport {
  id: string;
  member_id: string | null;
  campaign_id: string | null;
}

/**
 * Deletes those personal reports; their rows in `report_sources` (a group report made of them) go
 * with them by the foreign key. Answers the reports this call deleted.
 */
export async function deletePersonalReports(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<ErasedReport[]> {
  if (ids.length === 0) return [];
  return trx
    .deleteFrom('reports')
    .where('id', 'in', ids)
    .where('type', '=', 'personal')
    .returning(['id', 'member_id', 'campaign_id'])
    .execute();
}

/** Every campaign's own retention, in days. */
export async function campaignRetentions(db: Db): Promise<{ campaign_id: string; days: number }[]> {
  return db.selectFrom('campaign_retention').select(['campaign_id', 'days']).orderBy('campaign_id').execute();
}

/** One campaign's own retention in days, or null when the instance's applies. */
export async function campaignRetention(db: Db, campaignId: string): Promise<number | null> {
  const row = await db
    .selectFrom('campaign_retention')
    .select('days')
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();
  return row ? Number(row.days) : null;
}

/** Sets a campaign's own retention (a new row or a changed one). */
export async function upsertCampaignRetention(
  trx: Transaction<Database>,
  campaignId: string,
  days: number,
  now: string,
): Promise<void> {
  await trx
    .insertInto('campaign_retention')
    .values({ campaign_id: campaignId, days, updated: now })
    .onConflict((oc) => oc.column('campaign_id').doUpdateSet({ days, updated: now }))
    .execute();
}

/** Removes a campaign's own retention; answers whether it had one. */
export async function deleteCampaignRetention(
  trx: Transaction<Database>,
  campaignId: string,
): Promise<boolean> {
  const result = await trx
    .deleteFrom('campaign_retention')
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
