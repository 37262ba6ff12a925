import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { jsonObjectColumn } from '../db/json-columns.js';

// Everything held about one person, read for their data export (art. 15) and removed by their
// erasure (art. 17): the queries of member-data.service.ts and erasure.service.ts.

type Db = Kysely<Database> | Transaction<Database>;

/** The member's group, when in one. */
export async function groupOf(db: Db, groupId: string) {
  return db.selectFrom('groups').select(['id', 'name']).where('id', '=', groupId).executeTakeFirst();
}

/** Their places in campaigns, with each campaign's name and variant, oldest first. */
export async function participationsOf(db: Db, memberId: string) {
  return db
    .selectFrom('campaign_members')
    .innerJoin('campaigns', 'campaigns.id', 'campaign_members.campaign_id')
    .select([
      'campaign_members.id',
      'campaign_members.campaign_id',
      'campaigns.name as campaign_name',
      'campaigns.variant',
      'campaign_members.status',
      'campaign_members.title',
      'campaign_members.firstname',
      'campaign_members.middlename',
      'campaign_members.lastname',
      'campaign_members.email',
      'campaign_members.extra',
      'campaign_members.tags',
      'campaign_members.results',
      'campaign_members.created',
      'campaign_members.dateinvited',
      'campaign_members.datestarted',
      'campaign_members.datecompleted',
      'campaign_members.datereminded',
      'campaign_members.countreminded',
      'campaign_members.answers',
    ])
    .where('campaign_members.member_id', '=', memberId)
    .orderBy('campaign_members.created')
    .orderBy('campaign_members.id')
    .execute();
}

/** The ids of their campaign places: mails about them are keyed by these too. */
export async function campaignMemberIdsOf(db: Db, memberId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('campaign_members')
    .select('id')
    .where('member_id', '=', memberId)
    .execute();
  return rows.map((row) => row.id);
}

/** Their personal reports, oldest first. */
export async function reportsOf(db: Db, memberId: string) {
  return db
    .selectFrom('reports')
    .select([
      'id',
      'type',
      'variant',
      'language',
      'campaign_id',
      'raw',
      'processed',
      'status',
      'date',
      'created',
    ])
    .where('member_id', '=', memberId)
    .orderBy('seq')
    .execute();
}

/**
 * The condition of every mail that names them: sent to them (their member id, or their address
 * with no member behind it), or about them (a `confirmation_admin` to a campaign's admins is keyed
 * `<their member or campaign place id>:<stage>:<admin>`, and carries their name in its params).
 */
function mailsAbout(memberId: string, ownKeys: readonly string[], emailKey: string) {
  return (eb: ExpressionBuilder<Database, 'mail_outbox'>) =>
    eb.or([
      eb('member_id', '=', memberId),
      eb(sql<string>`lower(recipient)`, '=', emailKey),
      ...ownKeys.map((key) => eb('dedupe_key', 'like', `${key}:%`)),
    ]);
}

/** Every mail that names them, oldest first. */
export async function mailsOf(db: Db, memberId: string, ownKeys: readonly string[], emailKey: string) {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'campaign_id', 'stage', 'recipient', 'status', 'params', 'created', 'sent_at'])
    .where(mailsAbout(memberId, ownKeys, emailKey))
    .orderBy('created')
    .orderBy('id')
    .execute();
}

/** Deletes every mail that names them (delivered or not): answers how many. */
export async function deleteMailsOf(
  trx: Transaction<Database>,
  memberId: string,
  ownKeys: readonly string[],
  emailKey: string,
): Promise<number> {
  const result = await trx
    .deleteFrom('mail_outbox')
    .where(mailsAbout(memberId, ownKeys, emailKey))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The webhook messages about them (queued with their member id as the order key), oldest first. */
export async function webhookMessagesOf(db: Db, memberId: string) {
  return db
    .selectFrom('webhook_outbox')
    .select(['id', 'subscription_id', 'event_type', 'payload', 'status', 'created', 'delivered_at'])
    .where('order_key', '=', memberId)
    .orderBy('seq')
    .execute();
}

/** The answers a campaign place holds (by question code), as the questionnaire saved them. */
export const parseAnswers = (text: string): Record<string, unknown> | [] => jsonObjectColumn(text);

/** A webhook message's body as stored (eventBody): `{ type, timestamp, data }`. */
export const parseEventBody = (text: string): Record<string, unknown> | [] => jsonObjectColumn(text);

/**
 * Deletes the 360 group reports whose subject is one of these reports (their master source,
 * position -1): such a report is about that one person.
 */
export async function deleteSubjectGroupReports(
  trx: Transaction<Database>,
  reportIds: readonly string[],
): Promise<void> {
  if (reportIds.length === 0) return;
  const subjectOf = trx
    .selectFrom('report_sources')
    .select('report_id')
    .where('source_id', 'in', reportIds)
    .where('position', '=', -1);
  await trx.deleteFrom('reports').where('id', 'in', subjectOf).execute();
}

/**
 * Removes the reasons a group report gave for leaving out their free-text answers: the entries
 * name their (now erased) reports, `<reportid>` or `<reportid>:<code>`.
 */
export async function deleteVerbatimReasonsOf(
  trx: Transaction<Database>,
  reportIds: readonly string[],
): Promise<void> {
  for (const id of reportIds) {
    await trx
      .deleteFrom('report_verbatim_reasons')
      .where((eb) => eb.or([eb('entry', '=', id), eb('entry', 'like', `${id}:%`)]))
      .execute();
  }
}

/**
 * Removes the console uploads (an import file kept between its check page and the confirmation)
 * and wizard drafts that hold their address: both are short-lived working copies, and a CSV holds
 * other people too, so the whole file goes rather than a line of it.
 */
export async function deleteConsoleCopiesNaming(trx: Transaction<Database>, emailKey: string): Promise<void> {
  const pattern = `%${emailKey.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await trx
    .deleteFrom('console_uploads')
    .where(sql<boolean>`lower(content) like ${pattern} escape '\\'`)
    .execute();
  await trx
    .deleteFrom('console_drafts')
    .where(sql<boolean>`lower(data) like ${pattern} escape '\\'`)
    .execute();
}

/**
 * SQLite: copies the write-ahead log into the database file and empties it (TRUNCATE), so that the
 * erased rows' old page images, kept in the log until then, are gone from disk files as well;
 * `secure_delete` (db/connect.ts) has zeroed them in the database file itself. PostgreSQL's files
 * are its own (docs/privacy.md): nothing to do there.
 */
export async function checkpointLog(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}
