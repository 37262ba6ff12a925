import { type Compilable, type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from './database.js';

/*
 * Long lists read from the database a batch at a time, for `http/json-stream.ts` to send as they
 * come: how large a batch is on each dialect, keyset batches, and PostgreSQL's cursor.
 */

/**
 * Rows a list reads at a time. One batch is one query and one JSON.stringify, done in one turn (see
 * `turn`), so another request waits that long at most. On SQLite a batch costs no round trip: 1,000
 * rows (a few ms). On PostgreSQL each batch is a round trip, an index descent and a join, so a long
 * list reads 2,000 rows and then 4,000 at a time (some 10-20 ms a turn): larger batches come closer
 * to one cursor's speed, but 8,000 rows a turn already kept a question page waiting over 200 ms
 * behind 20 lists being sent.
 */
export function batchSizes(db: Kysely<Database>): { first: number; largest: number } {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? { first: 2000, largest: 4000 }
    : { first: 1000, largest: 1000 };
}

/**
 * A list read a batch at a time in the order of a unique key (keyset): each batch is a query of its
 * own, `read(after)`, for the rows whose key comes after the last one sent, so nothing of the
 * database is held between batches. The next batch is read as soon as one is handed over, while it
 * is turned into JSON and sent (on PostgreSQL the query's round trip then costs no time); it is
 * then kept, the connection released, until the client has taken the one before.
 *
 * The batches are not one snapshot: a row added or deleted while the list is sent may or may not be
 * in it, and a row whose key changes may be missed, but no row is ever sent twice, since each batch
 * starts after the last key sent.
 */
export async function* keysetBatches<T, K>(
  read: (after: K | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => K,
  {
    first,
    largest,
    patienceMs = CURSOR_PATIENCE_MS,
  }: { first: number; largest: number; patienceMs?: number },
  /** PostgreSQL: the whole list in key order from a cursor, read first (see `cursorWhileTaken`). */
  cursor?: () => AsyncIterable<T[]>,
): AsyncGenerator<T[]> {
  let after: K | undefined;
  if (cursor && cursorsOpen < MAX_CURSORS) {
    const taken = cursorWhileTaken(cursor(), keyOf, patienceMs);
    try {
      for (;;) {
        const next = await taken.next();
        if (next.done) {
          // The whole list came through the cursor, or the client was slow: go on after the last key.
          if (next.value.complete) return;
          after = next.value.after;
          break;
        }
        yield next.value;
      }
    } finally {
      // A client gone mid-list (this generator returned at its yield): the cursor is closed and its
      // connection released now, not when the patience runs out.
      await taken.return({ complete: true });
    }
  }
  let size = first;
  let pending: Promise<T[]> | undefined = read(after, size);
  try {
    while (pending) {
      const rows = await pending;
      pending = undefined;
      if (rows.length === 0) return;
      if (rows.length === size) {
        size = Math.min(size * 2, largest);
        pending = read(keyOf(rows[rows.length - 1] as T), size);
      }
      yield rows;
    }
  } finally {
    // A client gone mid-list: a batch read ahead is dropped (its failure too).
    pending?.catch(() => {});
  }
}

/**
 * On PostgreSQL, the whole list from a cursor (`query` in key order), for `keysetBatches` to read
 * first; undefined on SQLite, whose keyset batches cost no round trip and whose one connection a
 * cursor must never hold.
 */
export function cursorOf<T>(
  db: Kysely<Database>,
  query: () => Compilable<T>,
  /** Rows a fetch of the cursor reads. */
  fetchSize = 1000,
): (() => AsyncIterable<T[]>) | undefined {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  return async function* () {
    for await (const batch of db.getExecutor().stream<T>(query().compile(), fetchSize)) yield batch.rows;
  };
}

/**
 * How long a cursor may wait for the client to take the batch before it lets go of its connection.
 * A client that keeps up asks again within milliseconds (hundreds of them on a busy machine); one
 * that does not would hold a pooled connection for as long as it pleases. Few lists read from a
 * cursor at once (`MAX_CURSORS`), so the wait can be generous.
 */
const CURSOR_PATIENCE_MS = 5000;

/**
 * Lists read from a cursor at once, at most; the others go in keyset batches from the start. Well
 * under the pool's 10 connections, so that however many clients stall on long lists, the rest of the
 * server always finds a free connection at once.
 */
const MAX_CURSORS = 4;
let cursorsOpen = 0;

/**
 * A list from one PostgreSQL cursor for as long as the client keeps taking it: one query, whose
 * join runs once, is a third faster than keyset batches for 100,000 rows. When the client has not
 * asked for the next batch `patienceMs` after the last, the cursor is closed and its
 * connection released; the generator then ends with the last key it handed over, and the caller
 * goes on in keyset batches from there. Ends with `complete` when the cursor ran to its end.
 */
async function* cursorWhileTaken<T, K>(
  batches: AsyncIterable<T[]>,
  keyOf: (row: T) => K,
  patienceMs: number,
): AsyncGenerator<T[], { complete: true } | { complete: false; after: K | undefined }> {
  const iterator = batches[Symbol.asyncIterator]();
  let after: K | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  cursorsOpen++;
  let counted = true;
  const uncount = () => {
    if (counted) cursorsOpen--;
    counted = false;
  };
  // The next batch is fetched while this one is turned into JSON and sent, so the cursor's round
  // trips cost no time of their own. Its failure is seen where it is awaited (or dropped with it).
  const readAhead = () => {
    const read = iterator.next();
    read.catch(() => {});
    return read;
  };
  try {
    let pending = readAhead();
    for (;;) {
      const next = await pending;
      if (next.done) return { complete: true };
      const rows = next.value;
      pending = readAhead();
      if (rows.length === 0) continue;
      after = keyOf(rows[rows.length - 1] as T);
      timer = setTimeout(() => {
        closed = true;
        uncount();
        // Returning the cursor's generator (once the batch read ahead is in, which is dropped)
        // closes the cursor and releases the connection.
        iterator.return?.(undefined).catch(() => {});
      }, patienceMs);
      yield rows;
      clearTimeout(timer);
      if (closed) return { complete: false, after };
    }
  } finally {
    clearTimeout(timer);
    uncount();
    if (!closed) await iterator.return?.(undefined);
  }
}
