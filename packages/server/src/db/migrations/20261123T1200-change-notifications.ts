import { type Kysely, PostgresAdapter, sql } from 'kysely';

// On PostgreSQL, every change of an OAuth client is announced on the `assay_changes` channel, so
// that each server process can cache clients and drop its cache the moment one changes. SQLite
// needs nothing: its processes see each other's commits through `PRAGMA data_version`.

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create or replace function assay_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('assay_changes', tg_table_name);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger oauth_clients_changed after update or delete on oauth_clients
    for each statement execute function assay_notify_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger if exists oauth_clients_changed on oauth_clients`.execute(db);
  await sql`drop function if exists assay_notify_change()`.execute(db);
}
