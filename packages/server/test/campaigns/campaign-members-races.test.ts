import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  email,
  type Instance,
  type Response,
  whileRivalCommits as rivalCommits,
  startInstance,
} from '../helpers/instance.js';

const PAST = '2026-01-01T09:00:00+00:00';
const ok = (data: unknown) => ({ status: 'OK', data });

// As in groups/races.test.ts: on PostgreSQL a request reads and then writes, and another request
// may commit in between. Another connection holds the rival change uncommitted, the request reads
// past it and blocks on its write (or its lock), and once PostgreSQL shows it waiting on the rival
// (pg_blocking_pids) the rival commits; a request that never waits fails the test. (SQLite writes
// one at a time, so the rival cannot interleave.)
describe.skipIf(!dialects.includes('postgres'))(
  'campaign members: races with a concurrent change (postgres)',
  () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance('postgres');
    });
    afterAll(() => instance.close());

    const campaign = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/campaigns', {
        body: { name: 'Race', variant: 'leadership360', start: PAST, ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.campaignid as string;
    };
    const member = async () =>
      (await instance.call('POST', '/members', { body: { email: email(), firstname: 'R', lastname: 'C' } }))
        .json.data.memberid as string;
    const rows = (campaignId: string) =>
      instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .orderBy('member_id')
        .execute();

    const whileRivalCommits = (rival: string, request: () => Promise<Response>) =>
      rivalCommits(instance, rival, request);

    it('answers 404 to a single add whose member is deleted meanwhile, writing nothing', async () => {
      const [c, m] = [await campaign(), await member()];
      const response = await whileRivalCommits(`delete from members where id = '${m}'`, () =>
        instance.call('POST', `/campaigns/${c}/members/${m}`),
      );
      expect(response.statusCode, response.body).toBe(404);
      expect(await rows(c)).toEqual([]);
    });

    it('skips as unknown a member of a bulk add deleted meanwhile, adding the others', async () => {
      const c = await campaign();
      const [gone, stays] = [await member(), await member()];
      const response = await whileRivalCommits(`delete from members where id = '${gone}'`, () =>
        instance.call('POST', `/campaigns/${c}/members`, { body: { memberids: [gone, stays] } }),
      );
      expect(response.json).toEqual(
        ok({ added: [stays], skipped: [{ memberid: gone, reason: 'unknown member' }] }),
      );
      expect((await rows(c)).map((row) => row.member_id)).toEqual([stays]);
    });

    it('counts a member another request adds meanwhile against maxparticipants', async () => {
      const c = await campaign({ config: { maxparticipants: 1 } });
      const [first, second] = [await member(), await member()];
      const rival = `insert into campaign_members (id, campaign_id, member_id, token, status, firstname, lastname, email, created)
      values ('RACEMEMBR1', '${c}', '${first}', 'race-token-${c}', 'new', 'R', 'C', 'r@example.test', '2026-11-25T10:00:00+00:00')`;
      const response = await whileRivalCommits(rival, () =>
        instance.call('POST', `/campaigns/${c}/members`, { body: { memberids: [second] } }),
      );
      expect(response.json).toEqual(
        ok({ added: [], skipped: [{ memberid: second, reason: 'campaign is full' }] }),
      );
      expect((await rows(c)).map((row) => row.member_id)).toEqual([first]);
    });

    it('honours a maxparticipants lowered meanwhile', async () => {
      const c = await campaign({ config: { maxparticipants: 5 } });
      const [a, b] = [await member(), await member()];
      const response = await whileRivalCommits(
        `update campaigns set maxparticipants = 1 where id = '${c}'`,
        () => instance.call('POST', `/campaigns/${c}/members`, { body: { memberids: [a, b] } }),
      );
      expect(response.json).toEqual(
        ok({ added: [a], skipped: [{ memberid: b, reason: 'campaign is full' }] }),
      );
      expect(await rows(c)).toHaveLength(1);
    });

    it('answers 404 to an add into a campaign deleted meanwhile', async () => {
      const [c, m] = [await campaign(), await member()];
      const response = await whileRivalCommits(`delete from campaigns where id = '${c}'`, () =>
        instance.call('POST', `/campaigns/${c}/members`, { body: { memberids: [m] } }),
      );
      expect(response.statusCode, response.body).toBe(404);
      expect(await rows(c)).toEqual([]);
    });

    it('answers 404 to a patch of a member removed from the campaign meanwhile', async () => {
      const [c, m] = [await campaign(), await member()];
      await instance.call('POST', `/campaigns/${c}/members/${m}`);
      const response = await whileRivalCommits(
        `delete from campaign_members where campaign_id = '${c}' and member_id = '${m}'`,
        () => instance.call('PATCH', `/campaigns/${c}/members/${m}`, { body: { tags: ['x'] } }),
      );
      expect(response.statusCode, response.body).toBe(404);
      expect(await rows(c)).toEqual([]);
    });

    it('resets a member invited meanwhile to invited, not to new', async () => {
      const [c, m] = [await campaign(), await member()];
      await instance.call('POST', `/campaigns/${c}/members/${m}`);
      const [before] = await rows(c);
      const invited = '2026-11-25T10:00:00+00:00';
      const response = await whileRivalCommits(
        `update campaign_members set status = 'invited', dateinvited = '${invited}' where campaign_id = '${c}'`,
        () => instance.call('PATCH', `/campaigns/${c}/members/${m}/reset`),
      );
      expect(response.json).toEqual(ok(''));
      const [after] = await rows(c);
      expect(after).toMatchObject({ status: 'invited', dateinvited: invited, datestarted: null });
      expect(after?.token).not.toBe(before?.token);
    });
  },
);
