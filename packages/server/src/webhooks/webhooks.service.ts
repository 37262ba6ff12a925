import {
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookPatch,
} from '@assay/schema';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import type { AppContext } from '../context.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import { isStorableText } from '../util/text.js';
import { webhookId } from './delivery.js';
import { eventBody, messageRow, TEST_EVENT } from './events.js';
import { failQueued } from './outbox.repository.js';
import { newSecret } from './signing.js';
import { type TargetPolicy, targetProblem } from './ssrf.js';
import {
  deleteSubscription,
  findSubscription,
  insertMessage,
  insertSubscription,
  listAttempts,
  listSubscriptions,
  updateSubscription,
} from './subscriptions.repository.js';
import type { SubscriptionRow } from './webhooks.table.js';

/** What the webhook services need: the same for the API, the command line and the console. */
export type WebhookDeps = Pick<AppContext, 'db' | 'config' | 'clock' | 'mailQueued'>;

/** How long a rotated secret keeps signing. */
export const PREVIOUS_SECRET_MS = 24 * 3600_000;

const policyOf = (deps: WebhookDeps): TargetPolicy => ({
  allowPrivate: deps.config.webhookAllowPrivate,
  allowHttp: deps.config.webhookAllowHttp,
});

function toWebhook(row: SubscriptionRow): Webhook {
  return {
    webhookid: row.id,
    url: row.url,
    events: row.events.split(' ').filter(Boolean),
    description: row.description,
    enabled: row.enabled === 1,
    disabledreason: row.disabled_reason,
    failingsince: row.failing_since,
    created: row.created,
    updated: row.updated,
  };
}

async function checkUrl(deps: WebhookDeps, url: string): Promise<void> {
  if (!isStorableText(url)) throw new BusinessError('url: not a valid absolute URL');
  const problem = await targetProblem(url, policyOf(deps));
  if (problem) throw new BusinessError(problem);
}

/**
 * What a subscription is made or changed with: the API's body, whose events its schema checked, or
 * the command line's, whose events are the words typed, checked by `eventsText`.
 */
export type WebhookInput = Omit<WebhookCreate, 'events'> & { events: readonly string[] };
export type WebhookChange = Omit<WebhookPatch, 'events'> & { events?: readonly string[] };

/** The events, checked again here for callers that skip the API's schema (the command line). */
function eventsText(events: readonly string[]): string {
  if (events.length === 0) throw new BusinessError('events: name at least one event');
  const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (unknown.length > 0)
    throw new BusinessError(
      `events: unknown event ${unknown.join(', ')}; the events are ${WEBHOOK_EVENTS.join(', ')}`,
    );
  if (new Set(events).size !== events.length) throw new BusinessError('events: name each event once');
  return events.join(' ');
}

function descriptionOf(description: string | null | undefined): string | null {
  if (description === undefined || description === null) return null;
  if (!isStorableText(description) || description.length > 1000)
    throw new BusinessError('description: at most 1000 characters of text');
  return description === '' ? null : description;
}

async function findRow(deps: WebhookDeps, id: string): Promise<SubscriptionRow> {
  const row = await findSubscription(deps.db, id);
  if (!row) throw notFound('webhook');
  return row;
}

/**
 * POST /webhooks: the subscription with its secret, which is never shown again. Its owner is the
 * user the actor acts for, unless named (the command line's `--owner`; it acts for no user).
 */
export async function createWebhook(
  deps: WebhookDeps,
  actor: Actor,
  input: WebhookInput,
  ownerId: string | null = actor.userId,
): Promise<Webhook & { secret: string }> {
  const events = eventsText(input.events);
  const description = descriptionOf(input.description);
  await checkUrl(deps, input.url);
  const now = formatDate(deps.clock());
  const row: SubscriptionRow = {
    id: randomId(),
    owner_id: ownerId,
    url: input.url,
    events,
    description,
    enabled: 1,
    secret: newSecret(),
    previous_secret: null,
    previous_until: null,
    failing_since: null,
    hold_until: null,
    disabled_reason: null,
    created: now,
    updated: now,
  };
  await deps.db.transaction().execute(async (trx) => {
    await insertSubscription(trx, row);
    await recordChange(trx, actor, { resource: 'webhook', id: row.id, action: 'create' });
  });
  return { ...toWebhook(row), secret: row.secret };
}

export async function listWebhooks(deps: WebhookDeps): Promise<Webhook[]> {
  return (await listSubscriptions(deps.db)).map(toWebhook);
}

export async function getWebhook(deps: WebhookDeps, id: string): Promise<Webhook> {
  return toWebhook(await findRow(deps, id));
}

/**
 * PATCH /webhooks/{id}: url (checked as at create), events, description, enabled. Enabling again
 * clears the failing streak; disabling fails the messages still queued (they are kept, listed).
 */
export async function patchWebhook(
  deps: WebhookDeps,
  id: string,
  input: WebhookChange,
  actor: Actor,
): Promise<Webhook> {
  const row = await findRow(deps, id);
  const change: Partial<SubscriptionRow> = {};
  if (input.events !== undefined) change.events = eventsText(input.events);
  if (input.description !== undefined) change.description = descriptionOf(input.description);
  if (input.url !== undefined) {
    await checkUrl(deps, input.url);
    change.url = input.url;
    // Another receiver: whether it answers is yet to be seen.
    if (input.url !== row.url && row.hold_until !== null) change.hold_until = null;
  }
  if (input.enabled !== undefined) {
    const enabled = input.enabled ? 1 : 0;
    if (enabled !== row.enabled) {
      change.enabled = enabled;
      if (enabled === 1) {
        change.failing_since = null;
        change.hold_until = null;
        change.disabled_reason = null;
      }
    }
  }
  if (Object.keys(change).length === 0) return toWebhook(row);
  // The names the caller changed (enabling again also clears the streak, which is the same change).
  const fields = Object.keys(change).filter(
    (field) => field !== 'failing_since' && field !== 'hold_until' && field !== 'disabled_reason',
  );
  change.updated = formatDate(deps.clock());
  await deps.db.transaction().execute(async (trx) => {
    await updateSubscription(trx, id, change);
    if (change.enabled === 0) await failQueued(trx, [id]);
    await recordChange(trx, actor, { resource: 'webhook', id, action: 'update', fields });
  });
  return getWebhook(deps, id);
}

/** DELETE /webhooks/{id}: the subscription, its messages and their attempts. */
export async function deleteWebhook(deps: WebhookDeps, id: string, actor: Actor): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteSubscription(trx, id))) throw notFound('webhook');
    await recordChange(trx, actor, { resource: 'webhook', id, action: 'delete' });
  });
}

/**
 * POST /webhooks/{id}/rotate: a new secret, answered once; the old one keeps signing (a second
 * signature in the header) for 24 hours, so receivers can switch without losing a message.
 */
export async function rotateSecret(
  deps: WebhookDeps,
  id: string,
  actor: Actor,
): Promise<Webhook & { secret: string }> {
  const row = await findRow(deps, id);
  const now = deps.clock();
  const secret = newSecret();
  await deps.db.transaction().execute(async (trx) => {
    await updateSubscription(trx, id, {
      secret,
      previous_secret: row.secret,
      previous_until: formatDate(new Date(now.getTime() + PREVIOUS_SECRET_MS)),
      updated: formatDate(now),
    });
    await recordChange(trx, actor, { resource: 'webhook', id, action: 'rotate', fields: ['secret'] });
  });
  return { ...(await getWebhook(deps, id)), secret };
}

/** POST /webhooks/{id}/test: a `webhook.test` message to this subscription only; answers its webhook-id. */
export async function testWebhook(
  deps: WebhookDeps,
  id: string,
  actor: Actor,
): Promise<{ messageid: string }> {
  const row = await findRow(deps, id);
  if (row.enabled !== 1)
    throw new BusinessError('webhook: is disabled; enable it first (PATCH enabled true)');
  const now = formatDate(deps.clock());
  const message = messageRow(id, TEST_EVENT, eventBody(TEST_EVENT, now, { webhookid: id }), now, null);
  await deps.db.transaction().execute(async (trx) => {
    await insertMessage(trx, message);
    // An operator testing a receiver they mended wants the answer now, not when its hold ends.
    if (row.hold_until !== null) await updateSubscription(trx, id, { hold_until: null });
    await recordChange(trx, actor, { resource: 'webhook', id, action: 'test' });
  });
  deps.mailQueued();
  return { messageid: webhookId(message.id) };
}

/** GET /webhooks/{id}/deliveries: the attempts, newest first (at most `limit`, 100 by default). */
export async function listDeliveries(deps: WebhookDeps, id: string, limit = 100): Promise<WebhookDelivery[]> {
  await findRow(deps, id);
  const rows = await listAttempts(deps.db, id, limit);
  return rows.map((row) => ({
    messageid: webhookId(row.message_id),
    event: row.event_type,
    attempt: Number(row.attempt),
    at: row.at,
    httpstatus: row.http_status === null ? null : Number(row.http_status),
    error: row.error,
    durationms: Number(row.duration_ms),
    messagestatus: row.status,
  }));
}
