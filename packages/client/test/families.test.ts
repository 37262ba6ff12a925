import { Readable } from 'node:stream';
import * as S from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../server/test/helpers/instance.js';
import { expectShape } from '../../server/test/helpers/shapes.js';
import {
  type AssayClient,
  AssayError,
  type CampaignDetail,
  type Group,
  HttpError,
  type MemberDetail,
  parseReportData,
} from '../src/index.js';
import { adminClient, answers360, email, failure, PAST, type Served, serve } from './helpers.js';

const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-';

for (const dialect of dialects) {
  describe(`@assay/client against a real server (${dialect})`, () => {
    let served: Served;
    let client: AssayClient;

    const member = (fields: Partial<Parameters<AssayClient['members']['create']>[0]> = {}) =>
      client.members.create({ email: email(), firstname: 'Ada', lastname: 'Lovelace', ...fields });

    beforeAll(async () => {
      served = await serve(dialect);
      client = adminClient(served);
    });
    afterAll(async () => {
      await served?.close();
    });

    it('members: create, list, get, update, dupecheck, import, delete', async () => {
      const created: MemberDetail = await member({
        firstname: 'José',
        testuser: true,
        extra: { department: 'R&D' },
      });
      expectShape(S.MemberDetail, created);
      expect(created.testuser).toBe(true);
      expect(created.createdon).toMatch(DATE);
      // A typed object: no narrowing needed, the client never gives `[]` for `extra`.
      expect(created.extra.department).toBe('R&D');

      const listed = await client.members.list();
      const row = listed.find((item) => item.memberid === created.memberid);
      expect(row).toBeDefined();
      expectShape(S.MemberListItem, row);
      expect(row?.firstname).toBe('José');

      const got = await client.members.get(created.memberid);
      expect(got).toEqual(created);
      const plain = await member();
      expect(plain.extra).toEqual({});

      const updated = await client.members.update(created.memberid, {
        jobtitle: 'Engineer',
        level: 'employee',
      });
      expect(updated.level).toBe('employee');
      expectShape(S.MemberDetail, updated);

      // The spec's trap: a group field in a member PATCH is refused, as an AssayError.
      const refused = await failure(
        client.members.update(created.memberid, { groupid: 'AAAAAAAAAA' } as never),
      );
      expect(refused).toBeInstanceOf(AssayError);
      expect((refused as AssayError).message).toBe('Access denied');
      expect((refused as AssayError).data).toBe('Access denied');

      // Validation failures are business failures too, with the field in the message.
      const invalid = await failure(
        client.members.create({ email: created.email, firstname: 'A', lastname: 'B' }),
      );
      expect(invalid).toBeInstanceOf(AssayError);
      expect((invalid as AssayError).message).toMatch(/^email: /);

      expect(await client.members.dupecheck(created.email)).toEqual({ duplicate: true });
      expect(await client.members.dupecheck(email('free'))).toEqual({ duplicate: false });

      const imported = await client.members.import({
        members: [
          { email: email('i'), firstname: 'Imp', lastname: 'One' },
          { email: 'not-an-address', firstname: 'Bad', lastname: 'Row' },
        ],
      });
      expectShape(S.MemberImportResult, imported);
      expect(imported.created).toHaveLength(1);
      expect(imported.errors).toEqual([{ row: 2, message: expect.stringMatching(/^email: /) }]);

      const group = await client.groups.create({ name: `CSV ${email()}`, alias: `csv${Date.now()}` });
      const csv = `email,firstname,lastname,testuser\n${email('csv')},Cee,Ess,TRUE\n`;
      const fromCsv = await client.members.importCsv(csv, { groupId: group.groupid });
      expect(fromCsv.created).toHaveLength(1);
      expect(fromCsv.errors).toEqual([]);
      const inGroup = await client.groups.members(group.groupid);
      expect(inGroup.map((item) => item.memberid)).toEqual(fromCsv.created);
      expect(inGroup[0]?.testuser).toBe(true);

      expect(await client.members.reports(created.memberid)).toEqual([]);
      expect(await client.members.campaigns(created.memberid)).toEqual([]);

      await expect(client.members.delete(plain.memberid)).resolves.toBeUndefined();
      const gone = await failure(client.members.get(plain.memberid));
      expect(gone).toBeInstanceOf(HttpError);
      expect((gone as HttpError).status).toBe(404);
      expect((gone as HttpError).code).toBe('not_found');
      expect((gone as HttpError).body).toEqual({ error: 'not_found', message: expect.any(String) });
    });

    it('groups: the tree, members in and out (plural and legacy routes), move, reports and counts', async () => {
      const stamp = Math.random().toString(36).slice(2, 8);
      const parent: Group = await client.groups.create({ name: `Parent ${stamp}`, alias: `parent_${stamp}` });
      expectShape(S.Group, parent);
      expect(parent.created).toMatch(DATE);
      expect(parent.config).toEqual({});
      const child = await client.groups.create({
        name: `Child ${stamp}`,
        alias: `child_${stamp}`,
        parentgroup: parent.groupid,
        type: 'team',
        config: { selfregistration: { signup: true } },
      });
      expect(child.config.selfregistration).toEqual({ signup: true, register: false });

      expect((await client.groups.list()).map((group) => group.groupid)).toEqual(
        expect.arrayContaining([parent.groupid, child.groupid]),
      );
      const tree = await client.groups.tree();
      const node = tree.find((group) => group.groupid === parent.groupid);
      expect(node?.children.map((group) => group.groupid)).toEqual([child.groupid]);

      expect(await client.groups.get(child.groupid)).toEqual(child);
      const renamed = await client.groups.update(child.groupid, { description: 'The team' });
      expect(renamed.description).toBe('The team');
      expect(await client.groups.dupecheck(`parent_${stamp}`)).toEqual({ duplicate: true });
      expect(await client.groups.dupecheck(`free_${stamp}`)).toEqual({ duplicate: false });

      const one = await member();
      const two = await member();
      expect((await client.groups.membersWithoutGroup()).map((item) => item.memberid)).toEqual(
        expect.arrayContaining([one.memberid, two.memberid]),
      );
      await client.groups.addMember(parent.groupid, one.memberid);
      await client.groups.addMemberLegacy(parent.groupid, two.memberid);
      const members = await client.groups.members(parent.groupid);
      expect(members.map((item) => item.memberid).sort()).toEqual([one.memberid, two.memberid].sort());
      for (const item of members) expectShape(S.GroupMember, item);
      const grouped = await client.groups.membersInGroups();
      expect(grouped.find((item) => item.memberid === one.memberid)?.groupid).toBe(parent.groupid);

      // A member in a group cannot be added to another: ERROR; moveMember removes, then adds.
      expect(await failure(client.groups.addMember(child.groupid, one.memberid))).toBeInstanceOf(AssayError);
      await client.groups.moveMember(one.memberid, child.groupid);
      expect((await client.members.get(one.memberid)).groupid).toBe(child.groupid);
      await client.groups.moveMember(one.memberid, child.groupid);
      await client.groups.moveMember(one.memberid, null);
      expect((await client.members.get(one.memberid)).groupid).toBeNull();

      await client.groups.removeMember(parent.groupid, two.memberid);
      expect(await client.groups.members(parent.groupid)).toEqual([]);

      await client.reports.import('leadership360', {
        reports: [{ memberid: two.memberid, answers: answers360(4) }],
      });
      await client.groups.addMember(child.groupid, two.memberid);
      const reports = await client.groups.reports(child.groupid);
      expect(reports).toHaveLength(1);
      expectShape(S.Report, reports[0]);
      const counts = await client.groups.reportCounts(child.groupid);
      expect(counts.leadership360?.personal).toBe('1');
      expect(counts.leadership360?.group).toBe('0');

      // A group with sub-groups cannot go; without them it can.
      expect(await failure(client.groups.delete(parent.groupid))).toBeInstanceOf(AssayError);
      await client.groups.delete(child.groupid);
      await client.groups.delete(parent.groupid);
      expect(((await failure(client.groups.get(parent.groupid))) as HttpError).status).toBe(404);
    });

    it('campaigns: create, read, change, members, dry-run invite and remind, reset, reports', async () => {
      const stamp = Math.random().toString(36).slice(2, 8);
      const campaign: CampaignDetail = await client.campaigns.create({
        name: 'Leadership 2026',
        variant: 'leadership360',
        start: '2026-01-01 09:00',
        alias: `lead_${stamp}`,
      });
      expectShape(S.CampaignDetail, campaign);
      expect(campaign.start).toBe(PAST);
      expect(campaign.status).toBe('active');
      expect(campaign.mailconfig).toEqual({});
      expect(campaign.config.maxparticipants).toBe(-1);
      expect(await client.campaigns.dupecheck(`lead_${stamp}`)).toEqual({ duplicate: true });
      expect(await client.campaigns.dupecheck(`none_${stamp}`)).toEqual({ duplicate: false });

      const listed = (await client.campaigns.list()).find((item) => item.campaignid === campaign.campaignid);
      expectShape(S.CampaignListItem, listed);
      expect(await client.campaigns.get(campaign.campaignid)).toEqual(campaign);
      const changed = await client.campaigns.update(campaign.campaignid, {
        description: 'Yearly',
        reminderoffset: { amount: 1, unit: 'week' },
      });
      expect(changed.description).toBe('Yearly');
      expect(changed.reminderoffset).toEqual({ amount: 1, unit: 'week' });
      const refused = await failure(client.campaigns.update(campaign.campaignid, { variant: 'bigfive' }));
      expect(refused).toBeInstanceOf(AssayError);

      const [a, b, c] = [await member(), await member({ testuser: true }), await member()];
      if (!a || !b || !c) throw new Error('members');
      const added = await client.campaigns.addMembers(campaign.campaignid, {
        memberids: [a.memberid, b.memberid, 'ZZZZZZZZZZ'],
      });
      expect(added).toEqual({
        added: [a.memberid, b.memberid],
        skipped: [{ memberid: 'ZZZZZZZZZZ', reason: 'unknown member' }],
      });
      await client.campaigns.addMember(campaign.campaignid, c.memberid);
      const members = await client.campaigns.members(campaign.campaignid);
      expect(members).toHaveLength(3);
      for (const item of members) expectShape(S.CampaignMemberListItem, item);
      expect(members.find((item) => item.memberid === b.memberid)?.testuser).toBe('1');

      const one = await client.campaigns.getMember(campaign.campaignid, a.memberid);
      expectShape(S.CampaignMember, one);
      expect(one.status).toBe('new');
      expect(one.results).toEqual([]);
      const patched = await client.campaigns.updateMember(campaign.campaignid, a.memberid, {
        extra: { role: 'peer' },
        tags: ['x'],
      });
      expect(patched.extra).toEqual({ role: 'peer' });
      expect(patched.tags).toEqual(['x']);

      // A dry run names the recipients and sends nothing.
      const wouldInvite = await client.campaigns.invite(campaign.campaignid, { dryrun: true });
      expect(wouldInvite.sort()).toEqual([a.memberid, b.memberid, c.memberid].sort());
      expect((await client.campaigns.getMember(campaign.campaignid, a.memberid)).status).toBe('new');
      await expect(
        client.campaigns.invite(campaign.campaignid, { memberids: [a.memberid] }),
      ).resolves.toBeUndefined();
      const invited = await client.campaigns.getMember(campaign.campaignid, a.memberid);
      expect(invited.status).toBe('invited');
      expect(invited.dateinvited).toMatch(DATE);
      expect(await client.campaigns.remind(campaign.campaignid, { dryrun: true })).toEqual([a.memberid]);
      await client.campaigns.remind(campaign.campaignid, { memberids: [a.memberid] });
      expect((await client.campaigns.getMember(campaign.campaignid, a.memberid)).countreminded).toBe('1');
      await client.campaigns.resetMember(campaign.campaignid, a.memberid);
      const reset = await client.campaigns.getMember(campaign.campaignid, a.memberid);
      expect(reset.countreminded).toBe('0');
      expect(reset.token).not.toBe(invited.token);

      const imported = await client.reports.import('leadership360', {
        reports: [{ memberid: c.memberid, answers: answers360(3), campaignid: campaign.campaignid }],
      });
      const reports = await client.campaigns.reports(campaign.campaignid);
      expect(reports.map((report) => report.reportid)).toEqual(imported.created);
      const memberReports = await client.campaigns.memberReports(campaign.campaignid, c.memberid);
      expect(memberReports).toHaveLength(1);
      expectShape(S.MemberReport, memberReports[0]);
      expect(memberReports[0]?.tags).toBe('[]');
      const memberships = await client.members.campaigns(c.memberid);
      expectShape(S.MemberCampaign, memberships[0]);
      expect(memberships[0]?.campaignid).toBe(campaign.campaignid);

      await client.campaigns.removeMember(campaign.campaignid, c.memberid);
      expect(await client.campaigns.members(campaign.campaignid)).toHaveLength(2);
      await client.campaigns.removeAllMembers(campaign.campaignid);
      expect(await client.campaigns.members(campaign.campaignid)).toEqual([]);
      await client.campaigns.delete(campaign.campaignid);
      expect(((await failure(client.campaigns.get(campaign.campaignid))) as HttpError).status).toBe(404);
    });

    it('reports: import, lists, search, filtered, verbatims, summaries, group report, PDF, change, delete', async () => {
      const [a, b, c] = [await member({ lastname: 'Zebulon' }), await member(), await member()];
      if (!a || !b || !c) throw new Error('members');
      const imported = await client.reports.import('leadership360', {
        reports: [
          { memberid: a.memberid, answers: answers360(4, { Remarks1: 'Clear goals' }) },
          { memberid: b.memberid, answers: answers360(2) },
          { email: 'nobody@example.test', answers: answers360(2) },
        ],
      });
      expect(imported.created).toHaveLength(2);
      expect(imported.errors).toEqual([{ row: 3, message: expect.any(String) }]);
      const codes = Array.from({ length: 24 }, (_, i) => `Q${i + 1}`);
      const fromCsv = await client.reports.importCsv(
        'leadership360',
        `memberid,${codes.join(',')}\n${c.memberid},${codes.map(() => '5').join(',')}\n`,
      );
      expect(fromCsv.errors).toEqual([]);
      const [ra, rb] = imported.created as [string, string];
      const rc = fromCsv.created[0] as string;

      const all = await client.reports.list();
      for (const id of [ra, rb, rc])
        expectShape(
          S.Report,
          all.find((report) => report.reportid === id),
        );
      const counts = await client.reports.counts();
      expect(Number(counts.leadership360?.personal)).toBeGreaterThanOrEqual(3);

      const found = await client.reports.search('Zebulon');
      expectShape(S.ReportSearchResult, found);
      expect(found.members.map((item) => item.memberid)).toContain(a.memberid);

      const group = await client.groups.create({ name: `Rep ${rc}`, alias: `rep_${rc}` });
      await client.groups.addMember(group.groupid, a.memberid);
      expect(
        (await client.reports.filtered('leadership360', 'group', group.groupid)).map((r) => r.reportid),
      ).toEqual([ra]);
      const forbidden = await failure(client.reports.filtered('leadership360', 'campaign', group.groupid));
      expect(forbidden).toBeInstanceOf(HttpError);
      expect((forbidden as HttpError).status).toBe(403);

      const verbatims = await client.reports.verbatims([ra, rb]);
      expect(verbatims).toEqual([
        { reportid: ra, code: 'Remarks1', question: expect.any(String), answer: 'Clear goals' },
      ]);
      const none = await failure(client.reports.verbatims([]));
      expect(none).toBeInstanceOf(AssayError);
      expect((none as AssayError).message).toBe('no reports selected');

      const definition = await client.reports.summaryDefinition('leadership360', { language: 'nlNL' });
      expectShape(S.SummaryDefinition, definition);
      const summary = await client.reports.summary({
        variant: 'leadership360',
        selectedReports: [ra, rb, rc],
      });
      expectShape(S.SummaryResult, summary);
      expect(summary.n).toBe(3);

      const made = await client.reports.create({
        reportType: 'group',
        variant: 'leadership360',
        name: 'Team Ω',
        selectedReports: [ra, rb, rc].join(','),
      });
      expectShape(S.Report, made);
      expect(made.type).toBe('group');
      expect(made.config.selectedReports).toBe([ra, rb, rc].join(','));
      expect((await client.reports.usage(ra)).map((report) => report.reportid)).toEqual([made.reportid]);

      const short = await client.reports.short(ra);
      expectShape(S.ReportShort, short);
      const data = await client.reports.data(ra);
      expectShape(S.ReportData, data);
      expect(data.thedate).toMatch(DATE);
      const answers = parseReportData(data);
      expect(answers.raw.Q1).toBe(4);
      expect(answers.raw.Remarks1).toBe('Clear goals');

      // The PDF as a stream, and as bytes.
      const file = await client.reports.pdf(made.reportid);
      expect(file.contentType).toBe('application/pdf');
      expect(file.filename).toMatch(/\.pdf$/);
      const chunks: Buffer[] = [];
      for await (const chunk of Readable.fromWeb(file.body as never)) chunks.push(chunk as Buffer);
      const streamed = Buffer.concat(chunks);
      expect(isPdf(streamed)).toBe(true);
      if (file.size !== undefined) expect(streamed.length).toBe(file.size);
      const bytes = await client.reports.pdfBytes(ra);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(isPdf(bytes)).toBe(true);
      const missing = await failure(client.reports.pdf('ZZZZZZZZZZ'));
      expect((missing as HttpError).status).toBe(404);
      expect((await client.reports.short(ra)).config).toEqual({ extra: {}, campaignparams: {} });

      const renamed = await client.reports.update(made.reportid, {
        name: 'Team Ψ',
        tags: ['q1'],
        testcase: true,
      });
      expect(renamed.name).toBe('Team Ψ');
      expect(renamed.tags).toEqual(['q1']);
      expect(renamed.testcase).toBe('1');
      await expect(client.reports.recalc(ra)).resolves.toBeUndefined();
      const inUse = await failure(client.reports.delete(ra));
      expect(inUse).toBeInstanceOf(AssayError);
      expect((inUse as AssayError).message).toMatch(/used by group report/);
      await client.reports.delete(made.reportid);
      await client.reports.delete(ra);
      expect(((await failure(client.reports.short(ra))) as HttpError).status).toBe(404);
    });

    it('samples and settings', async () => {
      const samples = await client.samples.list();
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of samples) expectShape(S.Sample, sample);
      const sample = samples.find((item) => item.variant === 'teamscan') ?? samples[0];
      if (!sample) throw new Error('no sample');
      const file = await client.samples.pdf(sample.variant, sample.language);
      const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
      expect(isPdf(bytes)).toBe(true);
      expect(isPdf(await client.samples.pdfBytes(sample.variant, sample.language))).toBe(true);

      const config = await client.settings.config();
      expectShape(S.ClientConfig, config);
      expect(config.apiurl).toBe(`${config.url}/api/v1`);
      expectShape(S.ClientConfigShort, await client.settings.configShort());
      const variants = await client.settings.reportVariants();
      expectShape(S.ReportVariants, variants);
      expect(variants.map((variant) => variant.alias)).toEqual(
        expect.arrayContaining(['bigfive', 'leadership360']),
      );
      const structure = await client.settings.datastructure('leadership360', { language: 'frFR' });
      expectShape(S.Datastructure, structure);
      expect(structure.language).toBe('frFR');
      const keys = await client.settings.textKeys('leadership360');
      expect(keys.length).toBeGreaterThan(0);
      const texts = await client.settings.texts('leadership360', 'esES');
      expect(Object.keys(texts)).toEqual(keys);
      expect(((await failure(client.settings.texts('nosuch', 'esES'))) as HttpError).status).toBe(404);
    });

    it('webhooks: create, list, get, update, rotate, test, deliveries, delete', async () => {
      const created = await client.webhooks.create({
        url: 'https://93.184.215.14/hooks',
        events: ['report.created', 'member.deleted'],
        description: 'CRM',
      });
      expect(created.secret).toMatch(/^whsec_/);
      expectShape(S.WebhookWithSecret, created);
      const listed = await client.webhooks.list();
      expect(listed.map((hook) => hook.webhookid)).toContain(created.webhookid);
      expect(JSON.stringify(listed)).not.toContain(created.secret);
      expectShape(S.Webhook, await client.webhooks.get(created.webhookid));
      expect(
        (await client.webhooks.update(created.webhookid, { events: ['campaign.ended'] })).events,
      ).toEqual(['campaign.ended']);
      expect((await client.webhooks.rotate(created.webhookid)).secret).not.toBe(created.secret);
      expect((await client.webhooks.test(created.webhookid)).messageid).toMatch(/^msg_/);
      expect(await client.webhooks.deliveries(created.webhookid)).toEqual([]);
      const refused = await failure(
        client.webhooks.create({ url: 'https://127.0.0.1/', events: ['report.created'] }),
      );
      expect(refused).toBeInstanceOf(AssayError);
      expect((refused as AssayError).message).toMatch(/loopback, private or link-local/);
      await client.webhooks.delete(created.webhookid);
      expect(await failure(client.webhooks.get(created.webhookid))).toBeInstanceOf(HttpError);
    });

    it('a path of its own through request(), with the same errors', async () => {
      const data = await client.request<unknown[]>('GET', '/members', { query: { limit: 1 } });
      expect(Array.isArray(data)).toBe(true);
      const wrongMethod = await failure(client.request('PUT', '/members'));
      expect(wrongMethod).toBeInstanceOf(HttpError);
      expect((wrongMethod as HttpError).status).toBe(405);
      expect((wrongMethod as HttpError).headers.get('allow')).toContain('GET');
    });
  });
}
