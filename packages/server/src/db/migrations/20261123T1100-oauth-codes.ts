import type { Kysely } from 'kysely';

// Authorization codes of the interactive flow: stored as a hash, single-use, short-lived.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(32)', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(10)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'varchar(128)')
    .addColumn('expires', 'varchar(32)', (c) => c.notNull())
    .addColumn('used', 'varchar(32)')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_codes').execute();
}
