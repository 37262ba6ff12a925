import http from 'node:http';
import { MemberDetail, MemberListItem } from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { DATE, dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { expectShape } from '../helpers/shapes.js';

const LIST_KEYS = [
  'company',
  'email',
  'firstname',
  'group',
  'jobtitle',
  'lastname',
  'level',
  'memberid',
  'middlename',
  'phone',
  'status',
  'testuser',
  'title',
];
const DETAIL_KEYS = [
  'activeusersession',
  'createdon',
  'email',
  'extra',
  'firstname',
  'groupid',
  'lastname',
  'level',
  'memberid',
  'middlename',
  'status',
  'testuser',
  'title',
  'useraccount',
];

for (const dialect of dialects) {
  describe(`members (${dialect})`, () => {
    let instance: Instance;
    const create = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace', ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data;
    };
    const stored = (id: string) =>
      instance.db.kysely.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('creates a member with the defaults and answers the detail shape', async () => {
      const address = email();
      const response = await instance.call('POST', '/members', {
        body: { email: address, firstname: 'Ada', lastname: 'Lovelace' },
      });
      expect(response.statusCode).toBe(200);
      const member = response.json.data;
      expect(Object.keys(member).sort()).toEqual(DETAIL_KEYS);
      expectShape(MemberDetail, member);
      expect(member).toMatchObject({
        email: address,
        status: 'active',
        level: null,
        testuser: false,
        groupid: null,
        extra: [],
        title: '',
        middlename: '',
        activeusersession: false,
        useraccount: false,
      });
      expect(member.memberid).toMatch(/^[0-9A-Za-z]{10}$/);
      expect(member.createdon).toMatch(DATE);
      expect(await stored(member.memberid)).toBeDefined();
    });

    it('lists members in the list shape, with the group name', async () => {
      const member = await create({
        phone: '+31 20 123',
        company: 'Acme',
        jobtitle: 'CTO',
        level: 'teamleader',
      });
      const group = (
        await instance.call('POST', '/groups', {
          body: { name: `Group ${member.memberid}`, alias: `g${member.memberid}` },
        })
      ).json.data;
      await instance.call('POST', `/groups/${group.groupid}/members/${member.memberid}`);
      const list = (await instance.call('GET', '/members')).json.data;
      const row = list.find((item: { memberid: string }) => item.memberid === member.memberid);
      expect(Object.keys(row).sort()).toEqual(LIST_KEYS);
      expectShape(MemberListItem, row);
      expect(row).toMatchObject({
        phone: '+31 20 123',
        company: 'Acme',
        jobtitle: 'CTO',
        level: 'teamleader',
        testuser: false,
        group: group.name,
      });
      const detail = (await instance.call('GET', `/members/${member.memberid}`)).json.data;
      expect(Object.keys(detail).sort()).toEqual(DETAIL_KEYS);
      expect(detail.groupid).toBe(group.groupid);
    });

    it('frees the database connection of a list whose client goes away mid-answer', async () => {
      const members = Array.from({ length: 3000 }, (_, i) => ({
        email: email(`bulk${i}`),
        firstname: 'B',
        lastname: 'K',
      }));
      expect(
        (await instance.call('POST', '/members/import', { body: { members } })).json.data.created,
      ).toHaveLength(3000);
      const address = await instance.app.listen({ port: 0, host: '127.0.0.1' });
      const authorization = `Bearer ${await instance.token()}`;
      // More abandoned answers than the PostgreSQL pool has connections.
      for (let i = 0; i < 12; i++) {
        await new Promise<void>((resolve) => {
          const request = http.get(
            `${address}/api/v1/members`,
            { headers: { authorization } },
            (response) => {
              response.once('data', () => {
                request.destroy();
                resolve();
              });
            },
          );
          request.on('error', () => resolve());
        });
      }
      const whole = await fetch(`${address}/api/v1/members`, {
        headers: { authorization },
        signal: AbortSignal.timeout(10_000),
      });
      expect(((await whole.json()) as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(3000);
    });

    it('coerces booleans the way the spec tells clients to', async () => {
      for (const [given, expected] of [
        [true, true],
        [1, true],
        ['1', true],
        ['true', true],
        [false, false],
        [0, false],
        ['0', false],
      ] as const) {
        expect((await create({ testuser: given })).testuser, String(given)).toBe(expected);
      }
      const refused = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'a', lastname: 'b', testuser: 'yes' },
      });
      expect(refused.json).toEqual({ status: 'ERROR', data: 'testuser: must be a boolean' });
    });

    it('refuses bad input with a message naming the field, and stores nothing', async () => {
      const count = async () => (await instance.call('GET', '/members')).json.data.length;
      const before = await count();
      const cases: [Record<string, unknown>, string][] = [
        [{ firstname: 'a', lastname: 'b' }, 'email: is required'],
        [{ email: email(), lastname: 'b' }, 'firstname: is required'],
        [{ email: email(), firstname: 'a' }, 'lastname: is required'],
        [{ email: 'not-an-address', firstname: 'a', lastname: 'b' }, 'email: must be a valid e-mail address'],
        [{ email: 42, firstname: 'a', lastname: 'b' }, 'email: must be a string'],
        [{ email: email(), firstname: ['a'], lastname: 'b' }, 'firstname: must be a string'],
        [{ email: email(), firstname: '', lastname: 'b' }, 'firstname: must not be empty'],
        [
          { email: email(), firstname: 'x'.repeat(10_000), lastname: 'b' },
          'firstname: must be at most 255 characters',
        ],
        [
          { email: email(), firstname: 'a', lastname: 'b', level: 'boss' },
          'level: must be one of ceofounder, ceofounderwithteam, ceofounderalone, teamleader, employee, guest, null',
        ],
        [
          { email: email(), firstname: 'a', lastname: 'b', status: 'gone' },
          'status: must be one of active, inactive, null',
        ],
        [{ email: email(), firstname: 'a', lastname: 'b', extra: 'x' }, 'extra: must be an object'],
        [
          { email: email(), firstname: 'a\u0000b', lastname: 'b' },
          'firstname: must not contain NUL or unpaired surrogate characters',
        ],
        [
          { email: email(), firstname: 'a', lastname: '\ud800' },
          'lastname: must not contain NUL or unpaired surrogate characters',
        ],
        [
          { email: email(), firstname: 'a', lastname: 'b', extra: { nested: { a: 1 } } },
          'extra.nested: must be a string, a number or a boolean',
        ],
      ];
      for (const [body, message] of cases) {
        const response = await instance.call('POST', '/members', { body });
        expect(response.statusCode).toBe(200);
        expect(response.json, JSON.stringify(body).slice(0, 80)).toEqual({ status: 'ERROR', data: message });
      }
      expect(await count()).toBe(before);
    });

    it('stores SQL-looking and HTML-looking values verbatim, never executing them', async () => {
      const values = {
        firstname: "Robert'); DROP TABLE members;--",
        lastname: '<script>alert(1)</script>',
        title: '" OR 1=1 --',
        company: '%_\\',
        extra: { note: '<img src=x onerror=alert(1)>', n: 3, ok: true },
      };
      const member = await create(values);
      const detail = (await instance.call('GET', `/members/${member.memberid}`)).json.data;
      expect(detail).toMatchObject({
        firstname: values.firstname,
        lastname: values.lastname,
        title: values.title,
        extra: values.extra,
      });
      const row = (await instance.call('GET', '/members')).json.data.find(
        (m: { memberid: string }) => m.memberid === member.memberid,
      );
      expect(row.company).toBe('%_\\');
      expect((await instance.call('GET', '/members')).statusCode).toBe(200);
    });

    it('refuses a duplicate e-mail, whatever its case', async () => {
      const member = await create();
      const again = await instance.call('POST', '/members', {
        body: { email: member.email.toUpperCase(), firstname: 'B', lastname: 'C' },
      });
      expect(again.json).toEqual({ status: 'ERROR', data: 'email: already exists' });
    });

    it('folds case beyond A-Z and both spellings of an accent, the same on every engine', async () => {
      const local = `élodie.${Math.random().toString(36).slice(2, 8)}`;
      const member = await create({ email: `${local.toUpperCase()}@example.test` });
      for (const variant of [`${local}@example.test`, `${local.normalize('NFD')}@EXAMPLE.test`]) {
        const again = await instance.call('POST', '/members', {
          body: { email: variant, firstname: 'B', lastname: 'C' },
        });
        expect(again.json, variant).toEqual({ status: 'ERROR', data: 'email: already exists' });
        const check = await instance.call('POST', '/members/dupecheck', { body: { value: variant } });
        expect(check.json, variant).toEqual({ status: 'ERROR', data: '' });
      }
      const other = await create({ email: `${local}@other.example.test` });
      const moved = await instance.call('PATCH', `/members/${other.memberid}`, {
        body: { email: `${local}@example.test` },
      });
      expect(moved.json).toEqual({ status: 'ERROR', data: 'email: already exists' });
      // A change of case of one's own address is no conflict.
      const recased = await instance.call('PATCH', `/members/${member.memberid}`, {
        body: { email: `${local}@example.test` },
      });
      expect(recased.json.data.email).toBe(`${local}@example.test`);
    });

    it('lets exactly one of many concurrent creates with the same e-mail win', async () => {
      const address = email('race');
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          instance.call('POST', '/members', {
            body: { email: i % 2 ? address : address.toUpperCase(), firstname: `R${i}`, lastname: 'X' },
          }),
        ),
      );
      expect(responses.filter((r) => r.json.status === 'OK')).toHaveLength(1);
      expect(
        responses
          .filter((r) => r.json.status === 'ERROR')
          .every((r) => r.json.data === 'email: already exists'),
      ).toBe(true);
      const rows = await instance.db.kysely
        .selectFrom('members')
        .select('id')
        .where('email', 'in', [address, address.toUpperCase()])
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('updates a member partially and answers the updated detail', async () => {
      const member = await create({ level: 'employee', extra: { team: 'A' } });
      const response = await instance.call('PATCH', `/members/${member.memberid}`, {
        body: {
          lastname: 'Byron',
          status: 'inactive',
          testuser: '1',
          extra: [],
          memberid: 'ignored000',
          createdon: 'x',
        },
      });
      expect(response.json.status).toBe('OK');
      expect(response.json.data).toMatchObject({
        memberid: member.memberid,
        firstname: 'Ada',
        lastname: 'Byron',
        status: 'inactive',
        level: 'employee',
        testuser: true,
        extra: [],
      });
      expect(response.json.data.createdon).toBe(member.createdon);
    });

    it('refuses a PATCH carrying group or groupid with Access denied, and changes nothing', async () => {
      const member = await create();
      for (const body of [
        { group: 'Sales', lastname: 'Changed' },
        { groupid: 'ABCDEFGHIJ' },
        { groupid: null },
        { group: 'Sales', firstname: 5, email: 'not-an-address' },
        { groupid: 'x', extra: 'nope' },
      ]) {
        const response = await instance.call('PATCH', `/members/${member.memberid}`, { body });
        expect(response.json).toEqual({ status: 'ERROR', data: 'Access denied' });
      }
      expect((await stored(member.memberid))?.lastname).toBe('Lovelace');
    });

    it('refuses a PATCH to an e-mail another member has, and answers 404 for an unknown member', async () => {
      const first = await create();
      const second = await create();
      const response = await instance.call('PATCH', `/members/${second.memberid}`, {
        body: { email: first.email },
      });
      expect(response.json).toEqual({ status: 'ERROR', data: 'email: already exists' });
      expect(
        (await instance.call('PATCH', '/members/ZZZZZZZZZZ', { body: { lastname: 'x' } })).statusCode,
      ).toBe(404);
      expect(
        (await instance.call('PATCH', `/members/${second.memberid}`, { body: { level: 'nope' } })).json
          .status,
      ).toBe('ERROR');
    });

    it('deletes a member (an erasure) and answers an empty string; the e-mail is free again', async () => {
      const member = await create();
      const response = await instance.call('DELETE', `/members/${member.memberid}`);
      expect(response.json).toEqual({ status: 'OK', data: '' });
      expect(await stored(member.memberid)).toBeUndefined();
      expect((await instance.call('GET', `/members/${member.memberid}`)).statusCode).toBe(404);
      expect((await instance.call('DELETE', `/members/${member.memberid}`)).statusCode).toBe(404);
      expect(
        (
          await instance.call('POST', '/members', {
            body: { email: member.email, firstname: 'N', lastname: 'W' },
          })
        ).json.status,
      ).toBe('OK');
    });

    it('dupechecks an e-mail: ERROR when taken, OK when free, OK for any other key', async () => {
      const member = await create();
      expect(
        (await instance.call('POST', '/members/dupecheck', { body: { value: member.email.toUpperCase() } }))
          .json,
      ).toEqual({ status: 'ERROR', data: '' });
      expect((await instance.call('POST', '/members/dupecheck', { body: { value: email() } })).json).toEqual({
        status: 'OK',
        data: '',
      });
      expect(
        (await instance.call('POST', '/members/dupecheck', { body: { email: member.email } })).json,
      ).toEqual({ status: 'OK', data: '' });
      expect(
        (await instance.call('POST', '/members/dupecheck', { body: { value: 'a\u0000@b.c' } })).json,
      ).toEqual({
        status: 'OK',
        data: '',
      });
      expect((await instance.call('POST', '/members/dupecheck', { body: { value: 7 } })).json).toEqual({
        status: 'OK',
        data: '',
      });
    });

    it('reports whether a member also has a platform login', async () => {
      const member = await create({ email: 'ADMIN@example.test' });
      expect(member.useraccount).toBe(true);
      await createUser(
        instance.db.kysely,
        { email: 'ÅSA@example.test', firstname: 'Å', lastname: 'S' },
        cliActor(),
      );
      expect((await create({ email: 'åsa@example.test' })).useraccount).toBe(true);
      expect((await create()).useraccount).toBe(false);
    });

    it('stores an unset or null title and middlename as empty strings, the type of the detail shape', async () => {
      const member = await create({ title: null, middlename: null });
      expect(member).toMatchObject({ title: '', middlename: '' });
      const patched = await instance.call('PATCH', `/members/${member.memberid}`, {
        body: { title: 'Dr.', middlename: 'van' },
      });
      expect(patched.json.data).toMatchObject({ title: 'Dr.', middlename: 'van' });
      const cleared = await instance.call('PATCH', `/members/${member.memberid}`, {
        body: { title: null, middlename: null },
      });
      expect(cleared.json.data).toMatchObject({ title: '', middlename: '' });
      const row = (await instance.call('GET', '/members')).json.data.find(
        (item: { memberid: string }) => item.memberid === member.memberid,
      );
      expect(row).toMatchObject({ title: '', middlename: '' });
    });
  });
}
