import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDeps } from '../../src/campaigns/campaigns.service.js';
import { campaignRetryMs, tick } from '../../src/jobs/scheduler.js';
import { MailDelivery } from '../../src/mail/delivery.js';
import { formatDate } from '../../src/util/dates.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { refuseInserts } from '../helpers/refusing-trigger.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

const variants = loadVariants([builtinVariantsDir()]);
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`scheduler (${dialect})`, () => {
    let instance: Instance;
    let sink: SmtpSink;
    let now = new Date('2026-03-01T08:00:00Z');
    let deps: CampaignDeps;
    let delivery: MailDelivery;
    const clock = () => now;
    const at = (iso: string) => {
      now = new Date(iso);
    };

    /** Ticks, then delivers everything due to the sink; answers the mails received by this step. */
    const step = async () => {
      const before = sink.received.length;
      const report = await tick(deps);
      while ((await delivery.runOnce()) > 0) {}
      return { report, mails: sink.received.slice(before) };
    };
    const parsed = (mails: { messageId: string }[]) =>
      Promise.all(mails.map((mail) => sink.parsed(mail.messageId)));
    const addresses = (mails: ParsedMail[]) =>
      mails.map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address).sort();
    const newMember = async (fields: Record<string, unknown> = {}) => {
      const body = { email: email('s'), firstname: 'Sam', lastname: 'Lee', ...fields };
      const response = await instance.call('POST', '/members', { body });
      return { id: response.json.data.memberid as string, email: body.email as string };
    };

    beforeAll(async () => {
      sink = await startSmtpSink();
      instance = await startInstance(dialect, {
        clock,
        env: { SMTP_URL: sink.url, MAIL_FROM: 'Acme HR <hr@acme.test>' },
      });
      deps = {
        db: instance.db.kysely,
        dialect,
        variants,
        config: instance.config,
        clock,
        mailQueued: () => {},
        campaignsDue: () => {},
      };
      delivery = new MailDelivery({
        db: instance.db.kysely,
        dialect,
        variants,
        smtpUrl: sink.url,
        mailFrom: instance.config.mailFrom,
        clock,
      });
    });
    afterAll(async () => {
      await delivery.stop();
      await instance.close();
      await sink.close();
    });

    it('runs a whole campaign: fixed invitation, two reminders, none past reminderrepeat, closing once', async () => {
      at('2026-03-01T08:00:00Z');
      const admin = await newMember({ firstname: 'Alex', lastname: 'Admin' });
      const people = [
        await newMember({ firstname: '<b>Bob</b> & "co"' }),
        await newMember({ firstname: 'Chloé' }),
        await newMember({ firstname: 'Dana' }),
      ];
      const created = await instance.call('POST', '/campaigns', {
        body: {
          name: 'Spring scan',
          variant: 'teamscan',
          start: '2026-03-02T09:00:00Z',
          closingtype: 'date',
          end: '2026-03-20T00:00:00Z',
          autoinvite: 'fixed',
          inviteoffset: { amount: 1, unit: 'day' },
          autoreminder: true,
          reminderoffset: { amount: 2, unit: 'day' },
          reminderrepeat: 2,
          admins: [admin.id],
        },
      });
      const campaignId = created.json.data.campaignid as string;
      const added = await instance.call('POST', `/campaigns/${campaignId}/members`, {
        body: { memberids: people.map((person) => person.id) },
      });
      expect(added.json.data.added).toHaveLength(3);

      expect((await step()).mails).toEqual([]); // before start
      at('2026-03-02T10:00:00Z');
      expect((await step()).mails).toEqual([]); // started, but the invitations wait a day
      at('2026-03-03T09:00:00Z');
      const invited = await step();
      expect(invited.report.invited).toBe(3);
      const invitations = await parsed(invited.mails);
      expect(addresses(invitations)).toEqual(people.map((person) => person.email).sort());
      const roster = (await instance.call('GET', `/campaigns/${campaignId}/members`)).json.data as {
        memberid: string;
        email: string;
        token: string;
        status: string;
      }[];
      for (const mail of invitations) {
        const to = addresses([mail])[0];
        const member = roster.find((row) => row.email === to);
        expect(member?.status).toBe('invited');
        expect(mail.subject).toContain('Spring scan');
        expect(mail.from?.value[0]).toMatchObject({ name: 'Acme HR', address: 'hr@acme.test' });
        expect(mail.text).toContain(`/q/${member?.token}`);
        expect(mail.html).toContain(`/q/${member?.token}`);
        expect(mail.html).not.toContain('<b>Bob</b>');
      }
      const bob = invitations.find((mail) => addresses([mail])[0] === people[0]?.email);
      expect(bob?.html).toContain('&lt;b&gt;Bob&lt;/b&gt; &amp;');
      expect(bob?.text).toContain('<b>Bob</b> & "co"');

      // Dana completes; she is reminded no more.
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({ status: 'completed' })
        .where('member_id', '=', people[2]?.id as string)
        .execute();
      at('2026-03-04T09:00:00Z');
      expect((await step()).mails).toEqual([]); // the reminder offset is two days
      at('2026-03-05T09:00:00Z');
      const first = await step();
      expect(first.report.reminded).toBe(2);
      expect(addresses(await parsed(first.mails))).toEqual([people[0]?.email, people[1]?.email].sort());
      at('2026-03-06T09:00:00Z');
      expect((await step()).mails).toEqual([]);
      at('2026-03-07T09:00:01Z');
      expect((await step()).report.reminded).toBe(2);
      at('2026-03-12T09:00:00Z');
      expect((await step()).mails).toEqual([]); // reminderrepeat is 2
      at('2026-03-20T00:00:00Z');
      const closing = await step();
      const notes = await parsed(closing.mails);
      expect(addresses(notes)).toEqual([admin.email]);
      expect(notes[0]?.subject).toContain('Spring scan');
      at('2026-03-21T00:00:00Z');
      expect((await step()).mails).toEqual([]);
      expect((await instance.call('GET', `/campaigns/${campaignId}`)).json.data.status).toBe('ended');

      const counts = sink.countByMessageId();
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      const reminded = (await instance.call('GET', `/campaigns/${campaignId}/members/${people[0]?.id}`)).json
        .data;
      expect(reminded.countreminded).toBe('2');
      // Nothing is scheduled any more.
      const row = await instance.db.kysely
        .selectFrom('campaigns')
        .select('due_at')
        .where('id', '=', campaignId)
        .executeTakeFirstOrThrow();
      expect(row.due_at).toBeNull();
    });

    it('invites members added to an active instant campaign at the next tick; an auto campaign closes once', async () => {
      at('2026-04-01T08:00:00Z');
      const admin = await newMember();
      const created = await instance.call('POST', '/campaigns', {
        body: {
          name: 'Instant',
          variant: 'bigfive',
          start: '2026-04-01T07:00:00Z',
          autoinvite: 'instant',
          closingtype: 'auto',
          admins: [admin.id],
        },
      });
      const campaignId = created.json.data.campaignid as string;
      expect((await step()).mails).toEqual([]);
      const person = await newMember();
      await instance.call('POST', `/campaigns/${campaignId}/members/${person.id}`);
      const invited = await step();
      expect(addresses(await parsed(invited.mails))).toEqual([person.email]);
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({ status: 'completed' })
        .where('campaign_id', '=', campaignId)
        .execute();
      // The questionnaire marks the campaign due when someone completes; here the test does.
      await instance.db.kysely
        .updateTable('campaigns')
        .set({ due_at: '2026-04-01T08:00:00+00:00' })
        .where('id', '=', campaignId)
        .execute();
      const closed = await step();
      expect(addresses(await parsed(closed.mails))).toEqual([admin.email]);
      await instance.db.kysely
        .updateTable('campaigns')
        .set({ due_at: '2026-04-01T08:00:00+00:00' })
        .where('id', '=', campaignId)
        .execute();
      expect((await step()).mails).toEqual([]);
    });

    it.runIf(dialect === 'postgres')(
      'two schedulers on one database tick a 1,000-member fixed campaign at once: one invitation each',
      async () => {
        at('2026-07-01T08:00:00Z');
        const people = await instance.call('POST', '/members/import', {
          body: {
            members: Array.from({ length: 1000 }, (_, i) => ({
              email: email(`t${i}`),
              firstname: `T${i}`,
              lastname: 'Wins',
            })),
          },
        });
        const created = await instance.call('POST', '/campaigns', {
          body: { name: 'Twice', variant: 'teamscan', start: '2026-07-01T09:00:00Z', autoinvite: 'fixed' },
        });
        const campaignId = created.json.data.campaignid as string;
        await instance.call('POST', `/campaigns/${campaignId}/members`, {
          body: { memberids: people.json.data.created },
        });
        await tick(deps);
        at('2026-07-01T09:00:00Z');
        const other = instance.otherProcess();
        try {
          const reports = await Promise.all([
            tick(deps),
            tick({ ...deps, db: other.kysely }),
            tick(deps),
            tick({ ...deps, db: other.kysely }),
          ]);
          expect(reports.reduce((sum, report) => sum + report.invited, 0)).toBe(1000);
          const rows = await instance.db.kysely
            .selectFrom('mail_outbox')
            .select('member_id')
            .where('campaign_id', '=', campaignId)
            .execute();
          expect(rows).toHaveLength(1000);
          expect(new Set(rows.map((row) => row.member_id)).size).toBe(1000);
        } finally {
          await other.close();
        }
        // Deliver them, so the next test starts from an empty queue.
        while ((await delivery.runOnce()) > 0) {}
      },
    );

    it('leaves a campaign with nothing to schedule out of every tick', async () => {
      at('2026-05-01T08:00:00Z');
      const created = await instance.call('POST', '/campaigns', {
        body: { name: 'Manual', variant: 'bigfive', start: '2026-04-01T00:00:00Z' },
      });
      await step();
      const row = await instance.db.kysely
        .selectFrom('campaigns')
        .select('due_at')
        .where('id', '=', created.json.data.campaignid)
        .executeTakeFirstOrThrow();
      expect(row.due_at).toBeNull();
      expect((await tick(deps)).campaigns).toBe(0);
    });

    it('goes on past a campaign that fails, and retries that one later, waiting longer each time', async () => {
      const instant = async (name: string) => {
        const made = await instance.call('POST', '/campaigns', {
          body: { name, variant: 'teamscan', start: '2026-09-01T00:00:00Z', autoinvite: 'instant' },
        });
        const campaignId = made.json.data.campaignid as string;
        const person = await newMember();
        await instance.call('POST', `/campaigns/${campaignId}/members/${person.id}`);
        return campaignId;
      };
      // Claimed in the order they became due: the failing one first, then the others.
      at('2026-09-01T08:00:00Z');
      const failing = await instant('Refused by the database');
      at('2026-09-01T08:01:00Z');
      const others = [await instant('Fine one'), await instant('Fine two')];
      const statuses = async (campaignId: string) =>
        (
          await instance.db.kysely
            .selectFrom('campaign_members')
            .select('status')
            .where('campaign_id', '=', campaignId)
            .execute()
        ).map((row) => row.status);
      const schedule = (campaignId: string) =>
        instance.db.kysely
          .selectFrom('campaigns')
          .select(['due_at', 'due_failures'])
          .where('id', '=', campaignId)
          .executeTakeFirstOrThrow();
      const logged: { obj: { campaignid?: string; err?: unknown }; msg: string }[] = [];
      const log = { error: (obj: unknown, msg: string) => logged.push({ obj: obj as object, msg }) };
      const failures = () => logged.filter((entry) => entry.obj.campaignid === failing);

      // The database refuses the failing campaign's mails: inviting its member fails, for real.
      const allow = await refuseInserts(instance.db.kysely, dialect, {
        table: 'mail_outbox',
        column: 'campaign_id',
        value: failing,
      });
      try {
        at('2026-09-01T08:02:00Z');
        const first = await tick(deps, log);
        expect(first.failed).toBe(1);
        for (const campaignId of others) expect(await statuses(campaignId)).toEqual(['invited']);
        expect(await statuses(failing)).toEqual(['new']);
        expect(failures()).toHaveLength(1);
        expect(failures()[0]?.msg).toBe('scheduler: a campaign failed; retried later');
        expect(String(failures()[0]?.obj.err)).toContain('refused by the test');
        expect(await schedule(failing)).toEqual({
          due_at: formatDate(new Date(now.getTime() + campaignRetryMs(1))),
          due_failures: 1,
        });

        // Not again before its time, however often the scheduler ticks.
        expect((await tick(deps, log)).failed).toBe(0);
        expect((await tick(deps, log)).failed).toBe(0);
        expect(failures()).toHaveLength(1);

        // At its time it is retried; failing again, it waits longer.
        at('2026-09-01T08:03:00Z');
        expect((await tick(deps, log)).failed).toBe(1);
        expect(failures()).toHaveLength(2);
        expect(campaignRetryMs(2)).toBeGreaterThan(campaignRetryMs(1));
        expect(await schedule(failing)).toEqual({
          due_at: formatDate(new Date(now.getTime() + campaignRetryMs(2))),
          due_failures: 2,
        });
      } finally {
        await allow();
      }

      // Once the database takes its mails, the next retry brings it up to date and forgets the failures.
      at('2026-09-01T08:05:00Z');
      const fixed = await step();
      expect(fixed.report.failed).toBe(0);
      expect(await statuses(failing)).toEqual(['invited']);
      expect((await schedule(failing)).due_failures).toBe(0);
      expect(failures()).toHaveLength(2);
    });
  });

  describe(`a running instance (${dialect})`, () => {
    it('sends a fixed campaign its invitations and reminders on time without anyone calling invite', async () => {
      const sink = await startSmtpSink();
      let now = new Date('2026-06-01T08:00:00Z');
      const instance = await startInstance(dialect, {
        clock: () => now,
        background: true,
        env: { SMTP_URL: sink.url, ASSAY_TICK_SECONDS: '1' },
      });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          const body = { email: email('live'), firstname: `Live${i}`, lastname: 'Person' };
          ids.push((await instance.call('POST', '/members', { body })).json.data.memberid);
        }
        const created = await instance.call('POST', '/campaigns', {
          body: {
            name: 'Live',
            variant: 'teamscan',
            start: '2026-06-01T09:00:00Z',
            autoinvite: 'fixed',
            autoreminder: true,
            reminderoffset: { amount: 1, unit: 'day' },
            reminderrepeat: 1,
          },
        });
        const campaignId = created.json.data.campaignid;
        await instance.call('POST', `/campaigns/${campaignId}/members`, { body: { memberids: ids } });
        // Nothing before start, on the fake clock: wait until a tick has looked at the campaign at
        // 08:00 (it leaves it due again at its start, 09:00), then nothing may have been queued.
        const campaignRow = () =>
          instance.db.kysely
            .selectFrom('campaigns')
            .select('due_at')
            .where('id', '=', campaignId)
            .executeTakeFirstOrThrow();
        const outbox = () =>
          instance.db.kysely
            .selectFrom('mail_outbox')
            .select('status')
            .where('campaign_id', '=', campaignId)
            .execute();
        await expect
          .poll(async () => (await campaignRow()).due_at)
          .toBe(formatDate(new Date('2026-06-01T09:00:00Z')));
        expect(await outbox()).toEqual([]);
        expect(sink.received).toHaveLength(0);
        now = new Date(now.getTime() + 2 * HOUR);
        await sink.waitForReceived(3, 30_000);
        // The worker's lease runs on the same clock: jump it only once the invitations are
        // recorded sent, or a mail still on its way would look abandoned and go out again.
        const sent = async () =>
          (
            await instance.db.kysely
              .selectFrom('mail_outbox')
              .select('id')
              .where('campaign_id', '=', campaignId)
              .where('status', '=', 'sent')
              .execute()
          ).length;
        await expect.poll(sent).toBe(3);
        now = new Date(now.getTime() + 25 * HOUR);
        await sink.waitForReceived(6, 30_000);
        // No more, on the fake clock: once the tick that reminded has left the campaign with nothing
        // scheduled (reminderrepeat 1 is used up) and every queued mail is recorded sent, no tick
        // and no retry can send another.
        await expect.poll(async () => (await campaignRow()).due_at).toBeNull();
        await expect
          .poll(async () => (await outbox()).map((row) => row.status))
          .toEqual(Array(6).fill('sent'));
        expect(sink.received).toHaveLength(6);
      } finally {
        await instance.close();
        await sink.close();
      }
    });
  });
}
