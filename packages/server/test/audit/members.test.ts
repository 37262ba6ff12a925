import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { type AuditRow, listAuditRows } from '../../src/audit/audit.repository.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { multipartForm } from '../helpers/multipart-form.js';

// The audit entries of the members and groups families, made through each door: the API (an OAuth
// client), the console (a signed-in user), and the command line (the operating-system user).

for (const dialect of dialects) {
  describe(`the audit log of members and groups (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;
    let adminId: string;
    let files: string;

    /** The entries about one resource id, oldest first, as [resource, action, fields]. */
    const about = async (id: string) =>
      (await listAuditRows(instance.db.kysely, { resourceId: id, limit: 100 }))
        .reverse()
        .map((row) => [row.resource_type, row.action, row.fields]);
    const all = () => listAuditRows(instance.db.kysely, { limit: 10_000 });
    /** The entries written after the first `before`, oldest first, once there are `count` of them (20 s at most: a safety net). */
    const entriesAfter = async (before: number, count: number) => {
      for (const until = Date.now() + 20_000; ; ) {
        const rows = await all();
        if (rows.length >= before + count || Date.now() > until)
          return rows.slice(0, rows.length - before).reverse();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const latest = async (): Promise<AuditRow> => (await all())[0] as AuditRow;
    const createMember = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace', ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.memberid as string;
    };
    const createGroup = async (name: string, parentgroup?: string) => {
      const response = await instance.call('POST', '/groups', {
        body: { name, alias: name.toLowerCase().replaceAll(' ', '-'), parentgroup },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.groupid as string;
    };
    const groupOf = async (memberId: string) =>
      (
        await instance.db.kysely
          .selectFrom('members')
          .select('group_id')
          .where('id', '=', memberId)
          .executeTakeFirstOrThrow()
      ).group_id;
    const assay = (...args: string[]) =>
      runAssay([
        ...args,
        '--data',
        instance.config.dataDir,
        ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
      ]);

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
      adminId = (await instance.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
      files = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-audit-members-'));
    });
    afterAll(async () => {
      await instance.close();
      fs.rmSync(files, { recursive: true, force: true });
    });

    it('records a member created, patched and deleted through the API, as the client, from its address', async () => {
      const id = await createMember();
      const created = await latest();
      expect(created).toMatchObject({
        actor_type: 'client',
        actor_id: instance.client.client_id,
        user_id: adminId,
        channel: 'api',
        address: '127.0.0.1',
        resource_type: 'member',
        resource_id: id,
        action: 'create',
        fields: null,
        outcome: 'succeeded',
      });
      const patched = await instance.call('PATCH', `/members/${id}`, {
        body: { firstname: 'Augusta', company: 'Analytical Engines', extra: { team: 'A' } },
      });
      expect(patched.json.status).toBe('OK');
      // A patch that sets nothing changes nothing: no entry.
      expect((await instance.call('PATCH', `/members/${id}`, { body: {} })).json.status).toBe('OK');
      expect((await instance.call('DELETE', `/members/${id}`)).json.status).toBe('OK');
      expect(await about(id)).toEqual([
        ['member', 'create', null],
        ['member', 'update', 'firstname company extra'],
        ['member', 'erase', null],
      ]);
    });

    it('leaves no entry for a refused change, which rolls back', async () => {
      const id = await createMember();
      const taken = await createMember();
      const takenEmail = (await instance.call('GET', `/members/${taken}`)).json.data.email;
      const before = (await all()).length;
      expect((await instance.call('PATCH', `/members/${id}`, { body: { email: takenEmail } })).json).toEqual({
        status: 'ERROR',
        data: 'email: already exists',
      });
      expect(
        (
          await instance.call('POST', '/members', {
            body: { email: takenEmail, firstname: 'A', lastname: 'B' },
          })
        ).json.status,
      ).toBe('ERROR');
      expect((await instance.call('DELETE', '/members/AAAAAAAAAA')).statusCode).toBe(404);
      // The refusal's own entry is written once the answer is sent.
      await entriesAfter(before, 1);
      const parent = await createGroup('Refusing parent');
      await createGroup('Refusing child', parent);
      expect((await instance.call('DELETE', `/groups/${parent}`)).json.status).toBe('ERROR');
      const other = await createGroup('Refusing other');
      expect((await instance.call('POST', `/groups/${parent}/members/${id}`)).json.status).toBe('OK');
      // In another group already: refused, nothing written.
      expect((await instance.call('POST', `/groups/${other}/members/${id}`)).json.status).toBe('ERROR');
      expect((await instance.call('DELETE', `/groups/${other}/members/${id}`)).json.status).toBe('ERROR');
      // Only the groups made, the one member added, and the DELETE's own refusal (a 404).
      const since = await entriesAfter(before, 5);
      expect(since.map((row) => [row.resource_type, row.action, row.outcome])).toEqual([
        ['member', 'delete', 'failed'],
        ['group', 'create', 'succeeded'],
        ['group', 'create', 'succeeded'],
        ['group', 'create', 'succeeded'],
        ['member', 'group.add', 'succeeded'],
      ]);
    });

    it('records groups created, patched, deleted, and members added and removed, on the member', async () => {
      const group = await createGroup('Audited');
      const id = await createMember();
      expect(
        (
          await instance.call('PATCH', `/groups/${group}`, {
            body: { name: 'Audited too', status: 'inactive' },
          })
        ).json.status,
      ).toBe('OK');
      expect((await instance.call('POST', `/groups/${group}/members/${id}`)).json.status).toBe('OK');
      expect((await instance.call('DELETE', `/groups/${group}/members/${id}`)).json.status).toBe('OK');
      expect((await instance.call('POST', `/groups/${group}/member/${id}`)).json.status).toBe('OK');
      expect((await instance.call('DELETE', `/groups/${group}`)).json.status).toBe('OK');
      expect(await groupOf(id)).toBeNull();
      expect(await about(group)).toEqual([
        ['group', 'create', null],
        ['group', 'update', 'name status'],
        ['group', 'delete', null],
      ]);
      // The deletion leaves its members in no group: each has its entry.
      expect(await about(id)).toEqual([
        ['member', 'create', null],
        ['member', 'group.add', 'groupid'],
        ['member', 'group.remove', 'groupid'],
        ['member', 'group.add', 'groupid'],
        ['member', 'group.remove', 'groupid'],
      ]);
    });

    it('records an import through the API: one entry per member created or updated', async () => {
      const group = await createGroup('Imported by API');
      const existing = email('existing');
      const existingId = await createMember({ email: existing });
      const response = await instance.call('POST', '/members/import', {
        body: {
          groupid: group,
          update: true,
          members: [
            { email: existing, company: 'Updated Ltd' },
            { email: email('new'), firstname: 'New', lastname: 'Person' },
            { email: 'not-an-address' },
          ],
        },
      });
      expect(response.json.status, response.body).toBe('OK');
      const [newId] = response.json.data.created as string[];
      expect(response.json.data.errors).toHaveLength(1);
      expect(await about(existingId)).toEqual([
        ['member', 'create', null],
        ['member', 'update', 'email company groupid'],
      ]);
      expect(await about(newId as string)).toEqual([['member', 'create', null]]);
      const csv = await instance.inject({
        method: 'POST',
        url: '/api/v1/members/import',
        headers: { authorization: `Bearer ${await instance.token()}`, 'content-type': 'text/csv' },
        payload: `email,firstname,lastname\r\n${email('csv')},Csv,Row\r\n`,
      });
      const [csvId] = csv.json.data.created as string[];
      expect((await latest()).resource_id).toBe(csvId);
      expect((await latest()).channel).toBe('api');
    });

    it('records the console’s changes as the signed-in user, from their address', async () => {
      const address = email('console');
      const created = await browser.post('/console/members/new', {
        email: address,
        firstname: 'Grace',
        lastname: 'Hopper',
      });
      expect(created.statusCode).toBe(303);
      const id = (created.headers.location as string).split('/').pop() as string;
      expect(await latest()).toMatchObject({
        actor_type: 'user',
        actor_id: adminId,
        user_id: adminId,
        channel: 'console',
        address: '127.0.0.1',
        resource_type: 'member',
        resource_id: id,
        action: 'create',
      });
      const saved = await browser.post(`/console/members/${id}/edit`, {
        email: address,
        firstname: 'Grace',
        lastname: 'Murray',
      });
      expect(saved.statusCode).toBe(303);
      const update = await latest();
      expect([update.action, update.channel]).toEqual(['update', 'console']);
      expect(update.fields?.split(' ')).toContain('lastname');

      const made = await browser.post('/console/groups/new', {
        name: 'Console group',
        alias: 'console-group',
        parentgroup: 'root',
      });
      expect(made.statusCode).toBe(303);
      const group = await latest();
      expect([group.resource_type, group.action, group.channel]).toEqual(['group', 'create', 'console']);
      const groupId = group.resource_id as string;
      expect((await browser.post(`/console/groups/${groupId}/rename`, { name: 'Renamed' })).statusCode).toBe(
        303,
      );
      expect(await about(groupId)).toEqual([
        ['group', 'create', null],
        ['group', 'update', 'name'],
      ]);
      const target = await createGroup('Console target');
      expect((await instance.call('POST', `/groups/${groupId}/members/${id}`)).json.status).toBe('OK');
      const other = await createMember();
      // A move that fails for one member moves none, and records none.
      const refused = await browser.post(`/console/groups/${groupId}/members`, {
        member: [id, other],
        group: target,
      });
      expect(refused.statusCode).toBe(400);
      expect(await groupOf(id)).toBe(groupId);
      const moved = await browser.post(`/console/groups/${groupId}/members`, { member: [id], group: target });
      expect(moved.statusCode).toBe(303);
      expect((await about(id)).slice(-2)).toEqual([
        ['member', 'group.add', 'groupid'],
        ['member', 'group.move', 'groupid'],
      ]);
      expect((await latest()).channel).toBe('console');
    });

    it('records the console’s CSV import once confirmed, and nothing for its check', async () => {
      await browser.get('/console/members/import');
      const before = (await all()).length;
      const { payload, contentType } = multipartForm(
        { csrf: browser.csrf as string },
        {
          name: 'people.csv',
          content: `email,firstname,lastname\r\n${email('c1')},One,Row\r\n${email('c2')},Two,Row\r\n`,
        },
      );
      const posted = await instance.app.inject({
        method: 'POST',
        url: '/console/members/import',
        headers: {
          'content-type': contentType,
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload,
      });
      expect(posted.statusCode).toBe(303);
      const check = await browser.get(posted.headers.location as string);
      expect((await all()).length).toBe(before);
      const action = /<form method="post" action="([^"]+)"/.exec(
        check.body.slice(check.body.indexOf('<main')),
      )?.[1];
      expect((await browser.post(action as string, {})).statusCode).toBe(303);
      const rows = (await all()).slice(0, 2);
      expect(rows.map((row) => [row.resource_type, row.action, row.actor_type, row.channel])).toEqual([
        ['member', 'create', 'user', 'console'],
        ['member', 'create', 'user', 'console'],
      ]);
      expect((await all()).length).toBe(before + 2);
    });

    it('records the command line’s import as the operating-system user, without an address', async () => {
      const existing = email('cli');
      const existingId = await createMember({ email: existing });
      const csv = path.join(files, 'people.csv');
      fs.writeFileSync(
        csv,
        `email,firstname,lastname\r\n${existing},Cli,Changed\r\n${email('cli2')},Cli,New\r\n`,
      );
      const result = await assay('members', 'import', csv, '--update', '--json');
      expect([result.code, result.stderr]).toEqual([0, '']);
      const { created } = JSON.parse(result.stdout) as { created: string[] };
      expect(await latest()).toMatchObject({
        actor_type: 'cli',
        actor_id: cliActor().id,
        user_id: null,
        channel: 'cli',
        address: null,
        resource_type: 'member',
        resource_id: created[0],
        action: 'create',
      });
      expect((await about(existingId)).at(-1)).toEqual(['member', 'update', 'firstname lastname email']);
    });

    it('keeps ids and field names only: no name, e-mail or other value in any entry', async () => {
      const text = JSON.stringify(await all());
      for (const value of ['Ada', 'Lovelace', 'Augusta', 'Analytical', 'Grace', 'Hopper', 'Murray', '@']) {
        expect(text).not.toContain(value);
      }
      expect(text).not.toContain('Audited too');
      expect(text).not.toContain('Renamed');
    });
  });
}
