import { Readable } from 'node:stream';

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
