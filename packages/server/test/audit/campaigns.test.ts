import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogTable } from '../../src/audit/audit.table.js';
import { tick } from '../../src/jobs/scheduler.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const PAST = '2026-01-01T09:00:00+00:00';
const variants = loadVariants([builtinVariantsDir()]);

/** leadership360's pages: 8, 8 and 8 scale questions, then two optional remarks. */
const PAGES = [
  Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
  ['Remarks1', 'Remarks2'],
];

type Entry = Omit<AuditLogTable, 'seq'> & { seq: number | string };

// The changes of the campaigns family, the participant pages, sign-up and the scheduler, each
// through its door, read back from audit_log: who, from where, what, and never a value.
for (const dialect of dialects) {
  describe(`audit: campaigns, participants, sign-up and the scheduler (${dialect})`, () => {
    let instance: Instance;
    let clientId: string;
    beforeAll(async () => {
      instance = await startInstance(dialect);
      clientId = instance.client.client_id;
    });
    afterAll(async () => {
      await instance?.close();
    });

    /** The entries written since `after` (a sequence), oldest first. */
    // The changes made; refused API writes are logged as `failed` or `denied` by the refusal log
    // (audit/refusals.test.ts), never as a change.
    const entriesAfter = async (after: number): Promise<Entry[]> =>
      (await instance.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('seq', '>', after)
        .where('outcome', '=', 'succeeded')
        .orderBy('seq', 'asc')
        .execute()) as Entry[];
    const lastSeq = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('audit_log')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .executeTakeFirst()
        )?.seq ?? 0,
      );
    const what = (rows: Entry[]) => rows.map((row) => [row.resource_type, row.resource_id, row.action]);
    const unordered = (list: unknown[][]) => list.map((item) => item.join('/')).sort();
    /** No entry holds a value: none of `values` appears in any column of any entry. */
    const holdsNone = (rows: Entry[], values: string[]) => {
      const text = JSON.stringify(rows).toLowerCase();
      for (const value of values) expect(text).not.toContain(value.toLowerCase());
    };
    const campaign = async (fields: Record<string, unknown> = {}) => {
      const made = await instance.call('POST', '/campaigns', {
        body: { name: 'Audit scan', variant: 'leadership360', start: PAST, ...fields },
      });
      expect(made.json.status, made.body).toBe('OK');
      return made.json.data as { campaignid: string; alias: string };
    };
    const members = async (count: number, prefix: string) => {
      const made = await instance.call('POST', '/members/import', {
        body: {
          members: Array.from({ length: count }, (_, i) => ({
            email: email(`${prefix}${i}`),
            firstname: `Firstname${prefix}${i}`,
            lastname: `Lastname${prefix}${i}`,
          })),
        },
      });
      expect(made.json.status, made.body).toBe('OK');
      return made.json.data.created as string[];
    };

    it('records every API change of a campaign and its members, by the client, from its address', async () => {
      const start = await lastSeq();
      const { campaignid } = await campaign({ reminderrepeat: 2 });
      const ids = await members(3, 'api');
      const mark = await lastSeq();
      await instance.call('PATCH', `/campaigns/${campaignid}`, {
        body: { name: 'Secret project name', description: 'Quarterly' },
      });
      await instance.call('POST', `/campaigns/${campaignid}/members`, { body: { memberids: ids } });
      await instance.call('POST', `/campaigns/${campaignid}/members/invite`, { body: {} });
      await instance.call('POST', `/campaigns/${campaignid}/members/remind`, { body: {} });
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${ids[0]}`, {
        body: { tags: ['vip'] },
      });
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${ids[1]}/reset`);
      await instance.call('DELETE', `/campaigns/${campaignid}/members/${ids[2]}`);

      const created = (await entriesAfter(start)).filter((row) => row.resource_type === 'campaign');
      expect(what(created.slice(0, 1))).toEqual([['campaign', campaignid, 'create']]);
      const rows = await entriesAfter(mark);
      // The members of one change come in no particular order.
      expect(unordered(what(rows))).toEqual(
        unordered([
          ['campaign', campaignid, 'update'],
          ['campaign', campaignid, 'add'],
          ...ids.map((id) => ['campaign_member', id, 'add']),
          ['campaign', campaignid, 'invite'],
          ...ids.map((id) => ['campaign_member', id, 'invite']),
          ['campaign', campaignid, 'remind'],
          ...ids.map((id) => ['campaign_member', id, 'remind']),
          ['campaign', campaignid, 'update'],
          ['campaign_member', ids[0], 'update'],
          ['campaign', campaignid, 'reset'],
          ['campaign_member', ids[1], 'reset'],
          ['campaign', campaignid, 'remove'],
          ['campaign_member', ids[2], 'remove'],
        ]),
      );
      expect(rows[0]?.fields?.split(' ').sort()).toEqual(['description', 'name']);
      expect(rows.find((row) => row.resource_id === ids[0] && row.action === 'update')?.fields).toBe('tags');
      for (const row of rows) {
        expect(row).toMatchObject({
          actor_type: 'client',
          actor_id: clientId,
          channel: 'api',
          address: '127.0.0.1',
          outcome: 'succeeded',
        });
        expect(row.user_id).toEqual(expect.any(String));
      }
      holdsNone(rows, ['Secret project name', 'Quarterly', '"vip"', email('api0').split('@')[1] as string]);

      // The campaign deleted: its entry, and one per member it still held.
      const before = await lastSeq();
      await instance.call('DELETE', `/campaigns/${campaignid}`);
      expect(unordered(what(await entriesAfter(before)))).toEqual(
        unordered([
          ['campaign', campaignid, 'remove'],
          ['campaign_member', ids[0], 'remove'],
          ['campaign_member', ids[1], 'remove'],
          ['campaign', campaignid, 'delete'],
        ]),
      );
    });

    it('records nothing for a refused or empty change', async () => {
      const { campaignid } = await campaign({ config: { maxparticipants: 1 } });
      const [one, two] = await members(2, 'refused');
      const mark = await lastSeq();
      const refused = await instance.call('PATCH', `/campaigns/${campaignid}`, {
        body: { closingtype: 'date', end: '2020-01-01T00:00:00+00:00' },
      });
      expect(refused.json.status).toBe('ERROR');
      expect(
        (await instance.call('POST', `/campaigns/${campaignid}/members/${'x'.repeat(10)}`)).statusCode,
      ).toBe(404);
      expect((await instance.call('DELETE', `/campaigns/${campaignid}/members/${one}`)).statusCode).toBe(404);
      expect((await instance.call('DELETE', `/campaigns/${'y'.repeat(10)}`)).statusCode).toBe(404);
      // Invitations of a campaign with nobody to invite record nothing either.
      await instance.call('POST', `/campaigns/${campaignid}/members/invite`, { body: {} });
      expect(await entriesAfter(mark)).toEqual([]);

      // The full campaign: the first added, the second skipped and not recorded.
      await instance.call('POST', `/campaigns/${campaignid}/members`, { body: { memberids: [one, two] } });
      expect(what(await entriesAfter(mark))).toEqual([
        ['campaign', campaignid, 'add'],
        ['campaign_member', one, 'add'],
      ]);
    });

    it('records console changes as the signed-in user, with their address', async () => {
      const browser = await new ConsoleBrowser(instance).signIn();
      const { campaignid } = await campaign();
      const ids = await members(2, 'console');
      const mark = await lastSeq();
      await browser.get(`/console/campaigns/${campaignid}`);
      await browser.post(`/console/campaigns/${campaignid}/settings/name`, { value: 'Renamed in console' });
      await browser.get(`/console/campaigns/${campaignid}/members/add`);
      await browser.post(`/console/campaigns/${campaignid}/members/add`, { memberid: ids });
      const rows = await entriesAfter(mark);
      const user = await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.test')
        .executeTakeFirstOrThrow();
      expect(rows[0]).toMatchObject({
        resource_type: 'campaign',
        resource_id: campaignid,
        action: 'update',
        fields: 'name',
        actor_type: 'user',
        actor_id: user.id,
        channel: 'console',
      });
      expect(rows[0]?.address).toEqual(expect.any(String));
      expect(unordered(what(rows.slice(1)))).toEqual(
        unordered([['campaign', campaignid, 'add'], ...ids.map((id) => ['campaign_member', id, 'add'])]),
      );
      for (const row of rows) expect(row).toMatchObject({ actor_type: 'user', actor_id: user.id });
      holdsNone(rows, ['Renamed in console']);

      const invited = await lastSeq();
      await browser.get(`/console/campaigns/${campaignid}/invite`);
      await browser.post(`/console/campaigns/${campaignid}/invite`, {});
      const invites = await entriesAfter(invited);
      expect(unordered(what(invites))).toEqual(
        unordered([
          ['campaign', campaignid, 'invite'],
          ...ids.map((id) => ['campaign_member', id, 'invite']),
        ]),
      );
      for (const row of invites) expect(row).toMatchObject({ actor_type: 'user', channel: 'console' });
    });

    it('records a share and an unshare from the command line as its operating-system user', async () => {
      const { campaignid } = await campaign();
      const editor = email('editor');
      const where = [
        '--data',
        instance.config.dataDir,
        ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
      ];
      const made = await runAssay([
        'users',
        'create',
        '--email',
        editor,
        '--firstname',
        'Ed',
        '--lastname',
        'Itor',
        ...where,
      ]);
      expect(made.code, made.stderr).toBe(0);
      const mark = await lastSeq();
      expect((await runAssay(['campaigns', 'share', campaignid, '--user', editor, ...where])).code).toBe(0);
      // Sharing again changes nothing and records nothing.
      expect((await runAssay(['campaigns', 'share', campaignid, '--user', editor, ...where])).code).toBe(0);
      expect((await runAssay(['campaigns', 'unshare', campaignid, '--user', editor, ...where])).code).toBe(0);
      const rows = await entriesAfter(mark);
      expect(what(rows)).toEqual([
        ['campaign', campaignid, 'share'],
        ['campaign', campaignid, 'unshare'],
      ]);
      for (const row of rows) expect(row).toMatchObject({ actor_type: 'cli', channel: 'cli', address: null });
      holdsNone(rows, [editor]);
    });

    it('records a participant starting and sending as the member, never an answer', async () => {
      const { campaignid } = await campaign();
      const [memberid] = await members(1, 'participant');
      await instance.call('POST', `/campaigns/${campaignid}/members/${memberid}`);
      const { token } = await instance.db.kysely
        .selectFrom('campaign_members')
        .select('token')
        .where('member_id', '=', memberid as string)
        .where('campaign_id', '=', campaignid)
        .executeTakeFirstOrThrow();
      const browser = new FormBrowser(instance, '10.20.30.40');
      const mark = await lastSeq();
      await browser.get(`/q/${token}`);
      await browser.get(`/q/${token}/page/1`);
      for (const [index, codes] of PAGES.entries()) {
        const values =
          index === 3
            ? { Remarks1: 'A remark nobody logs', Remarks2: '' }
            : Object.fromEntries(codes.map((code) => [code, '4']));
        expect(
          (await browser.post(`/q/${token}/page/${index + 1}`, { ...values, action: 'continue' })).statusCode,
        ).toBe(303);
      }
      await browser.get(`/q/${token}/check`);
      expect((await browser.post(`/q/${token}/check`, { action: 'send' })).headers.location).toBe(
        `/q/${token}/done`,
      );
      // Sent again (the back button): nothing more.
      await browser.post(`/q/${token}/check`, { action: 'send' });
      const rows = await entriesAfter(mark);
      const report = rows.find((row) => row.resource_type === 'report');
      expect(what(rows)).toEqual([
        ['campaign_member', memberid, 'start'],
        // One entry a page saved, naming no question.
        ...PAGES.map(() => ['answers', memberid, 'save']),
        ['campaign_member', memberid, 'complete'],
        ['report', report?.resource_id, 'create'],
      ]);
      for (const row of rows)
        expect(row).toMatchObject({
          actor_type: 'member',
          actor_id: memberid,
          user_id: null,
          channel: 'participant',
          address: '10.20.30.40',
        });
      for (const row of rows.filter((row) => row.resource_type === 'answers')) expect(row.fields).toBeNull();
      // A question's code as a value of its own ("Q1"): bare, it may be part of a random id.
      holdsNone(rows, ['A remark nobody logs', token, '"Q1"']);
    });

    it('records a sign-up as anonymous from its address, and the scheduler as the system', async () => {
      const { campaignid, alias } = await campaign({
        autoinvite: 'instant',
        config: { selfregistration: { register: true, signup: true } },
      });
      const address = email('visitor');
      const mark = await lastSeq();
      const browser = new FormBrowser(instance, '10.20.30.41');
      await browser.get(`/s/${alias}`);
      const done = await browser.post(`/s/${alias}`, {
        firstname: 'Noor',
        lastname: 'Haddad',
        email: address,
      });
      expect(done.statusCode).toBe(200);
      const rows = await entriesAfter(mark);
      const member = await instance.db.kysely
        .selectFrom('campaign_members')
        .select('member_id')
        .where('campaign_id', '=', campaignid)
        .executeTakeFirstOrThrow();
      expect(what(rows)).toEqual([
        ['member', member.member_id, 'create'],
        ['campaign', campaignid, 'add'],
        ['campaign_member', member.member_id, 'add'],
        ['campaign', campaignid, 'invite'],
        ['campaign_member', member.member_id, 'invite'],
      ]);
      for (const row of rows)
        expect(row).toMatchObject({ actor_type: 'anonymous', actor_id: null, address: '10.20.30.41' });
      holdsNone(rows, [address, 'Noor', 'Haddad']);

      // An `instant` campaign's member added through the API is invited by the scheduler.
      const [later] = await members(1, 'scheduled');
      await instance.call('POST', `/campaigns/${campaignid}/members/${later}`);
      const ticked = await lastSeq();
      await tick({
        db: instance.db.kysely,
        dialect: instance.dialect,
        variants,
        config: instance.config,
        clock: () => new Date(),
        mailQueued: () => {},
        campaignsDue: () => {},
      });
      const scheduled = (await entriesAfter(ticked)).filter((row) => row.resource_id !== null);
      expect(what(scheduled)).toEqual(
        expect.arrayContaining([
          ['campaign', campaignid, 'invite'],
          ['campaign_member', later, 'invite'],
        ]),
      );
      for (const row of scheduled)
        expect(row).toMatchObject({
          actor_type: 'system',
          actor_id: 'scheduler',
          channel: 'scheduler',
          address: null,
        });
    });
  });
}
