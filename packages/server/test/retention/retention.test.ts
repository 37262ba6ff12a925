import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participantActor, SYSTEM_ACTOR } from '../../src/audit/actor.js';
import { findCampaignMember } from '../../src/campaigns/campaign-members.repository.js';
import { findCampaign } from '../../src/campaigns/campaigns.repository.js';
import { completeParticipation } from '../../src/campaigns/completion.service.js';
import { OnceADay } from '../../src/jobs/once-a-day.js';
import { checkAnswers } from '../../src/reports/answers.js';
import {
  campaignRetentionOf,
  eraseExpired,
  RETENTION_BATCH,
  setCampaignRetention,
} from '../../src/retention/retention.service.js';
import { formatDate } from '../../src/util/dates.js';
import { loadInstanceVariants } from '../../src/variants/load-variants.js';
import { addToCampaign, makeCampaign, makeMembers } from '../console/campaign-fixtures.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-10T09:00:00Z');

/** leadership360 answers, free text included (the verbatims that must go with them). */
function answers360(seed: number) {
  const answers: Record<string, number | string> = { Remarks1: `remark ${seed}` };
  for (let i = 1; i <= 24; i++) answers[`Q${i}`] = ((i * seed) % 5) + 1;
  return answers;
}

for (const dialect of dialects) {
  describe(`retention of answers and personal reports (${dialect})`, () => {
    let instance: Instance;
    let now = new Date(T0);
    const clock = () => now;
    const at = (ms: number) => {
      now = new Date(ms);
    };
    const deps = () => ({
      db: instance.db.kysely,
      dialect: instance.db.dialect,
      variants: loadInstanceVariants(instance.config),
      config: instance.config,
      clock,
      mailQueued: () => {},
      campaignsDue: () => {},
    });

    /** Completes a member as "Confirm and send" does, at the clock's moment; answers its report id. */
    const complete = async (campaignid: string, memberId: string, seed: number) => {
      const d = deps();
      const campaign = await findCampaign(d.db, campaignid);
      const variant = d.variants.get('leadership360');
      if (!campaign || !variant) throw new Error('no campaign');
      // The questionnaire saves the answers on the place page by page before "Confirm and send".
      await d.db
        .updateTable('campaign_members')
        .set({ answers: JSON.stringify(answers360(seed)), status: 'started', datestarted: formatDate(now) })
        .where('campaign_id', '=', campaignid)
        .where('member_id', '=', memberId)
        .execute();
      return d.db.transaction().execute(async (trx) => {
        const member = await findCampaignMember(trx, campaignid, memberId);
        if (!member) throw new Error('not a member');
        return completeParticipation(
          d,
          trx,
          campaign,
          member,
          checkAnswers(variant, answers360(seed)),
          participantActor(memberId, null),
        );
      });
    };
    const answersOf = async (campaignid: string, memberId: string) =>
      JSON.parse(
        (
          await instance.db.kysely
            .selectFrom('campaign_members')
            .select('answers')
            .where('campaign_id', '=', campaignid)
            .where('member_id', '=', memberId)
            .executeTakeFirstOrThrow()
        ).answers,
      );
    const retentionEntries = () =>
      instance.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'retention')
        .orderBy('seq')
        .execute();

    beforeAll(async () => {
      instance = await startInstance(dialect, { clock, env: { ASSAY_RETENTION_DAYS: '365' } });
    });
    afterAll(async () => {
      await instance?.close();
    });

    it('erases answers and personal reports past the retention, keeps younger ones, the members and the group report', async () => {
      at(T0);
      // Other tests of this instance run the retention too: only the entries from here on are this test's.
      const before = (await retentionEntries()).length;
      const plain = await makeCampaign(instance, {
        variant: 'leadership360',
        start: formatDate(new Date(T0 - DAY)),
      });
      const short = await makeCampaign(instance, {
        variant: 'leadership360',
        start: formatDate(new Date(T0 - DAY)),
      });
      const [old, young, started, shortened, other] = await makeMembers(instance, 5);
      const ids = [old, young, started, shortened, other] as string[];
      await addToCampaign(instance, plain, ids.slice(0, 3));
      await addToCampaign(instance, short, ids.slice(3));
      // A shorter retention of the second campaign only.
      const view = await setCampaignRetention(deps(), SYSTEM_ACTOR, short, '30');
      expect(view).toEqual({ own: 30, instance: 365, effective: 30 });

      const oldReport = await complete(plain, ids[0] as string, 1);
      // Started on the first day and never completed: its answers count from that start.
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({
          status: 'started',
          datestarted: formatDate(now),
          answers: JSON.stringify({ Q1: 3, Remarks1: 'half' }),
        })
        .where('campaign_id', '=', plain)
        .where('member_id', '=', ids[2] as string)
        .execute();
      at(T0 + 300 * DAY);
      const youngReport = await complete(plain, ids[1] as string, 2);
      const shortReport = await complete(short, ids[3] as string, 3);
      at(T0 + 340 * DAY);
      const recentShort = await complete(short, ids[4] as string, 4);
      const group = await instance.call('POST', '/reports', {
        body: {
          reportType: 'group',
          name: 'Both',
          variant: 'leadership360',
          selectedReports: [oldReport, youngReport].join(','),
        },
      });
      expect(group.json.status, group.body).toBe('OK');
      const groupId = group.json.data.reportid as string;

      // A day short of the instance's retention for the oldest: nothing of `plain` goes yet, but the
      // report completed 65 days ago in the 30-day campaign does.
      at(T0 + 365 * DAY - 1000);
      expect(await eraseExpired(deps())).toEqual({ answers: 1, reports: 1 });
      expect((await instance.call('GET', `/reports/${shortReport}/short`)).statusCode).toBe(404);
      expect((await instance.call('GET', `/reports/${oldReport}/short`)).json.status).toBe('OK');

      at(T0 + 366 * DAY);
      expect(await eraseExpired(deps())).toEqual({ answers: 2, reports: 1 });

      // The erased report answers as a deleted one: 404 on every path, and no more in the lists.
      for (const path of ['', '/short', '/data', '/usage']) {
        expect((await instance.call('GET', `/reports/${oldReport}${path}`)).statusCode, path).toBe(404);
      }
      expect((await instance.call('DELETE', `/reports/${oldReport}`)).statusCode).toBe(404);
      const listed = await instance.call('GET', `/members/${ids[0]}/reports`);
      expect(listed.json).toEqual({ status: 'OK', data: [] });
      // The member themselves stays, and their place in the campaign with its status.
      expect((await instance.call('GET', `/members/${ids[0]}`)).json.status).toBe('OK');
      const places = (await instance.call('GET', `/campaigns/${plain}/members`)).json.data as {
        memberid: string;
        status: string;
      }[];
      expect(places.find((place) => place.memberid === ids[0])?.status).toBe('completed');
      expect(await answersOf(plain, ids[0] as string)).toEqual({});
      expect(await answersOf(plain, ids[2] as string)).toEqual({});
      // Younger ones stay: the 300-day report in the 365-day campaign, the 26-day one in the 30-day one.
      expect(Object.keys(await answersOf(plain, ids[1] as string)).length).toBeGreaterThan(0);
      expect((await instance.call('GET', `/reports/${youngReport}/short`)).json.status).toBe('OK');
      expect((await instance.call('GET', `/reports/${recentShort}/short`)).json.status).toBe('OK');
      // The group report is the group's: it stays, made of the reports that remain.
      expect((await instance.call('GET', `/reports/${groupId}/short`)).json.status).toBe('OK');
      const sources = await instance.db.kysely
        .selectFrom('report_sources')
        .select('source_id')
        .where('report_id', '=', groupId)
        .execute();
      expect(sources.map((row) => row.source_id)).toEqual([youngReport]);
      const verbatims = await instance.call('GET', `/reports/verbatims?reports=${oldReport}`);
      expect(verbatims.json).toEqual({ status: 'ERROR', data: `reports: unknown report ${oldReport}` });

      // One entry per run that erased something, by the scheduler, naming no field; one per member
      // and per report beside it.
      const entries = (await retentionEntries()).slice(before);
      const runs = entries.filter((entry) => entry.resource_type === 'answers' && entry.resource_id === null);
      expect(runs).toHaveLength(2);
      for (const run of runs) {
        expect(run).toMatchObject({
          actor_type: 'system',
          actor_id: 'scheduler',
          channel: 'scheduler',
          fields: null,
        });
      }
      expect(
        entries
          .filter((entry) => entry.resource_id !== null)
          .map((entry) => `${entry.resource_type} ${entry.resource_id}`)
          .sort(),
      ).toEqual(
        [
          `answers ${ids[3]}`,
          `report ${shortReport}`,
          `answers ${ids[0]}`,
          `answers ${ids[2]}`,
          `report ${oldReport}`,
        ].sort(),
      );
      // A run that finds nothing records nothing.
      expect(await eraseExpired(deps())).toEqual({ answers: 0, reports: 0 });
      expect(await retentionEntries()).toHaveLength(before + entries.length);
    });

    it('erases thousands a batch at a time', async () => {
      at(T0);
      const campaign = await makeCampaign(instance, {
        variant: 'leadership360',
        start: formatDate(new Date(T0 - DAY)),
      });
      const count = RETENTION_BATCH * 2 + 7;
      const members = await makeMembers(instance, count);
      await addToCampaign(instance, campaign, members);
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({ status: 'started', datestarted: formatDate(now), answers: '{"Q1":1}' })
        .where('campaign_id', '=', campaign)
        .execute();
      at(T0 + 400 * DAY);
      // The first test's younger rows come of age too by now: at least these went.
      expect((await eraseExpired(deps())).answers).toBeGreaterThanOrEqual(count);
      const left = await instance.db.kysely
        .selectFrom('campaign_members')
        .select('id')
        .where('campaign_id', '=', campaign)
        .where('answers', '<>', '{}')
        .execute();
      expect(left).toEqual([]);
    });

    it('refuses a campaign retention that is not shorter than the instance, or not a number of days', async () => {
      at(T0);
      const campaign = await makeCampaign(instance);
      const refused: [string, string][] = [
        ['365', "days: must be fewer than the instance's retention of 365 days"],
        ['400', "days: must be fewer than the instance's retention of 365 days"],
        ['0', 'days: must be between 1 and 36500, got 0'],
        ['-3', 'days: must be a whole number of days, got "-3"'],
        ['', 'days: must be a whole number of days, got ""'],
        ['7.5', 'days: must be a whole number of days, got "7.5"'],
        ['ten', 'days: must be a whole number of days, got "ten"'],
      ];
      for (const [days, message] of refused) {
        await expect(setCampaignRetention(deps(), SYSTEM_ACTOR, campaign, days), days).rejects.toThrow(
          message,
        );
      }
      expect(await campaignRetentionOf(deps(), campaign)).toEqual({
        own: null,
        instance: 365,
        effective: 365,
      });
      await expect(setCampaignRetention(deps(), SYSTEM_ACTOR, 'ZZZZZZZZZZ', '7')).rejects.toThrow(
        'campaign: no campaign ZZZZZZZZZZ',
      );
      expect(await setCampaignRetention(deps(), SYSTEM_ACTOR, campaign, ' 364 ')).toMatchObject({ own: 364 });
      expect(await setCampaignRetention(deps(), SYSTEM_ACTOR, campaign, null)).toMatchObject({ own: null });
      const changes = await instance.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'fields'])
        .where('resource_type', '=', 'campaign')
        .where('resource_id', '=', campaign)
        .where('fields', '=', 'retention')
        .execute();
      expect(changes).toHaveLength(2);
      // With the instance keeping everything, any number of days is a shorter retention.
      const keeping = { ...deps(), config: { retentionDays: null } };
      expect(await setCampaignRetention(keeping, SYSTEM_ACTOR, campaign, '5000')).toEqual({
        own: 5000,
        instance: null,
        effective: 5000,
      });
      await setCampaignRetention(keeping, SYSTEM_ACTOR, campaign, null);
    });

    it("is run by the instance's own scheduler, as the system", async () => {
      // An instance of its own whose scheduler runs: an old report is gone after its first ticks.
      // Its first tick runs at once on the shared clock, so the clock starts at T0 before it (a
      // later day left by another test would put the next daily run past T0 + 30 days).
      at(T0);
      const served = await startInstance(dialect, {
        clock,
        background: true,
        env: { ASSAY_RETENTION_DAYS: '10', ASSAY_TICK_SECONDS: '1' },
      });
      try {
        const campaign = await makeCampaign(served, {
          variant: 'leadership360',
          start: formatDate(new Date(T0 - DAY)),
        });
        const [member] = await makeMembers(served, 1);
        await addToCampaign(served, campaign, [member as string]);
        await served.db.kysely
          .updateTable('campaign_members')
          .set({ status: 'started', datestarted: formatDate(now), answers: '{"Q1":2}' })
          .where('campaign_id', '=', campaign)
          .execute();
        at(T0 + 30 * DAY);
        // Waits for the scheduler's tick to write its entry; 30 s is only a safety net.
        let entries: unknown[] = [];
        for (const until = Date.now() + 30_000; entries.length === 0 && Date.now() < until; ) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          entries = await served.db.kysely
            .selectFrom('audit_log')
            .select(['actor_type', 'resource_id'])
            .where('action', '=', 'retention')
            .where('resource_id', 'is', null)
            .execute();
        }
        expect(entries).toEqual([{ actor_type: 'system', resource_id: null }]);
      } finally {
        await served.close();
      }
    });

    it('runs in the scheduler at most once a day', async () => {
      at(T0 + 500 * DAY);
      const retention = deps();
      const daily = new OnceADay(retention.clock, () => eraseExpired(retention));
      expect(await daily.runIfDue()).toBeDefined();
      at(T0 + 500 * DAY + 23 * 3_600_000);
      expect(await daily.runIfDue()).toBeUndefined();
      at(T0 + 501 * DAY);
      expect(await daily.runIfDue()).toBeDefined();
    });
  });
}
