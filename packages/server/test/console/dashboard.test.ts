import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const PAST = '2026-01-01T00:00:00+00:00';
const FUTURE = '2099-01-01T00:00:00+00:00';

/** The console's start page: the campaigns, newest first, with their progress. */
describe.each(dialects)('console dashboard (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  // Each campaign is made a minute after the one before, so "newest first" has one answer.
  let now = new Date('2026-11-26T09:00:00Z');

  beforeAll(async () => {
    instance = await startInstance(dialect, { clock: () => now });
    browser = await new ConsoleBrowser(instance).signIn();
  });
  afterAll(() => instance?.close());

  const campaign = async (fields: Record<string, unknown>) => {
    now = new Date(now.getTime() + 60_000);
    const response = await instance.call('POST', '/campaigns', {
      body: { variant: 'bigfive', start: PAST, ...fields },
    });
    expect(response.json.status, response.body).toBe('OK');
    return response.json.data.campaignid as string;
  };

  it('shows a first-run page that says what to do while there is no campaign', async () => {
    // The other tests add campaigns to the shared instance, in whatever order they run: an
    // instance of its own is one that has none.
    const empty = await startInstance(dialect);
    try {
      const page = await (await new ConsoleBrowser(empty).signIn()).get('/console');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Run your first assessment – Assay console</title>');
      expect(page.body).toContain('href="/console/campaigns/new"');
      expect(page.body).toContain('aria-current="page">Campaigns');
    } finally {
      await empty.close();
    }
  });

  it('lists campaigns newest first with progress as figures, a bar and words, and failed mails', async () => {
    const active = await campaign({ name: 'Active <script>alert(1)</script>' });
    const members = [];
    for (let i = 0; i < 4; i++) {
      const created = await instance.call('POST', '/members', {
        body: { firstname: `P${i}`, lastname: 'Person', email: email() },
      });
      members.push(created.json.data.memberid as string);
    }
    const added = await instance.call('POST', `/campaigns/${active}/members`, {
      body: { memberids: members },
    });
    expect(added.json.status, added.body).toBe('OK');
    const invited = await instance.call('POST', `/campaigns/${active}/members/invite`, {
      body: { memberids: members.slice(0, 2) },
    });
    expect(invited.json.status, invited.body).toBe('OK');
    await instance.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'failed', last_response: '550 no such mailbox' })
      .where('campaign_id', '=', active)
      .where('member_id', '=', members[0] as string)
      .execute();
    await campaign({ name: 'שאלון עברי' });
    const upcoming = await campaign({ name: 'Next year', start: FUTURE });
    const ended = await campaign({
      name: 'Last year',
      end: '2026-02-01T00:00:00+00:00',
      closingtype: 'date',
    });

    const page = await browser.get('/console');
    expect(page.statusCode).toBe(200);
    const body = page.body;
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(body).toContain('<bdi>Active &lt;script&gt;alert(1)&lt;/script&gt;</bdi>');
    expect(body).toContain('<bdi>שאלון עברי</bdi>');
    // Newest first.
    const order = ['Last year', 'Next year', 'שאלון עברי', 'Active &lt;script'].map((name) =>
      body.indexOf(name),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(body).toContain('0 of 4 completed, 0 started, 2 invited, 2 not invited');
    expect(body).toContain('<rect class="progress__invited" x="0" y="0" width="50" height="10">');
    expect(body).toContain(`href="/console/campaigns/${active}#mail">1 failed mail</a>`);
    expect(body).toContain('No members yet');
    expect(body).toContain('tag--upcoming');
    expect(body).not.toContain(' style=');

    const only = async (status: string) => (await browser.get(`/console?status=${status}`)).body;
    const activeOnly = await only('active');
    expect(activeOnly).toContain(`/console/campaigns/${active}"`);
    expect(activeOnly).not.toContain(`/console/campaigns/${upcoming}"`);
    expect(activeOnly).toContain('href="/console?status&#x3D;active" aria-current="page"');
    const upcomingOnly = await only('upcoming');
    expect(upcomingOnly).toContain(`/console/campaigns/${upcoming}"`);
    expect(upcomingOnly).not.toContain(`/console/campaigns/${active}"`);
    const endedOnly = await only('ended');
    expect(endedOnly).toContain(`/console/campaigns/${ended}"`);
    expect(endedOnly).not.toContain(`/console/campaigns/${upcoming}"`);
    // A filter it does not know shows all, and odd pages are read as the nearest real one.
    expect(await only('bogus')).toContain(`/console/campaigns/${upcoming}"`);
    expect((await browser.get('/console?page=-4')).statusCode).toBe(200);
    expect((await browser.get('/console?page=99999999999999999999')).statusCode).toBe(200);
  });

  it('pages through many campaigns, 50 at a time', async () => {
    // Fifty-one of its own, one more than a page holds, on top of the few the other tests may have
    // made before it (fewer than fifty): two pages, the first all its newest fifty, whatever ran.
    const before = await instance.db.kysely
      .selectFrom('campaigns')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(before.count)).toBeLessThan(50);
    const oldest = await campaign({ name: 'Before the bulk' });
    for (let i = 0; i < 50; i++) await campaign({ name: `Bulk ${String(i).padStart(2, '0')}` });
    const first = await browser.get('/console');
    expect(first.body).toMatch(/Page 1 of 2/);
    expect(first.body).toContain('href="/console?page&#x3D;2" rel="next"');
    expect(first.body).toContain('Bulk 49');
    expect(first.body).not.toContain(`/console/campaigns/${oldest}"`);
    const second = await browser.get('/console?page=2');
    expect(second.body).toContain('Page 2 of 2');
    expect(second.body).toContain('href="/console" rel="prev"');
    expect(second.body).not.toContain('Bulk 49');
    expect(second.body).toContain(`/console/campaigns/${oldest}"`);
  });

  it('speaks the operator’s language with dates in its form', async () => {
    // A campaign of its own, open since 1 January 2026, for the dashboard to list and date.
    await campaign({ name: 'Taaltest' });
    const dutch = await new ConsoleBrowser(instance).signIn();
    await dutch.post('/console/language', { language: 'nlNL', next: '/console' });
    const page = await dutch.get('/console');
    expect(page.body).toContain('<html lang="nl">');
    expect(page.body).toContain('Campagnes, nieuwste eerst');
    expect(page.body).toMatch(/Vanaf 1 jan\.? 2026/);
  });
});
