import { Group } from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { DATE, dialects, type Instance, startInstance } from '../helpers/instance.js';
import { expectShape } from '../helpers/shapes.js';

const GROUP_KEYS = [
  'accesstype',
  'alias',
  'config',
  'created',
  'creator',
  'description',
  'extra',
  'groupid',
  'membercount',
  'name',
  'parentgroup',
  'status',
  'type',
];
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${counter++}`;

for (const dialect of dialects) {
  describe(`groups (${dialect})`, () => {
    let instance: Instance;
    const create = async (fields: Record<string, unknown> = {}) => {
      const alias = unique('g');
      const response = await instance.call('POST', '/groups', {
        body: { name: `Name ${alias}`, alias, ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data;
    };
    const patch = (id: string, body: unknown) => instance.call('PATCH', `/groups/${id}`, { body });

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('creates a group with the defaults and answers the exact shape', async () => {
      const response = await instance.call('POST', '/groups', {
        body: { name: 'Finance', alias: 'fin_1', type: 'team', parentgroup: 'root', description: 'Money' },
      });
      const group = response.json.data;
      expect(Object.keys(group).sort()).toEqual(GROUP_KEYS);
      expectShape(Group, group);
      expect(group).toMatchObject({
        name: 'Finance',
        alias: 'fin_1',
        type: 'team',
        parentgroup: 'root',
        description: 'Money',
        status: 'active',
        config: [],
        extra: [],
        accesstype: 'owner',
        membercount: 0,
      });
      expect(group.created).toMatch(DATE);
      expect(group.creator).toMatch(/^[0-9A-Za-z]{10}$/);
      const listed = (await instance.call('GET', '/groups')).json.data.find(
        (g: { groupid: string }) => g.groupid === group.groupid,
      );
      expect(listed).toEqual(group);
      expect((await instance.call('GET', `/groups/${group.groupid}`)).json.data).toEqual(group);
    });

    it('refuses bad input with a message naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ alias: 'x1' }, 'name: is required'],
        [{ name: 'No alias' }, 'alias: is required'],
        [{ name: 'Spaces', alias: 'has spaces' }, 'alias: must be letters, digits, _ and - only'],
        [{ name: 'Special', alias: 'a/b' }, 'alias: must be letters, digits, _ and - only'],
        [{ name: 'T', alias: 't1', type: 'division' }, 'type: must be one of company, team, folder, null'],
        [{ name: 'P', alias: 'p1', parentgroup: 'ZZZZZZZZZZ' }, 'parentgroup: no such group'],
        [{ name: 'P2', alias: 'p2', parentgroup: 'nope' }, 'parentgroup: must be a groupid or root'],
        [{ name: 'E', alias: '' }, 'alias: must not be empty'],
        [{ name: '   ', alias: 'blank' }, 'name: must not be empty'],
        [
          { name: 'X', alias: 'x9', extra: { nested: { a: 1 } } },
          'extra.nested: must be a string, a number or a boolean',
        ],
        [
          { name: 'X', alias: 'x8', extra: { long: 'x'.repeat(10_000) } },
          'extra.long: must be at most 4000 characters',
        ],
        [{ name: 'x'.repeat(10_000), alias: 'long' }, 'name: must be at most 255 characters'],
        [
          { name: 'C', alias: 'c1', config: { selfregistration: { signup: 'maybe' } } },
          'config.selfregistration.signup: must be a boolean',
        ],
      ];
      for (const [body, message] of cases) {
        expect((await instance.call('POST', '/groups', { body })).json, message).toEqual({
          status: 'ERROR',
          data: message,
        });
      }
      // A number JSON can write but not hold (1e400 reads as Infinity) is told it must be a number.
      const huge = await instance.call('POST', '/groups', {
        body: '{"name":"N","alias":"n7","extra":{"n":1e400}}',
      });
      expect(huge.json).toEqual({ status: 'ERROR', data: 'extra.n: must be a number' });
    });

    it('refuses a duplicate name or alias whatever the case, and lets one of concurrent creates win', async () => {
      const group = await create();
      expect(
        (
          await instance.call('POST', '/groups', {
            body: { name: group.name.toUpperCase(), alias: unique('other') },
          })
        ).json,
      ).toEqual({ status: 'ERROR', data: 'name: already exists' });
      expect(
        (
          await instance.call('POST', '/groups', {
            body: { name: unique('Other'), alias: group.alias.toUpperCase() },
          })
        ).json,
      ).toEqual({ status: 'ERROR', data: 'alias: already exists' });
      // Spaces around or doubled inside a name do not make another name.
      for (const name of [` ${group.name} `, group.name.replace(' ', '   ')]) {
        expect(
          (await instance.call('POST', '/groups', { body: { name, alias: unique('sp') } })).json,
          JSON.stringify(name),
        ).toEqual({ status: 'ERROR', data: 'name: already exists' });
      }
      const accented = await create({ name: unique('ÉQUIPE Ørsted') });
      for (const name of [accented.name.toLowerCase(), accented.name.toLowerCase().normalize('NFD')]) {
        const again = await instance.call('POST', '/groups', { body: { name, alias: unique('acc') } });
        expect(again.json, name).toEqual({ status: 'ERROR', data: 'name: already exists' });
        expect((await patch(group.groupid, { name })).json, name).toEqual({
          status: 'ERROR',
          data: 'name: already exists',
        });
      }
      const alias = unique('race');
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          instance.call('POST', '/groups', { body: { name: `Race ${alias} ${i}`, alias } }),
        ),
      );
      expect(responses.filter((r) => r.json.status === 'OK')).toHaveLength(1);
      expect(responses.filter((r) => r.json.data === 'alias: already exists')).toHaveLength(9);
    });

    it('keeps config with selfregistration, [] when unset, and extra', async () => {
      const group = await create({
        config: { selfregistration: { signup: 1, register: 'false' } },
        extra: { costcentre: 'CC1' },
      });
      expect(group.config).toEqual({ selfregistration: { signup: true, register: false } });
      expect(group.extra).toEqual({ costcentre: 'CC1' });
      // A switch left out is off: the shape is always the spec's { signup, register }.
      const half = (await patch(group.groupid, { config: { selfregistration: { register: '1' } } })).json
        .data;
      expect(half.config).toEqual({ selfregistration: { signup: false, register: true } });
      expect((await create({ config: { selfregistration: [] } })).config).toEqual({
        selfregistration: { signup: false, register: false },
      });
      expect((await create({ config: { selfregistration: {} } })).config).toEqual({
        selfregistration: { signup: false, register: false },
      });
      const cleared = (await patch(group.groupid, { config: [], extra: {} })).json.data;
      expect(cleared.config).toEqual([]);
      expect(cleared.extra).toEqual([]);
    });

    it('builds a tree by parentgroup and refuses a cycle', async () => {
      const top = await create();
      const middle = await create({ parentgroup: top.groupid });
      const bottom = await create({ parentgroup: middle.groupid });
      expect(bottom.parentgroup).toBe(middle.groupid);
      for (const target of [top.groupid, middle.groupid]) {
        const response = await patch(top.groupid, {
          parentgroup: target === top.groupid ? top.groupid : bottom.groupid,
        });
        expect(response.json).toEqual({
          status: 'ERROR',
          data: 'parentgroup: a group cannot be moved below itself or one of its sub-groups',
        });
      }
      expect((await instance.call('GET', `/groups/${top.groupid}`)).json.data.parentgroup).toBe('root');
      expect((await patch(bottom.groupid, { parentgroup: 'root' })).json.data.parentgroup).toBe('root');
      expect((await patch(top.groupid, { parentgroup: bottom.groupid })).json.data.parentgroup).toBe(
        bottom.groupid,
      );
    });

    it('updates a group partially; alias stays as created; a taken name is refused', async () => {
      const group = await create();
      const other = await create();
      const response = await patch(group.groupid, {
        name: unique('Renamed'),
        status: 'inactive',
        type: 'folder',
        description: null,
        alias: 'ignored',
        groupid: 'x',
      });
      expect(response.json.data).toMatchObject({
        status: 'inactive',
        type: 'folder',
        description: null,
        alias: group.alias,
        groupid: group.groupid,
      });
      expect((await patch(group.groupid, { name: other.name })).json).toEqual({
        status: 'ERROR',
        data: 'name: already exists',
      });
      expect((await patch('ZZZZZZZZZZ', { name: 'x' })).statusCode).toBe(404);
    });

    it('adds and removes members; a member is in at most one group', async () => {
      const [a, b] = [await create(), await create()];
      const member = (
        await instance.call('POST', '/members', {
          body: { email: `${unique('m')}@example.test`, firstname: 'M', lastname: 'N' },
        })
      ).json.data;
      const add = await instance.call('POST', `/groups/${a.groupid}/members/${member.memberid}`);
      expect(add.json).toEqual({ status: 'OK', data: '' });
      expect((await instance.call('POST', `/groups/${a.groupid}/members/${member.memberid}`)).json).toEqual({
        status: 'OK',
        data: '',
      });
      expect((await instance.call('POST', `/groups/${b.groupid}/members/${member.memberid}`)).json).toEqual({
        status: 'ERROR',
        data: 'member: already in another group; remove it from that group first',
      });
      expect((await instance.call('DELETE', `/groups/${b.groupid}/members/${member.memberid}`)).json).toEqual(
        { status: 'ERROR', data: 'member: is not in this group' },
      );
      expect((await instance.call('DELETE', `/groups/${a.groupid}/members/${member.memberid}`)).json).toEqual(
        { status: 'OK', data: '' },
      );
      expect((await instance.call('POST', `/groups/${b.groupid}/member/${member.memberid}`)).json).toEqual({
        status: 'OK',
        data: '',
      });
      expect((await instance.call('GET', `/members/${member.memberid}`)).json.data.groupid).toBe(b.groupid);
      expect((await instance.call('POST', `/groups/ZZZZZZZZZZ/members/${member.memberid}`)).statusCode).toBe(
        404,
      );
      expect((await instance.call('POST', `/groups/${a.groupid}/members/ZZZZZZZZZZ`)).statusCode).toBe(404);
      expect(
        (await instance.call('POST', `/groups/${a.groupid}/members/${member.memberid}`, { body: { x: 1 } }))
          .json,
      ).toEqual({ status: 'ERROR', data: 'body: must be empty' });
      expect(
        (await instance.call('POST', `/groups/${a.groupid}/members/${member.memberid}`, { body: [1] })).json,
      ).toEqual({ status: 'ERROR', data: 'body: must be empty' });
    });

    it('lets one of two concurrent adds of a member to different groups win', async () => {
      const groups = [await create(), await create(), await create()];
      const member = (
        await instance.call('POST', '/members', {
          body: { email: `${unique('c')}@example.test`, firstname: 'C', lastname: 'D' },
        })
      ).json.data;
      const responses = await Promise.all(
        groups.map((g) => instance.call('POST', `/groups/${g.groupid}/members/${member.memberid}`)),
      );
      expect(responses.filter((r) => r.json.status === 'OK')).toHaveLength(1);
    });

    it('lists members by group, in no group, and in any group; membercount counts direct members only', async () => {
      const parent = await create();
      const child = await create({ parentgroup: parent.groupid });
      const make = async () =>
        (
          await instance.call('POST', '/members', {
            body: { email: `${unique('l')}@example.test`, firstname: 'L', lastname: 'M', extra: { k: 'v' } },
          })
        ).json.data;
      const [p1, p2, c1, loose] = [await make(), await make(), await make(), await make()];
      for (const [g, m] of [
        [parent, p1],
        [parent, p2],
        [child, c1],
      ])
        await instance.call('POST', `/groups/${g.groupid}/members/${m.memberid}`);
      const inParent = (await instance.call('GET', `/groups/${parent.groupid}/members`)).json.data;
      expect(inParent.map((m: { memberid: string }) => m.memberid).sort()).toEqual(
        [p1.memberid, p2.memberid].sort(),
      );
      expect(Object.keys(inParent[0]).sort()).toEqual([
        'email',
        'extra',
        'firstname',
        'lastname',
        'level',
        'memberid',
        'middlename',
        'status',
        'testuser',
        'title',
      ]);
      expect(inParent[0].extra).toEqual({ k: 'v' });
      expect((await instance.call('GET', `/groups/${parent.groupid}`)).json.data.membercount).toBe(2);
      const none = (await instance.call('GET', '/groups/nogroup/members')).json.data.map(
        (m: { memberid: string }) => m.memberid,
      );
      expect(none).toContain(loose.memberid);
      expect(none).not.toContain(p1.memberid);
      const grouped = (await instance.call('GET', '/groups/members')).json.data;
      expect(grouped.find((m: { memberid: string }) => m.memberid === c1.memberid)).toMatchObject({
        groupid: child.groupid,
      });
      expect(grouped.map((m: { memberid: string }) => m.memberid)).not.toContain(loose.memberid);
      expect((await instance.call('GET', '/groups/ZZZZZZZZZZ/members')).statusCode).toBe(404);
    });

    it('refuses to delete a group with sub-groups; deleting one leaves its members in no group', async () => {
      const parent = await create();
      const child = await create({ parentgroup: parent.groupid });
      const member = (
        await instance.call('POST', '/members', {
          body: { email: `${unique('d')}@example.test`, firstname: 'D', lastname: 'E' },
        })
      ).json.data;
      await instance.call('POST', `/groups/${child.groupid}/members/${member.memberid}`);
      expect((await instance.call('DELETE', `/groups/${parent.groupid}`)).json).toEqual({
        status: 'ERROR',
        data: 'group: has sub-groups; move or delete them first',
      });
      expect((await instance.call('DELETE', `/groups/${child.groupid}`)).json).toEqual({
        status: 'OK',
        data: '',
      });
      expect((await instance.call('GET', `/members/${member.memberid}`)).json.data.groupid).toBeNull();
      expect((await instance.call('DELETE', `/groups/${parent.groupid}`)).json).toEqual({
        status: 'OK',
        data: '',
      });
      expect((await instance.call('GET', `/groups/${parent.groupid}`)).statusCode).toBe(404);
      expect(
        (await instance.call('POST', '/groups', { body: { name: parent.name, alias: parent.alias } })).json
          .status,
      ).toBe('OK');
    });

    it('dupechecks the alias, not the name; another key is a false negative', async () => {
      const group = await create();
      expect(
        (await instance.call('POST', '/groups/dupecheck', { body: { value: group.alias.toUpperCase() } }))
          .json,
      ).toEqual({ status: 'ERROR', data: '' });
      expect(
        (await instance.call('POST', '/groups/dupecheck', { body: { value: group.name } })).json,
      ).toEqual({ status: 'OK', data: '' });
      expect(
        (await instance.call('POST', '/groups/dupecheck', { body: { alias: group.alias } })).json,
      ).toEqual({ status: 'OK', data: '' });
    });

    it('answers editor for a group another user created', async () => {
      const group = await create();
      const { createUser } = await import('../../src/auth/auth.service.js');
      const other = await createUser(
        instance.db.kysely,
        {
          email: `${unique('u')}@example.test`,
          firstname: 'O',
          lastname: 'U',
        },
        cliActor(),
      );
      await instance.db.kysely
        .updateTable('groups')
        .set({ creator: other.id })
        .where('id', '=', group.groupid)
        .execute();
      expect((await instance.call('GET', `/groups/${group.groupid}`)).json.data).toMatchObject({
        accesstype: 'editor',
        creator: other.id,
      });
    });
  });
}
