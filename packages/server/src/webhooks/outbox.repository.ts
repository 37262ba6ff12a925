import { type Kysely, type SelectQueryBuilder, sql, type Transaction, type UpdateObject } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { relaxedCommit } from '../db/relaxed-commit.js';
import { queueMails } from '../mail/outbox.repository.js';
import { WEBHOOK_MAIL_STAGE, type WebhookMailParams } from '../mail/webhook-mail.js';
import { formatDate } from '../util/dates.js';
import type { MessageRow, SubscriptionRow, WebhookOutboxTable } from './webhooks.table.js';

interface ClaimOptions {
  now: string;
  leaseUntil: string;
  limit: number;
  owner: string;
}

/**
 * The subscriptions with a queued message due now, and not held back (a receiver that stopped
 * answering holds its subscription until `hold_until`): the worker then claims for each as many as
 * it may have on the wire for it, and sends them with the row read here.
 */
export function dueSubscriptions(db: Kysely<Database>, now: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('webhook_subscriptions as s')
    .selectAll('s')
    .where((eb) => eb.or([eb('s.hold_until', 'is', null), eb('s.hold_until', '<=', now)]))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('webhook_outbox as o')
          .select(sql`1`.as('one'))
          .whereRef('o.subscription_id', '=', 's.id')
          .where('o.status', '=', 'queued')
          .where('o.next_attempt_at', '<=', now),
      ),
    )
    .orderBy('s.id')
    .execute();
}

/** The subscriptions of these ids (those of messages taken over from another worker). */
export function subscriptionsOf(db: Kysely<Database>, ids: readonly string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('webhook_subscriptions').selectAll().where('id', 'in', ids).execute();
}

/**
 * Takes up to `limit` messages of a worker that lost them (its lease ran out: it died, or could
 * not record what became of them), oldest lease first, for this worker.
 */
export function claimLost(
  db: Kysely<Database>,
  dialect: Dialect,
  options: ClaimOptions,
): Promise<MessageRow[]> {
  const rows = db
    .selectFrom('webhook_outbox as o')
    .select('o.id')
    .where('o.status', '=', 'sending')
    .where('o.lease_until', '<', options.now)
    .orderBy('o.lease_until');
  return claim(db, dialect, options, rows);
}

/**
 * Takes up to `limit` queued messages of one subscription whose time has come, in the order they
 * were queued. A message waits while an earlier one of the same subscription and member is not
 * settled, so a member's events arrive in order.
 */
export function claimDue(
  db: Kysely<Database>,
  dialect: Dialect,
  options: ClaimOptions & { subscriptionId: string },
): Promise<MessageRow[]> {
  const rows = db
    .selectFrom('webhook_outbox as o')
    .select('o.id')
    .where('o.subscription_id', '=', options.subscriptionId)
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
  return claim(db, dialect, options, rows);
}

/**
 * Each message chosen becomes `sending` until `leaseUntil`, one attempt more. On PostgreSQL rows
 * another process is claiming at the same moment are skipped, never shared; SQLite has one writer.
 */
async function claim(
  db: Kysely<Database>,
  dialect: Dialect,
  options: ClaimOptions,
  chosen: SelectQueryBuilder<Database & { o: WebhookOutboxTable }, 'o', { id: string }>,
): Promise<MessageRow[]> {
  let rows = chosen.limit(options.limit);
  if (dialect === 'postgres') rows = rows.forUpdate().skipLocked();
  // Chosen once, in a CTE of its own: as a subquery of the UPDATE, PostgreSQL may run it again for
  // each row it updates, each run skipping the rows the last ones locked, and claim several times
  // the limit (12 instead of 4 in hung-receiver.test.ts).
  let update = db
    .with(
      (cte) => cte('chosen').materialized(),
      () => rows,
    )
    .updateTable('webhook_outbox')
    .set((eb) => ({
      status: 'sending',
      lease_until: options.leaseUntil,
      lease_owner: options.owner,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', (eb) => eb.selectFrom('chosen').select('chosen.id'));
  // A claim lost in a crash of the database leaves the message queued: it is sent (again).
  if (dialect === 'postgres') update = update.where(relaxedCommit);
  const claimed = await update.returningAll().execute();
  return claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** What became of one attempt. */
export interface AttemptOutcome {
  id: string;
  subscriptionId: string;
  attempt: number;
  /** The lease it was claimed under: the outcome is recorded only while the message is still under it. */
  leaseUntil: string;
  /** `released`: never answered because the worker stopped; back in the queue, no attempt counted. */
  kind: 'delivered' | 'retry' | 'failed' | 'released';
  httpStatus: number | null;
  error: string | null;
  /** No answer at all (a timeout, a refused connection or address): the receiver is not there. */
  unreachable: boolean;
  durationMs: number;
  nextAttemptAt?: string;
}

/** A subscription failing this long in a row is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/**
 * Records outcomes in one transaction: the messages (only those still `sending` under the lease
 * this worker claimed them with: one another worker took over after the lease ran out is left to
 * it), an attempt row for each, and each subscription's failing streak. A subscription whose
 * receiver did not answer is held back until `holdMs(how long it has been failing)` from now; one
 * that answered 2xx is no longer held. A subscription failing for 3 days in a row is disabled and
 * its queued messages failed. Answers how many outcomes were recorded and the ids of the
 * subscriptions disabled now.
 */
export async function recordOutcomes(
  db: Kysely<Database>,
  outcomes: readonly AttemptOutcome[],
  options: RecordOptions,
): Promise<{ recorded: number; disabled: string[] }> {
  if (outcomes.length === 0) return { recorded: 0, disabled: [] };
  return db.transaction().execute(async (trx) => {
    const written = await settleMessages(trx, outcomes, options);
    const kept = outcomes.filter((outcome) => written.has(outcome.id) && outcome.kind !== 'released');
    await insertAttempts(trx, kept, options.now);
    return { recorded: kept.length, disabled: await updateStreaks(trx, kept, options) };
  });
}

interface RecordOptions {
  dialect: Dialect;
  owner: string;
  now: string;
  nowMs: number;
  messageIdDomain: string;
  holdMs: (failingForMs: number) => number;
}

/** Each message's new state, where it is still under the lease it was claimed with; answers those written. */
async function settleMessages(
  trx: Transaction<Database>,
  outcomes: readonly AttemptOutcome[],
  { dialect, owner, now }: RecordOptions,
): Promise<Set<string>> {
  const written = new Set<string>();
  const settle = async (
    kind: AttemptOutcome['kind'],
    change: (outcome: AttemptOutcome) => UpdateObject<Database, 'webhook_outbox'>,
  ) => {
    // One statement per lease (a claim), or per message where the change is its own.
    const groups = new Map<string, AttemptOutcome[]>();
    for (const outcome of outcomes.filter((one) => one.kind === kind)) {
      const key = kind === 'retry' ? outcome.id : outcome.leaseUntil;
      groups.set(key, [...(groups.get(key) ?? []), outcome]);
    }
    for (const group of groups.values()) {
      const first = group[0] as AttemptOutcome;
      let update = trx
        .updateTable('webhook_outbox')
        .set(change(first))
        .where(
          'id',
          'in',
          group.map((outcome) => outcome.id),
        )
        .where('status', '=', 'sending')
        .where('lease_owner', '=', owner)
        .where('lease_until', '=', first.leaseUntil);
      // Outcomes lost in a crash of the database leave their messages to be sent again.
      if (dialect === 'postgres') update = update.where(relaxedCommit);
      for (const row of await update.returning('id').execute()) written.add(row.id);
    }
  };
  const unleased = { lease_until: null, lease_owner: null };
  await settle('delivered', () => ({ status: 'delivered', delivered_at: now, ...unleased }));
  await settle('failed', () => ({ status: 'failed', ...unleased }));
  await settle('retry', (outcome) => ({
    status: 'queued',
    next_attempt_at: outcome.nextAttemptAt ?? now,
    ...unleased,
  }));
  // Never on the wire long enough to count: back in line as it was.
  await settle('released', () => ({ status: 'queued', attempts: sql<number>`attempts - 1`, ...unleased }));
  return written;
}

async function insertAttempts(trx: Transaction<Database>, kept: readonly AttemptOutcome[], now: string) {
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
}

/**
 * A delivered message ends a subscription's failing streak and its hold; a failed attempt starts a
 * streak, and one without an answer holds the subscription back; 3 days of failing disable it.
 * Answers the subscriptions disabled now.
 */
async function updateStreaks(
  trx: Transaction<Database>,
  kept: readonly AttemptOutcome[],
  options: RecordOptions,
): Promise<string[]> {
  const { now, nowMs } = options;
  const succeeded = new Set(kept.filter((o) => o.kind === 'delivered').map((o) => o.subscriptionId));
  const failingOnes = kept.filter((o) => o.kind !== 'delivered' && !succeeded.has(o.subscriptionId));
  const failing = new Set(failingOnes.map((o) => o.subscriptionId));
  const unreachable = new Set(failingOnes.filter((o) => o.unreachable).map((o) => o.subscriptionId));
  if (succeeded.size > 0) {
    await trx
      .updateTable('webhook_subscriptions')
      .set({ failing_since: null, hold_until: null })
      .where('id', 'in', [...succeeded])
      .where((eb) => eb.or([eb('failing_since', 'is not', null), eb('hold_until', 'is not', null)]))
      .execute();
  }
  if (failing.size === 0) return [];
  await trx
    .updateTable('webhook_subscriptions')
    .set({ failing_since: now })
    .where('id', 'in', [...failing])
    .where('failing_since', 'is', null)
    .execute();
  const streaks = await trx
    .selectFrom('webhook_subscriptions')
    .select(['id', 'failing_since', 'enabled'])
    .where('id', 'in', [...failing])
    .execute();
  const disabled: string[] = [];
  for (const row of streaks) {
    const since = row.failing_since ?? now;
    if (row.enabled === 1 && since <= formatDate(new Date(nowMs - DISABLE_AFTER_MS))) {
      disabled.push(row.id);
      await mailOwner(trx, row.id, since, options);
      const reason = `every delivery failed for 3 days in a row, since ${since}`;
      await trx
        .updateTable('webhook_subscriptions')
        .set({ enabled: 0, updated: now, hold_until: null, disabled_reason: reason })
        .where('id', '=', row.id)
        .execute();
    } else if (unreachable.has(row.id)) {
      const holdUntil = formatDate(new Date(nowMs + options.holdMs(nowMs - Date.parse(since))));
      await trx
        .updateTable('webhook_subscriptions')
        .set({ hold_until: holdUntil })
        .where('id', '=', row.id)
        .execute();
    }
  }
  if (disabled.length > 0) await failQueued(trx, disabled);
  return disabled;
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
        stage: WEBHOOK_MAIL_STAGE,
        sequence: 0,
        recipient: owner.email,
        params,
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
