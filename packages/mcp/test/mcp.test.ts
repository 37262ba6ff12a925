import type { AssayClient } from '@assay/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, answers360, email, type Served, serve } from '../../client/test/helpers.js';
import { dialects } from '../../server/test/helpers/instance.js';
import { call, connectStdio, data, textOf } from './helpers.js';

const ID = /^[0-9A-Za-z]{10}$/;

/** Every property name of a JSON Schema, at any depth. */
function propertyNames(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) propertyNames(item, found);
  else if (schema && typeof schema === 'object') {
    const record = schema as Record<string, unknown>;
    if (record.properties && typeof record.properties === 'object') {
      for (const name of Object.keys(record.properties)) found.add(name);
    }
    for (const value of Object.values(record)) propertyNames(value, found);
  }
  return found;
}

/** The group tree the tests read: Sales (with Sales North under it) and Research, under the root. */
async function makeGroups(assay: AssayClient) {
  const sales = await assay.groups.create({ name: 'Sales', alias: 'sales', parentgroup: 'root' });
  const north = await assay.groups.create({
    name: 'Sales North',
    alias: 'salesnorth',
    parentgroup: sales.groupid,
  });
  const research = await assay.groups.create({
    name: 'Research',
    alias: 'research',
    parentgroup: 'root',
  });
  return { sales, north, research };
}

/** assay-mcp over stdio, signed in as the instance's all-scopes client. */
const connectAsClient = (served: Served) =>
  connectStdio({
    ASSAY_URL: served.url,
    ASSAY_CLIENT_ID: served.instance.client.client_id,
    ASSAY_CLIENT_SECRET: served.instance.client.client_secret,
  });

for (const dialect of dialects) {
  describe(`assay-mcp over stdio, with the SDK's client, against a real server (${dialect})`, () => {
    let served: Served;
    let assay: AssayClient;
    let mcp: Client;
    let closeMcp: () => Promise<void>;
    const ids = { sales: '', research: '', ana: '', bob: '', others: [] as string[] };

    /** The members mailed at `stage` about a campaign: other tests' campaigns send mail too. */
    const outbox = async (stage: string, campaignId: string) =>
      (
        await served.instance.db.kysely
          .selectFrom('mail_outbox')
          .select('member_id')
          .where('stage', '=', stage)
          .where('campaign_id', '=', campaignId)
          .execute()
      ).map((row) => row.member_id);

    beforeAll(async () => {
      served = await serve(dialect);
      assay = adminClient(served);
      const { sales, north, research } = await makeGroups(assay);
      ids.sales = sales.groupid;
      ids.research = research.groupid;
      const ana = await assay.members.create({ email: email('ana'), firstname: 'Ana', lastname: 'García' });
      const bob = await assay.members.create({ email: email('bob'), firstname: 'Bob', lastname: 'Stone' });
      ids.ana = ana.memberid;
      ids.bob = bob.memberid;
      await assay.groups.addMember(sales.groupid, ana.memberid);
      await assay.groups.addMember(research.groupid, bob.memberid);
      for (const name of ['Chen', 'Dubois', 'Eriksen']) {
        const other = await assay.members.create({ email: email(), firstname: 'Lee', lastname: name });
        await assay.groups.addMember(research.groupid, other.memberid);
        ids.others.push(other.memberid);
      }
      await assay.groups.addMember(
        north.groupid,
        (await assay.members.create({ email: email(), firstname: 'N', lastname: 'Orth' })).memberid,
      );
      await assay.reports.import('leadership360', {
        reports: [
          { memberid: ana.memberid, answers: answers360(4, { Remarks1: 'Clear goals, every week' }) },
          { memberid: bob.memberid, answers: answers360(2, { Remarks1: 'More feedback, please' }) },
          ...ids.others.map((memberid) => ({ memberid, answers: answers360(3) })),
        ],
      });
      ({ client: mcp, close: closeMcp } = await connectAsClient(served));
    });

    afterAll(async () => {
      await closeMcp?.();
      await served?.close();
    });

    it('lists every tool with a title, a description for a model, schemas and annotations, ids in camelCase', async () => {
      expect(mcp.getServerVersion()).toMatchObject({ name: 'assay', version: '0.1.0' });
      expect(mcp.getInstructions()).toMatch(/memberId/);
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [
          'addCampaignMembers',
          'createCampaign',
          'createGroup',
          'createGroupReport',
          'createMember',
          'findMembers',
          'getCampaign',
          'getGroup',
          'getMember',
          'getQuestions',
          'getReport',
          'getVerbatims',
          'importMembers',
          'inviteCampaignMembers',
          'listCampaigns',
          'listGroups',
          'listReports',
          'listVariants',
          'listAuditEntries',
          'moveMember',
          'remindCampaignMembers',
          'summarizeReports',
          'updateMember',
        ].sort(),
      );
      for (const tool of tools) {
        expect(tool.name).toMatch(/^[a-z][A-Za-z]+$/);
        expect(tool.title).toBeTruthy();
        expect(tool.description?.length).toBeGreaterThan(100);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
        if (!tool.annotations?.readOnlyHint) {
          expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
          expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
        }
        const names = [...propertyNames(tool.inputSchema), ...propertyNames(tool.outputSchema)];
        // No wire spelling of an id anywhere: memberId, never memberid.
        expect(
          names.filter((name) => /^(member|group|campaign|report)id/.test(name)),
          tool.name,
        ).toEqual([]);
      }
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('inviteCampaignMembers')?.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: true,
      });
      expect(byName.get('moveMember')?.annotations).toMatchObject({
        readOnlyHint: false,
        idempotentHint: true,
      });
      expect(byName.get('findMembers')?.annotations?.readOnlyHint).toBe(true);
      const { resourceTemplates } = await mcp.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: 'assay://reports/{reportId}/pdf' }),
      ]);
    });

    it('the exchange: find a member, move it, create a campaign, add the group, dry-run the invitation, send it, read a report', async () => {
      // Find by name: case and accents do not matter.
      const found = await data<{
        total: number;
        members: { memberId: string; name: string; group: string }[];
      }>(mcp, 'findMembers', { query: 'ana garcia' });
      expect(found.total).toBe(1);
      expect(found.members[0]).toMatchObject({ memberId: ids.ana, name: 'Ana García', group: 'Sales' });

      const { groups } = await data<{
        groups: { groupId: string; name: string; path: string; depth: number }[];
      }>(mcp, 'listGroups');
      expect(groups.map((group) => group.path)).toEqual(['Research', 'Sales', 'Sales / Sales North']);
      const research = groups.find((group) => group.name === 'Research');
      expect(research?.groupId).toBe(ids.research);

      const moved = await data(mcp, 'moveMember', { memberId: ids.ana, groupId: ids.research });
      expect(moved).toEqual({
        memberId: ids.ana,
        fromGroupId: ids.sales,
        toGroupId: ids.research,
        moved: true,
      });
      expect((await assay.members.get(ids.ana)).groupid).toBe(ids.research);
      expect(await data(mcp, 'moveMember', { memberId: ids.ana, groupId: ids.research })).toMatchObject({
        moved: false,
      });
      const member = await data<{ groupId: string; name: string }>(mcp, 'getMember', { memberId: ids.ana });
      expect(member).toMatchObject({ groupId: ids.research, name: 'Ana García' });

      const created = await data<{ campaign: { campaignId: string; variant: string; autoInvite: string } }>(
        mcp,
        'createCampaign',
        { name: 'Research pulse', variant: 'bigfive', language: 'enUS' },
      );
      const { campaignId } = created.campaign;
      expect(campaignId).toMatch(ID);
      expect(created.campaign).toMatchObject({ variant: 'bigfive', autoInvite: 'none' });

      const added = await data<{ added: string[]; progress: { members: number; new: number } }>(
        mcp,
        'addCampaignMembers',
        { campaignId, groupId: ids.research },
      );
      expect(added.added.sort()).toEqual([ids.ana, ids.bob, ...ids.others].sort());
      expect(added.progress).toMatchObject({ members: 5, new: 5 });

      // The dry run lists the recipients and sends nothing.
      const dry = await data<{
        sent: boolean;
        count: number;
        recipients: { memberId: string; name: string }[];
        next: string;
      }>(mcp, 'inviteCampaignMembers', { campaignId });
      expect(dry).toMatchObject({ sent: false, count: 5 });
      expect(dry.recipients.map((recipient) => recipient.name)).toContain('Ana García');
      expect(dry.next).toMatch(/confirm: true/);
      expect(await outbox('campaign_invitation', campaignId)).toEqual([]);

      // A confirmation must name the recipients, and only ones the dry run would mail.
      const bare = await call(mcp, 'inviteCampaignMembers', { campaignId, confirm: true });
      expect(bare.isError).toBe(true);
      expect(textOf(bare)).toMatch(/dry run/);
      const stranger = await call(mcp, 'inviteCampaignMembers', {
        campaignId,
        confirm: true,
        memberIds: [ids.ana, 'ZZZZZZZZZZ'],
      });
      expect(stranger.isError).toBe(true);
      expect(textOf(stranger)).toMatch(/Nothing was sent.*ZZZZZZZZZZ/);
      expect(await outbox('campaign_invitation', campaignId)).toEqual([]);

      const recipients = dry.recipients.map((recipient) => recipient.memberId);
      const sent = await data(mcp, 'inviteCampaignMembers', {
        campaignId,
        confirm: true,
        memberIds: recipients,
      });
      expect(sent).toMatchObject({ sent: true, count: 5 });
      expect((await outbox('campaign_invitation', campaignId)).sort()).toEqual([...recipients].sort());
      expect(await data(mcp, 'inviteCampaignMembers', { campaignId })).toMatchObject({ count: 0 });
      const progress = await data<{
        campaign: { progress: { invited: number } };
        members: { status: string }[];
      }>(mcp, 'getCampaign', { campaignId });
      expect(progress.campaign.progress.invited).toBe(5);
      expect(progress.members.every((entry) => entry.status === 'invited')).toBe(true);

      // A report: its scores by name, its answers, and its PDF as a resource.
      const listed = await data<{ reports: { reportId: string; type: string; pdfUri: string }[] }>(
        mcp,
        'listReports',
        {
          memberId: ids.ana,
        },
      );
      expect(listed.reports).toHaveLength(1);
      const [report] = listed.reports;
      if (!report) throw new Error('no report');
      const read = await call(mcp, 'getReport', { reportId: report.reportId });
      expect(read.isError).toBeFalsy();
      const content = read.structuredContent as {
        report: { memberName: string };
        scores: { code: string; name: string; score: number | null; band: string | null }[];
        answers: Record<string, number | string>;
      };
      expect(content.report.memberName).toBe('Ana García');
      expect(content.answers).toMatchObject({ Q1: 4, Remarks1: 'Clear goals, every week' });
      expect(content.scores.length).toBeGreaterThan(3);
      for (const score of content.scores) {
        expect(score.name).not.toBe(score.code);
        expect(score.score).toBeGreaterThanOrEqual(0);
      }
      expect(read.content).toContainEqual(
        expect.objectContaining({ type: 'resource_link', uri: report.pdfUri, mimeType: 'application/pdf' }),
      );
      const pdf = await mcp.readResource({ uri: report.pdfUri });
      const blob = (pdf.contents[0] as { blob: string; mimeType: string }).blob;
      expect(pdf.contents[0]?.mimeType).toBe('application/pdf');
      expect(Buffer.from(blob, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    });

    it('members: create (in a group), update, import with errors by row; groups: create and read', async () => {
      // An instance of its own, with groups like the shared one's: the group and the members this
      // test makes would change the groups and the research group the exchange lists.
      const own = await serve(dialect);
      const { client: ownMcp, close } = await connectAsClient(own);
      try {
        const { sales: salesGroup, research } = await makeGroups(adminClient(own));
        const address = email('new');
        const created = await data<{ memberId: string; groupId: string; email: string }>(
          ownMcp,
          'createMember',
          {
            email: address,
            firstName: 'Zoë',
            lastName: 'Ng',
            jobTitle: 'Analyst',
            groupId: salesGroup.groupid,
          },
        );
        expect(created).toMatchObject({ email: address, groupId: salesGroup.groupid });
        const updated = await data(ownMcp, 'updateMember', {
          memberId: created.memberId,
          lastName: 'Ngata',
          level: 'employee',
        });
        expect(updated).toMatchObject({ lastName: 'Ngata', level: 'employee' });
        const byJob = await data<{ members: { memberId: string; jobTitle: string }[] }>(
          ownMcp,
          'findMembers',
          {
            query: 'analyst',
          },
        );
        expect(byJob.members.map((entry) => entry.memberId)).toEqual([created.memberId]);

        const imported = await data<{ created: string[]; errors: { row: number; message: string }[] }>(
          ownMcp,
          'importMembers',
          {
            members: [
              { email: email('imp'), firstName: 'One', lastName: 'Row' },
              { email: address, firstName: 'Again', lastName: 'Twice' },
              { email: email('imp'), firstName: 'Three', lastName: 'Row' },
            ],
            groupId: research.groupid,
          },
        );
        expect(imported.created).toHaveLength(2);
        expect(imported.errors).toEqual([{ row: 2, message: expect.stringMatching(/email/) }]);
        const inResearch = await data<{ total: number }>(ownMcp, 'findMembers', {
          groupId: research.groupid,
          query: 'row',
        });
        expect(inResearch.total).toBe(2);

        const group = await data<{ group: { groupId: string; path: string; depth: number } }>(
          ownMcp,
          'createGroup',
          {
            name: 'Sales South',
            parentGroupId: salesGroup.groupid,
            type: 'team',
          },
        );
        expect(group.group).toMatchObject({ path: 'Sales / Sales South', depth: 1 });
        const sales = await data<{ subgroups: { name: string }[]; members: { memberId: string }[] }>(
          ownMcp,
          'getGroup',
          {
            groupId: salesGroup.groupid,
          },
        );
        expect(sales.subgroups.map((entry) => entry.name).sort()).toEqual(['Sales North', 'Sales South']);
        expect(sales.members.map((entry) => entry.memberId)).toContain(created.memberId);
      } finally {
        await close();
        await own.close();
      }
    });

    it('reports: verbatims, a summary, a group report with its PDF; variants and their questions', async () => {
      // Five reports of its own, in a campaign of its own: other tests import reports of this variant too.
      const { campaignid } = await assay.campaigns.create({
        name: 'Verbatims',
        variant: 'leadership360',
        start: '2026-01-01T09:00:00+00:00',
      });
      const remarks = ['Clear goals, every week', 'More feedback, please'];
      const rows = [];
      for (const [i, lastname] of ['Ash', 'Birch', 'Cedar', 'Dogwood', 'Elm'].entries()) {
        const member = await assay.members.create({ email: email(), firstname: 'Tree', lastname });
        const remark = remarks[i];
        rows.push({
          memberid: member.memberid,
          campaignid,
          answers: remark ? answers360(4 - 2 * i, { Remarks1: remark }) : answers360(3),
        });
      }
      await assay.reports.import('leadership360', { reports: rows });
      const { reports } = await data<{ reports: { reportId: string }[] }>(mcp, 'listReports', {
        campaignId: campaignid,
        variant: 'leadership360',
        type: 'personal',
      });
      const reportIds = reports.map((report) => report.reportId);
      expect(reportIds).toHaveLength(5);
      const { verbatims } = await data<{ verbatims: { answer: string; question: string }[] }>(
        mcp,
        'getVerbatims',
        {
          reportIds,
        },
      );
      expect(verbatims.map((entry) => entry.answer).sort()).toEqual([
        'Clear goals, every week',
        'More feedback, please',
      ]);
      expect(verbatims[0]?.question.length).toBeGreaterThan(5);
      const summary = await data<{ n: number; dimensions: { n: number; mean: number }[] }>(
        mcp,
        'summarizeReports',
        {
          reportIds,
        },
      );
      expect(summary.n).toBe(5);
      expect(summary.dimensions[0]?.n).toBe(5);

      const made = await call(mcp, 'createGroupReport', {
        type: 'groupanon',
        reportIds,
        name: 'Research, anonymous',
      });
      expect(made.isError, textOf(made)).toBeFalsy();
      const groupReport = (
        made.structuredContent as { report: { reportId: string; type: string; name: string; pdfUri: string } }
      ).report;
      expect(groupReport).toMatchObject({ type: 'groupanon', name: 'Research, anonymous' });
      expect(made.content).toContainEqual(
        expect.objectContaining({ type: 'resource_link', uri: groupReport.pdfUri }),
      );
      const read = await data<{ sourceReportIds: string[] }>(mcp, 'getReport', {
        reportId: groupReport.reportId,
      });
      expect(read.sourceReportIds.sort()).toEqual([...reportIds].sort());
      const pdf = await mcp.readResource({ uri: groupReport.pdfUri });
      expect(
        Buffer.from((pdf.contents[0] as { blob: string }).blob, 'base64')
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');

      const { variants } = await data<{
        variants: { variant: string; languages: string[]; roles: { role: string }[] }[];
      }>(mcp, 'listVariants');
      const l360 = variants.find((variant) => variant.variant === 'leadership360');
      expect(l360?.languages).toEqual(expect.arrayContaining(['enUS', 'nlNL', 'esES', 'frFR']));
      expect(l360?.roles.map((role) => role.role)).toContain('self');
      const questions = await data<{
        language: string;
        questions: { code: string; text: string; answers: unknown[] }[];
      }>(mcp, 'getQuestions', { variant: 'bigfive', language: 'frFR' });
      expect(questions.language).toBe('frFR');
      expect(questions.questions.length).toBeGreaterThan(20);
      expect(questions.questions[0]?.answers.length).toBeGreaterThan(1);
    });

    it('summarizes reports with an API key too: the summary changes nothing, so read-only credentials may ask for it', async () => {
      const subject = await assay.members.create({
        email: email('sum'),
        firstname: 'Sue',
        lastname: 'Summary',
      });
      const imported = await assay.reports.import('leadership360', {
        reports: [{ memberid: subject.memberid, answers: answers360(3) }],
      });
      const apiKey = await served.instance.apiKey('reports');
      const keyed = await connectStdio({ ASSAY_URL: served.url, ASSAY_API_KEY: apiKey });
      try {
        const result = await call(keyed.client, 'summarizeReports', { reportIds: imported.created });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect((result.structuredContent as { n: number }).n).toBe(1);
        // A refusal about something else never blames a scope the key has.
        const unknown = await call(keyed.client, 'summarizeReports', {
          reportIds: ['ZZZZZZZZZZ'],
          variant: 'leadership360',
        });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).not.toMatch(/scope/);
      } finally {
        await keyed.close();
      }
    });

    it('campaigns: a dated 360 round, its progress by status, reminders after a dry run, and the 360 report', async () => {
      const subject = await assay.members.create({
        email: email('subject'),
        firstname: 'Sam',
        lastname: 'Subject',
      });
      const raters = [];
      for (const name of ['Manager', 'Peer One', 'Peer Two', 'Peer Three']) {
        raters.push(
          await assay.members.create({ email: email('rater'), firstname: name, lastname: 'Rater' }),
        );
      }
      const { campaign } = await data<{ campaign: { campaignId: string; end: string; closingType: string } }>(
        mcp,
        'createCampaign',
        {
          name: 'Sam 360',
          variant: 'leadership360',
          start: '2026-01-05T08:00:00+01:00',
          end: '2027-02-01T00:00:00Z',
        },
      );
      expect(campaign).toMatchObject({ end: '2027-02-01T00:00:00Z', closingType: 'date' });
      const listed = await data<{ campaigns: { campaignId: string; start: string }[] }>(
        mcp,
        'listCampaigns',
        {
          status: 'active',
        },
      );
      expect(listed.campaigns.find((entry) => entry.campaignId === campaign.campaignId)?.start).toBe(
        '2026-01-05T07:00:00Z',
      );
      const memberIds = [subject.memberid, ...raters.map((rater) => rater.memberid)];
      await data(mcp, 'addCampaignMembers', { campaignId: campaign.campaignId, memberIds });
      // Nobody was invited, so nobody can be reminded.
      expect(await data(mcp, 'remindCampaignMembers', { campaignId: campaign.campaignId })).toMatchObject({
        sent: false,
        count: 0,
      });
      const two = memberIds.slice(0, 2);
      await data(mcp, 'inviteCampaignMembers', { campaignId: campaign.campaignId, memberIds: two });
      await data(mcp, 'inviteCampaignMembers', {
        campaignId: campaign.campaignId,
        confirm: true,
        memberIds: two,
      });
      const dry = await data<{ count: number; recipients: { memberId: string }[] }>(
        mcp,
        'remindCampaignMembers',
        {
          campaignId: campaign.campaignId,
        },
      );
      expect(dry.recipients.map((recipient) => recipient.memberId).sort()).toEqual([...two].sort());
      const before = (await outbox('campaign_reminder', campaign.campaignId)).length;
      await data(mcp, 'remindCampaignMembers', {
        campaignId: campaign.campaignId,
        confirm: true,
        memberIds: two,
      });
      expect((await outbox('campaign_reminder', campaign.campaignId)).length).toBe(before + 2);
      const invited = await data<{
        totalMembers: number;
        members: { status: string; reminders: number }[];
        campaign: { progress: { invited: number; new: number } };
        roles: string[];
      }>(mcp, 'getCampaign', { campaignId: campaign.campaignId, memberStatus: 'invited', limit: 1 });
      expect(invited.totalMembers).toBe(2);
      expect(invited.members).toEqual([expect.objectContaining({ status: 'invited', reminders: 1 })]);
      expect(invited.campaign.progress).toMatchObject({ invited: 2, new: 3 });
      expect(invited.roles).toEqual(expect.arrayContaining(['self', 'manager', 'peer']));

      const roles = ['manager', 'peer', 'peer', 'peer'];
      const imported = await assay.reports.import('leadership360', {
        reports: [
          {
            memberid: subject.memberid,
            answers: answers360(4),
            role: 'self',
            campaignid: campaign.campaignId,
          },
          ...raters.map((rater, i) => ({
            memberid: rater.memberid,
            answers: answers360(3),
            role: roles[i],
            campaignid: campaign.campaignId,
          })),
        ],
      });
      const [self, ...others] = imported.created;
      const made = await call(mcp, 'createGroupReport', {
        type: 'group',
        reportIds: others,
        selfReportId: self,
        campaignId: campaign.campaignId,
      });
      expect(made.isError, textOf(made)).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ report: { type: 'group', memberId: subject.memberid } });
      const wrong = await call(mcp, 'createGroupReport', {
        type: 'group',
        reportIds: others.slice(1),
        selfReportId: others[0],
      });
      expect(textOf(wrong)).toMatch(
        /selectedReportsMaster: .* is a manager report, not the subject's self report/,
      );
    });

    it('answers bad arguments and refusals as tool errors a model can act on, and keeps serving', async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['getMember', { memberId: 'short' }, /Invalid arguments for getMember: memberId: must match pattern/],
        ['getMember', {}, /missing "memberId"/],
        [
          'findMembers',
          { name: 'Ana' },
          /unknown argument "name" \(this tool takes query, groupId, limit, offset\)/,
        ],
        ['findMembers', { limit: 0 }, /limit: must be >= 1/],
        ['getMember', { memberId: 'ZZZZZZZZZZ' }, /Not found: GET \/members\/ZZZZZZZZZZ/],
        [
          'createCampaign',
          { name: 'X', variant: 'nosuchvariant' },
          /Assay refused POST \/campaigns: variant/,
        ],
        [
          'createCampaign',
          { name: 'X', variant: 'bigfive', start: 'next tuesday' },
          /start: "next tuesday" is not a date/,
        ],
        [
          'createMember',
          { email: 'not-an-address', firstName: 'A', lastName: 'B' },
          /email: must match format/,
        ],
        ['updateMember', { memberId: ids.bob }, /Nothing to change/],
        ['listReports', { memberId: ids.bob, groupId: ids.research }, /at most one/],
        ['addCampaignMembers', { campaignId: 'ZZZZZZZZZZ', memberIds: [ids.bob] }, /Not found/],
      ];
      for (const [name, args, message] of cases) {
        const result = await call(mcp, name, args);
        expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(textOf(result)).toMatch(message);
        expect(textOf(result)).not.toMatch(/\n\s+at /);
      }
      const duplicate = await call(mcp, 'createMember', {
        email: (await assay.members.get(ids.bob)).email,
        firstName: 'Bob',
        lastName: 'Again',
      });
      expect(textOf(duplicate)).toMatch(/Assay refused POST \/members: email/);
      await expect(mcp.callTool({ name: 'deleteEverything', arguments: {} })).rejects.toThrow(McpError);
      await expect(mcp.readResource({ uri: 'assay://reports/ZZZZZZZZZZ/pdf' })).rejects.toThrow(/Not found/);
      await expect(mcp.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/Unknown resource/);
      // Still serving.
      expect((await data<{ total: number }>(mcp, 'findMembers', { query: 'stone' })).total).toBe(1);
    });
  });
}

describe('assay-mcp with an API key, or an instance that is not there', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve('sqlite');
  });
  afterAll(async () => served?.close());

  it('offers only the read tools with ASSAY_API_KEY', async () => {
    const apiKey = await served.instance.apiKey();
    const { client, close } = await connectStdio({ ASSAY_URL: served.url, ASSAY_API_KEY: apiKey });
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBe(13);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect((await data<{ total: number }>(client, 'findMembers')).total).toBe(0);
      await expect(client.callTool({ name: 'createMember', arguments: {} })).rejects.toThrow(/only reads/);
    } finally {
      await close();
    }
  });

  it('says which scope is missing', async () => {
    const apiKey = await served.instance.apiKey('members');
    const { client, close } = await connectStdio({ ASSAY_URL: served.url, ASSAY_API_KEY: apiKey });
    try {
      const result = await call(client, 'listCampaigns');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/needs the "campaigns" scope/);
    } finally {
      await close();
    }
  });

  it('answers a tool error when the instance cannot be reached, and when the credentials are wrong', async () => {
    const down = await connectStdio({
      ASSAY_URL: 'http://127.0.0.1:9',
      ASSAY_CLIENT_ID: 'x',
      ASSAY_CLIENT_SECRET: 'y',
    });
    try {
      const result = await call(down.client, 'listGroups');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Could not reach the Assay instance at http:\/\/127.0.0.1:9/);
    } finally {
      await down.close();
    }
    const wrong = await connectStdio({
      ASSAY_URL: served.url,
      ASSAY_CLIENT_ID: 'nobody',
      ASSAY_CLIENT_SECRET: 'wrong',
    });
    try {
      const result = await call(wrong.client, 'listGroups');
      expect(textOf(result)).toMatch(/refused the credentials.*ASSAY_CLIENT_ID/);
    } finally {
      await wrong.close();
    }
  });
});
