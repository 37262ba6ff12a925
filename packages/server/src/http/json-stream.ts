import { Readable } from 'node:stream';

/**
 * Streams `{"status":"OK","data":[...]}` from batches of rows as they come from the database, so a
 * large collection is never held whole, neither as rows nor as one string. Each batch is one
 * `JSON.stringify` (cheaper than one per row) and one write.
 */
export function okArrayStream<T>(batches: AsyncIterable<T[]>, map: (row: T) => unknown): Readable {
  async function* chunks() {
    let first = true;
    yield '{"status":"OK","data":[';
    for await (const rows of batches) {
      if (rows.length === 0) continue;
      const text = JSON.stringify(rows.map(map));
      yield (first ? '' : ',') + text.slice(1, -1);
      first = false;
    }
    yield ']}';
  }
  return Readable.from(chunks(), { objectMode: false });
}
