import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. The console's report list shows the newest
// reports first (`seq` descending) under a filter: with each filter column followed by `seq`, a
// page is a walk down one index on both engines, never a sort of every matching report (a variant
// may hold 100,000 of them). Dates get an index of their own for a range far in the past.

const INDEXES = [
  ['reports_variant_seq_idx', ['variant', 'seq']],
  ['reports_type_seq_idx', ['type', 'seq']],
  ['reports_campaign_seq_idx', ['campaign_id', 'seq']],
  ['reports_date_idx', ['date']],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) {
    await db.schema
      .createIndex(name)
      .on('reports')
      .columns([...columns])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
