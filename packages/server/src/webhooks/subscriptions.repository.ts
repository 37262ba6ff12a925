import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { NewMessageRow, SubscriptionRow } from './webhooks.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/** One subscription, or undefined. */
export function findSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every subscription, oldest first. */
export function listSubscriptions(db: Db): Promise<SubscriptionRow[]> {
  return db.selectFrom('webhook_subscriptions').selectAll().orderBy('created').orderBy('id').execute();
}

export async function insertSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(row).execute();
}

export async function updateSubscription(
  db: Db,
  id: string,
  change: Partial<SubscriptionRow>,
): Promise<void> {
  await db.updateTable('webhook_subscriptions').set(change).where('id', '=', id).execute();
}

/** Deletes a subscription with its messages and their attempts (the foreign keys cascade); answers whether it was there. */
export async function deleteSubscription(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The enabled subscriptions and the events each asked for (space-separated). */
export function enabledSubscriptions(db: Db): Promise<{ id: string; events: string }[]> {
  return db.selectFrom('webhook_subscriptions').select(['id', 'events']).where('enabled', '=', 1).execute();
}

/** Queues one message (a test event) outside any change's fan-out. */
export async function insertMessage(db: Db, message: NewMessageRow): Promise<void> {
  await db.insertInto('webhook_outbox').values(message).execute();
}

const INSERT_CHUNK = 500;

/** Queues messages, 500 rows a statement (the parameters of a statement are limited). */
export async function insertMessages(db: Db, rows: readonly NewMessageRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await db
      .insertInto('webhook_outbox')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

/** The attempts at a subscription's messages, newest first, with each message's event and status. */
export function listAttempts(db: Db, subscriptionId: string, limit: number) {
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_outbox as m', 'm.id', 'a.message_id')
    .select([
      'a.message_id',
      'm.event_type',
      'a.attempt',
      'a.at',
      'a.http_status',
      'a.error',
      'a.duration_ms',
      'm.status',
    ])
    .where('a.subscription_id', '=', subscriptionId)
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
}
