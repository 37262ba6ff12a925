import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A multipart form as a browser sends it: text fields, and the file (if any) as `file`. */
function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: string | Buffer; type?: string },
) {
  const boundary = '----assay-test-boundary-7MA4YWxkTrZu0gW';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  const f = file ?? { name: '', content: '', type: 'application/octet-stream' };
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'text/csv'}\r\n\r\n`,
    ),
    Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

for (const dialect of dialects) {
  describe(`console CSV import (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;
    const upload = async (
      fields: Record<string, string>,
      file?: { name: string; content: string | Buffer; type?: string },
      csrf: string | null = browser.csrf,
    ) => {
      const { payload, contentType } = multipart(csrf === null ? fields : { csrf, ...fields }, file);
      return instance.app.inject({
        method: 'POST',
        url: '/console/members/import',
        headers: {
          'content-type': contentType,
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload,
      });
    };
    const count = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('members')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
      await instance.call('POST', '/members', {
        body: { email: 'taken@example.test', firstname: 'Taken', lastname: 'Already' },
      });
    });
    afterAll(() => instance.close());

    const BAD = [
      'email,firstname,lastname',
      'one@example.test,One,First',
      'not-an-address,Two,Second',
      'three@example.test,,Third',
      'taken@example.test,Four,Fourth',
      'one@example.test,Five,Fifth',
      'six@example.test,<script>x</script>,עברית',
    ].join('\n');

    it('shows the form with a file input, the paste fallback and the group choice', async () => {
      const form = await browser.get('/console/members/import');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('enctype="multipart/form-data"');
      expect(form.body).toContain('type="file"');
      expect(form.body).toContain('name="pasted"');
      expect(form.body).toContain('name="groupid"');
    });

    it('refuses an upload with no file and no rows, and one not in UTF-8', async () => {
      await browser.get('/console/members/import');
      const none = await upload({ pasted: '  ' });
      expect(none.statusCode).toBe(400);
      expect(none.body).toContain('href="#field-file"');
      expect(none.body).toContain('Choose a CSV file, or paste its rows');
      const latin1 = await upload(
        {},
        { name: 'm.csv', content: Buffer.from([0x65, 0x6d, 0xe9, 0x0a, 0xff]) },
      );
      expect(latin1.statusCode).toBe(400);
      expect(latin1.body).toContain('The file must be saved as UTF-8');
    });

    it('refuses a file over the API’s limit with the form again, saying so', async () => {
      const response = await instance.app.inject({
        method: 'POST',
        url: '/console/members/import',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(64 * 1024 * 1024 + 1),
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload: '--x--',
      });
      expect(response.statusCode).toBe(413);
      expect(response.body).toContain('The file must be smaller than 64 MB');
    });

    it('checks a file with bad rows: each row’s problem beside it, the API’s words, nothing written', async () => {
      const before = await count();
      await browser.get('/console/members/import');
      const posted = await upload({}, { name: 'people <1>.csv', content: BAD });
      expect(posted.statusCode).toBe(303);
      const check = await browser.get(posted.headers.location as string);
      expect(check.statusCode).toBe(200);
      const text = mainText(check.body);
      expect(text).toContain('There are problems with people &lt;1&gt;.csv');
      expect(check.body).toContain('people &lt;1&gt;.csv');
      expect(check.body).toContain('Upload your file again');
      expect(check.body).not.toContain('Import 2 members');
      // The same answers as POST /members/import would give, row by row.
      const api = await instance.call('POST', '/members/import', {
        body: BAD,
        headers: { 'content-type': 'text/csv' },
      });
      expect(api.json.status).toBe('OK');
      // (The API call imported the good rows: undo them to keep the rest of the file's test fair.)
      for (const id of [...api.json.data.created]) await instance.call('DELETE', `/members/${id}`);
      expect(api.json.data.errors.length).toBe(4);
      for (const { row, message } of api.json.data.errors) {
        expect(check.body).toContain(`<th scope="row">${row}</th>\n<td class="error-cell">${message}</td>`);
      }
      expect(await count()).toBe(before);
    });

    it('imports a fixed file once the operator confirms, exactly once however often it is posted', async () => {
      const before = await count();
      const group = (
        await instance.call('POST', '/groups', { body: { name: 'Imported', alias: 'imported' } })
      ).json.data.groupid;
      await browser.get('/console/members/import');
      const good = [
        'email,firstname,lastname,extra.team',
        'good1@example.test,Good,One,A',
        'good2@example.test,<script>x</script>,עברית,B',
      ].join('\r\n');
      const posted = await upload({ groupid: group }, { name: 'fixed.csv', content: good });
      expect(posted.statusCode).toBe(303);
      const check = await browser.get(posted.headers.location as string);
      expect(mainText(check.body)).toContain('2 rows are ready to import. Nothing has been written yet.');
      expect(check.body).toContain('Import 2 members');
      expect(check.body).not.toContain('<script>x</script>');
      expect(check.body).toContain('<bdi>&lt;script&gt;x&lt;/script&gt;</bdi>');
      expect(await count()).toBe(before);
      const action = /<form method="post" action="([^"]+)"/.exec(
        check.body.slice(check.body.indexOf('<main')),
      )?.[1];
      const [first, second] = await Promise.all([
        browser.post(action as string, {}),
        browser.post(action as string, {}),
      ]);
      expect(first.statusCode).toBe(303);
      expect(second.statusCode).toBe(303);
      const third = await browser.post(action as string, {});
      expect(third.statusCode).toBe(303);
      expect(await count()).toBe(before + 2);
      const done = await browser.get(first.headers.location as string);
      expect(mainText(done.body)).toContain('Members added: 2');
      expect(mainText(done.body)).toContain('Rows refused: 0');
      const members = (await instance.call('GET', `/groups/${group}/members`)).json.data;
      expect(members.map((m: { email: string }) => m.email).sort()).toEqual([
        'good1@example.test',
        'good2@example.test',
      ]);
      // The check page of an imported file goes to what the import did.
      expect((await browser.get(action as string)).statusCode).toBe(303);
    });

    it('takes pasted rows, and updates existing members when asked, as the API does', async () => {
      await browser.get('/console/members/import');
      const rows = 'email,lastname\ntaken@example.test,Renamed';
      const refused = await browser.get(
        (await upload({ pasted: rows }, undefined)).headers.location as string,
      );
      expect(refused.body).toContain('firstname: is required');
      const posted = await upload({ pasted: rows, update: '1' });
      const check = await browser.get(posted.headers.location as string);
      expect(check.body).toContain('Import 1 member');
      const action = /<form method="post" action="([^"]+)"/.exec(
        check.body.slice(check.body.indexOf('<main')),
      )?.[1];
      const done = await browser.get((await browser.post(action as string, {})).headers.location as string);
      expect(mainText(done.body)).toContain('Members updated: 1');
      const list = (await instance.call('GET', '/members')).json.data;
      expect(list.find((m: { email: string }) => m.email === 'taken@example.test').lastname).toBe('Renamed');
    });

    it('shows a whole-file problem with the API’s message', async () => {
      await browser.get('/console/members/import');
      const posted = await upload({ pasted: 'name;mail\nA;a@example.test' });
      const check = await browser.get(posted.headers.location as string);
      expect(check.body).toContain(
        'body: not valid CSV: the header has no email column (is the separator a comma?)',
      );
      expect(check.body).toContain('Upload your file again');
    });

    it('forgets an upload after a day', async () => {
      await browser.get('/console/members/import');
      const posted = await upload({ pasted: 'email,firstname,lastname\nlate@example.test,L,M' });
      const id = (posted.headers.location as string).split('/').at(-1) as string;
      await instance.db.kysely
        .updateTable('console_uploads')
        .set({ created: '2026-01-01T00:00:00+00:00' })
        .where('id', '=', id)
        .execute();
      const check = await browser.get(posted.headers.location as string);
      expect(check.statusCode).toBe(404);
      expect(mainText(check.body)).toContain('This upload cannot be imported');
      expect((await browser.post(posted.headers.location as string, {})).statusCode).toBe(404);
      // The next upload deletes it.
      await upload({ pasted: 'email,firstname,lastname\nnext@example.test,N,O' });
      const left = await instance.db.kysely
        .selectFrom('console_uploads')
        .select('id')
        .where('id', '=', id)
        .execute();
      expect(left).toEqual([]);
    });

    it('keeps an upload to its session, and refuses an upload without the form token', async () => {
      await browser.get('/console/members/import');
      const posted = await upload({ pasted: 'email,firstname,lastname\nother@example.test,O,P' });
      const other = await new ConsoleBrowser(instance).signIn();
      expect((await other.get(posted.headers.location as string)).statusCode).toBe(404);
      await other.get('/console/members/import');
      expect((await other.post(posted.headers.location as string, {})).statusCode).toBe(404);
      const before = await count();
      expect(
        (await upload({ pasted: 'email,firstname,lastname\nx@example.test,X,Y' }, undefined, 'forged'))
          .statusCode,
      ).toBe(403);
      expect(
        (await upload({ pasted: 'email,firstname,lastname\nx@example.test,X,Y' }, undefined, null))
          .statusCode,
      ).toBe(403);
      expect(await count()).toBe(before);
    });
  });
}

describe('the import form posted as another body type', () => {
  it('answers the form again, never the error page', async () => {
    const instance = await startInstance('sqlite');
    try {
      const browser = await new ConsoleBrowser(instance).signIn();
      const answer = await browser.post('/console/members/import', { pasted: 'email\na@example.test' });
      expect(answer.statusCode).toBe(400);
      expect(answer.body).toContain('id="field-file"');
      const members = await instance.call('GET', '/members');
      expect(members.json.data).toHaveLength(0);
    } finally {
      await instance.close();
    }
  });
});
