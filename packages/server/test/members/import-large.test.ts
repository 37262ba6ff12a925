import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, listen, participant, startInstance } from '../helpers/instance.js';
import { now, samplePages, unansweredDuring } from '../helpers/page-sampler.js';
import { csvBody, type ImportAnswer, jsonBody, postImport } from './large-import.js';

// Whether an import gives the event loop back while it runs: 20,000 rows are 40 chunks of
// IMPORT_CHUNK_ROWS, on each engine, JSON and CSV. How fast pages answer meanwhile (within 200 ms
// throughout a 200,000-row import) is a performance target, measured by `npm run bench -- --only
// busy`, not here: a time limit in a test fails on a slow or busy runner, where the order of events
// (pages answered in every quarter of the import) does not.
const ROWS = 20_000;
// A broken body needs only to be longer than what the import reads at once: 20,000 rows are 40
// chunks of IMPORT_CHUNK_ROWS and more than one 1 MiB scan of a JSON body, broken after all of them.
const BROKEN = 20_000;

for (const dialect of dialects) {
  describe(`a large member import (${dialect})`, () => {
    let instance: Instance;
    let base: string;
    let token: string;
    beforeAll(async () => {
      instance = await startInstance(dialect);
      ({ token } = await participant(instance));
      base = await listen(instance);
    }, 60_000);
    afterAll(() => instance?.close());

    /** Imports the body while another thread asks for a question page again and again; every row made, pages answered all along. */
    async function importWhileAskingForPages(body: string, contentType: string) {
      const request = await postImport(instance, base, body, contentType);
      const sampler = samplePages([`${base}/q/${token}`]);
      await sampler.answering;
      const started = now();
      const answer = (await request.send()) as ImportAnswer;
      const ended = now();
      const samples = await sampler.stop();
      expect(answer.status).toBe('OK');
      expect(answer.data.created).toHaveLength(ROWS);
      expect(answer.data.errors).toEqual([]);
      // Every page answered, and some in each quarter of the import: it never held the event loop
      // for a quarter of its time (before the hardening it held it from start to end).
      const during = samples.filter((sample) => sample.at <= ended);
      expect(
        unansweredDuring(during, started, ended),
        `${during.length} pages in ${((ended - started) / 1000).toFixed(1)} s`,
      ).toEqual([]);
    }

    it('answers question pages all through a JSON import', async () => {
      await importWhileAskingForPages(jsonBody(`json-${dialect}`, ROWS), 'application/json');
      const count = await instance.db.kysely
        .selectFrom('members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('email', 'like', `json-${dialect}.%`)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(ROWS);
    });

    it('answers question pages all through a CSV import', async () => {
      await importWhileAskingForPages(csvBody(`csv-${dialect}`, ROWS), 'text/csv');
      const member = await instance.db.kysely
        .selectFrom('members')
        .select(['lastname', 'extra'])
        .where('email', '=', `csv-${dialect}.${ROWS - 1}@example.test`)
        .executeTakeFirstOrThrow();
      expect(member).toEqual({
        lastname: `Lastname, ${ROWS - 1}`,
        extra: JSON.stringify({ team: `Team ${(ROWS - 1) % 7}` }),
      });
    });

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
