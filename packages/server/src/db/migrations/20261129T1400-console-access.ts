import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. A platform user can be deactivated: from that
// moment (null: active) they cannot sign in, and their clients' tokens and API keys are refused.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deactivated', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('deactivated').execute();
}
