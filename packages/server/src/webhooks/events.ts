import type { WebhookEvent } from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { randomId } from '../util/ids.js';
import { enabledSubscriptions, insertMessages } from './subscriptions.repository.js';
import type { NewMessageRow } from './webhooks.table.js';

/** The event a subscription's test call sends, to that subscription only. */
export const TEST_EVENT = 'webhook.test';

/** What a change tells about itself: ids and the fields a receiver needs, never answers or secrets. */
export type EventData = Readonly<Record<string, string | number | boolean | null>>;

/** The body of a message, as every attempt sends it. */
export function eventBody(type: string, timestamp: string, data: EventData): string {
  return JSON.stringify({ type, timestamp, data });
}

/**
 * Queues an event for every enabled subscription that asked for it, in the caller's transaction:
 * the messages exist exactly when the change that causes them does (a rolled back change sends
 * nothing, a crash after the commit loses nothing). `orderKey` (the member the event is about)
 * keeps one member's events in the order they happened. Answers how many messages were queued.
 */
export async function queueEvent(
  trx: Transaction<Database> | Kysely<Database>,
  type: WebhookEvent,
  data: EventData,
  at: { now: string; orderKey?: string | null },
): Promise<number> {
  return queueEvents(trx, type, [data], { now: at.now, orderKey: () => at.orderKey ?? null });
}

/** `queueEvent` for many events of one type at once (an invitation of thousands of members). */
export async function queueEvents(
  trx: Transaction<Database> | Kysely<Database>,
  type: WebhookEvent,
  events: readonly EventData[],
  at: { now: string; orderKey: (data: EventData) => string | null },
): Promise<number> {
  if (events.length === 0) return 0;
  const subscriptions = (await enabledSubscriptions(trx)).filter((subscription) =>
    subscription.events.split(' ').includes(type),
  );
  if (subscriptions.length === 0) return 0;
  const rows: NewMessageRow[] = [];
  for (const data of events) {
    const payload = eventBody(type, at.now, data);
    for (const subscription of subscriptions) {
      rows.push(messageRow(subscription.id, type, payload, at.now, at.orderKey(data)));
    }
  }
  await insertMessages(trx, rows);
  return rows.length;
}

export function messageRow(
  subscriptionId: string,
  type: string,
  payload: string,
  now: string,
  orderKey: string | null,
): NewMessageRow {
  return {
    id: randomId(),
    subscription_id: subscriptionId,
    event_type: type,
    order_key: orderKey,
    payload,
    status: 'queued',
    attempts: 0,
    next_attempt_at: now,
    created: now,
  };
}
