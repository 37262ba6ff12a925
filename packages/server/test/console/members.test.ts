import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, participant, startInstance } from '../helpers/instance.js';

/** The text of the page's `<main>`, tags stripped, spaces folded. */
const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The address a link of the page leads to (`rel` next or prev), as a browser reads it. */
const linkOf = (html: string, rel: 'next' | 'prev') =>
  (new RegExp(`href="([^"]+)" rel="${rel}"`).exec(html)?.[1] ?? '')
    .replaceAll('&amp;', '&')
    .replaceAll('&#x3D;', '=');

for (const dialect of dialects) {
  describe(`console members (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;
    const create = async (fields: Record<string, unknown> = {}, on = instance) => {
      const response = await on.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace', ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data as { memberid: string; email: string };
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
    });
    afterAll(() => instance.close());

    it('shows an empty list with what to do, then members by e-mail', async () => {
      // An instance of its own: the list is empty only where no other test has made a member.
      const own = await startInstance(dialect);
      try {
        const ownBrowser = await new ConsoleBrowser(own).signIn();
        const empty = await ownBrowser.get('/console/members');
        expect(empty.statusCode).toBe(200);
        expect(mainText(empty.body)).toContain('There are no members yet');
        await create({ email: 'zoe@example.test', firstname: 'Zoe', lastname: 'Zeta' }, own);
        await create({ email: 'abe@example.test', firstname: 'Abe', lastname: 'Alpha' }, own);
        const list = await ownBrowser.get('/console/members');
        const text = mainText(list.body);
        expect(text.indexOf('abe@example.test')).toBeGreaterThan(-1);
        expect(text.indexOf('abe@example.test')).toBeLessThan(text.indexOf('zoe@example.test'));
        expect(list.body).toContain('class="table-region" role="region" aria-labelledby="members-caption"');
      } finally {
        await own.close();
      }
    });

    it('searches by the start of the e-mail, first or last name, in any case', async () => {
      await create({ email: 'search-1@example.test', firstname: 'Quentin', lastname: 'Blake' });
      await create({ email: 'other-2@example.test', firstname: 'Rosa', lastname: 'Quist' });
      // One that neither search may find.
      await create({ email: 'abe@example.test', firstname: 'Abe', lastname: 'Alpha' });
      const byName = mainText((await browser.get('/console/members?q=QU')).body);
      expect(byName).toContain('search-1@example.test');
      expect(byName).toContain('other-2@example.test');
      expect(byName).not.toContain('abe@example.test');
      const byEmail = mainText((await browser.get('/console/members?q=search-')).body);
      expect(byEmail).toContain('search-1@example.test');
      expect(byEmail).not.toContain('other-2@example.test');
      const none = await browser.get('/console/members?q=%3Cscript%3Enothing');
      expect(none.statusCode).toBe(200);
      expect(mainText(none.body)).toContain('No member’s e-mail address or name starts with');
      expect(none.body).not.toContain('<script>nothing');
      expect(none.body).toContain('&lt;script&gt;nothing');
    });

    it('pages 50 at a time with Previous and Next, forward and back', async () => {
      const rows = Array.from({ length: 120 }, (_, i) => ({
        email: `page-${String(i).padStart(3, '0')}@example.test`,
        firstname: 'Page',
        lastname: `P${i}`,
      }));
      const imported = await instance.call('POST', '/members/import', { body: { members: rows } });
      expect(imported.json.data.created).toHaveLength(120);
      const emailsOf = (html: string) => [...html.matchAll(/page-(\d{3})@example\.test/g)].map((m) => m[1]);
      const first = await browser.get('/console/members?q=page-');
      expect(emailsOf(first.body)).toEqual(rows.slice(0, 50).map((_, i) => String(i).padStart(3, '0')));
      expect(first.body).not.toContain('rel="prev"');
      const second = await browser.get(linkOf(first.body, 'next'));
      expect(emailsOf(second.body)[0]).toBe('050');
      const third = await browser.get(linkOf(second.body, 'next'));
      expect(emailsOf(third.body)).toHaveLength(20);
      expect(third.body).not.toContain('rel="next"');
      const back = await browser.get(linkOf(third.body, 'prev'));
      expect(emailsOf(back.body)[0]).toBe('050');
      expect(emailsOf(back.body)).toHaveLength(50);
      const start = await browser.get(linkOf(back.body, 'prev'));
      expect(emailsOf(start.body)[0]).toBe('000');
      expect(start.body).not.toContain('rel="prev"');
    });

    it('adds a member through the API rules, each message next to its field', async () => {
      const form = await browser.get('/console/members/new');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('for="field-email"');
      const existing = await create();
      const before = await count();
      const cases: [Record<string, string>, string, string][] = [
        [{ email: 'not-an-address', firstname: 'A', lastname: 'B' }, 'email', 'email: '],
        [{ email: email(), firstname: '', lastname: 'B' }, 'firstname', 'firstname: must not be empty'],
        [{ email: email(), firstname: 'A', lastname: '' }, 'lastname', 'lastname: must not be empty'],
        [{ email: email(), firstname: 'A\u202Eb', lastname: 'B' }, 'firstname', 'firstname: '],
        [{ email: existing.email, firstname: 'A', lastname: 'B' }, 'email', 'email: already exists'],
      ];
      for (const [fields, field, message] of cases) {
        const response = await browser.post('/console/members/new', fields);
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(response.body).toMatch(/<title>Error: /);
        expect(response.body).toContain(`href="#field-${field}"`);
        expect(response.body).toContain(`id="field-${field}-error"`);
        expect(response.body).toContain(`aria-describedby="field-${field}-error"`);
        expect(response.body).toContain(message);
        // Refused the same way by the API.
        const api = await instance.call('POST', '/members', { body: fields });
        expect(api.json.status).toBe('ERROR');
        expect(response.body).toContain(api.json.data.replaceAll('"', '&quot;').split(':')[0]);
      }
      expect(await count()).toBe(before);
      const address = email();
      const created = await browser.post('/console/members/new', {
        email: address,
        title: '',
        firstname: '<script>alert(1)</script>',
        lastname: 'עברית',
      });
      expect(created.statusCode).toBe(303);
      const page = await browser.get(created.headers.location as string);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('<script>alert(1)</script>');
      expect(page.body).toContain('<bdi>&lt;script&gt;alert(1)&lt;/script&gt; עברית</bdi>');
      expect(page.body).toContain(address);
      expect(await count()).toBe(before + 1);
    });

    it('edits a member; a taken address is refused next to the field and changes nothing', async () => {
      const member = await create();
      const other = await create();
      const form = await browser.get(`/console/members/${member.memberid}/edit`);
      expect(form.body).toContain(`value="${member.email}"`);
      const taken = await browser.post(`/console/members/${member.memberid}/edit`, {
        email: other.email,
        firstname: 'Ada',
        lastname: 'Lovelace',
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.body).toContain('email: already exists');
      expect((await instance.call('GET', `/members/${member.memberid}`)).json.data.email).toBe(member.email);
      const saved = await browser.post(`/console/members/${member.memberid}/edit`, {
        email: member.email,
        firstname: 'Augusta',
        middlename: 'Ada',
        lastname: 'King',
        company: 'Analytical',
      });
      expect(saved.statusCode).toBe(303);
      const detail = (await instance.call('GET', `/members/${member.memberid}`)).json.data;
      expect(detail.firstname).toBe('Augusta');
      expect(detail.middlename).toBe('Ada');
      const page = await browser.get(`/console/members/${member.memberid}`);
      expect(mainText(page.body)).toContain('Augusta Ada King');
      expect(mainText(page.body)).toContain('Analytical');
      expect(mainText(page.body)).toContain('This member takes part in no campaign.');
    });

    it('shows the member’s group, and 404 for an unknown member', async () => {
      const group = await instance.call('POST', '/groups', { body: { name: 'Sales <b>', alias: 'sales' } });
      const member = await create();
      await instance.call('POST', `/groups/${group.json.data.groupid}/members/${member.memberid}`);
      const page = await browser.get(`/console/members/${member.memberid}`);
      expect(page.body).toContain('Sales &lt;b&gt;');
      expect((await browser.get('/console/members/AAAAAAAAAA')).statusCode).toBe(404);
      expect((await browser.get('/console/members/AAAAAAAAAA/edit')).statusCode).toBe(404);
    });

    it('lists the member’s campaigns with their status and the member’s, linked to the campaign', async () => {
      const { campaignid, memberid } = await participant(instance, { name: 'Spring <scan>' });
      const page = await browser.get(`/console/members/${memberid}`);
      expect(page.body).toContain(
        `<a class="link" href="/console/campaigns/${campaignid}"><bdi>Spring &lt;scan&gt;</bdi></a>`,
      );
      expect(page.body).toContain('<strong class="tag tag--active">Active</strong>');
      expect(mainText(page.body)).toContain('Not invited');
      expect(mainText(page.body)).toContain('There is no report about this member.');
    });

    it('offers their data as a JSON attachment from the member’s page, and 404 for an unknown member', async () => {
      const member = await create({ firstname: 'Grace', lastname: 'Hopper' });
      const page = await browser.get(`/console/members/${member.memberid}`);
      expect(page.body).toContain(
        `<a class="button button--secondary" href="/console/members/${member.memberid}/data" role="button" draggable="false" download>Download their data</a>`,
      );
      const file = await browser.get(`/console/members/${member.memberid}/data`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(file.headers['content-disposition']).toBe(
        `attachment; filename="member-${member.memberid}.json"`,
      );
      const document = JSON.parse(file.body);
      expect(document.format).toBe('assay-member-data/1');
      expect(document.member).toMatchObject({
        memberid: member.memberid,
        firstname: 'Grace',
        lastname: 'Hopper',
      });
      expect(document).toMatchObject({ group: null, participations: [], reports: [], mails: [] });
      expect((await browser.get('/console/members/AAAAAAAAAA/data')).statusCode).toBe(404);
    });

    it('refuses a form without the session’s token, changing nothing', async () => {
      const before = await count();
      const response = await browser.post(
        '/console/members/new',
        { email: email(), firstname: 'A', lastname: 'B' },
        'forged',
      );
      expect(response.statusCode).toBe(403);
      const missing = await browser.post(
        '/console/members/new',
        { email: email(), firstname: 'A', lastname: 'B' },
        null,
      );
      expect(missing.statusCode).toBe(403);
      expect(await count()).toBe(before);
    });
  });
}
