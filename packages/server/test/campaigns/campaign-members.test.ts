import { CampaignMember, CampaignMemberListItem, MemberCampaign } from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE, dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { expectShape } from '../helpers/shapes.js';

const SHARED_KEYS = [
  'token',
  'memberid',
  'title',
  'firstname',
  'middlename',
  'lastname',
  'email',
  'status',
  'testuser',
  'memberstatus',
  'created',
  'dateinvited',
  'datestarted',
  'datecompleted',
  'datereminded',
  'countreminded',
  'extra',
  'tags',
  'results',
  'mailconfig',
  'sessionurl',
];
const LIST_KEYS = [...SHARED_KEYS, 'groupalias', 'groupname', 'memberextra'].sort();
const SINGLE_KEYS = [...SHARED_KEYS, 'group'].sort();
const MEMBER_CAMPAIGN_KEYS = [
  'campaignid',
  'alias',
  'name',
  'variant',
  'language',
  'campaignstatus',
  'status',
  'token',
  'dateinvited',
  'datestarted',
  'datecompleted',
  'reportid',
].sort();
/** 32 random bytes in base64url: 43 characters, 256 bits. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const STAGES =
  'one of campaign_invitation, campaign_reminder, confirmation_admin, confirmation_member, closing_notification, campaign_reportdelivery';
const PAST = '2026-01-01T09:00:00+00:00';
const FUTURE = '2099-01-01T09:00:00+00:00';
const NOBODY = 'ZZZZZZZZZZ';
const ok = (data: unknown) => ({ status: 'OK', data });
const error = (data: string) => ({ status: 'ERROR', data });

for (const dialect of dialects) {
  describe(`campaign members (${dialect})`, () => {
    let instance: Instance;

    const campaign = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/campaigns', {
        body: { name: 'Feedback 2026', variant: 'leadership360', start: PAST, ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.campaignid as string;
    };
    const member = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace', ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.memberid as string;
    };
    const members = async (count: number) => {
      const response = await instance.call('POST', '/members/import', {
        body: {
          members: Array.from({ length: count }, (_, i) => ({
            email: email(`p${i}`),
            firstname: `First${i}`,
            lastname: `Last${i}`,
          })),
        },
      });
      expect(response.json.data.created, response.body).toHaveLength(count);
      return response.json.data.created as string[];
    };
    const group = async (parentgroup?: string) => {
      const alias = `g${Math.random().toString(36).slice(2, 10)}`;
      const response = await instance.call('POST', '/groups', {
        body: { name: `Group ${alias}`, alias, ...(parentgroup ? { parentgroup } : {}) },
      });
      expect(response.json.status, response.body).toBe('OK');
      return { groupid: response.json.data.groupid as string, alias, name: `Group ${alias}` };
    };
    const putInGroup = async (groupId: string, memberId: string) => {
      expect((await instance.call('POST', `/groups/${groupId}/members/${memberId}`)).json).toEqual(ok(''));
    };
    const addOne = (campaignId: string, memberId: string) =>
      instance.call('POST', `/campaigns/${campaignId}/members/${memberId}`);
    const addMany = (campaignId: string, body: unknown) =>
      instance.call('POST', `/campaigns/${campaignId}/members`, { body });
    const rows = (campaignId: string) =>
      instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .orderBy('member_id')
        .execute();
    const memberIdsIn = async (campaignId: string) =>
      (await rows(campaignId)).map((row) => row.member_id).sort();
    const list = async (campaignId: string) => {
      const response = await instance.call('GET', `/campaigns/${campaignId}/members`);
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data as Record<string, unknown>[];
    };
    const one = (campaignId: string, memberId: string) =>
      instance.call('GET', `/campaigns/${campaignId}/members/${memberId}`);
    const patch = (campaignId: string, memberId: string, body: unknown) =>
      instance.call('PATCH', `/campaigns/${campaignId}/members/${memberId}`, { body });

    /** The campaign's membercount and memberstatuscount, in the detail and in the list, match its rows. */
    const expectCountsMatchRows = async (campaignId: string) => {
      const expected = { new: 0, invited: 0, started: 0, completed: 0, specialtotal: 0, specialcompleted: 0 };
      const all = await rows(campaignId);
      for (const row of all) {
        expected[row.status] += 1;
        if (row.testuser === 1) {
          expected.specialtotal += 1;
          if (row.status === 'completed') expected.specialcompleted += 1;
        }
      }
      const detail = (await instance.call('GET', `/campaigns/${campaignId}`)).json.data;
      expect(detail.membercount).toBe(all.length);
      expect(detail.memberstatuscount).toEqual(expected);
      const listed = (await instance.call('GET', '/campaigns')).json.data.find(
        (entry: { campaignid: string }) => entry.campaignid === campaignId,
      );
      expect(listed.membercount).toBe(all.length);
      expect(listed.memberstatuscount).toEqual(expected);
      return expected;
    };

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    describe('GET /campaigns/{id}/members', () => {
      it('answers the list shape with the copied, derived and default fields', async () => {
        const g = await group();
        const grouped = await member({
          title: 'Dr',
          middlename: 'van',
          testuser: true,
          extra: { department: 'R&D', floor: 3, remote: true },
        });
        await putInGroup(g.groupid, grouped);
        const loose = await member({ firstname: 'Grace', lastname: 'Hopper', status: 'inactive' });
        const id = await campaign();
        expect((await addOne(id, grouped)).json).toEqual(ok(''));
        expect((await addOne(id, loose)).json).toEqual(ok(''));

        const items = await list(id);
        expect(items).toHaveLength(2);
        for (const item of items) {
          expect(Object.keys(item).sort()).toEqual(LIST_KEYS);
          expectShape(CampaignMemberListItem, item);
        }
        const stored = await rows(id);
        const first = items.find((item) => item.memberid === grouped) as Record<string, unknown>;
        const { email: groupedEmail } = (await instance.call('GET', `/members/${grouped}`)).json.data;
        expect(first).toEqual({
          token: stored.find((row) => row.member_id === grouped)?.token,
          memberid: grouped,
          title: 'Dr',
          firstname: 'Ada',
          middlename: 'van',
          lastname: 'Lovelace',
          email: groupedEmail,
          groupalias: g.alias,
          groupname: g.name,
          status: 'new',
          testuser: '1',
          memberstatus: 'active',
          created: expect.stringMatching(DATE),
          dateinvited: null,
          datestarted: null,
          datecompleted: null,
          datereminded: null,
          countreminded: '0',
          extra: null,
          tags: [],
          results: [],
          mailconfig: null,
          sessionurl: '',
          memberextra: [
            { name: 'department', value: 'R&D' },
            { name: 'floor', value: 3 },
            { name: 'remote', value: true },
          ],
        });
        const second = items.find((item) => item.memberid === loose) as Record<string, unknown>;
        expect(second).toMatchObject({
          title: '',
          middlename: '',
          firstname: 'Grace',
          lastname: 'Hopper',
          groupalias: '',
          groupname: '',
          testuser: '0',
          memberstatus: 'inactive',
          memberextra: [],
        });
        for (const item of items) expect(item.token).toMatch(TOKEN);
        expect(first.token).not.toBe(second.token);
      });

      it('gives every membership its own token, also of one member in two campaigns', async () => {
        const ids = await members(25);
        const a = await campaign();
        const b = await campaign();
        await addMany(a, { memberids: ids });
        await addMany(b, { memberids: ids });
        const tokens = [...(await list(a)), ...(await list(b))].map((item) => item.token as string);
        expect(tokens).toHaveLength(50);
        for (const token of tokens) expect(token).toMatch(TOKEN);
        expect(new Set(tokens).size).toBe(50);
      });

      it('answers [] for a campaign without members, and 404 for an unknown one', async () => {
        const id = await campaign();
        expect((await instance.call('GET', `/campaigns/${id}/members`)).json).toEqual(ok([]));
        const unknown = await instance.call('GET', `/campaigns/${NOBODY}/members`);
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json).toMatchObject({ error: 'not_found' });
        expect((await instance.call('GET', '/campaigns/short/members')).statusCode).toBe(404);
      });

      it('shows the member record as it is now: its group and status, and later changes to them', async () => {
        const g = await group();
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        await putInGroup(g.groupid, m);
        await instance.call('PATCH', `/members/${m}`, {
          body: { status: 'inactive', extra: { shift: 'late' } },
        });
        const [item] = await list(id);
        expect(item).toMatchObject({
          groupalias: g.alias,
          groupname: g.name,
          memberstatus: 'inactive',
          memberextra: [{ name: 'shift', value: 'late' }],
        });
        expect((await one(id, m)).json.data.group).toBe(g.name);
      });
    });

    describe('GET /campaigns/{id}/members/{memberid}', () => {
      it('answers the single shape: group in place of the list-only fields', async () => {
        const g = await group();
        const m = await member({ extra: { department: 'Sales' }, testuser: '1' });
        await putInGroup(g.groupid, m);
        const id = await campaign();
        await addOne(id, m);
        const response = await one(id, m);
        expect(response.json.status).toBe('OK');
        const data = response.json.data;
        expect(Object.keys(data).sort()).toEqual(SINGLE_KEYS);
        expectShape(CampaignMember, data);
        const [item] = await list(id);
        const {
          groupalias: _alias,
          groupname,
          memberextra: _extra,
          ...shared
        } = item as Record<string, unknown>;
        expect(data).toEqual({ ...shared, group: groupname });
        expect(data).toMatchObject({ group: g.name, testuser: '1', extra: null, mailconfig: null });

        const loose = await member();
        await addOne(id, loose);
        expect((await one(id, loose)).json.data.group).toBe('');
      });

      it('is 404 for an unknown campaign, an unknown member, and a member not in the campaign', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        const outsider = await member();
        for (const [campaignId, memberId] of [
          [NOBODY, m],
          [id, NOBODY],
          [id, outsider],
          [id, 'short'],
        ]) {
          const response = await one(campaignId as string, memberId as string);
          expect(response.statusCode, `${campaignId}/${memberId}`).toBe(404);
          expect(response.json).toMatchObject({ error: 'not_found' });
        }
      });
    });

    describe('POST /campaigns/{id}/members/{memberid}', () => {
      it('adds with an empty body, copying the member; again changes nothing', async () => {
        const m = await member({ title: 'Prof', middlename: 'B.', testuser: true });
        const id = await campaign();
        const response = await addOne(id, m);
        expect(response.statusCode).toBe(200);
        expect(response.json).toEqual(ok(''));
        const [row] = await rows(id);
        const record = (await instance.call('GET', `/members/${m}`)).json.data;
        expect(row).toMatchObject({
          member_id: m,
          status: 'new',
          title: 'Prof',
          firstname: 'Ada',
          middlename: 'B.',
          lastname: 'Lovelace',
          email: record.email,
          testuser: 1,
          extra: null,
          mailconfig: null,
          tags: '[]',
          results: '[]',
          sessionurl: '',
          countreminded: 0,
        });
        expect(row?.token).toMatch(TOKEN);

        expect((await addOne(id, m)).json).toEqual(ok(''));
        const after = await rows(id);
        expect(after).toHaveLength(1);
        expect(after[0]?.token).toBe(row?.token);
        // `{}` and a JSON body of nothing count as empty too.
        const other = await member();
        expect((await instance.call('POST', `/campaigns/${id}/members/${other}`, { body: {} })).json).toEqual(
          ok(''),
        );
        const third = await member();
        const blank = await instance.call('POST', `/campaigns/${id}/members/${third}`, {
          headers: { 'content-type': 'application/json' },
        });
        expect(blank.json).toEqual(ok(''));
        expect(await memberIdsIn(id)).toEqual([m, other, third].sort());
        await expectCountsMatchRows(id);
      });

      it('refuses a body that is not empty, writing nothing', async () => {
        const m = await member();
        const id = await campaign();
        for (const body of [{ memberid: m }, [m], 'x', 1]) {
          const response = await instance.call('POST', `/campaigns/${id}/members/${m}`, {
            body: JSON.stringify(body),
          });
          expect(response.json, JSON.stringify(body)).toEqual(error('body: must be empty'));
        }
        expect(await rows(id)).toEqual([]);
      });

      it('is 404 for an unknown member or campaign, writing nothing', async () => {
        const m = await member();
        const id = await campaign();
        const unknownMember = await addOne(id, NOBODY);
        expect(unknownMember.statusCode).toBe(404);
        expect(unknownMember.json).toMatchObject({ error: 'not_found' });
        expect((await addOne(NOBODY, m)).statusCode).toBe(404);
        expect((await addOne(id, 'short')).statusCode).toBe(404);
        expect(await rows(id)).toEqual([]);
        expect((await instance.call('GET', `/members/${m}/campaigns`)).json).toEqual(ok([]));
      });
    });

    describe('POST /campaigns/{id}/members (bulk)', () => {
      it('adds memberids, skipping unknown ones, duplicates once, and those already in', async () => {
        const [a, b, c] = await members(3);
        const id = await campaign();
        const first = await addMany(id, { memberids: [a, NOBODY, b, a, 'short'] });
        expect(first.json).toEqual(
          ok({
            added: [a, b],
            skipped: [
              { memberid: NOBODY, reason: 'unknown member' },
              { memberid: 'short', reason: 'unknown member' },
            ],
          }),
        );
        expect(await memberIdsIn(id)).toEqual([a, b].sort());
        const second = await addMany(id, { memberids: [b, c] });
        expect(second.json).toEqual(
          ok({ added: [c], skipped: [{ memberid: b, reason: 'already in the campaign' }] }),
        );
        expect(await memberIdsIn(id)).toEqual([a, b, c].sort());
        expect((await addMany(id, { memberids: [] })).json).toEqual(ok({ added: [], skipped: [] }));
        await expectCountsMatchRows(id);
      });

      it('adds a group, with or without the members of its sub-groups at every depth', async () => {
        const top = await group();
        const child = await group(top.groupid);
        const grandchild = await group(child.groupid);
        const [t1, t2, c1, g1, outsider] = await members(5);
        await putInGroup(top.groupid, t1 as string);
        await putInGroup(top.groupid, t2 as string);
        await putInGroup(child.groupid, c1 as string);
        await putInGroup(grandchild.groupid, g1 as string);

        const flat = await campaign();
        const direct = await addMany(flat, { groupid: top.groupid, subgroups: false });
        expect(direct.json.status).toBe('OK');
        expect([...direct.json.data.added].sort()).toEqual([t1, t2].sort());
        expect(direct.json.data.skipped).toEqual([]);
        expect(await memberIdsIn(flat)).toEqual([t1, t2].sort());
        // Leaving subgroups out is the same as false.
        const byDefault = await campaign();
        await addMany(byDefault, { groupid: top.groupid });
        expect(await memberIdsIn(byDefault)).toEqual([t1, t2].sort());

        // Now with the sub-groups: those already in are skipped, the deeper ones added.
        const deep = await addMany(flat, { groupid: top.groupid, subgroups: '1' });
        expect([...deep.json.data.added].sort()).toEqual([c1, g1].sort());
        expect(deep.json.data.skipped).toHaveLength(2);
        expect(deep.json.data.skipped).toEqual(
          expect.arrayContaining(
            [t1, t2].map((memberid) => ({ memberid, reason: 'already in the campaign' })),
          ),
        );
        expect(await memberIdsIn(flat)).toEqual([t1, t2, c1, g1].sort());
        expect(await memberIdsIn(flat)).not.toContain(outsider);

        // A sub-group alone takes only what is below it.
        const lower = await campaign();
        await addMany(lower, { groupid: child.groupid, subgroups: true });
        expect(await memberIdsIn(lower)).toEqual([c1, g1].sort());
        await expectCountsMatchRows(flat);
      });

      it('adds memberids and a group together, each member once', async () => {
        const g = await group();
        const [inGroup, alsoListed, listed] = await members(3);
        await putInGroup(g.groupid, inGroup as string);
        await putInGroup(g.groupid, alsoListed as string);
        const id = await campaign();
        const response = await addMany(id, { memberids: [listed, alsoListed, NOBODY], groupid: g.groupid });
        expect(response.json.status).toBe('OK');
        expect([...response.json.data.added].sort()).toEqual([inGroup, alsoListed, listed].sort());
        expect(response.json.data.skipped).toEqual([{ memberid: NOBODY, reason: 'unknown member' }]);
        expect(await rows(id)).toHaveLength(3);
      });

      it('adds nobody from an empty group', async () => {
        const g = await group();
        const id = await campaign();
        expect((await addMany(id, { groupid: g.groupid, subgroups: true })).json).toEqual(
          ok({ added: [], skipped: [] }),
        );
      });

      it('refuses a request without memberids or groupid, an unknown group, and malformed fields, writing nothing', async () => {
        const [m] = await members(1);
        const id = await campaign();
        const cases: [unknown, string][] = [
          [{}, 'memberids: give memberids, a groupid, or both'],
          [{ subgroups: true }, 'memberids: give memberids, a groupid, or both'],
          [{ memberids: m }, 'memberids: must be an array'],
          [{ memberids: { 0: m } }, 'memberids: must be an array'],
          [{ memberids: [m, 7] }, 'memberids[1]: must be a string'],
          [{ memberids: [null] }, 'memberids[0]: must be a string'],
          [{ memberids: [m], groupid: 'bad' }, 'groupid: must be a groupid'],
          [{ memberids: [m], groupid: 12 }, 'groupid: must be a string'],
          [{ memberids: [m], groupid: NOBODY }, 'groupid: no such group'],
          [{ groupid: NOBODY, subgroups: true }, 'groupid: no such group'],
          [{ memberids: [m], subgroups: 'maybe' }, 'subgroups: must be a boolean'],
        ];
        for (const [body, message] of cases) {
          const response = await addMany(id, body);
          expect(response.statusCode).toBe(200);
          expect(response.json, JSON.stringify(body)).toEqual(error(message));
        }
        expect((await addMany(id, '{"memberids":')).json).toEqual(error('body: not valid JSON'));
        expect((await instance.call('POST', `/campaigns/${id}/members`)).json).toEqual(
          error('body: must be an object'),
        );
        expect((await addMany(id, '[]')).json.status).toBe('ERROR');
        expect(await rows(id)).toEqual([]);
        expect((await instance.call('GET', `/campaigns/${id}`)).json.data.membercount).toBe(0);
      });

      it('is 404 for an unknown campaign', async () => {
        const [m] = await members(1);
        const response = await addMany(NOBODY, { memberids: [m] });
        expect(response.statusCode).toBe(404);
        expect(response.json).toMatchObject({ error: 'not_found' });
      });
    });

    describe('maxparticipants', () => {
      it('refuses a single add past the limit; the members there may be added again', async () => {
        const id = await campaign({ config: { maxparticipants: 2 } });
        const [a, b, c] = await members(3);
        expect((await addOne(id, a as string)).json).toEqual(ok(''));
        expect((await addOne(id, b as string)).json).toEqual(ok(''));
        expect((await addOne(id, c as string)).json).toEqual(error('maxparticipants: the campaign is full'));
        expect((await addOne(id, a as string)).json).toEqual(ok(''));
        expect(await memberIdsIn(id)).toEqual([a, b].sort());
        // Room again once someone leaves.
        await instance.call('DELETE', `/campaigns/${id}/members/${a}`);
        expect((await addOne(id, c as string)).json).toEqual(ok(''));
        expect(await memberIdsIn(id)).toEqual([b, c].sort());
        await expectCountsMatchRows(id);
      });

      it('adds in bulk up to the limit and skips the rest as full', async () => {
        const id = await campaign({ config: { maxparticipants: 3 } });
        const [a, b, c, d, e] = await members(5);
        await addOne(id, a as string);
        const response = await addMany(id, { memberids: [NOBODY, a, b, c, d, e] });
        expect(response.json).toEqual(
          ok({
            added: [b, c],
            skipped: [
              { memberid: NOBODY, reason: 'unknown member' },
              { memberid: a, reason: 'already in the campaign' },
              { memberid: d, reason: 'campaign is full' },
              { memberid: e, reason: 'campaign is full' },
            ],
          }),
        );
        expect(await rows(id)).toHaveLength(3);
        // A limit of 0 takes nobody; -1 takes everyone.
        const closed = await campaign({ config: { maxparticipants: 0 } });
        expect((await addMany(closed, { memberids: [a] })).json.data).toEqual({
          added: [],
          skipped: [{ memberid: a, reason: 'campaign is full' }],
        });
        const many = await members(40);
        const open = await campaign();
        expect((await addMany(open, { memberids: many })).json.data.added).toHaveLength(40);
      });

      it('never overfills under concurrent bulk adds', async () => {
        const id = await campaign({ config: { maxparticipants: 30 } });
        const batches = await Promise.all(Array.from({ length: 5 }, () => members(20)));
        const answers = await Promise.all(batches.map((memberids) => addMany(id, { memberids })));
        const added = answers.flatMap((answer) => {
          expect(answer.json.status, answer.body).toBe('OK');
          return answer.json.data.added as string[];
        });
        const full = answers.flatMap((answer) =>
          (answer.json.data.skipped as { reason: string }[]).filter(
            (skip) => skip.reason === 'campaign is full',
          ),
        );
        expect(added).toHaveLength(30);
        expect(full).toHaveLength(70);
        expect(await memberIdsIn(id)).toEqual([...added].sort());
        await expectCountsMatchRows(id);
      });

      it('adds a member once when concurrent requests add it together', async () => {
        const id = await campaign();
        const shared = await members(10);
        const answers = await Promise.all([
          addMany(id, { memberids: shared }),
          addMany(id, { memberids: [...shared].reverse() }),
          ...shared.map((memberId) => addOne(id, memberId)),
        ]);
        for (const answer of answers) expect(answer.json.status, answer.body).toBe('OK');
        const added = answers.slice(0, 2).flatMap((answer) => answer.json.data.added as string[]);
        expect(await memberIdsIn(id)).toEqual([...shared].sort());
        expect(new Set(added).size).toBe(added.length);
        await expectCountsMatchRows(id);
      });
    });

    describe('PATCH /campaigns/{id}/members/{memberid}', () => {
      it('sets extra with a role, tags, mailconfig and testuser, answering the single shape', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        const response = await patch(id, m, {
          extra: { role: 'manager', note: 'second round', weight: 2 },
          tags: ['north', 'pilot', 'north'],
          mailconfig: { campaign_reminder: 'gentle' },
          testuser: true,
          status: 'completed',
          token: 'mine',
        });
        expect(response.json.status, response.body).toBe('OK');
        const data = response.json.data;
        expect(Object.keys(data).sort()).toEqual(SINGLE_KEYS);
        expectShape(CampaignMember, data);
        expect(data).toMatchObject({
          memberid: m,
          extra: { role: 'manager', note: 'second round', weight: 2 },
          tags: ['north', 'pilot'],
          mailconfig: { campaign_reminder: 'gentle' },
          testuser: '1',
          // Read-only fields in the body are ignored.
          status: 'new',
        });
        expect(data.token).toMatch(TOKEN);
        expect((await one(id, m)).json.data).toEqual(data);
        const [row] = await rows(id);
        expect(row).toMatchObject({ testuser: 1, status: 'new', token: data.token });
        expect(JSON.parse(row?.extra ?? 'null')).toEqual({
          role: 'manager',
          note: 'second round',
          weight: 2,
        });
        expect((await expectCountsMatchRows(id)).specialtotal).toBe(1);

        // Each role of the variant is taken; a patch of one field leaves the others.
        for (const role of ['self', 'peer', 'directreport'])
          expect((await patch(id, m, { extra: { role } })).json.data.extra).toEqual({ role });
        const partial = (await patch(id, m, { testuser: '0' })).json.data;
        expect(partial).toMatchObject({
          testuser: '0',
          extra: { role: 'directreport' },
          tags: ['north', 'pilot'],
          mailconfig: { campaign_reminder: 'gentle' },
        });
        expect((await expectCountsMatchRows(id)).specialtotal).toBe(0);

        // Cleared: null for extra and mailconfig, [] for tags. An empty extra is no extra (null, as
        // the schema has it); an empty mailconfig is [] on the wire, as the spec serialises it.
        const cleared = (await patch(id, m, { extra: null, tags: [], mailconfig: null })).json.data;
        expect(cleared).toMatchObject({ extra: null, tags: [], mailconfig: null });
        const empty = (await patch(id, m, { extra: {}, mailconfig: {}, tags: null })).json.data;
        expect(empty).toMatchObject({ extra: null, mailconfig: [], tags: [] });
        expectShape(CampaignMember, empty);
        expect((await patch(id, m, { extra: [] })).json.data.extra).toBeNull();
        const listed = (await list(id))[0];
        expect(listed).toMatchObject({ extra: null, mailconfig: [], tags: [] });
        expectShape(CampaignMemberListItem, listed);
        // An empty object stored by any other path reads as null too.
        await instance.db.kysely
          .updateTable('campaign_members')
          .set({ extra: '{}' })
          .where('campaign_id', '=', id)
          .execute();
        expect((await one(id, m)).json.data.extra).toBeNull();
        expect((await list(id))[0]?.extra).toBeNull();
        // An empty body changes nothing and answers the member.
        expect((await patch(id, m, {})).json).toEqual(ok(empty));
      });

      it('refuses a role the variant does not have, a wrong mail stage and bad types, changing nothing', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        await patch(id, m, {
          extra: { role: 'peer' },
          tags: ['keep'],
          mailconfig: { campaign_invitation: 'x' },
        });
        const before = await rows(id);
        const cases: [unknown, string][] = [
          [{ extra: { role: 'boss' } }, 'extra.role: must be one of self, manager, peer, directreport'],
          [{ extra: { role: 3 } }, 'extra.role: must be one of self, manager, peer, directreport'],
          [
            { extra: { role: 'Self' }, tags: ['x'] },
            'extra.role: must be one of self, manager, peer, directreport',
          ],
          [{ extra: 'manager' }, 'extra: must be an object'],
          [{ extra: { nested: { a: 1 } } }, 'extra.nested: must be a string, a number or a boolean'],
          [{ tags: 'north' }, 'tags: must be an array'],
          [{ tags: ['ok', 5] }, 'tags[1]: must be a string'],
          [
            { mailconfig: { campaign_invite: 'x' } },
            `mailconfig.campaign_invite: not a mail stage (${STAGES})`,
          ],
          [{ mailconfig: 'standard' }, 'mailconfig: must be an object'],
          [{ mailconfig: { campaign_reminder: 5 } }, 'mailconfig.campaign_reminder: must be a string'],
          [{ testuser: 'maybe' }, 'testuser: must be a boolean'],
          [{ testuser: 2 }, 'testuser: must be a boolean'],
        ];
        for (const [body, message] of cases) {
          const response = await patch(id, m, body);
          expect(response.statusCode).toBe(200);
          expect(response.json, JSON.stringify(body)).toEqual(error(message));
        }
        expect((await patch(id, m, '{"tags":')).json).toEqual(error('body: not valid JSON'));
        expect(await rows(id)).toEqual(before);
      });

      it('checks roles against the variant of the campaign', async () => {
        const id = await campaign({ variant: 'bigfive' });
        const m = await member();
        await addOne(id, m);
        const roles = (await instance.call('GET', `/campaigns/${id}`)).json.data.extraParams.map(
          (param: { value: string }) => param.value.replace('role=', ''),
        );
        expect((await patch(id, m, { extra: { role: 'nosuch' } })).json).toEqual(
          error(`extra.role: must be one of ${roles.join(', ')}`),
        );
        expect((await patch(id, m, { extra: { role: roles[0] } })).json.data.extra).toEqual({
          role: roles[0],
        });
      });

      it('is 404 for an unknown campaign, an unknown member, and a member not in the campaign', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        const outsider = await member();
        for (const [campaignId, memberId] of [
          [NOBODY, m],
          [id, NOBODY],
          [id, outsider],
        ]) {
          expect((await patch(campaignId as string, memberId as string, { tags: ['x'] })).statusCode).toBe(
            404,
          );
          expect((await patch(campaignId as string, memberId as string, {})).statusCode).toBe(404);
        }
        expect(await rows(id)).toHaveLength(1);
      });
    });

    describe('DELETE', () => {
      it('removes one member from the campaign; 404 when it is not there', async () => {
        const id = await campaign();
        const [a, b] = await members(2);
        await addMany(id, { memberids: [a, b] });
        expect((await instance.call('DELETE', `/campaigns/${id}/members/${a}`)).json).toEqual(ok(''));
        expect(await memberIdsIn(id)).toEqual([b]);
        expect((await instance.call('GET', `/members/${a}`)).statusCode).toBe(200);
        await expectCountsMatchRows(id);
        for (const [campaignId, memberId] of [
          [id, a],
          [id, NOBODY],
          [NOBODY, b],
        ]) {
          const response = await instance.call('DELETE', `/campaigns/${campaignId}/members/${memberId}`);
          expect(response.statusCode).toBe(404);
          expect(response.json).toMatchObject({ error: 'not_found' });
        }
        expect(await memberIdsIn(id)).toEqual([b]);
      });

      it('removes every member with /members/all; the campaign and the other campaigns stay', async () => {
        const id = await campaign();
        const other = await campaign();
        const ids = await members(4);
        await addMany(id, { memberids: ids });
        await addMany(other, { memberids: ids });
        expect((await instance.call('DELETE', `/campaigns/${id}/members/all`)).json).toEqual(ok(''));
        expect(await rows(id)).toEqual([]);
        expect(await list(id)).toEqual([]);
        const detail = await instance.call('GET', `/campaigns/${id}`);
        expect(detail.statusCode).toBe(200);
        expect(detail.json.data.membercount).toBe(0);
        await expectCountsMatchRows(id);
        expect(await rows(other)).toHaveLength(4);
        // Again on an empty campaign: OK.
        expect((await instance.call('DELETE', `/campaigns/${id}/members/all`)).json).toEqual(ok(''));
        expect((await instance.call('DELETE', `/campaigns/${NOBODY}/members/all`)).statusCode).toBe(404);
      });

      it('deleting a member record removes its campaign memberships', async () => {
        const a = await campaign();
        const b = await campaign();
        const [gone, stays] = await members(2);
        await addMany(a, { memberids: [gone, stays] });
        await addMany(b, { memberids: [gone] });
        await patch(a, gone as string, { testuser: true });
        expect((await expectCountsMatchRows(a)).specialtotal).toBe(1);
        expect((await instance.call('DELETE', `/members/${gone}`)).json).toEqual(ok(''));
        expect(await memberIdsIn(a)).toEqual([stays]);
        expect(await rows(b)).toEqual([]);
        expect((await one(a, gone as string)).statusCode).toBe(404);
        expect((await list(a)).map((item) => item.memberid)).toEqual([stays]);
        expect((await expectCountsMatchRows(a)).specialtotal).toBe(0);
        await expectCountsMatchRows(b);
      });
    });

    describe('PATCH /campaigns/{id}/members/{memberid}/reset', () => {
      it('puts a member never invited back to new, with a new token and no dates', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        const [before] = await rows(id);
        await instance.db.kysely
          .updateTable('campaign_members')
          .set({ status: 'started', datestarted: '2026-02-01T10:00:00+00:00', sessionurl: 'http://q/q/abc' })
          .where('campaign_id', '=', id)
          .execute();
        const response = await instance.call('PATCH', `/campaigns/${id}/members/${m}/reset`);
        expect(response.json).toEqual(ok(''));
        const [after] = await rows(id);
        expect(after).toMatchObject({
          status: 'new',
          dateinvited: null,
          datestarted: null,
          datecompleted: null,
          sessionurl: '',
          results: '[]',
        });
        expect(after?.token).toMatch(TOKEN);
        expect(after?.token).not.toBe(before?.token);
        await expectCountsMatchRows(id);
      });

      it('puts an invited member that completed back to invited, keeping the invitation date', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        const [before] = await rows(id);
        await instance.db.kysely
          .updateTable('campaign_members')
          .set({
            status: 'completed',
            dateinvited: '2026-02-01T09:00:00+00:00',
            datestarted: '2026-02-02T09:00:00+00:00',
            datecompleted: '2026-02-03T09:00:00+00:00',
            results: JSON.stringify({ status: 'completed', reportid: 'REPORT0001' }),
            sessionurl: 'http://q/q/abc',
          })
          .where('campaign_id', '=', id)
          .execute();
        expect((await instance.call('GET', `/members/${m}/campaigns`)).json.data[0].reportid).toBe(
          'REPORT0001',
        );
        // A body is not needed, and one given is ignored.
        const response = await instance.call('PATCH', `/campaigns/${id}/members/${m}/reset`, { body: {} });
        expect(response.json).toEqual(ok(''));
        const data = (await one(id, m)).json.data;
        expect(data).toMatchObject({
          status: 'invited',
          dateinvited: '2026-02-01T09:00:00+00:00',
          datestarted: null,
          datecompleted: null,
          results: [],
          sessionurl: '',
        });
        expect(data.token).toMatch(TOKEN);
        expect(data.token).not.toBe(before?.token);
        await expectCountsMatchRows(id);
      });

      it('is 404 for an unknown campaign, an unknown member, and a member not in the campaign', async () => {
        const id = await campaign();
        const m = await member();
        await addOne(id, m);
        const [before] = await rows(id);
        const outsider = await member();
        for (const [campaignId, memberId] of [
          [NOBODY, m],
          [id, NOBODY],
          [id, outsider],
        ]) {
          const response = await instance.call('PATCH', `/campaigns/${campaignId}/members/${memberId}/reset`);
          expect(response.statusCode).toBe(404);
        }
        expect((await rows(id))[0]?.token).toBe(before?.token);
      });
    });

    describe('GET /members/{memberid}/campaigns', () => {
      it("answers the member's memberships in DESIGN's shape", async () => {
        const m = await member();
        const now = await campaign({ name: 'Now', alias: `now_${Math.random().toString(36).slice(2, 10)}` });
        const later = await campaign({ name: 'Later', variant: 'bigfive', language: 'nlNL', start: FUTURE });
        await addOne(now, m);
        await addOne(later, m);
        await instance.db.kysely
          .updateTable('campaign_members')
          .set({
            status: 'completed',
            dateinvited: '2026-02-01T09:00:00+00:00',
            datestarted: '2026-02-02T09:00:00+00:00',
            datecompleted: '2026-02-03T09:00:00+00:00',
            results: JSON.stringify({ status: 'completed', reportid: 'REPORT0002' }),
          })
          .where('campaign_id', '=', now)
          .execute();
        const response = await instance.call('GET', `/members/${m}/campaigns`);
        expect(response.json.status).toBe('OK');
        const data = response.json.data as Record<string, unknown>[];
        expect(data).toHaveLength(2);
        for (const entry of data) {
          expect(Object.keys(entry).sort()).toEqual(MEMBER_CAMPAIGN_KEYS);
          expectShape(MemberCampaign, entry);
        }
        const [nowRow] = await rows(now);
        const [laterRow] = await rows(later);
        const nowDetail = (await instance.call('GET', `/campaigns/${now}`)).json.data;
        const laterDetail = (await instance.call('GET', `/campaigns/${later}`)).json.data;
        const byId = (campaignId: string) => data.find((entry) => entry.campaignid === campaignId);
        expect(byId(now)).toEqual({
          campaignid: now,
          alias: nowDetail.alias,
          name: 'Now',
          variant: 'leadership360',
          language: 'enUS',
          // closingtype open: a campaign whose every member completed stays active.
          campaignstatus: 'active',
          status: 'completed',
          token: nowRow?.token,
          dateinvited: '2026-02-01T09:00:00+00:00',
          datestarted: '2026-02-02T09:00:00+00:00',
          datecompleted: '2026-02-03T09:00:00+00:00',
          reportid: 'REPORT0002',
        });
        expect(byId(later)).toEqual({
          campaignid: later,
          alias: laterDetail.alias,
          name: 'Later',
          variant: 'bigfive',
          language: 'nlNL',
          campaignstatus: 'inactive',
          status: 'new',
          token: laterRow?.token,
          dateinvited: null,
          datestarted: null,
          datecompleted: null,
          reportid: null,
        });
      });

      it('derives campaignstatus as the campaign does, ended included', async () => {
        const m = await member();
        const auto = await campaign({ closingtype: 'auto' });
        const dated = await campaign({ closingtype: 'date', end: '2026-01-02T09:00:00+00:00' });
        await addOne(auto, m);
        await addOne(dated, m);
        await instance.db.kysely
          .updateTable('campaign_members')
          .set({ status: 'completed' })
          .where('campaign_id', '=', auto)
          .execute();
        const data = (await instance.call('GET', `/members/${m}/campaigns`)).json.data as Record<
          string,
          unknown
        >[];
        for (const entry of data) {
          const detail = (await instance.call('GET', `/campaigns/${entry.campaignid}`)).json.data;
          expect(entry.campaignstatus).toBe(detail.status);
          expect(entry.campaignstatus).toBe('ended');
        }
        expect(data).toHaveLength(2);
      });

      it('answers [] for a member in no campaign, and 404 for an unknown member', async () => {
        const m = await member();
        expect((await instance.call('GET', `/members/${m}/campaigns`)).json).toEqual(ok([]));
        const id = await campaign();
        await addOne(id, m);
        await instance.call('DELETE', `/campaigns/${id}/members/${m}`);
        expect((await instance.call('GET', `/members/${m}/campaigns`)).json).toEqual(ok([]));
        const unknown = await instance.call('GET', `/members/${NOBODY}/campaigns`);
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json).toMatchObject({ error: 'not_found' });
        expect((await instance.call('GET', '/members/short/campaigns')).statusCode).toBe(404);
      });
    });
  });
}
