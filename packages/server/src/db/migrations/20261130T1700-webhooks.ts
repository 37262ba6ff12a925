import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never imports application code. Signed webhooks (docs/webhooks.md): the
// subscriptions, an outbox of messages written in the transaction of the change that causes them
// (one row per event and subscription, delivered by a worker under a lease, as the mail outbox),
// and every attempt at delivering a message.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'varchar(10)', (c) => c.primaryKey())
    // The user who made it: mailed when it is disabled for failing.
    .addColumn('owner_id', 'varchar(10)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    // Space-separated event types.
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('secret', 'varchar(100)', (c) => c.notNull())
    // After a rotation the old secret signs too, until `previous_until`.
    .addColumn('previous_secret', 'varchar(100)')
    .addColumn('previous_until', 'varchar(32)')
    // The first failed attempt since the last delivered one; null while deliveries succeed.
    .addColumn('failing_since', 'varchar(32)')
    .addColumn('disabled_reason', 'text')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_outbox')
    // The order messages were queued in: a member's messages go out in this order.
    .addColumn('seq', postgres ? sql`bigserial` : 'integer', (c) => c.primaryKey())
    // The message id: `webhook-id` is `msg_<id>`, the same on every attempt.
    .addColumn('id', 'varchar(10)', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'varchar(10)', (c) =>
      c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
    )
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
    // What orders delivery (the member the event is about), or null when order does not matter.
    .addColumn('order_key', 'varchar(40)')
    // The body, fixed when queued: every attempt sends the same bytes.
    .addColumn('payload', 'text', (c) => c.notNull())
    // queued, sending, delivered or failed
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('lease_owner', 'varchar(24)')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('delivered_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('webhook_outbox_due_idx')
    .on('webhook_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_outbox_order_idx')
    .on('webhook_outbox')
    .columns(['subscription_id', 'order_key', 'seq'])
    .execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', postgres ? sql`bigserial` : 'integer', (c) => c.primaryKey())
    .addColumn('message_id', 'varchar(10)', (c) =>
      c.notNull().references('webhook_outbox.id').onDelete('cascade'),
    )
    .addColumn('subscription_id', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    // The HTTP status, or null when there was no answer (then `error` says why).
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_subscription_idx')
    .on('webhook_attempts')
    .columns(['subscription_id', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_attempts_message_idx')
    .on('webhook_attempts')
    .column('message_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_outbox', 'webhook_subscriptions']) {
    await db.schema.dropTable(table).execute();
  }
}
