import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Instance, listen, startInstance } from '../helpers/instance.js';
import { now, quartersWithout } from '../helpers/page-sampler.js';
import { csvBody, type ImportAnswer, jsonBody, postImport } from './large-import.js';

// What an import holds while it runs: about 3x its body at most (the hardening issue), JSON or CSV.
// What is measured is the growth of this process, where the server runs, after full collections;
// the file has a process of its own (ISOLATED in vitest.config.ts), whose heap holds no other
// file's modules for each collection to walk. On SQLite, whose chunks are synchronous; the
// import's own memory is the same on either engine.

// The bound is a ratio to the body: a 50,000-row body shows it with few full collections to wait
// for (each takes longer as the heap grows); a 25,000-row one reads too near the bound.
const ROWS = 50_000;

/**
 * What this process holds, after a full garbage collection: the JavaScript heap and the buffers.
 * Without the collection the figure is mostly garbage not yet collected, which says when V8 chose
 * to collect, not what the import keeps.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const liveMemory = () => {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

let instance: Instance;
let base: string;
beforeAll(async () => {
  instance = await startInstance('sqlite');
  base = await listen(instance);
}, 60_000);
afterAll(() => instance?.close());

/**
 * Imports the body while measuring what the process holds, again and again: the peak growth, and
 * the quarters of the import with no measure (an import that held the event loop would be measured
 * only before and after it).
 */
async function importMeasuringMemory(body: string, contentType: string) {
  const request = await postImport(instance, base, body, contentType);
  const before = liveMemory();
  let peak = before;
  const measured: number[] = [];
  const measure = () => {
    peak = Math.max(peak, liveMemory());
    measured.push(now());
  };
  // A measure is a full collection, which takes longer as the heap grows and on a busy machine:
  // each is followed by a pause as long as it took (100 ms at least), so the import keeps half of
  // the time or more. Measures every 100 ms come back to back once a collection takes that long,
  // and the import, starved, took minutes beside other work.
  let importing = true;
  const sampling = (async () => {
    while (importing) {
      const start = performance.now();
      measure();
      const took = performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, Math.max(100, took)));
    }
  })();
  const started = now();
  const answer = (await request.send()) as ImportAnswer;
  const ended = now();
  importing = false;
  await sampling;
  measure();
  return { answer, growth: peak - before, heldIn: quartersWithout(measured, started, ended) };
}

it('holds no more than about 3x the body during an import, JSON or CSV', async () => {
  for (const [body, type] of [
    [jsonBody('memory-json', ROWS), 'application/json'],
    [csvBody('memory-csv', ROWS), 'text/csv'],
  ] as const) {
    const bytes = Buffer.byteLength(body);
    const { answer, growth, heldIn } = await importMeasuringMemory(body, type);
    expect(answer.data.created).toHaveLength(ROWS);
    expect(heldIn, `${type}: quarters of the import with no measure (the event loop held)`).toEqual([]);
    expect(
      growth,
      `${type}: peak growth ${(growth / 1e6).toFixed(1)} MB for a body of ${(bytes / 1e6).toFixed(1)} MB`,
    ).toBeLessThan(3.3 * bytes);
  }
}, 240_000);
