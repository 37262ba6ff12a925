import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { variant } from '../questionnaire/fixtures.js';

/** The README's section "Run your first assessment with the API", as written. */
const README = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const WALKTHROUGH = README.slice(
  README.indexOf('## Run your first assessment with the API'),
  README.indexOf('\n## ', README.indexOf('## Run your first assessment with the API') + 5),
);

/**
 * Follows the README's API walkthrough call by call, against a real instance: each call below is
 * in the README's words (the test fails if the README stops making it), and the participant's part
 * (the mail's link, the questionnaire) is done as the README says.
 */
describe.each(dialects)('the README’s API walkthrough (%s)', (dialect) => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance(dialect);
  });
  afterAll(() => instance?.close());

  /** A call of the walkthrough: the README shows it (method and path), and it answers OK. */
  async function step(method: string, readmeCall: string, url: string, body?: unknown) {
    expect(WALKTHROUGH, `the README no longer shows ${readmeCall}`).toContain(readmeCall);
    const token = await instance.token('members campaigns reports');
    return instance.call(method, url, { body, auth: `Bearer ${token}` });
  }

  it('goes from a token to the report, as the README says', async () => {
    const member = await step('POST', '-X POST $API/members', '/members', {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
    });
    expect(member.json.status, member.body).toBe('OK');
    const memberid = member.json.data.memberid as string;

    const start = `${new Date().toISOString().slice(0, 19)}Z`;
    const campaign = await step('POST', '-X POST $API/campaigns ', '/campaigns', {
      name: 'First assessment',
      variant: 'bigfive',
      start,
    });
    expect(campaign.json.status, campaign.body).toBe('OK');
    const campaignid = campaign.json.data.campaignid as string;

    const added = await step(
      'POST',
      '-X POST $API/campaigns/$CAMPAIGN/members ',
      `/campaigns/${campaignid}/members`,
      {
        memberids: [memberid],
      },
    );
    expect(added.json.data.added).toEqual([memberid]);

    const who = await step(
      'POST',
      '/members/invite -H "$AUTH" -H "$JSON" -d \'{"dryrun":true}\'',
      `/campaigns/${campaignid}/members/invite`,
      {
        dryrun: true,
      },
    );
    expect(who.json.data).toEqual([memberid]);
    const invited = await step(
      'POST',
      '-X POST $API/campaigns/$CAMPAIGN/members/invite -H "$AUTH"\n',
      `/campaigns/${campaignid}/members/invite`,
    );
    expect(invited.json).toEqual({ status: 'OK', data: '' });

    // Without SMTP the invitation is captured: the command line shows it, with the link.
    expect(WALKTHROUGH).toContain('npx assay mail list --campaign $CAMPAIGN');
    const store =
      dialect === 'postgres'
        ? ['--database-url', instance.databaseUrl ?? '']
        : ['--data', instance.config.dataDir];
    const mailId = await instance.db.kysely
      .selectFrom('mail_outbox')
      .select('id')
      .where('campaign_id', '=', campaignid)
      .executeTakeFirstOrThrow();
    const list = await runAssay(['mail', 'list', '--campaign', campaignid, ...store]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(mailId.id);
    const shown = await runAssay(['mail', 'show', mailId.id, ...store]);
    expect(shown.code, shown.stderr).toBe(0);
    const link = /https?:\/\/[^\s]+\/q\/([A-Za-z0-9_-]{20,})/.exec(shown.stdout);
    expect(link, shown.stdout).not.toBeNull();
    const token = link?.[1] as string;

    // The participant answers every page and sends.
    const browser = new FormBrowser(instance);
    await browser.get(`/q/${token}/page/1`);
    for (const [index, page] of variant('bigfive').pages.entries()) {
      const answers = Object.fromEntries(
        page.questions.filter((q) => q.type !== 'text').map((q) => [q.code, '3']),
      );
      const posted = await browser.post(`/q/${token}/page/${index + 1}`, { ...answers, action: 'continue' });
      expect(posted.statusCode, `page ${index + 1}`).toBe(303);
    }
    await browser.get(`/q/${token}/check`);
    expect((await browser.post(`/q/${token}/check`, { action: 'send' })).headers.location).toBe(
      `/q/${token}/done`,
    );

    const members = await step(
      'GET',
      'curl -s $API/campaigns/$CAMPAIGN/members -H "$AUTH"',
      `/campaigns/${campaignid}/members`,
    );
    expect(WALKTHROUGH).toContain('.data[0].results.reportid');
    const reportid = members.json.data[0].results.reportid as string;
    expect(members.json.data[0].status).toBe('completed');
    const pdf = await step(
      'GET',
      'curl -s $API/reports/$REPORT -H "$AUTH" -o report.pdf',
      `/reports/${reportid}`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
  });
});
