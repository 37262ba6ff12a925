import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. The outboxes' retention (docs/operations.md)
// removes, once a day, the webhook messages whose delivery ended long ago: this index makes that a
// walk down the settled ones, oldest first, not a scan of every message. The mail outbox has its
// own (`mail_outbox_status_created_idx`, made for the console's lists).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_outbox_status_created_idx')
    .on('webhook_outbox')
    .columns(['status', 'created'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_outbox_status_created_idx').execute();
}
