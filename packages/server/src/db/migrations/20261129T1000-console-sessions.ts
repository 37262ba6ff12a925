import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. The operator console's sign-ins: sessions kept
// in the database (so that every server process on one database shares them, and signing out ends
// a session in all of them at once), and the one-time sign-in links the first start prints.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    // SHA-256 of the cookie's value: the value itself is only ever in the browser.
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(10)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The form token of this session: every console form carries it.
    .addColumn('csrf', 'varchar(64)', (c) => c.notNull())
    // The console language the operator chose; null: the browser's.
    .addColumn('language', 'varchar(8)')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    // Moved forward (at most once a minute) while the operator works; idle expiry counts from it.
    .addColumn('last_seen', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
  await db.schema
    .createTable('console_sign_in_links')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(10)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires', 'varchar(32)', (c) => c.notNull())
    .addColumn('used', 'varchar(32)')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_sign_in_links').execute();
  await db.schema.dropTable('console_sessions').execute();
}
