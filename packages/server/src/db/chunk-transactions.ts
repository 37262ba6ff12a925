import { setImmediate } from 'node:timers/promises';
import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * Writes a long stream of chunks in the transactions the engine can afford, giving the event loop
 * back after each chunk, so that a long write never holds up other requests for long.
 *
 * On PostgreSQL every chunk is written in one transaction (other requests have connections of
 * their own), so the whole lands or nothing does. On SQLite a transaction holds the one connection
 * every request needs, so each chunk is a transaction of its own and other requests are served
 * between chunks: the chunks before a failure stay written.
 *
 * `write` is told when its transaction is a new one (`fresh`): on SQLite for every chunk, on
 * PostgreSQL for the first; what it checked before may have changed since, and should be checked
 * again then. An empty chunk opens no transaction.
 */
export async function writeInChunks<T>(
  db: Kysely<Database>,
  chunks: AsyncIterable<T[]> | Iterable<T[]>,
  write: (trx: Transaction<Database>, chunk: T[], fresh: boolean) => Promise<void>,
): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.transaction().execute(async (trx) => {
      let fresh = true;
      for await (const chunk of chunks) {
        if (chunk.length > 0) {
          await write(trx, chunk, fresh);
          fresh = false;
        }
        await setImmediate();
      }
    });
    return;
  }
  for await (const chunk of chunks) {
    if (chunk.length > 0) await db.transaction().execute((trx) => write(trx, chunk, true));
    await setImmediate();
  }
}
