import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../db/database.js';

// The failed guesses that processes sharing one PostgreSQL database count together (rate-limit.ts).

/** Records a failed attempt; answers its id. */
/**
 * The database to count attempts in, on PostgreSQL, where several processes may serve one
 * database; none on SQLite, where one process serves a data folder and counts in its memory.
 */
export function sharedCounts(db: Kysely<Database>, dialect: Dialect): Kysely<Database> | undefined {
  return dialect === 'postgres' ? db : undefined;
}

export async function insertFailure(
  db: Kysely<Database>,
  failure: { kind: string; key: string; at: number },
): Promise<number> {
  const row = await db.insertInto('guess_failures').values(failure).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Forgets the attempts of a kind at or before `before`. */
export async function sweepFailures(db: Kysely<Database>, kind: string, before: number): Promise<void> {
  await db.deleteFrom('guess_failures').where('kind', '=', kind).where('at', '<=', before).execute();
}

/** Forgets one attempt. */
export async function deleteFailure(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('guess_failures').where('id', '=', id).execute();
}

/** A key's latest `count` attempts after `since`, oldest first. */
export async function recentFailures(
  db: Kysely<Database>,
  { kind, key, since, count }: { kind: string; key: string; since: number; count: number },
): Promise<{ id: number; at: number }[]> {
  const rows = await db
    .selectFrom('guess_failures')
    .select(['id', 'at'])
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((row) => ({ id: Number(row.id), at: Number(row.at) })).reverse();
}
