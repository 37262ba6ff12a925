import type { Kysely, Transaction } from 'kysely';
import { SYSTEM_ACTOR } from '../audit/actor.js';
import { type AuditResource, recordChange } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { pruneSettledMails } from '../mail/outbox.repository.js';
import { daysBefore, formatDate } from '../util/dates.js';
import { pruneSettledMessages } from '../webhooks/outbox.repository.js';

/**
 * Rows one transaction removes: a mail row holds its rendered params (a few kB), so a batch stays
 * a short write that never holds the SQLite writer long while the pages save answers.
 */
export const OUTBOX_PRUNE_BATCH = 500;

/** What one run removed from each outbox. */
export interface OutboxPruneReport {
  /** Mails sent, failed or captured before the cutoff. */
  mails: number;
  /** Webhook messages delivered or failed before the cutoff, with their attempts. */
  messages: number;
}

/**
 * The outboxes' retention (GDPR art. 5(1)(e): a mail holds its recipient's address and name):
 * removes the mails and webhook messages whose delivery ended and that were queued more than
 * `days` before `now`. Never a mail or message still queued or being sent. Each batch is a
 * transaction of its own; the first batch of an outbox that removes anything records, in it, the
 * run's audit entry (resource `mail` or `webhook`, action `prune`, as the scheduler), so a run
 * that removed nothing leaves no entry. The scheduler calls it once a day.
 */
export async function pruneOutboxes(
  deps: { db: Kysely<Database> },
  now: Date,
  days: number,
): Promise<OutboxPruneReport> {
  const cutoff = daysBefore(now, days);
  const at = formatDate(now);
  const prune = async (
    resource: AuditResource,
    remove: (trx: Transaction<Database>) => Promise<number>,
  ): Promise<number> => {
    let total = 0;
    for (;;) {
      const removed = await deps.db.transaction().execute(async (trx) => {
        const count = await remove(trx);
        if (count > 0 && total === 0)
          await recordChange(trx, SYSTEM_ACTOR, { resource, id: null, action: 'prune' }, at);
        return count;
      });
      total += removed;
      if (removed < OUTBOX_PRUNE_BATCH) return total;
    }
  };
  return {
    mails: await prune('mail', (trx) => pruneSettledMails(trx, cutoff, OUTBOX_PRUNE_BATCH)),
    messages: await prune('webhook', (trx) => pruneSettledMessages(trx, cutoff, OUTBOX_PRUNE_BATCH)),
  };
}
