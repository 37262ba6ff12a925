import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never imports application code. The audit log (docs/audit.md): one row per change
// made through the API, the console, the command line, the participant pages or the scheduler,
// written in the change's own transaction. Append-only for the application: a trigger refuses
// every UPDATE, and every DELETE but the retention's, which may remove only rows older than the
// cutoff it declares for its own transaction (PostgreSQL: `set local assay.audit_prune_before`;
// SQLite, which has no session settings: the one-row table `audit_prune`, written and emptied in
// the pruning transaction). Entries hold ids and field names, never answers, names, passwords,
// secrets or tokens, so erasing a person never has to touch them.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('audit_log')
    .addColumn('seq', postgres ? sql`bigserial` : 'integer', (c) => c.primaryKey())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(255)')
    .addColumn('user_id', 'varchar(64)')
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    .addColumn('address', 'varchar(64)')
    .addColumn('resource_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(255)')
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('fields', 'text')
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'seq']).execute();
  await db.schema
    .createIndex('audit_log_resource')
    .on('audit_log')
    .columns(['resource_type', 'resource_id', 'at'])
    .execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'at']).execute();
  if (postgres) {
    await sql`
      create function assay_audit_append_only() returns trigger language plpgsql as $$
      declare
        cutoff text := current_setting('assay.audit_prune_before', true);
      begin
        if tg_op = 'DELETE' and cutoff is not null and cutoff <> ''
           and cutoff <= to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
           and old.at < cutoff then
          return old;
        end if;
        raise exception 'audit_log is append-only: % refused', tg_op;
      end $$`.execute(db);
    await sql`
      create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function assay_audit_append_only()`.execute(db);
    await sql`
      create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function assay_audit_append_only()`.execute(db);
  } else {
    await db.schema
      .createTable('audit_prune')
      .addColumn('cutoff', 'varchar(32)', (c) => c.notNull())
      .execute();
    await sql`
      create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only: UPDATE refused'); end`.execute(db);
    await sql`
      create trigger audit_log_no_delete before delete on audit_log
      when old.at >= coalesce(
        (select min(cutoff) from audit_prune where cutoff <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), '')
      begin select raise(abort, 'audit_log is append-only: DELETE refused'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('audit_log').execute();
  if (postgres) await sql`drop function assay_audit_append_only()`.execute(db);
  else await db.schema.dropTable('audit_prune').execute();
}
