import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never imports application code. The console's CSV import keeps the uploaded file
// here between its check page and the operator's confirmation, bound to the session that uploaded
// it (gone with the session). And the member list's search: the prefixes of the e-mail key and of
// the lower-cased first and last names, each served by an index in byte order on both engines
// (SQLite's default collation is binary; on PostgreSQL "C" is asked for, whatever the database's).

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('console_uploads')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('session_id_hash', 'varchar(64)', (c) =>
      c.notNull().references('console_sessions.id_hash').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    // The import's options chosen with the file (JSON: groupid, update).
    .addColumn('options', 'text', (c) => c.notNull())
    // Set once the import ran: a second confirmation finds it and imports nothing.
    .addColumn('imported', 'text')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('console_uploads_session')
    .on('console_uploads')
    .column('session_id_hash')
    .execute();
  await db.schema.createIndex('console_uploads_created').on('console_uploads').column('created').execute();
  const c = postgres ? sql` collate "C"` : sql``;
  if (postgres) {
    await db.schema
      .createIndex('members_search_email')
      .on('members')
      .expression(sql`(email_key${c})`)
      .execute();
  }
  await db.schema
    .createIndex('members_search_lastname')
    .on('members')
    .expression(sql`(lower(lastname)${c})`)
    .execute();
  await db.schema
    .createIndex('members_search_firstname')
    .on('members')
    .expression(sql`(lower(firstname)${c})`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('members_search_firstname').execute();
  await db.schema.dropIndex('members_search_lastname').execute();
  await db.schema.dropIndex('members_search_email').ifExists().execute();
  await db.schema.dropTable('console_uploads').execute();
}
