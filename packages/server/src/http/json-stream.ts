import { Readable } from 'node:stream';

const BATCH = 500;

/**
 * Streams `{"status":"OK","data":[...]}` from rows as they come from the database, so a large
 * collection is never held whole, neither as rows nor as one string. Rows are serialised in batches
 * to keep the number of chunks (and writes) small.
 */
export function okArrayStream<T>(rows: AsyncIterable<T>, map: (row: T) => unknown): Readable {
  async function* chunks() {
    let first = true;
    let batch: string[] = [];
    yield '{"status":"OK","data":[';
    for await (const row of rows) {
      batch.push(JSON.stringify(map(row)));
      if (batch.length === BATCH) {
        yield (first ? '' : ',') + batch.join(',');
        first = false;
        batch = [];
      }
    }
    if (batch.length > 0) yield (first ? '' : ',') + batch.join(',');
    yield ']}';
  }
  return Readable.from(chunks(), { objectMode: false });
}
