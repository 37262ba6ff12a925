import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. A campaign the scheduler fails on (a stored value
// it cannot handle, a refusal of the database) is retried later, each failure in a row waiting
// longer: `due_failures` counts them, so the wait survives a restart, and is 0 again once the
// campaign is brought up to date.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('campaigns')
    .addColumn('due_failures', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('due_failures').execute();
}
