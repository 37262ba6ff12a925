import { type Kysely, sql } from 'kysely';

// Frozen in time: never imports application code. A campaign's own, shorter retention of its
// answers and personal reports (GDPR art. 5(1)(e)), in days: kept in a table of its own rather than
// in the campaign's `config`, whose fields the interface fixes. No row: the instance's retention
// (ASSAY_RETENTION_DAYS) applies. The row goes with its campaign.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('campaign_retention')
    .addColumn('campaign_id', 'varchar(10)', (c) =>
      c.primaryKey().references('campaigns.id').onDelete('cascade'),
    )
    .addColumn('days', 'integer', (c) => c.notNull().check(sql`days > 0`))
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('campaign_retention').execute();
}
