import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { queueMails } from '../mail/outbox.repository.js';
import { WEBHOOK_MAIL_STAGE, type WebhookMailParams } from '../mail/webhook-mail.js';
import { formatDate } from '../util/dates.js';
import type { MessageRow } from './webhooks.table.js';

/**
 * Takes up to `limit` messages for this worker: ones a worker took and lost (its lease ran out),
 * then queued ones whose time has come, in the order they were queued. A message waits while an
 * earlier one of the same subscription and member is not settled, so a member's events arrive in
 * order. Each becomes `sending` until `leaseUntil`, one attempt more. On PostgreSQL rows another
 * process is claiming at the same moment are skipped, never shared; SQLite has one writer.
 */
export async function claimMessages(
  db: Kysely<Database>,
  dialect: Dialect,
  options: { now: string; leaseUntil: string; limit: number; owner: string },
): Promise<MessageRow[]> {
  const lost = await claim(db, dialect, options, 'lost', options.limit);
  if (lost.length >= options.limit) return lost;
  return [...lost, ...(await claim(db, dialect, options, 'due', options.limit - lost.length))];
}

async function claim(
  db: Kysely<Database>,
  dialect: Dialect,
  options: { now: string; leaseUntil: string; owner: string },
  which: 'lost' | 'due',
  limit: number,
): Promise<MessageRow[]> {
  let rows =
    which === 'lost'
      ? db
          .selectFrom('webhook_outbox as o')
          .select('o.id')
          .where('o.status', '=', 'sending')
          .where('o.lease_until', '<', options.now)
          .orderBy('o.lease_until')
      : db
          .selectFrom('webhook_outbox as o')
          .select('o.id')
          .where('o.status', '=', 'queued')
          .where('o.next_attempt_at', '<=', options.now)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_outbox as p')
                  .select(sql`1`.as('one'))
                  .whereRef('p.subscription_id', '=', 'o.subscription_id')
                  .whereRef('p.order_key', '=', 'o.order_key')
                  .whereRef('p.seq', '<', 'o.seq')
                  .where('p.status', 'in', ['queued', 'sending']),
              ),
            ),
          )
          .orderBy('o.seq');
  rows = rows.limit(limit);
  if (dialect === 'postgres') rows = rows.forUpdate().skipLocked();
  const claimed = await db
    .updateTable('webhook_outbox')
    .set((eb) => ({
      status: 'sending',
      lease_until: options.leaseUntil,
      lease_owner: options.owner,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', rows)
    .returningAll()
    .execute();
  return claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** What became of one attempt. */
export interface AttemptOutcome {
  id: string;
  subscriptionId: string;
  attempt: number;
  kind: 'delivered' | 'retry' | 'failed';
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt?: string;
}

/** A subscription failing this long in a row is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/**
 * Records the outcomes of one batch in one transaction: the messages (only those still `sending`
 * under this worker's lease: one another worker took over after the lease ran out is left to it),
 * an attempt row for each, and each subscription's failing streak. A subscription failing for
 * 3 days in a row is disabled and its queued messages failed. Answers the ids of the subscriptions
 * disabled now.
 */
export async function recordOutcomes(
  db: Kysely<Database>,
  outcomes: readonly AttemptOutcome[],
  options: { owner: string; leaseUntil: string; now: string; nowMs: number; messageIdDomain: string },
): Promise<{ recorded: number; disabled: string[] }> {
  if (outcomes.length === 0) return { recorded: 0, disabled: [] };
  const { owner, leaseUntil, now } = options;
  return db.transaction().execute(async (trx) => {
    const mine = (ids: string[]) =>
      trx
        .updateTable('webhook_outbox')
        .where('id', 'in', ids)
        .where('status', '=', 'sending')
        .where('lease_owner', '=', owner)
        .where('lease_until', '=', leaseUntil);
    const written = new Set<string>();
    const delivered = outcomes.filter((outcome) => outcome.kind === 'delivered').map((outcome) => outcome.id);
    const failed = outcomes.filter((outcome) => outcome.kind === 'failed').map((outcome) => outcome.id);
    if (delivered.length > 0) {
      const rows = await mine(delivered)
        .set({ status: 'delivered', delivered_at: now, lease_until: null, lease_owner: null })
        .returning('id')
        .execute();
      for (const row of rows) written.add(row.id);
    }
    if (failed.length > 0) {
      const rows = await mine(failed)
        .set({ status: 'failed', lease_until: null, lease_owner: null })
        .returning('id')
        .execute();
      for (const row of rows) written.add(row.id);
    }
    for (const outcome of outcomes) {
      if (outcome.kind !== 'retry') continue;
      const rows = await mine([outcome.id])
        .set({
          status: 'queued',
          next_attempt_at: outcome.nextAttemptAt ?? now,
          lease_until: null,
          lease_owner: null,
        })
        .returning('id')
        .execute();
      for (const row of rows) written.add(row.id);
    }
    const kept = outcomes.filter((outcome) => written.has(outcome.id));
    for (let start = 0; start < kept.length; start += 500) {
      await trx
        .insertInto('webhook_attempts')
        .values(
          kept.slice(start, start + 500).map((outcome) => ({
            message_id: outcome.id,
            subscription_id: outcome.subscriptionId,
            attempt: outcome.attempt,
            at: now,
            http_status: outcome.httpStatus,
            error: outcome.error,
            duration_ms: Math.max(0, Math.round(outcome.durationMs)),
          })),
        )
        .execute();
    }
    // A delivered message ends a subscription's failing streak; a failed attempt starts one.
    const succeeded = new Set(kept.filter((o) => o.kind === 'delivered').map((o) => o.subscriptionId));
    const failing = new Set(
      kept
        .filter((o) => o.kind !== 'delivered' && !succeeded.has(o.subscriptionId))
        .map((o) => o.subscriptionId),
    );
    if (succeeded.size > 0) {
      await trx
        .updateTable('webhook_subscriptions')
        .set({ failing_since: null })
        .where('id', 'in', [...succeeded])
        .where('failing_since', 'is not', null)
        .execute();
    }
    const disabled: string[] = [];
    if (failing.size > 0) {
      await trx
        .updateTable('webhook_subscriptions')
        .set({ failing_since: now })
        .where('id', 'in', [...failing])
        .where('failing_since', 'is', null)
        .execute();
      const due = await trx
        .selectFrom('webhook_subscriptions')
        .select(['id', 'failing_since'])
        .where('id', 'in', [...failing])
        .where('enabled', '=', 1)
        .where('failing_since', '<=', formatDate(new Date(options.nowMs - DISABLE_AFTER_MS)))
        .execute();
      for (const row of due) {
        disabled.push(row.id);
        await mailOwner(trx, row.id, row.failing_since ?? now, options);
        await trx
          .updateTable('webhook_subscriptions')
          .set({
            enabled: 0,
            updated: now,
            disabled_reason: `every delivery failed for 3 days in a row, since ${row.failing_since}`,
          })
          .where('id', '=', row.id)
          .execute();
      }
      if (disabled.length > 0) await failQueued(trx, disabled);
    }
    return { recorded: kept.length, disabled };
  });
}

/** The queued messages of subscriptions that no longer deliver, failed (kept for the record). */
export async function failQueued(db: Kysely<Database>, subscriptionIds: readonly string[]): Promise<number> {
  if (subscriptionIds.length === 0) return 0;
  const result = await db
    .updateTable('webhook_outbox')
    .set({ status: 'failed' })
    .where('subscription_id', 'in', subscriptionIds)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Tells the owner of a subscription disabled now, by a mail queued in the same transaction (once
 * per failing streak: its start is in the mail's unique key). A subscription without an owner, or
 * whose owner is deactivated, is only logged.
 */
async function mailOwner(
  trx: Transaction<Database>,
  subscriptionId: string,
  failingSince: string,
  options: { now: string; messageIdDomain: string },
): Promise<void> {
  const owner = await trx
    .selectFrom('webhook_subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .select(['s.url', 'u.email', 'u.firstname', 'u.lastname', 'u.deactivated'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
  if (!owner || owner.deactivated !== null) return;
  const params: WebhookMailParams = {
    stage: WEBHOOK_MAIL_STAGE,
    language: 'enUS',
    template: 'webhook',
    recipient: { firstname: owner.firstname, lastname: owner.lastname, email: owner.email },
    webhook: {
      id: subscriptionId,
      url: owner.url,
      reason: `every delivery failed for 3 days in a row, since ${failingSince}`,
    },
  };
  await queueMails(
    trx,
    [
      {
        dedupeKey: `webhook:${subscriptionId}:disabled:${failingSince}`,
        campaignId: null,
        memberId: null,
        // A platform mail: its stage and params are its own (mail/webhook-mail.ts), rendered by
        // renderMail before any campaign stage is looked at.
        stage: WEBHOOK_MAIL_STAGE as never,
        sequence: 0,
        recipient: owner.email,
        params: params as never,
      },
    ],
    { now: options.now, messageIdDomain: options.messageIdDomain },
  );
}

/**
 * Deletes up to `limit` messages whose delivery ended (delivered, or failed for good) and that were
 * queued before `cutoff`, the oldest first, with their attempts (the foreign key cascades); answers
 * how many messages went. A queued or sending message is never touched, however old, so no
 * member's later events lose their place in line. Run it in the transaction that records the
 * removal.
 */
export async function pruneSettledMessages(
  db: Kysely<Database> | Transaction<Database>,
  cutoff: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('webhook_outbox')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_outbox')
        .select('id')
        .where('status', 'in', ['delivered', 'failed'])
        .where('created', '<', cutoff)
        .orderBy('created')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
