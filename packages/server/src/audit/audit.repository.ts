import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { preparedPerDialect } from '../db/prepared.js';
import type { AuditLogTable } from './audit.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A row as written (the sequence is the database's). */
export type NewAuditRow = Omit<AuditLogTable, 'seq'>;

/** A row as read, its sequence a number on both engines. */
export type AuditRow = NewAuditRow & { seq: number };

/**
 * The columns an entry is written with, in one order: the one-entry statement, both engines' bulk
 * statement, and the page save that writes its entry in its own statement on PostgreSQL
 * (questionnaire.repository.ts).
 */
export const AUDIT_COLUMNS = [
  'at',
  'actor_type',
  'actor_id',
  'user_id',
  'channel',
  'address',
  'resource_type',
  'resource_id',
  'action',
  'fields',
  'outcome',
] as const satisfies readonly (keyof NewAuditRow)[];

/** Entries a bulk statement carries: one JSON parameter, whatever the count, well under any limit. */
const INSERT_CHUNK = 5000;

/**
 * One entry, its values in AUDIT_COLUMNS' order, compiled once per engine: most changes write one
 * entry in a transaction of their own (a new handle each time), where building and compiling the
 * insert anew cost more on SQLite than running it (the page save, the most frequent change).
 */
const insertOne = preparedPerDialect(AUDIT_COLUMNS.length, (db, _dialect, ...values: unknown[]) =>
  db
    .insertInto('audit_log')
    .values(Object.fromEntries(AUDIT_COLUMNS.map((column, i) => [column, values[i]])) as NewAuditRow),
);

/**
 * Appends entries in the caller's transaction. One entry is a plain insert; many (an import, an
 * invitation of thousands: one entry per member) go as one JSON parameter that the database
 * unpacks (`json_to_recordset` on PostgreSQL, `json_each` on SQLite): one short statement and one
 * parameter instead of a multi-row VALUES of eleven parameters a row, which cost as much again
 * as the import's own inserts.
 */
export async function insertAuditRows(db: Db, rows: readonly NewAuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (rows.length === 1) {
    const row = rows[0] as NewAuditRow;
    await insertOne(db, postgres ? 'postgres' : 'sqlite', ...AUDIT_COLUMNS.map((column) => row[column]));
    return;
  }
  const columns = sql.join(AUDIT_COLUMNS.map((column) => sql.ref(column)));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const json = JSON.stringify(rows.slice(start, start + INSERT_CHUNK));
    if (postgres) {
      const shape = sql.join(AUDIT_COLUMNS.map((column) => sql`${sql.ref(column)} text`));
      await sql`insert into audit_log (${columns})
        select ${columns} from json_to_recordset(${json}::json) as entry(${shape})`.execute(db);
    } else {
      const values = sql.join(AUDIT_COLUMNS.map((column) => sql`json_extract(value, ${`$.${column}`})`));
      await sql`insert into audit_log (${columns}) select ${values} from json_each(${json})`.execute(db);
    }
  }
}

/** What a reader of the log may narrow it to; every part optional. */
export interface AuditFilter {
  /** Entries at or after this moment (ISO 8601). */
  since?: string;
  /** Entries before this moment (ISO 8601). */
  until?: string;
  /** The actor's id (a user, client, key, member or operating-system user). */
  actorId?: string;
  resourceType?: string;
  resourceId?: string;
  /** Entries older than this sequence: the next page after the last one read (newest first). */
  beforeSeq?: number;
  limit: number;
}

/** Entries, newest first. */
export async function listAuditRows(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('at', '<', filter.until);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.resourceType !== undefined) query = query.where('resource_type', '=', filter.resourceType);
  if (filter.resourceId !== undefined) query = query.where('resource_id', '=', filter.resourceId);
  if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
  const rows = await query.orderBy('seq', 'desc').limit(filter.limit).execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/**
 * Every entry about one person, oldest first: those whose resource is them (their member record,
 * their campaign places as `campaign_member` entries name the member) and those they made
 * themselves on their questionnaire pages.
 */
export async function auditRowsAbout(db: Db, memberId: string): Promise<AuditRow[]> {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('resource_id', '=', memberId),
        eb.and([eb('actor_type', '=', 'member'), eb('actor_id', '=', memberId)]),
      ]),
    )
    .orderBy('seq', 'asc')
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/**
 * Removes the entries older than `cutoff`, the only delete the append-only triggers allow: the
 * cutoff is declared for this transaction alone (PostgreSQL: a transaction-local setting; SQLite:
 * the one-row `audit_prune` table, emptied before the commit) and must not lie in the future.
 * Answers how many entries went. `afterwards` runs in the same transaction once they are gone (the
 * retention records its own entry there, so the removal and its record commit together).
 */
export async function pruneAuditRows(
  db: Kysely<Database>,
  dialect: Dialect,
  cutoff: string,
  afterwards?: (trx: Transaction<Database>, removed: number) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      await sql`select set_config('assay.audit_prune_before', ${cutoff}, true)`.execute(trx);
    } else {
      await trx.insertInto('audit_prune').values({ cutoff }).execute();
    }
    const result = await trx.deleteFrom('audit_log').where('at', '<', cutoff).executeTakeFirst();
    if (dialect === 'sqlite') await trx.deleteFrom('audit_prune').execute();
    const removed = Number(result.numDeletedRows);
    await afterwards?.(trx, removed);
    return removed;
  });
}
