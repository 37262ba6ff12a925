import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const PAST = '2026-01-01T00:00:00+00:00';

/** The outbox in the console: lists, one mail, retry and send. */
describe.each(dialects)('console mail (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  let campaign: string;
  const statusOf = async (id: string) =>
    (
      await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  beforeAll(async () => {
    instance = await startInstance(dialect);
    browser = await new ConsoleBrowser(instance).signIn();
    const made = await instance.call('POST', '/campaigns', {
      body: { name: 'Mail <b>test</b>', variant: 'bigfive', start: PAST },
    });
    campaign = made.json.data.campaignid;
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const member = await instance.call('POST', '/members', {
        body: {
          firstname: i === 0 ? '<script>x</script>' : `M${i}`,
          lastname: 'Mailed',
          email: email(`mail${i}`),
        },
      });
      ids.push(member.json.data.memberid);
    }
    await instance.call('POST', `/campaigns/${campaign}/members`, { body: { memberids: ids } });
    expect((await instance.call('POST', `/campaigns/${campaign}/members/invite`)).json.status).toBe('OK');
  });
  afterAll(() => instance?.close());

  it('lists the mail newest first with counts per status, filters and older pages', async () => {
    const page = await browser.get('/console/mail');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aria-current="page">Mail</a>');
    expect(page.body).toContain('Queued (60)');
    expect(page.body).toContain('All (60)');
    const older = /href="([^"]*before[^"]*)" rel="next"/
      .exec(page.body)?.[1]
      ?.replaceAll('&amp;', '&')
      .replaceAll('&#x3D;', '=');
    expect(older).toBeDefined();
    const second = await browser.get(older as string);
    expect(second.statusCode).toBe(200);
    expect((second.body.match(/href="\/console\/mail\/[^"/]+"/g) ?? []).length).toBe(10);
    const one = await browser.get(`/console/mail?campaign=${campaign}&status=failed`);
    expect(one.body).toContain('<bdi>Mail of Mail &lt;b&gt;test&lt;/b&gt;</bdi>');
    expect(one.body).toContain('No mail here.');
    expect((await browser.get('/console/mail?campaign=nosuchcamp')).statusCode).toBe(404);
    expect((await browser.get('/console/mail?status=bogus&before=zzz')).statusCode).toBe(200);
  });

  it('shows one mail: headers, state, its text with the link, and its HTML apart under a sandbox', async () => {
    const row = await instance.db.kysely
      .selectFrom('mail_outbox')
      .innerJoin('campaign_members', 'campaign_members.member_id', 'mail_outbox.member_id')
      .select(['mail_outbox.id', 'campaign_members.token'])
      .where('campaign_members.firstname', '=', '<script>x</script>')
      .executeTakeFirstOrThrow();
    const page = await browser.get(`/console/mail/${row.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>x</script>');
    expect(page.body).toContain(`/q/${row.token}`);
    expect(page.body).toContain('Invitation');
    const html = await browser.get(`/console/mail/${row.id}/html`);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    );
    expect(html.body).not.toContain('<script>x</script>');
    expect((await browser.get('/console/mail/nosuchmail')).statusCode).toBe(404);
    expect((await browser.get('/console/mail/nosuchmail/html')).statusCode).toBe(404);
  });

  it('retries a failed mail, all failed mail of a campaign, and refuses a form without its token', async () => {
    const rows = await instance.db.kysely
      .selectFrom('mail_outbox')
      .select('id')
      .orderBy('id')
      .limit(3)
      .execute();
    const ids = rows.map((r) => r.id);
    await instance.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'failed', last_response: '550 5.1.1 <x@example.test>: no such user' })
      .where('id', 'in', ids)
      .execute();
    const page = await browser.get(`/console/mail/${ids[0]}`);
    expect(page.body).toContain('550 5.1.1 &lt;x@example.test&gt;: no such user');
    expect((await browser.post(`/console/mail/${ids[0]}/retry`, {}, null)).statusCode).toBe(403);
    expect(await statusOf(ids[0] as string)).toBe('failed');
    const one = await browser.post(`/console/mail/${ids[0]}/retry`, {});
    expect(one.statusCode).toBe(303);
    expect(await statusOf(ids[0] as string)).toBe('queued');
    const list = await browser.get(`/console/mail?campaign=${campaign}`);
    expect(list.body).toContain('Send 2 failed mails again');
    const all = await browser.post('/console/mail/retry-failed', { campaign });
    expect(all.statusCode).toBe(303);
    expect(all.headers.location).toBe(`/console/mail?campaign=${campaign}&queued=2`);
    expect((await browser.get(all.headers.location as string)).body).toContain(
      '2 mails queued for delivery.',
    );
    for (const id of ids) expect(await statusOf(id)).toBe('queued');
  });

  it('sends captured mail only once SMTP is set, from the console and the command line', async () => {
    const rows = await instance.db.kysely
      .selectFrom('mail_outbox')
      .select('id')
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    const ids = rows.map((r) => r.id);
    await instance.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'captured' })
      .where('id', 'in', ids)
      .execute();
    const page = await browser.get('/console/mail');
    expect(page.body).toContain('Set SMTP_URL and restart Assay to send captured mail.');
    expect(page.body).not.toContain('action="/console/mail/send-captured"');
    await browser.post('/console/mail/send-captured', {});
    for (const id of ids) expect(await statusOf(id)).toBe('captured');

    const store =
      dialect === 'postgres'
        ? ['--database-url', instance.databaseUrl ?? '']
        : ['--data', instance.config.dataDir];
    const refused = await runAssay(['mail', 'retry', '--captured', ...store]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('SMTP_URL is not set');
    expect((await runAssay(['mail', 'retry', '--captured', '--failed', ...store])).code).toBe(2);
    const sent = await runAssay(['mail', 'retry', '--captured', ...store], {
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toBe('2 captured mails queued for delivery\n');
    for (const id of ids) expect(await statusOf(id)).toBe('queued');
  });
});

describe('console mail with SMTP set', () => {
  it('offers to send captured mail and queues it', async () => {
    const instance = await startInstance('sqlite', { env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
    try {
      const browser = await new ConsoleBrowser(instance).signIn();
      const made = await instance.call('POST', '/campaigns', {
        body: { name: 'C', variant: 'bigfive', start: PAST },
      });
      const member = await instance.call('POST', '/members', {
        body: { firstname: 'A', lastname: 'B', email: email('cap') },
      });
      await instance.call('POST', `/campaigns/${made.json.data.campaignid}/members`, {
        body: { memberids: [member.json.data.memberid] },
      });
      await instance.call('POST', `/campaigns/${made.json.data.campaignid}/members/invite`);
      await instance.db.kysely.updateTable('mail_outbox').set({ status: 'captured' }).execute();
      const page = await browser.get('/console/mail');
      expect(page.body).toContain('Send 1 captured mail<');
      const sent = await browser.post('/console/mail/send-captured', {});
      expect(sent.headers.location).toBe('/console/mail?queued=1');
      const row = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('status')
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('queued');
    } finally {
      await instance.close();
    }
  });
});
