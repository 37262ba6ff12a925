import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never imports application code. RFC 7009 revocation: an access token revoked by
// its client is refused from that moment, in every process, until it would have expired anyway.
// One row per revoked token (its `jti`); rows past their expiry are swept on the next revocation.
// On PostgreSQL a revocation is announced on `assay_changes`, as a client's change is, so every
// process drops what it cached; SQLite's processes see each other's commits without it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_revoked_tokens')
    .addColumn('jti', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_revoked_tokens_expires')
    .on('oauth_revoked_tokens')
    .column('expires')
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create trigger oauth_revoked_tokens_changed after insert on oauth_revoked_tokens
      for each statement execute function assay_notify_change()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_revoked_tokens').execute();
}
