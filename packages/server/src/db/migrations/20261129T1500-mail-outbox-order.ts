import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. The console's outbox shows the newest mails
// first (`created`, then `id`, descending), of every status or of one: with these two indexes a page
// is a walk down one index on both engines, not a sort of every mail (an instance may keep 100,000
// of them), and the counts per status read the smaller index instead of the table.

const INDEXES = [
  ['mail_outbox_created_idx', ['created', 'id']],
  ['mail_outbox_status_created_idx', ['status', 'created', 'id']],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) {
    await db.schema
      .createIndex(name)
      .on('mail_outbox')
      .columns([...columns])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
