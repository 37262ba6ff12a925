import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never imports application code. Reports and which personal reports each group
// report is made of. Dates are wire-form text, booleans 0/1, JSON objects text, as before.
//
// `seq` is the internal row number that MemberReport shows as `id` (a numeric string): an
// autoincrementing integer key, spelled per engine (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT, so a
// deleted row's number is never given again; PostgreSQL: an identity column).

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('reports')
    .addColumn('seq', 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'varchar(10)', (c) => c.notNull().unique())
    // personal, group, groupanon, condensed, complete
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)')
    .addColumn('variant', 'varchar(64)', (c) => c.notNull())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    // A campaign's deletion keeps its reports.
    .addColumn('campaign_id', 'varchar(10)', (c) => c.references('campaigns.id').onDelete('set null'))
    // The subject; a member's deletion erases its reports (and group reports about it).
    .addColumn('member_id', 'varchar(10)', (c) => c.references('members.id').onDelete('cascade'))
    // The participation token the report was made under, or a token of its own: opens the report.
    .addColumn('token', 'varchar(64)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('raw', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('processed', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('testcase', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('date', 'varchar(32)', (c) => c.notNull())
    .addColumn('lastopened', 'varchar(32)')
    // Whose agency brands the PDF when no campaign owner does.
    .addColumn('created_by', 'varchar(10)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reports_member_idx').on('reports').column('member_id').execute();
  await db.schema.createIndex('reports_campaign_idx').on('reports').column('campaign_id').execute();
  await db.schema.createIndex('reports_token_idx').on('reports').column('token').execute();
  // The counts read this index alone, not the rows (whose answers make them kilobytes each).
  await db.schema
    .createIndex('reports_variant_type_idx')
    .on('reports')
    .columns(['variant', 'type'])
    .execute();

  await db.schema
    .createTable('report_sources')
    .addColumn('report_id', 'varchar(10)', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    // A personal report in use cannot be deleted through the API; erasing its member removes it here.
    .addColumn('source_id', 'varchar(10)', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    // 0: selectedReports in their order; -1: selectedReportsMaster.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_sources_pkey', ['report_id', 'source_id'])
    .execute();
  await db.schema.createIndex('report_sources_source_idx').on('report_sources').column('source_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_sources').execute();
  await db.schema.dropTable('reports').execute();
}
