import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. Which delivery worker holds a mail's lease, so
// that a worker that lost its database while claiming can take back the mails it holds once the
// database answers again, instead of leaving them to wait for the lease to run out.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('lease_owner', 'varchar(24)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('lease_owner').execute();
}
