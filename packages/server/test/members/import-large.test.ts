import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, listen, participant, startInstance } from '../helpers/instance.js';
import { latencyProblems, postFromThread, samplePages, timed } from '../helpers/page-sampler.js';

const ROWS = 200_000;
// The memory bound is a ratio to the body: a smaller body shows it as well, with fewer full
// collections to wait for (each takes longer as the heap grows).
const SMALLER = 50_000;
// A broken body needs only to be longer than what the import reads at once: 20,000 rows are 40
// chunks of IMPORT_CHUNK_ROWS and more than one 1 MiB scan of a JSON body, broken after all of them.
const BROKEN = 20_000;
// The latency under a 200,000-row import, each parser on one engine: JSON on PostgreSQL (SQLite when
// there is none), CSV on SQLite. A parser yields the same way on either engine, and each engine is
// covered; an import of 200,000 rows takes some 20 s, so the other two pairs are not run as well.
const JSON_ENGINE = dialects.includes('postgres') ? 'postgres' : 'sqlite';

type ImportAnswer = { status: string; data: Record<string, unknown[]> };

/** 200,000 new members as a JSON import body (some 15 MB), each e-mail unique to `tag`. */
function jsonBody(tag: string, count = ROWS): string {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    rows.push(`{"email":"${tag}.${i}@example.test","firstname":"Firstname","lastname":"Lastname ${i}"}`);
  }
  return `{"members":[${rows.join(',')}]}`;
}

/** The same as CSV, with a custom field. */
function csvBody(tag: string, count = ROWS): string {
  const lines = ['email,firstname,lastname,extra.team'];
  for (let i = 0; i < count; i++)
    lines.push(`${tag}.${i}@example.test,Firstname,"Lastname, ${i}",Team ${i % 7}`);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * What this process holds (the server runs in it), after a full garbage collection: the JavaScript
 * heap and the buffers. Without the collection the figure is mostly garbage not yet collected, which
 * says when V8 chose to collect, not what the import keeps.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const liveMemory = () => {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

for (const dialect of dialects) {
  describe(`a 200,000-row member import (${dialect})`, () => {
    let instance: Instance;
    let base: string;
    let token: string;
    beforeAll(async () => {
      instance = await startInstance(dialect);
      ({ token } = await participant(instance));
      base = await listen(instance);
    }, 60_000);
    afterAll(() => instance?.close());

    /** Posts the body from another thread and answers its answer (as JSON). */
    async function post(body: string, contentType: string) {
      const bearer = await instance.token('members');
      return postFromThread(
        `${base}/api/v1/members/import`,
        { authorization: `Bearer ${bearer}`, 'content-type': contentType },
        body,
      );
    }

    /** Imports the body while another thread asks for a question page again and again; every row made, every page in time. */
    async function importWhileAskingForPages(body: string, contentType: string) {
      expect(await timed(`${base}/q/${token}`)).toBeLessThan(2000);
      const request = await post(body, contentType);
      const started = performance.now();
      const pending = request.send() as Promise<ImportAnswer>;
      const sampler = samplePages([`${base}/q/${token}`]);
      const answer = await pending;
      const pages = (await sampler.stop()).map((sample) => sample.ms);
      const seconds = (performance.now() - started) / 1000;
      // Every row made; the import took a while, and the page was asked for, and answered, all along.
      expect(answer.status).toBe('OK');
      expect(answer.data.created).toHaveLength(ROWS);
      expect(answer.data.errors).toEqual([]);
      expect(pages.length, `${seconds} s`).toBeGreaterThan(10);
      expect(latencyProblems(pages), `${pages.length} pages in ${seconds.toFixed(1)} s`).toEqual([]);
    }

    /**
     * Imports the body while measuring what the process holds, every 100 ms: the peak growth, and
     * the longest wait between two measures (an import that held the event loop would be measured
     * only before and after: that wait says whether the measures covered it).
     */
    async function importMeasuringMemory(body: string, contentType: string) {
      const request = await post(body, contentType);
      const before = liveMemory();
      let peak = before;
      let last = performance.now();
      let longestWait = 0;
      const measure = () => {
        peak = Math.max(peak, liveMemory());
        const now = performance.now();
        longestWait = Math.max(longestWait, now - last);
        last = now;
      };
      const sampler = setInterval(measure, 100);
      const answer = (await request.send()) as ImportAnswer;
      clearInterval(sampler);
      measure();
      return { answer, growth: peak - before, longestWait };
    }

    it.runIf(dialect === JSON_ENGINE)(
      'answers question pages within 200 ms (19 in 20, none in a second) throughout a JSON import',
      async () => {
        await importWhileAskingForPages(jsonBody(`json-${dialect}`), 'application/json');
        const count = await instance.db.kysely
          .selectFrom('members')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('email', 'like', `json-${dialect}.%`)
          .executeTakeFirstOrThrow();
        expect(Number(count.n)).toBe(ROWS);
      },
      180_000,
    );

    it.runIf(dialect === 'sqlite')(
      'answers question pages within 200 ms (19 in 20, none in a second) throughout a CSV import',
      async () => {
        await importWhileAskingForPages(csvBody('csv'), 'text/csv');
        const member = await instance.db.kysely
          .selectFrom('members')
          .select(['lastname', 'extra'])
          .where('email', '=', `csv.${ROWS - 1}@example.test`)
          .executeTakeFirstOrThrow();
        expect(member).toEqual({
          lastname: `Lastname, ${ROWS - 1}`,
          extra: JSON.stringify({ team: `Team ${(ROWS - 1) % 7}` }),
        });
      },
      180_000,
    );

    it.runIf(dialect === 'sqlite')(
      'holds no more than about 3x the body during an import, JSON or CSV',
      async () => {
        for (const [body, type] of [
          [jsonBody('memory-json', SMALLER), 'application/json'],
          [csvBody('memory-csv', SMALLER), 'text/csv'],
        ] as const) {
          const bytes = Buffer.byteLength(body);
          const { answer, growth, longestWait } = await importMeasuringMemory(body, type);
          expect(answer.data.created).toHaveLength(SMALLER);
          expect(longestWait, `${type}: the event loop was held`).toBeLessThan(1000);
          expect(
            growth,
            `${type}: peak growth ${(growth / 1e6).toFixed(1)} MB for a body of ${(bytes / 1e6).toFixed(1)} MB`,
          ).toBeLessThan(3.3 * bytes);
        }
      },
      240_000,
    );

    it('still refuses a body broken at its very end whole, writing nothing', async () => {
      const good = jsonBody(`broken-${dialect}`, BROKEN);
      expect(Buffer.byteLength(good)).toBeGreaterThan(1 << 20);
      const broken = `${good.slice(0, -2)},]}`;
      const response = await instance.call('POST', '/members/import', {
        body: broken,
      });
      expect(response.json).toEqual({ status: 'ERROR', data: 'body: not valid JSON' });
      const csv = `${csvBody(`broken-${dialect}`, BROKEN)}x@example.test,A,"B\r\n`;
      const refused = await instance.call('POST', '/members/import', {
        body: csv,
        headers: { 'content-type': 'text/csv' },
      });
      expect(refused.json).toEqual({
        status: 'ERROR',
        data: 'body: not valid CSV: a quoted field is not closed',
      });
      const count = await instance.db.kysely
        .selectFrom('members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('email', 'like', `broken-${dialect}.%`)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    }, 120_000);
  });
}
