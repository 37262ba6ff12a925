import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Runs work in the caller's transaction when it is given one, else in a transaction of its own:
 * a change and its audit entry (audit/audit.service.ts) land together either way, whether the
 * service is called alone or as one step of a larger change (an invitation creating its user).
 */
export function withinTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
