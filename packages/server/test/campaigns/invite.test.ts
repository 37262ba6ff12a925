import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DATE, dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const PAST = '2026-01-01T09:00:00+00:00';
const FUTURE = '2099-01-01T09:00:00+00:00';
const ok = (data: unknown) => ({ status: 'OK', data });
const error = (data: string) => ({ status: 'ERROR', data });

for (const dialect of dialects) {
  describe(`invite and remind (${dialect})`, () => {
    let instance: Instance;

    const campaign = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/campaigns', {
        body: { name: 'Team scan', variant: 'teamscan', start: PAST, ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.campaignid as string;
    };
    const members = async (count: number, fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/members/import', {
        body: {
          members: Array.from({ length: count }, (_, i) => ({
            email: email(`p${i}`),
            firstname: `First${i}`,
            lastname: `Last${i}`,
            ...fields,
          })),
        },
      });
      return response.json.data.created as string[];
    };
    const withMembers = async (count: number, fields: Record<string, unknown> = {}) => {
      const id = await campaign(fields);
      const ids = await members(count);
      expect(
        (await instance.call('POST', `/campaigns/${id}/members`, { body: { memberids: ids } })).json.data
          .added,
      ).toHaveLength(count);
      return { id, ids };
    };
    const outbox = (campaignId: string) =>
      instance.db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .orderBy('recipient')
        .execute();
    const roster = async (campaignId: string) =>
      (await instance.call('GET', `/campaigns/${campaignId}/members`)).json.data as Record<string, unknown>[];

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('invites every new member once: status, date, and one queued mail each with the personal link', async () => {
      const { id, ids } = await withMembers(3);
      expect((await instance.call('POST', `/campaigns/${id}/members/invite`)).json).toEqual(ok(''));
      const rows = await roster(id);
      for (const row of rows) {
        expect(row.status).toBe('invited');
        expect(row.dateinvited).toMatch(DATE);
      }
      const mails = await outbox(id);
      expect(mails.map((mail) => mail.member_id).sort()).toEqual([...ids].sort());
      for (const mail of mails) {
        const member = rows.find((row) => row.memberid === mail.member_id) as Record<string, string>;
        expect(mail).toMatchObject({
          stage: 'campaign_invitation',
          sequence: 0,
          status: 'queued',
          language: 'enUS',
        });
        expect(mail.recipient).toBe(member.email);
        expect(mail.message_id).toMatch(/^<[0-9A-Za-z]{10}@localhost>$/);
        const params = JSON.parse(mail.params);
        expect(params.link).toBe(`${instance.config.questionnaireUrl}/q/${member.token}`);
        expect(params.recipient).toMatchObject({ firstname: member.firstname, email: member.email });
        expect(params.template).toBe('standard');
      }
      // Nobody is new any more: OK, and nothing more is queued.
      expect((await instance.call('POST', `/campaigns/${id}/members/invite`, { body: {} })).json).toEqual(
        ok(''),
      );
      expect(await outbox(id)).toHaveLength(3);
      const detail = (await instance.call('GET', `/campaigns/${id}`)).json.data;
      expect(detail.memberstatuscount).toMatchObject({ new: 0, invited: 3 });
    });

    it('a dry run answers who would be mailed and changes nothing; memberids narrow it', async () => {
      const { id, ids } = await withMembers(3);
      const dry = await instance.call('POST', `/campaigns/${id}/members/invite`, { body: { dryrun: true } });
      expect(dry.json.status).toBe('OK');
      expect([...dry.json.data].sort()).toEqual([...ids].sort());
      expect(await outbox(id)).toEqual([]);
      expect((await roster(id)).every((row) => row.status === 'new')).toBe(true);
      const narrowed = await instance.call('POST', `/campaigns/${id}/members/invite`, {
        body: { memberids: [ids[0], 'ZZZZZZZZZZ'], dryrun: '1' },
      });
      expect(narrowed.json).toEqual(ok([ids[0]]));
      expect(
        (await instance.call('POST', `/campaigns/${id}/members/invite`, { body: { memberids: [ids[1]] } }))
          .json,
      ).toEqual(ok(''));
      expect((await outbox(id)).map((mail) => mail.member_id)).toEqual([ids[1]]);
    });

    it('refuses a campaign that is not active, and bad bodies, changing nothing', async () => {
      const later = await campaign({ start: FUTURE });
      const ids = await members(1);
      await instance.call('POST', `/campaigns/${later}/members`, { body: { memberids: ids } });
      for (const action of ['invite', 'remind']) {
        const response = await instance.call('POST', `/campaigns/${later}/members/${action}`);
        expect(response.json).toEqual(
          error(
            'campaign: is not active yet (it starts at its start date); mail goes out only while it is active',
          ),
        );
      }
      const ended = await campaign({ closingtype: 'date', end: '2026-02-01' });
      expect((await instance.call('POST', `/campaigns/${ended}/members/invite`)).json).toEqual(
        error('campaign: is ended; mail goes out only while it is active'),
      );
      const { id } = await withMembers(1);
      expect(
        (await instance.call('POST', `/campaigns/${id}/members/invite`, { body: { memberids: 'all' } })).json,
      ).toEqual(error('memberids: must be an array'));
      expect(
        (await instance.call('POST', `/campaigns/${id}/members/invite`, { body: { dryrun: 'maybe' } })).json,
      ).toEqual(error('dryrun: must be a boolean'));
      expect((await instance.call('POST', `/campaigns/${id}/members/invite`, { body: '[1' })).json).toEqual(
        error('body: not valid JSON'),
      );
      expect(await outbox(id)).toEqual([]);
      expect((await instance.call('POST', '/campaigns/ZZZZZZZZZZ/members/invite')).statusCode).toBe(404);
      expect((await instance.call('POST', '/campaigns/ZZZZZZZZZZ/members/remind')).statusCode).toBe(404);
    });

    it('reminds invited and started members, counting, up to reminderrepeat', async () => {
      const { id, ids } = await withMembers(3, { reminderrepeat: 2 });
      // Nobody invited yet: nobody to remind.
      expect((await instance.call('POST', `/campaigns/${id}/members/remind`)).json).toEqual(ok(''));
      expect(await outbox(id)).toEqual([]);
      await instance.call('POST', `/campaigns/${id}/members/invite`, {
        body: { memberids: [ids[0], ids[1]] },
      });
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({ status: 'started' })
        .where('member_id', '=', ids[1] as string)
        .execute();
      for (let round = 1; round <= 3; round++) {
        const dry = await instance.call('POST', `/campaigns/${id}/members/remind`, {
          body: { dryrun: true },
        });
        expect([...dry.json.data].sort()).toEqual(round <= 2 ? [ids[0], ids[1]].sort() : []);
        expect((await instance.call('POST', `/campaigns/${id}/members/remind`)).json).toEqual(ok(''));
      }
      const reminders = (await outbox(id)).filter((mail) => mail.stage === 'campaign_reminder');
      expect(reminders.map((mail) => `${mail.member_id}:${mail.sequence}`).sort()).toEqual(
        [`${ids[0]}:1`, `${ids[0]}:2`, `${ids[1]}:1`, `${ids[1]}:2`].sort(),
      );
      const rows = await roster(id);
      const reminded = rows.find((row) => row.memberid === ids[0]) as Record<string, unknown>;
      expect(reminded.countreminded).toBe('2');
      expect(reminded.datereminded).toMatch(DATE);
      expect((rows.find((row) => row.memberid === ids[2]) as Record<string, unknown>).countreminded).toBe(
        '0',
      );
    });

    it('after a reset the reminders start again and carry the new link', async () => {
      const { id, ids } = await withMembers(1, { reminderrepeat: 1 });
      const [member] = ids as [string];
      await instance.call('POST', `/campaigns/${id}/members/invite`);
      await instance.call('POST', `/campaigns/${id}/members/remind`);
      const dry = () => instance.call('POST', `/campaigns/${id}/members/remind`, { body: { dryrun: true } });
      expect((await dry()).json).toEqual(ok([]));
      expect((await instance.call('PATCH', `/campaigns/${id}/members/${member}/reset`)).json).toEqual(ok(''));
      const reset = (await instance.call('GET', `/campaigns/${id}/members/${member}`)).json.data;
      expect(reset).toMatchObject({ status: 'invited', countreminded: '0', datereminded: null });
      expect((await dry()).json).toEqual(ok([member]));
      await instance.call('POST', `/campaigns/${id}/members/remind`);
      const reminders = (await outbox(id)).filter((mail) => mail.stage === 'campaign_reminder');
      expect(reminders).toHaveLength(2);
      const links = reminders.map((mail) => JSON.parse(mail.params).link).sort();
      expect(links).toContain(`${instance.config.questionnaireUrl}/q/${reset.token}`);
      expect(new Set(links).size).toBe(2);
    });

    it('a manual remind is not limited while reminderrepeat is null', async () => {
      const { id } = await withMembers(1);
      await instance.call('POST', `/campaigns/${id}/members/invite`);
      for (let round = 0; round < 4; round++) await instance.call('POST', `/campaigns/${id}/members/remind`);
      expect((await outbox(id)).filter((mail) => mail.stage === 'campaign_reminder')).toHaveLength(4);
    });

    it('picks the template and subject: member mailconfig, then the campaign, then the role', async () => {
      const { id, ids } = await withMembers(3, {
        variant: 'leadership360',
        language: 'frFR',
        mailconfig: { campaign_invitation: 'variant' },
        config: { custommailsubject: { campaign_invitation: 'Votre avis compte' } },
      });
      await instance.call('PATCH', `/campaigns/${id}/members/${ids[0]}`, {
        body: { mailconfig: { campaign_invitation: 'standard' } },
      });
      await instance.call('POST', `/campaigns/${id}/members/invite`);
      const byMember = new Map((await outbox(id)).map((mail) => [mail.member_id, JSON.parse(mail.params)]));
      const [first, second] = ids as [string, string];
      expect(byMember.get(first).template).toBe('standard');
      expect(byMember.get(second).template).toBe('variant');
      expect(byMember.get(second).subject).toBe('Votre avis compte');
      expect(byMember.get(second).language).toBe('frFR');
    });

    it('deleting a campaign cancels its mails still queued and keeps those sent on record', async () => {
      const { id } = await withMembers(2);
      await instance.call('POST', `/campaigns/${id}/members/invite`);
      const [sent] = await outbox(id);
      await instance.db.kysely
        .updateTable('mail_outbox')
        .set({ status: 'sent' })
        .where('id', '=', sent?.id as string)
        .execute();
      expect((await instance.call('DELETE', `/campaigns/${id}`)).json).toEqual(ok(''));
      const left = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select(['id', 'status', 'campaign_id'])
        .where('dedupe_key', '=', sent?.dedupe_key as string)
        .execute();
      expect(left).toEqual([{ id: sent?.id, status: 'sent', campaign_id: null }]);
      const queued = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'queued')
        .where('campaign_id', 'is', null)
        .execute();
      expect(queued).toEqual([]);
    });

    it('concurrent invite calls mail every member exactly once', async () => {
      const { id, ids } = await withMembers(200);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => instance.call('POST', `/campaigns/${id}/members/invite`)),
      );
      for (const answer of answers) expect(answer.json).toEqual(ok(''));
      const mails = await outbox(id);
      expect(mails).toHaveLength(ids.length);
      expect(new Set(mails.map((mail) => mail.member_id)).size).toBe(ids.length);
    });

    it.runIf(dialect === 'postgres')(
      'two server processes inviting one 1,000-member campaign at once mail every member exactly once',
      async () => {
        const { id, ids } = await withMembers(1000);
        const other = instance.otherProcess();
        const second = await buildApp({ config: instance.config, database: other, background: false });
        try {
          const token = await instance.token();
          const call = (app: typeof second) =>
            app.inject({
              method: 'POST',
              url: `/api/v1/campaigns/${id}/members/invite`,
              headers: { authorization: `Bearer ${token}` },
            });
          const answers = await Promise.all([
            call(instance.app),
            call(second),
            call(instance.app),
            call(second),
          ]);
          for (const answer of answers) expect(JSON.parse(answer.body)).toEqual(ok(''));
          const mails = await outbox(id);
          expect(mails).toHaveLength(1000);
          expect(new Set(mails.map((mail) => mail.member_id))).toEqual(new Set(ids));
          expect((await roster(id)).every((row) => row.status === 'invited')).toBe(true);
        } finally {
          await second.close();
          await other.close();
        }
      },
    );
  });
}
