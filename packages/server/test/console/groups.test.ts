import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const mainText = (html: string) =>
  (/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

for (const dialect of dialects) {
  describe(`console groups (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;
    const group = async (name: string, alias: string, parentgroup = 'root', on = instance) => {
      const response = await on.call('POST', '/groups', { body: { name, alias, parentgroup } });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.groupid as string;
    };
    const member = async (on = instance) => {
      const response = await on.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace' },
      });
      return response.json.data.memberid as string;
    };
    const groupOf = async (id: string) =>
      (await instance.call('GET', `/members/${id}`)).json.data.groupid as string | null;
    const groupsNow = async () => (await instance.call('GET', '/groups')).json.data;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
    });
    afterAll(() => instance.close());

    it('shows an empty tree, then groups nested with their member counts', async () => {
      // An instance of its own: the tree is empty only where no other test has made a group.
      const own = await startInstance(dialect);
      try {
        const ownBrowser = await new ConsoleBrowser(own).signIn();
        const empty = await ownBrowser.get('/console/groups');
        expect(empty.statusCode).toBe(200);
        expect(mainText(empty.body)).toContain('There are no groups yet.');
        const top = await group('Europe', 'europe', 'root', own);
        const child = await group('<script>x</script> שלום', 'benelux', top, own);
        await own.call('POST', `/groups/${child}/members/${await member(own)}`);
        await own.call('POST', `/groups/${child}/members/${await member(own)}`);
        const tree = await ownBrowser.get('/console/groups');
        expect(tree.body).not.toContain('<script>x</script>');
        expect(tree.body).toContain('<bdi>&lt;script&gt;x&lt;/script&gt; שלום</bdi>');
        // The sub-group is inside its parent's item.
        const parentItem = tree.body.slice(tree.body.indexOf(`id="group-${top}"`));
        expect(parentItem.indexOf(`id="group-${child}"`)).toBeGreaterThan(0);
        expect(parentItem.indexOf('class="group-tree__children"')).toBeLessThan(
          parentItem.indexOf(`id="group-${child}"`),
        );
        expect(mainText(tree.body)).toContain('2 members');
        expect(mainText(tree.body)).toContain('0 members');
      } finally {
        await own.close();
      }
    });

    it('creates a group with the API rules, each message next to its field', async () => {
      // The group whose name and alias are taken.
      await group('Oceania', 'oceania');
      const before = (await groupsNow()).length;
      const cases: [Record<string, string>, string, string][] = [
        [{ name: '', alias: 'x1' }, 'name', 'name: must not be empty'],
        [{ name: 'Bad alias', alias: 'no spaces' }, 'alias', 'alias: '],
        [{ name: 'Oceania', alias: 'oceania2' }, 'name', 'name: already exists'],
        [{ name: 'Other', alias: 'oceania' }, 'alias', 'alias: already exists'],
        [
          { name: 'Lost', alias: 'lost', parentgroup: 'AAAAAAAAAA' },
          'parentgroup',
          'parentgroup: no such group',
        ],
      ];
      for (const [fields, field, message] of cases) {
        const response = await browser.post('/console/groups/new', fields);
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(response.body).toMatch(/<title>Error: /);
        expect(response.body).toContain(`href="#field-${field}"`);
        expect(response.body).toContain(`id="field-${field}-error"`);
        expect(response.body).toContain(message);
        const api = await instance.call('POST', '/groups', { body: fields });
        expect(api.json.status).toBe('ERROR');
      }
      // Two fields wrong at once: each problem next to its own field, both in the summary.
      const both = await browser.post('/console/groups/new', { name: '', alias: 'no spaces' });
      expect(both.statusCode).toBe(400);
      for (const field of ['name', 'alias']) {
        expect(both.body).toContain(`href="#field-${field}"`);
        expect(both.body).toContain(`id="field-${field}-error"`);
      }
      expect((await groupsNow()).length).toBe(before);
      const created = await browser.post('/console/groups/new', {
        name: 'Asia',
        alias: 'asia',
        parentgroup: 'root',
      });
      expect(created.statusCode).toBe(303);
      expect((await groupsNow()).some((g: { name: string }) => g.name === 'Asia')).toBe(true);
    });

    it('renames and moves a group; moving below itself is refused with the API’s message', async () => {
      const a = await group('Alpha', 'alpha');
      const b = await group('Beta', 'beta', a);
      const elsewhere = await group('Gamma', 'gamma');
      const page = await browser.get(`/console/groups/${a}/rename`);
      expect(page.body).toContain('value="Alpha"');
      const empty = await browser.post(`/console/groups/${a}/rename`, { name: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain('name: must not be empty');
      expect((await browser.post(`/console/groups/${a}/rename`, { name: 'Alpha One' })).statusCode).toBe(303);
      expect((await instance.call('GET', `/groups/${a}`)).json.data.name).toBe('Alpha One');

      const move = await browser.get(`/console/groups/${a}/move`);
      // Neither the group itself nor its sub-group is offered.
      expect(move.body).not.toContain(`value="${b}"`);
      expect(move.body).not.toContain(`<option value="${a}"`);
      const cycle = await browser.post(`/console/groups/${a}/move`, { parentgroup: b });
      expect(cycle.statusCode).toBe(400);
      expect(cycle.body).toContain(
        'parentgroup: a group cannot be moved below itself or one of its sub-groups',
      );
      expect(cycle.body).toContain('aria-describedby="field-parentgroup-hint field-parentgroup-error"');
      expect((await instance.call('GET', `/groups/${a}`)).json.data.parentgroup).toBe('root');
      expect((await browser.post(`/console/groups/${a}/move`, { parentgroup: elsewhere })).statusCode).toBe(
        303,
      );
      expect((await instance.call('GET', `/groups/${a}`)).json.data.parentgroup).toBe(elsewhere);
      expect((await browser.post(`/console/groups/${a}/move`, { parentgroup: 'root' })).statusCode).toBe(303);
      expect((await instance.call('GET', `/groups/${a}`)).json.data.parentgroup).toBe('root');
    });

    it('moves chosen members to another group, or out of every group', async () => {
      const from = await group('From', 'from');
      const to = await group('To', 'to');
      const [m1, m2, m3] = [await member(), await member(), await member()];
      for (const id of [m1, m2, m3]) await instance.call('POST', `/groups/${from}/members/${id}`);
      const page = await browser.get(`/console/groups/${from}/members`);
      expect(page.body).toContain('type="checkbox"');
      expect(page.body).toContain('<legend class="fieldset__legend">Members to move</legend>');
      const none = await browser.post(`/console/groups/${from}/members`, { group: to });
      expect(none.statusCode).toBe(400);
      expect(none.body).toContain('Choose at least one member');
      const noTarget = await browser.post(`/console/groups/${from}/members`, { member: [m1 as string] });
      expect(noTarget.statusCode).toBe(400);
      expect(noTarget.body).toContain('Choose the group to move them to');
      const gone = await browser.post(`/console/groups/${from}/members`, {
        member: [m1 as string],
        group: 'AAAAAAAAAA',
      });
      expect(gone.statusCode).toBe(400);
      expect(gone.body).toContain('group: no such group');
      expect(await groupOf(m1 as string)).toBe(from);
      const moved = await browser.post(`/console/groups/${from}/members`, {
        member: [m1 as string, m2 as string],
        group: to,
      });
      expect(moved.statusCode).toBe(303);
      expect(await groupOf(m1 as string)).toBe(to);
      expect(await groupOf(m2 as string)).toBe(to);
      expect(await groupOf(m3 as string)).toBe(from);
      await browser.post(`/console/groups/${from}/members`, { member: [m3 as string], group: 'none' });
      expect(await groupOf(m3 as string)).toBeNull();
    });

    it('refuses forms without the session’s token, changing nothing', async () => {
      const a = await group('Kept', 'kept');
      const before = (await groupsNow()).length;
      const response = await browser.post(
        '/console/groups/new',
        { name: 'Forged', alias: 'forged' },
        'forged',
      );
      expect(response.statusCode).toBe(403);
      expect((await groupsNow()).length).toBe(before);
      expect((await browser.post(`/console/groups/${a}/rename`, { name: 'X' }, null)).statusCode).toBe(403);
      expect((await instance.call('GET', `/groups/${a}`)).json.data.name).not.toBe('X');
      expect((await browser.get('/console/groups/AAAAAAAAAA/rename')).statusCode).toBe(404);
    });
  });
}
