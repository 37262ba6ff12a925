import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participantActor } from '../../src/audit/actor.js';
import { recordChange } from '../../src/audit/audit.service.js';
import { findCampaignMember } from '../../src/campaigns/campaign-members.repository.js';
import { findCampaign } from '../../src/campaigns/campaigns.repository.js';
import { completeParticipation } from '../../src/campaigns/completion.service.js';
import { MailDelivery } from '../../src/mail/delivery.js';
import { checkAnswers } from '../../src/reports/answers.js';
import { loadInstanceVariants } from '../../src/variants/load-variants.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { multipartForm } from '../helpers/multipart-form.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

/** leadership360 answers: every likert item, and a remark only this person wrote. */
function answers360(remark: string) {
  const answers: Record<string, number | string> = {};
  for (let i = 1; i <= 24; i++) answers[`Q${i}`] = (i % 5) + 1;
  return { ...answers, Remarks1: remark };
}

const unique = () => Math.random().toString(36).slice(2, 10);

for (const dialect of dialects) {
  describe(`a member's data export and erasure (${dialect})`, () => {
    let instance: Instance;
    let sink: SmtpSink;
    let delivery: MailDelivery;
    let campaignid: string;
    const variants = () => loadInstanceVariants(instance.config);
    /** The flags that point the command line at the instance's database. */
    const where = () =>
      instance.databaseUrl ? ['--database-url', instance.databaseUrl] : ['--data', instance.config.dataDir];

    beforeAll(async () => {
      sink = await startSmtpSink();
      instance = await startInstance(dialect, {
        env: { SMTP_URL: sink.url, ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' },
      });
      delivery = new MailDelivery({
        db: instance.db.kysely,
        dialect,
        variants: variants(),
        smtpUrl: sink.url,
        mailFrom: instance.config.mailFrom,
        clock: () => new Date(),
      });
      const hook = await instance.call('POST', '/webhooks', {
        body: { url: 'http://127.0.0.1:9/hook', events: ['campaignmember.completed', 'member.deleted'] },
      });
      expect(hook.json.status, hook.body).toBe('OK');
      const made = await instance.call('POST', '/campaigns', {
        body: { name: 'Rights', variant: 'leadership360', start: '2026-01-01T09:00:00+00:00' },
      });
      campaignid = made.json.data.campaignid;
    }, 60_000);
    afterAll(async () => {
      await delivery?.stop();
      await instance?.close();
      await sink?.close();
    });

    /**
     * A person with everything the platform can hold: a group, a completed campaign place with a
     * remark, a personal report, a delivered invitation, a webhook event and an audit entry.
     */
    async function person() {
      const tag = unique();
      const who = {
        email: `rights.${tag}@example.test`,
        firstname: `Zebedee${tag}`,
        lastname: `Quuxley${tag}`,
        remark: `my secret remark ${tag}`,
      };
      const member = await instance.call('POST', '/members', {
        body: { email: who.email, firstname: who.firstname, lastname: who.lastname },
      });
      const memberid = member.json.data.memberid as string;
      const group = await instance.call('POST', '/groups', {
        body: { name: `Group ${tag}`, alias: `g-${tag}` },
      });
      expect(group.json.status, group.body).toBe('OK');
      const groupid = group.json.data.groupid as string;
      const joined = await instance.call('POST', `/groups/${groupid}/members/${memberid}`);
      expect(joined.json.status, joined.body).toBe('OK');
      await instance.call('POST', `/campaigns/${campaignid}/members`, { body: { memberids: [memberid] } });
      const invited = await instance.call('POST', `/campaigns/${campaignid}/members/invite`);
      expect(invited.json.status, invited.body).toBe('OK');
      const before = sink.received.length;
      while ((await delivery.runOnce()) > 0) {}
      expect(sink.received.length).toBeGreaterThan(before);
      const db = instance.db.kysely;
      const campaign = await findCampaign(db, campaignid);
      const variant = variants().get('leadership360');
      if (!campaign || !variant) throw new Error('no campaign');
      const reportid = await db.transaction().execute(async (trx) => {
        const place = await findCampaignMember(trx, campaignid, memberid);
        if (!place) throw new Error('not a member');
        const deps = {
          db,
          dialect,
          variants: variants(),
          config: instance.config,
          clock: () => new Date(),
          mailQueued: () => {},
          campaignsDue: () => {},
        };
        const id = await completeParticipation(
          deps,
          trx,
          campaign,
          place,
          checkAnswers(variant, answers360(who.remark)),
          participantActor(memberid, '192.0.2.7'),
        );
        await recordChange(trx, participantActor(memberid, '192.0.2.7'), {
          resource: 'answers',
          id: memberid,
          action: 'complete',
        });
        return id;
      });
      return { ...who, memberid, groupid, reportid };
    }

    /** The tables (PostgreSQL) or database files (SQLite) that still hold `needle`. */
    async function whereFound(needle: string): Promise<string[]> {
      if (dialect === 'sqlite') {
        const base = path.join(instance.config.dataDir, 'assay.sqlite');
        const bytes = Buffer.from(needle, 'utf8');
        return [base, `${base}-wal`].filter(
          (file) => fs.existsSync(file) && fs.readFileSync(file).includes(bytes),
        );
      }
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(instance.db.kysely);
      const found: string[] = [];
      for (const { table_name } of tables.rows) {
        const hits = await sql<{ n: string }>`
          select count(*) as n from ${sql.table(table_name)} as t where lower(t::text) like ${`%${needle.toLowerCase()}%`}`.execute(
          instance.db.kysely,
        );
        if (Number(hits.rows[0]?.n) > 0) found.push(table_name);
      }
      return found;
    }

    it('exports everything held about a person as one document, by e-mail or id, to stdout or a file', async () => {
      const who = await person();
      const out = await runAssay(['members', 'export-data', who.email.toUpperCase(), ...where()]);
      expect(out.code, out.stderr).toBe(0);
      const document = JSON.parse(out.stdout);
      expect(document.format).toBe('assay-member-data/1');
      expect(document.member).toMatchObject({
        memberid: who.memberid,
        email: who.email,
        firstname: who.firstname,
        lastname: who.lastname,
      });
      expect(document.group).toEqual({ groupid: who.groupid, name: expect.stringMatching(/^Group /) });
      expect(document.participations).toHaveLength(1);
      expect(document.participations[0]).toMatchObject({
        campaignid,
        campaign: 'Rights',
        status: 'completed',
        results: { reportid: who.reportid },
      });
      expect(document.reports).toHaveLength(1);
      expect(document.reports[0]).toMatchObject({ reportid: who.reportid, type: 'personal', campaignid });
      expect(document.reports[0].answers.Remarks1).toBe(who.remark);
      expect(typeof document.reports[0].scores.VIS_score).toBe('number');
      const invitation = document.mails.find(
        (mail: { stage: string }) => mail.stage === 'campaign_invitation',
      );
      expect(invitation).toMatchObject({ recipient: who.email, status: 'sent' });
      expect(invitation.subject).toEqual(expect.any(String));
      expect(invitation.subject.length).toBeGreaterThan(0);
      expect(invitation.sent).toEqual(expect.any(String));
      expect(document.webhookevents).toEqual([
        expect.objectContaining({
          event: 'campaignmember.completed',
          body: expect.objectContaining({ data: expect.objectContaining({ memberid: who.memberid }) }),
        }),
      ]);
      expect(document.audit).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            actor: 'member',
            actorid: who.memberid,
            address: '192.0.2.7',
            action: 'complete',
          }),
        ]),
      );

      const file = path.join(instance.config.dataDir, `export-${unique()}.json`);
      const written = await runAssay(['members', 'export-data', who.memberid, '--out', file, ...where()]);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stdout).toBe(`wrote the data of the member to ${file}\n`);
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).member.memberid).toBe(who.memberid);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      fs.rmSync(file);
    }, 60_000);

    it('refuses unknown members, malformed addresses and a missing argument', async () => {
      const unknownId = await runAssay(['members', 'export-data', 'nosuchid00', ...where()]);
      expect(unknownId).toMatchObject({ code: 1, stdout: '' });
      expect(unknownId.stderr).toContain('member not found');
      const unknownEmail = await runAssay(['members', 'erase', 'nobody@example.test', '--yes', ...where()]);
      expect(unknownEmail.code).toBe(1);
      expect(unknownEmail.stderr).toContain('member not found');
      for (const bad of ['a@@b', '@example.test', 'x@y']) {
        const refused = await runAssay(['members', 'export-data', bad, ...where()]);
        expect(refused.code, bad).toBe(1);
        expect(refused.stderr).toContain(`member: ${JSON.stringify(bad)} is not an e-mail address`);
      }
      const missing = await runAssay(['members', 'erase', ...where()]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('members erase needs the member id or e-mail address');
    });

    it('erases through the API: nothing left names them, the event and audit entry hold ids only', async () => {
      const who = await person();
      // An operator's import file naming them, kept between its check page and the confirmation.
      const browser = await new ConsoleBrowser(instance).signIn();
      const { payload, contentType } = multipartForm({
        csrf: browser.csrf,
        pasted: `email,firstname,lastname\n${who.email},${who.firstname},${who.lastname}\nother.${unique()}@example.test,O,P`,
      });
      const checked = await instance.app.inject({
        method: 'POST',
        url: '/console/members/import',
        headers: {
          'content-type': contentType,
          cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        },
        payload,
      });
      expect(checked.statusCode, checked.body).toBeLessThan(400);
      const uploads = () => instance.db.kysely.selectFrom('console_uploads').select('id').execute();
      expect(await uploads()).toHaveLength(1);
      for (const needle of [who.email, who.firstname, who.lastname, who.remark]) {
        expect(await whereFound(needle), needle).not.toEqual([]);
      }
      const response = await instance.call('DELETE', `/members/${who.memberid}`);
      expect(response.statusCode).toBe(200);
      expect(response.json).toEqual({ status: 'OK', data: '' });
      for (const needle of [who.email, who.firstname, who.lastname, who.remark]) {
        expect(await whereFound(needle), needle).toEqual([]);
      }
      expect(await uploads()).toEqual([]);
      const db = instance.db.kysely;
      expect(await db.selectFrom('reports').select('id').where('id', '=', who.reportid).execute()).toEqual(
        [],
      );
      const deleted = await db
        .selectFrom('webhook_outbox')
        .select('payload')
        .where('event_type', '=', 'member.deleted')
        .where('order_key', '=', who.memberid)
        .execute();
      expect(deleted).toHaveLength(1);
      const erased = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('resource_id', '=', who.memberid)
        .where('action', '=', 'erase')
        .execute();
      expect(erased).toEqual([
        expect.objectContaining({
          resource_type: 'member',
          actor_type: 'client',
          channel: 'api',
          fields: null,
        }),
      ]);
      // Twice: the member is gone.
      const again = await instance.call('DELETE', `/members/${who.memberid}`);
      expect(again.statusCode).toBe(404);
    }, 60_000);

    it('erases through the command line only with --yes, then nothing left names them', async () => {
      const who = await person();
      const unconfirmed = await runAssay(['members', 'erase', who.email, ...where()]);
      expect(unconfirmed.code).toBe(1);
      expect(unconfirmed.stderr).toContain(`member ${who.memberid} and everything held about them`);
      expect(unconfirmed.stderr).toContain('--yes');
      expect((await instance.call('GET', `/members/${who.memberid}`)).json.data.email).toBe(who.email);
      const erased = await runAssay(['members', 'erase', who.email, '--yes', ...where()]);
      expect(erased.code, erased.stderr).toBe(0);
      expect(erased.stdout).toMatch(
        new RegExp(`^erased member ${who.memberid}: 1 campaign places, 1 reports, \\d+ mails\\n$`),
      );
      for (const needle of [who.email, who.firstname, who.lastname, who.remark]) {
        expect(await whereFound(needle), needle).toEqual([]);
      }
      const entry = await instance.db.kysely
        .selectFrom('audit_log')
        .select(['actor_type', 'channel'])
        .where('resource_id', '=', who.memberid)
        .where('action', '=', 'erase')
        .execute();
      expect(entry).toEqual([{ actor_type: 'cli', channel: 'cli' }]);
      const twice = await runAssay(['members', 'erase', who.memberid, '--yes', ...where()]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toContain('member not found');
    }, 60_000);
  });
}
