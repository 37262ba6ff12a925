import { type Kysely, sql } from 'kysely';

// Frozen in time: never imports application code. A subscription whose receiver stops answering
// (a timeout, a refused connection) is held back as a whole until `hold_until`, so its queued
// messages wait instead of each occupying the worker for a timeout (docs/webhooks.md). The worker
// now claims subscription by subscription, in the order messages were queued: the new index walks
// one subscription's queued messages by `seq` and stops at the claim's limit. It is partial (queued
// messages only), so PostgreSQL never takes it for the check that a member's earlier message is
// settled, which would then walk the whole queue for every candidate (36 ms a claim of 10 among
// 10,000 before the table was analysed). The old
// (status, next_attempt_at) index goes: SQLite preferred it for that claim and then sorted every
// queued message by `seq` (a claim of 10 out of 10,000 queued cost about 6 ms), and nothing else
// reads by it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_subscriptions').addColumn('hold_until', 'text').execute();
  await db.schema
    .createIndex('webhook_outbox_subscription_queue_idx')
    .on('webhook_outbox')
    .columns(['subscription_id', 'seq'])
    .where(sql.ref('status'), '=', 'queued')
    .execute();
  await db.schema.dropIndex('webhook_outbox_due_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_outbox_due_idx')
    .on('webhook_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.dropIndex('webhook_outbox_subscription_queue_idx').execute();
  await db.schema.alterTable('webhook_subscriptions').dropColumn('hold_until').execute();
}
