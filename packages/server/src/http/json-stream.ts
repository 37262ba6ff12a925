import { Readable } from 'node:stream';

const BATCH = 1000;

/**
 * Streams `{"status":"OK","data":[...]}` from rows as they come from the database, so a large
 * collection is never held whole, neither as rows nor as one string. Rows are serialised a batch
 * at a time: one `JSON.stringify` of a batch is cheaper than one per row, and makes fewer writes.
 */
export function okArrayStream<T>(rows: AsyncIterable<T>, map: (row: T) => unknown): Readable {
  async function* chunks() {
    let first = true;
    let batch: unknown[] = [];
    const flush = () => {
      const text = JSON.stringify(batch);
      const chunk = (first ? '' : ',') + text.slice(1, -1);
      first = false;
      batch = [];
      return chunk;
    };
    yield '{"status":"OK","data":[';
    for await (const row of rows) {
      batch.push(map(row));
      if (batch.length === BATCH) yield flush();
    }
    if (batch.length > 0) yield flush();
    yield ']}';
  }
  return Readable.from(chunks(), { objectMode: false });
}
