import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. Why a free-text answer was left out of a group
// report (the console asks for a reason with each one it leaves out): one row per entry of the
// report's `excludedVerbatims` (`<reportid>:<code>` or a bare `<reportid>`), kept beside the
// report rather than in its `config`, whose fields the interface fixes. The rows go with the report.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_verbatim_reasons')
    .addColumn('report_id', 'varchar(10)', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('entry', 'varchar(120)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_verbatim_reasons_pkey', ['report_id', 'entry'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_verbatim_reasons').execute();
}
