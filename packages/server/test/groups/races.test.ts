import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  email,
  type Instance,
  type Response,
  whileRivalCommits as rivalCommits,
  startInstance,
} from '../helpers/instance.js';

// On PostgreSQL a request checks what it reads (the group exists, the member is in no group) and
// then writes, and another request may commit in between. Each test makes that happen for certain:
// another connection holds the rival change uncommitted, the request reads past it and blocks on
// its write, and only once PostgreSQL shows the request waiting on the rival's lock does the rival
// commit (whileRivalCommits fails the test if the request never waits). So a 404 here is the answer
// to the race, not to a group already gone when the request began. (SQLite writes one at a time, so
// the rival cannot interleave.)
describe.skipIf(!dialects.includes('postgres'))('races with a concurrent change (postgres)', () => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance('postgres');
  });
  afterAll(() => instance.close());

  const group = async () =>
    (
      await instance.call('POST', '/groups', {
        body: { name: `Race ${email()}`, alias: `race${Math.random().toString(36).slice(2, 10)}` },
      })
    ).json.data.groupid as string;
  const member = async () =>
    (await instance.call('POST', '/members', { body: { email: email(), firstname: 'R', lastname: 'C' } }))
      .json.data as { memberid: string; email: string };

  const whileRivalCommits = (rival: string, request: () => Promise<Response>) =>
    rivalCommits(instance, rival, request);

  it('answers 404 to an add whose group is deleted meanwhile', async () => {
    const [g, m] = [await group(), await member()];
    const response = await whileRivalCommits(`delete from groups where id = '${g}'`, () =>
      instance.call('POST', `/groups/${g}/members/${m.memberid}`),
    );
    expect(response.statusCode).toBe(404);
    expect((await instance.call('GET', `/members/${m.memberid}`)).json.data.groupid).toBeNull();
  });

  it('refuses a sub-group whose parent is deleted meanwhile, and a delete under a new sub-group', async () => {
    const parent = await group();
    const child = await whileRivalCommits(`delete from groups where id = '${parent}'`, () =>
      instance.call('POST', '/groups', {
        body: { name: `Child ${email()}`, alias: 'child1', parentgroup: parent },
      }),
    );
    expect(child.json).toEqual({ status: 'ERROR', data: 'parentgroup: no such group' });

    const other = await group();
    const insertChild = `insert into groups (id, alias, name, name_key, parent_id, status, config, extra, created)
      values ('RACECHILD1', 'racechild', 'Race child', 'race child', '${other}', 'active', '{}', '{}', '2026-11-24T10:00:00+00:00')`;
    const deleted = await whileRivalCommits(insertChild, () => instance.call('DELETE', `/groups/${other}`));
    expect(deleted.json).toEqual({
      status: 'ERROR',
      data: 'group: has sub-groups; move or delete them first',
    });
    expect((await instance.call('GET', `/groups/${other}`)).statusCode).toBe(200);
  });

  it('refuses an import into a group deleted meanwhile as a whole, writing nothing', async () => {
    const g = await group();
    const address = email();
    const response = await whileRivalCommits(`delete from groups where id = '${g}'`, () =>
      instance.call('POST', '/members/import', {
        body: { groupid: g, members: [{ email: address, firstname: 'I', lastname: 'G' }] },
      }),
    );
    expect(response.json).toEqual({ status: 'ERROR', data: 'groupid: no such group' });
    const check = await instance.call('POST', '/members/dupecheck', { body: { value: address } });
    expect(check.json.status).toBe('OK');
  });

  it('does not move a member an import finds in no group after another request put it in one', async () => {
    const [a, b, m] = [await group(), await group(), await member()];
    const response = await whileRivalCommits(
      `update members set group_id = '${b}' where id = '${m.memberid}'`,
      () =>
        instance.call('POST', '/members/import', {
          body: { update: true, groupid: a, members: [{ email: m.email, lastname: 'Moved?' }] },
        }),
    );
    expect(response.json.data).toEqual({
      created: [],
      updated: [],
      errors: [
        { row: 1, message: 'groupid: the member is in another group; remove it from that group first' },
      ],
    });
    expect((await instance.call('GET', `/members/${m.memberid}`)).json.data).toMatchObject({
      groupid: b,
      lastname: 'C',
    });
  });
});
