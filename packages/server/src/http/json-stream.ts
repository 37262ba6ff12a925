import { Readable } from 'node:stream';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database } from '../db/database.js';

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

// Every list being sent takes turns: one batch of one list at a time (its query and its JSON),
// the next batch, of whichever list asked next, a turn of the event loop later. A batch on SQLite
// never waits for I/O (its query, its JSON, its write to a socket the kernel takes at once), so
// without turns a list would run through to its end, or to a full socket, before anything else got
// the event loop: 20 clients asking for 20,000 members at once kept /healthz waiting for seconds.
// On PostgreSQL the lists then use one pooled connection between them, never the whole pool.
// Another request waits for one batch at most (a few ms), however many lists are being sent.
const waiting: ((done: () => void) => void)[] = [];
let taken = false;

function handOn(): void {
  const next = waiting.shift();
  if (next) next(done);
  else taken = false;
}

function done(): void {
  setImmediate(handOn);
}

/** Resolves at this caller's turn, with what ends it (call it once), in the order callers asked. */
function turn(): Promise<() => void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!taken) {
      taken = true;
      setImmediate(handOn);
    }
  });
}

/**
 * Streams `{"status":"OK","data":[...]}` from batches of rows as they come from the database, so a
 * large collection is never held whole, neither as rows nor as one string. Each batch is one
 * `JSON.stringify` (cheaper than one per row) and one write, in a turn of its own (see `turn`).
 * The next batch is asked for only when the client has taken the last one (the stream's
 * back-pressure): the batches are keyset queries that hold nothing of the database in between, so
 * a client that reads slowly, or not at all, keeps no connection from other requests (and one that
 * takes nothing for ASSAY_SEND_TIMEOUT_SECONDS is cut off, see `send-timeout.ts`).
 */
export function okArrayStream<T>(batches: AsyncIterable<T[]>, map: (row: T) => unknown): Readable {
  async function* chunks() {
    let first = true;
    yield '{"status":"OK","data":[';
    const iterator = batches[Symbol.asyncIterator]();
    try {
      for (;;) {
        const end = await turn();
        let text: string;
        try {
          const next = await iterator.next();
          if (next.done) break;
          if (next.value.length === 0) continue;
          text = JSON.stringify(next.value.map(map));
        } finally {
          end();
        }
        yield (first ? '' : ',') + text.slice(1, -1);
        first = false;
      }
    } finally {
      // A client gone mid-list: the batches end here (a keyset read holds nothing to release).
      await iterator.return?.();
    }
    yield ']}';
  }
  return Readable.from(chunks(), { objectMode: false });
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
  { first, largest }: { first: number; largest: number },
): AsyncGenerator<T[]> {
  let size = first;
  let pending: Promise<T[]> | undefined = read(undefined, size);
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
