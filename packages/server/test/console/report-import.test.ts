import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { multipartForm } from '../helpers/multipart-form.js';

// The console's import of answers as reports (issue 21, item 3): upload, a check page that runs
// POST /reports/import/{variant}'s own rules writing nothing, confirm once.

const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A text as the templates escape it (Handlebars' set). */
const escaped = (text: string) =>
  text.replace(
    /[&<>"'`=]/g,
    (c) =>
      ({
        '&': '&amp;',
        '<': '&lt;',
        '>': '&gt;',
        '"': '&quot;',
        "'": '&#x27;',
        '`': '&#x60;',
        '=': '&#x3D;',
      })[c] as string,
  );

const CODES = Array.from({ length: 24 }, (_, i) => `Q${i + 1}`);
const answers = (value: number | string, change: Record<string, number | string> = {}) => ({
  ...Object.fromEntries(CODES.map((code) => [code, value])),
  ...change,
});
const HEADER = `memberid,email,campaignid,language,date,role,${CODES.join(',')}`;
const csvRow = (
  cells: {
    memberid?: string;
    email?: string;
    campaignid?: string;
    language?: string;
    date?: string;
    role?: string;
  },
  values: Record<string, number | string> = answers(4),
) =>
  [
    cells.memberid ?? '',
    cells.email ?? '',
    cells.campaignid ?? '',
    cells.language ?? '',
    cells.date ?? '',
    cells.role ?? '',
    ...CODES.map((code) => values[code] ?? ''),
  ].join(',');

const actionOf = (body: string) =>
  /<form method="post" action="([^"]+)"/.exec(body.slice(body.indexOf('<main')))?.[1] as string;

for (const dialect of dialects) {
  describe(`console import of answers as reports (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;
    let ada: string;
    let graceEmail: string;
    let dutchCampaign: string;
    let bigfiveCampaign: string;

    const upload = async (
      fields: Record<string, string>,
      file?: { name: string; content: string | Buffer; type?: string },
      as: ConsoleBrowser = browser,
      csrf: string | null = as.csrf,
    ) => {
      const { payload, contentType } = multipartForm(csrf === null ? fields : { csrf, ...fields }, file);
      return instance.app.inject({
        method: 'POST',
        url: '/console/reports/import',
        headers: {
          'content-type': contentType,
          cookie: [...as.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload,
      });
    };
    /** Uploads and opens the check page. */
    const checkPage = async (
      fields: Record<string, string>,
      file?: { name: string; content: string | Buffer; type?: string },
    ) => {
      const posted = await upload(fields, file);
      expect(posted.statusCode, posted.body).toBe(303);
      const page = await browser.get(posted.headers.location as string);
      expect(page.statusCode).toBe(200);
      return { location: posted.headers.location as string, page };
    };
    const reportCount = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('reports')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const apiImport = async (body: string, contentType: string) =>
      instance.call('POST', '/reports/import/leadership360', {
        body,
        headers: { 'content-type': contentType },
      });

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
      const member = async (address: string, firstname: string) => {
        const made = await instance.call('POST', '/members', {
          body: { email: address, firstname, lastname: 'Tester' },
        });
        expect(made.json.status, made.body).toBe('OK');
        return made.json.data.memberid as string;
      };
      ada = await member('ada@example.test', 'Ada');
      graceEmail = 'grace@example.test';
      await member(graceEmail, 'Grace');
      const campaign = async (variant: string, language: string) => {
        const made = await instance.call('POST', '/campaigns', {
          body: { name: `${variant} campaign`, variant, language, start: '2026-01-01' },
        });
        expect(made.json.status, made.body).toBe('OK');
        return made.json.data.campaignid as string;
      };
      dutchCampaign = await campaign('leadership360', 'nlNL');
      bigfiveCampaign = await campaign('bigfive', 'enUS');
    });
    afterAll(() => instance.close());

    it('is linked from the reports list, and offers the questionnaires and a sample CSV of each', async () => {
      const list = await browser.get('/console/reports');
      expect(list.body).toContain('href="/console/reports/import"');
      expect(mainText(list.body)).toContain('Import answers as reports');
      const form = await browser.get('/console/reports/import');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('enctype="multipart/form-data"');
      expect(form.body).toContain('type="file"');
      expect(form.body).toContain('name="pasted"');
      for (const alias of ['bigfive', 'leadership360', 'teamscan']) {
        expect(form.body).toContain(`<option value="${alias}"`);
        expect(form.body).toContain(`href="/console/reports/import/sample.csv?variant&#x3D;${alias}"`);
      }
      const sample = await browser.get('/console/reports/import/sample.csv?variant=leadership360');
      expect(sample.statusCode).toBe(200);
      expect(sample.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(sample.headers['content-disposition']).toBe('attachment; filename="leadership360-answers.csv"');
      const header = sample.body.trim().split(',');
      expect(header.slice(0, 5)).toEqual(['email', 'campaignid', 'language', 'date', 'role']);
      expect(header).toContain('Q1');
      expect(header).toContain('Remarks1');
      // The sample's header is one the API takes: with a row under it, the import checks its cells.
      const filled = await apiImport(`${sample.body}nobody@example.test,,,,,1\n`, 'text/csv');
      expect(filled.json.data.errors).toEqual([
        { row: 1, message: 'email: no member has the address nobody@example.test' },
      ]);
      expect((await browser.get('/console/reports/import/sample.csv?variant=nosuch')).statusCode).toBe(404);
    });

    it('refuses a form without a questionnaire, a file, or UTF-8, and a file over the API’s limit', async () => {
      // What the other tests' uploads left: none of these forms adds to it.
      const uploads = await instance.db.kysely.selectFrom('console_uploads').selectAll().execute();
      await browser.get('/console/reports/import');
      const none = await upload({ variant: '', pasted: `${HEADER}\n${csvRow({ memberid: ada })}` });
      expect(none.statusCode).toBe(400);
      expect(none.body).toContain('href="#field-variant"');
      expect(mainText(none.body)).toContain('Choose the questionnaire the answers belong to');
      expect(none.body).not.toContain('href="#field-file"');
      const neither = await upload({ variant: '', pasted: '' });
      expect(neither.statusCode).toBe(400);
      expect(neither.body).toContain('href="#field-variant"');
      expect(neither.body).toContain('href="#field-file"');
      const unknown = await upload({ variant: 'nosuch', pasted: 'x' });
      expect(unknown.statusCode).toBe(400);
      expect(mainText(unknown.body)).toContain('Choose the questionnaire the answers belong to');
      const empty = await upload({ variant: 'leadership360', pasted: ' \n ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain('href="#field-file"');
      expect(mainText(empty.body)).toContain('Choose a CSV or JSON file, or paste its rows');
      const latin1 = await upload(
        { variant: 'leadership360' },
        { name: 'a.csv', content: Buffer.from([0x65, 0x6d, 0xe9, 0x0a, 0xff]) },
      );
      expect(latin1.statusCode).toBe(400);
      expect(mainText(latin1.body)).toContain('The file must be saved as UTF-8');
      // The pasted rows and the choice come back in the form.
      expect(latin1.body).toContain('<option value="leadership360" selected>');
      const huge = await instance.app.inject({
        method: 'POST',
        url: '/console/reports/import',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(32 * 1024 * 1024 + 1),
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload: '--x--',
      });
      expect(huge.statusCode).toBe(413);
      expect(mainText(huge.body)).toContain('The file must be smaller than 32 MB');
      const broken = await instance.app.inject({
        method: 'POST',
        url: '/console/reports/import',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload: `--x\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${browser.csrf}\r\n--x`,
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.body).not.toMatch(/at [\w.]+ \(/);
      expect(await instance.db.kysely.selectFrom('console_uploads').selectAll().execute()).toEqual(uploads);
    });

    it('checks a CSV with every kind of bad row: the API’s message beside each, nothing written', async () => {
      const before = await reportCount();
      const csv = [
        HEADER,
        csvRow({ memberid: 'ZZZZZZZZZZ' }),
        csvRow({ email: 'nobody@example.test' }),
        csvRow({}),
        csvRow({ memberid: ada, campaignid: 'NOSUCHCAMP' }),
        csvRow({ memberid: ada, campaignid: bigfiveCampaign }),
        csvRow({ memberid: ada, language: 'deDE' }),
        csvRow({ memberid: ada, date: 'yesterday' }),
        csvRow({ memberid: ada, role: 'boss' }),
        csvRow({ memberid: ada }, answers(4, { Q1: 9 })),
        csvRow({ memberid: ada }, answers(4, { Q8: '' })),
        csvRow({ memberid: '<script>x</script>' }),
      ].join('\n');
      await browser.get('/console/reports/import');
      const { page } = await checkPage(
        { variant: 'leadership360' },
        { name: 'answers <1>.csv', content: csv },
      );
      expect(mainText(page.body)).toContain('There are problems with answers &lt;1&gt;.csv');
      expect(page.body).toContain('Upload your file again');
      expect(page.body).not.toContain('<script>x</script>');
      expect(page.body).not.toMatch(/Import \d+ report/);
      const api = await apiImport(csv, 'text/csv');
      expect(api.json.status).toBe('OK');
      expect(api.json.data.created).toEqual([]);
      // Every kind of refusal, each as the API words it, and each beside its row on the page.
      expect(api.json.data.errors.map((e: { message: string }) => e.message.replace(/ .*/, ''))).toEqual([
        'memberid:',
        'email:',
        'memberid:',
        'campaignid:',
        'campaignid:',
        'language:',
        'date:',
        'role:',
        'answers.Q1:',
        'answers.Q8:',
        'memberid:',
      ]);
      expect(api.json.data.errors[2].message).toBe('memberid: is required (or email)');
      expect(api.json.data.errors[9].message).toBe('answers.Q8: is required');
      for (const { row, message } of api.json.data.errors) {
        expect(page.body).toContain(
          `<th scope="row">${row}</th>\n<td class="error-cell overflow-anywhere">${escaped(message)}</td>`,
        );
      }
      expect(await reportCount()).toBe(before);
    });

    it('checks JSON rows the way the API does, with the bad shapes only JSON can have', async () => {
      const before = await reportCount();
      const body = JSON.stringify({
        reports: [
          42,
          { memberid: 7, answers: answers(4) },
          { email: 5, answers: answers(4) },
          { memberid: ada, answers: 'all fours' },
          { memberid: ada, answers: answers(4, { Q99: 1 }) },
          { memberid: ada, campaignid: 5, answers: answers(4) },
          { memberid: ada, date: 5, answers: answers(4) },
          { memberid: ada, role: 5, answers: answers(4) },
        ],
      });
      await browser.get('/console/reports/import');
      const { page } = await checkPage(
        { variant: 'leadership360' },
        { name: 'answers.json', content: body, type: 'application/json' },
      );
      const api = await apiImport(body, 'application/json');
      expect(api.json.data.created).toEqual([]);
      expect(api.json.data.errors).toHaveLength(8);
      for (const { row, message } of api.json.data.errors) {
        expect(page.body).toContain(
          `<th scope="row">${row}</th>\n<td class="error-cell overflow-anywhere">${escaped(message)}</td>`,
        );
      }
      expect(await reportCount()).toBe(before);
    });

    it('shows a whole file’s refusal with the API’s message', async () => {
      const many = JSON.stringify({ reports: Array.from({ length: 10_001 }, () => ({ memberid: ada })) });
      const cases: [string, string][] = [
        ['{"reports": [', 'body: not valid JSON'],
        ['{"members": []}', 'reports: is required (an array of rows)'],
        ['{"reports": []}', 'reports: has no rows'],
        [many, 'reports: at most 10000 rows a request (got 10001)'],
        [
          `${HEADER},Bogus\n${csvRow({ memberid: ada })},1`,
          'body: column "Bogus" is not a question code of leadership360',
        ],
        [`${HEADER}\n`, 'body: the CSV has a header but no rows'],
        ['memberid,Q1\n"unterminated,3\n', ''],
      ];
      for (const [text, message] of cases) {
        await browser.get('/console/reports/import');
        const { page } = await checkPage({ variant: 'leadership360', pasted: text });
        const api = await apiImport(text, text.trimStart().startsWith('{') ? 'application/json' : 'text/csv');
        expect(api.json.status).toBe('ERROR');
        if (message) expect(api.json.data).toBe(message);
        expect(mainText(page.body)).toContain('There are problems with');
        expect(page.body).toContain(`<li class="overflow-anywhere">${escaped(api.json.data)}</li>`);
        expect(page.body).not.toMatch(/Import \d+ report/);
      }
    });

    it('imports a good CSV once the operator confirms, exactly once however often it is posted', async () => {
      const before = await reportCount();
      const csv = [
        HEADER,
        csvRow({ memberid: ada, campaignid: dutchCampaign }),
        csvRow({ email: graceEmail.toUpperCase(), date: '2026-01-02 10:00', role: 'peer' }),
      ].join('\r\n');
      await browser.get('/console/reports/import');
      const { page } = await checkPage({ variant: 'leadership360' }, { name: 'good.csv', content: csv });
      const text = mainText(page.body);
      expect(text).toContain('Check good.csv before you import it');
      expect(text).toContain('2 rows are ready to become');
      expect(text).toContain('Nothing has been written yet.');
      expect(page.body).toContain('Import 2 reports');
      // The rows as they will be imported: the campaign's language, the date given.
      expect(text).toContain(dutchCampaign);
      expect(text).toContain('Jan 2, 2026');
      expect(await reportCount()).toBe(before);
      const action = actionOf(page.body);
      const [first, second] = await Promise.all([browser.post(action, {}), browser.post(action, {})]);
      expect(first.statusCode).toBe(303);
      expect(second.statusCode).toBe(303);
      expect((await browser.post(action, {})).statusCode).toBe(303);
      expect(await reportCount()).toBe(before + 2);
      const done = await browser.get(first.headers.location as string);
      expect(done.statusCode).toBe(200);
      expect(mainText(done.body)).toContain('Reports made: 2');
      expect(mainText(done.body)).toContain('Rows refused: 0');
      expect(done.body).toContain('href="/console/reports?variant&#x3D;leadership360"');
      // The check page of an imported file goes to what the import did.
      const again = await browser.get(action);
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(`${action}/done`);
      const made = await instance.db.kysely
        .selectFrom('reports')
        .select(['member_id', 'campaign_id', 'language', 'date', 'variant', 'created_by'])
        .orderBy('seq')
        .execute();
      const admin = await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.test')
        .executeTakeFirstOrThrow();
      const mine = made.slice(-2);
      expect(mine[0]).toMatchObject({
        member_id: ada,
        campaign_id: dutchCampaign,
        language: 'nlNL',
        variant: 'leadership360',
        created_by: admin.id,
      });
      expect(mine[1]).toMatchObject({
        campaign_id: null,
        language: 'enUS',
        date: '2026-01-02T10:00:00+00:00',
      });
    });

    it('imports pasted JSON, and shows only the first 50 rows with errors', async () => {
      const before = await reportCount();
      await browser.get('/console/reports/import');
      const json = JSON.stringify({ reports: [{ email: graceEmail, answers: answers('5') }] });
      const { page } = await checkPage({ variant: 'leadership360', pasted: `\uFEFF  ${json}` });
      expect(page.body).toContain('Import 1 report');
      const done = await browser.get(
        (await browser.post(actionOf(page.body), {})).headers.location as string,
      );
      expect(mainText(done.body)).toContain('Reports made: 1');
      expect(await reportCount()).toBe(before + 1);

      const bad = JSON.stringify({
        reports: Array.from({ length: 60 }, (_, i) => ({ memberid: `MISSING${String(i).padStart(3, '0')}` })),
      });
      const { page: errors } = await checkPage({ variant: 'leadership360', pasted: bad });
      expect(mainText(errors.body)).toContain('Only showing the first 50 rows with errors');
      expect(errors.body.match(/class="error-cell/g)).toHaveLength(50);
      expect(await reportCount()).toBe(before + 1);
    });

    it('keeps an upload to its session and its own import, and refuses a form without the token', async () => {
      await browser.get('/console/reports/import');
      const posted = await upload({
        variant: 'leadership360',
        pasted: `${HEADER}\n${csvRow({ memberid: ada })}`,
      });
      const location = posted.headers.location as string;
      const before = await reportCount();
      const other = await new ConsoleBrowser(instance).signIn();
      expect((await other.get(location)).statusCode).toBe(404);
      expect(mainText((await other.get(location)).body)).toContain('This upload cannot be imported');
      await other.get('/console/reports/import');
      expect((await other.post(location, {})).statusCode).toBe(404);
      expect((await other.get(`${location}/done`)).statusCode).toBe(404);
      // A file of answers is no members file, and a members file no file of answers.
      const id = location.split('/').at(-1) as string;
      expect((await browser.get(`/console/members/import/${id}`)).statusCode).toBe(404);
      await browser.get('/console/members/import');
      expect((await browser.post(`/console/members/import/${id}`, {})).statusCode).toBe(404);
      const members = multipartForm(
        { csrf: browser.csrf, pasted: 'email,firstname,lastname\nnew@example.test,N,M' },
        undefined,
      );
      const memberUpload = await instance.app.inject({
        method: 'POST',
        url: '/console/members/import',
        headers: {
          'content-type': members.contentType,
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload: members.payload,
      });
      const memberId = (memberUpload.headers.location as string).split('/').at(-1) as string;
      expect((await browser.get(`/console/reports/import/${memberId}`)).statusCode).toBe(404);
      expect((await browser.post(`/console/reports/import/${memberId}`, {})).statusCode).toBe(404);
      // Without the session's form token nothing is kept or imported.
      const uploads = await instance.db.kysely.selectFrom('console_uploads').select('id').execute();
      expect(
        (await upload({ variant: 'leadership360', pasted: 'x' }, undefined, browser, 'forged')).statusCode,
      ).toBe(403);
      expect(
        (await upload({ variant: 'leadership360', pasted: 'x' }, undefined, browser, null)).statusCode,
      ).toBe(403);
      expect((await browser.post(location, {}, 'forged')).statusCode).toBe(403);
      expect(await instance.db.kysely.selectFrom('console_uploads').select('id').execute()).toHaveLength(
        uploads.length,
      );
      expect(await reportCount()).toBe(before);
    });

    it('shows the first 50 of many good rows, and says so when the questionnaire is gone', async () => {
      const before = await reportCount();
      await browser.get('/console/reports/import');
      const many = JSON.stringify({
        reports: Array.from({ length: 60 }, () => ({ memberid: ada, answers: answers(3) })),
      });
      const { location, page } = await checkPage({ variant: 'leadership360', pasted: many });
      expect(page.body).toContain('Import 60 reports');
      expect(mainText(page.body)).toContain('Only showing the first 50 rows');
      expect(page.body.slice(page.body.indexOf('<tbody>')).match(/<th scope="row">/g)).toHaveLength(50);
      // Its questionnaire uninstalled meanwhile: the check page says so, a confirmation writes nothing.
      await instance.db.kysely
        .updateTable('console_uploads')
        .set({ options: JSON.stringify({ kind: 'reports', variant: 'retired360', format: 'json' }) })
        .where('id', '=', location.split('/').at(-1) as string)
        .execute();
      const gone = await browser.get(location);
      expect(mainText(gone.body)).toContain('retired360 is no longer installed');
      expect(gone.body).not.toContain('Import 60 reports');
      const confirmed = await browser.post(location, {});
      expect(confirmed.statusCode).toBe(303);
      expect(confirmed.headers.location).toBe(location);
      expect(await reportCount()).toBe(before);
    });

    it('forgets an upload after a day', async () => {
      await browser.get('/console/reports/import');
      const posted = await upload({
        variant: 'leadership360',
        pasted: `${HEADER}\n${csvRow({ memberid: ada })}`,
      });
      const location = posted.headers.location as string;
      await instance.db.kysely
        .updateTable('console_uploads')
        .set({ created: '2026-01-01T00:00:00+00:00' })
        .where('id', '=', location.split('/').at(-1) as string)
        .execute();
      const before = await reportCount();
      expect((await browser.get(location)).statusCode).toBe(404);
      expect((await browser.post(location, {})).statusCode).toBe(404);
      expect(await reportCount()).toBe(before);
    });
  });
}

describe('the import form of answers posted as another body type', () => {
  it('answers the form again, never the error page', async () => {
    const instance = await startInstance('sqlite');
    try {
      const browser = await new ConsoleBrowser(instance).signIn();
      const answer = await browser.post('/console/reports/import', { variant: 'leadership360', pasted: 'x' });
      expect(answer.statusCode).toBe(400);
      expect(answer.body).toContain('id="field-file"');
      expect(await instance.db.kysely.selectFrom('console_uploads').selectAll().execute()).toEqual([]);
    } finally {
      await instance.close();
    }
  });
});
