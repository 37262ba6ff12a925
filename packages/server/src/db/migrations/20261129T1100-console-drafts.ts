import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. The console's drafts: the answers of a wizard
// (the campaign wizard first) kept between its pages, bound to the session that gives them, so a
// reload or a "Change" link never loses an answer, and signing out forgets them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_drafts')
    .addColumn('id', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('session_id_hash', 'varchar(64)', (c) =>
      c.notNull().references('console_sessions.id_hash').onDelete('cascade'),
    )
    // Which wizard the answers are for: one draft of a kind per session.
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    // JSON object of the answers as the forms gave them.
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('console_drafts_session_kind', ['session_id_hash', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_drafts').execute();
}
