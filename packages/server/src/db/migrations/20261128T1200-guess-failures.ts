import { type Kysely, PostgresAdapter, sql } from 'kysely';

// The guessing limits (auth/rate-limit.ts) count attempts here on PostgreSQL, so that every server
// process on one database shares one budget per caller. One row per counted attempt, swept once it
// is older than the window; SQLite (one process per data folder) keeps its counts in memory and
// leaves the table empty.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('guess_failures')
    .addColumn('id', postgres ? sql`bigserial` : 'integer', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    // Milliseconds since the epoch.
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guess_failures_key')
    .on('guess_failures')
    .columns(['kind', 'key', 'at'])
    .execute();
  await db.schema.createIndex('guess_failures_at').on('guess_failures').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('guess_failures').execute();
}
