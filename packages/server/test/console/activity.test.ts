import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_LIMIT, campaignActivity } from '../../src/campaigns/activity.service.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { addToCampaign, FUTURE, makeCampaign, makeMembers } from './campaign-fixtures.js';

/** A campaign's activity on its page: what the tables keep, newest first, at most 20 entries. */
describe.each(dialects)('console campaign activity (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    instance = await startInstance(dialect);
    browser = await new ConsoleBrowser(instance).signIn();
  });
  afterAll(() => instance?.close());

  it('shows creation and its creator, members added per day, invitations queued, the end date', async () => {
    const id = await makeCampaign(instance, { name: 'Activity', end: FUTURE, closingtype: 'date' });
    const admin = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.test')
      .executeTakeFirstOrThrow();
    await instance.db.kysely
      .updateTable('users')
      .set({ firstname: '<b>Ann</b>', lastname: 'אבי' })
      .where('id', '=', admin.id)
      .execute();
    await instance.db.kysely
      .updateTable('campaigns')
      .set({ creator: admin.id })
      .where('id', '=', id)
      .execute();
    await addToCampaign(instance, id, await makeMembers(instance, 3));
    const sent = await browser.post(`/console/campaigns/${id}/invite`, {});
    expect(sent.statusCode).toBe(303);

    const page = await browser.get(`/console/campaigns/${id}`);
    expect(page.statusCode).toBe(200);
    const section = /<section class="activity"[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? '';
    expect(section).toContain('<h2 class="heading-m" id="activity-heading">Activity</h2>');
    expect(section).toContain('Campaign created by <bdi>&lt;b&gt;Ann&lt;/b&gt; אבי</bdi>');
    expect(section).not.toContain('<b>Ann');
    expect(section).toContain('3 members added');
    expect(section).toContain('3 invitations queued');
    expect(section).toContain('The campaign ends');
    // Newest first: the end date (in the future), the invitations, the members, the creation.
    const order = ['The campaign ends', '3 invitations queued', '3 members added', 'Campaign created'].map(
      (text) => section.indexOf(text),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(section).toMatch(/<time class="activity__date" datetime="\d{4}-\d{2}-\d{2}">/);
  });

  it('is in the console language and keeps to the latest entries', async () => {
    const id = await makeCampaign(instance, { name: 'Many days' });
    const ids = await makeMembers(instance, ACTIVITY_LIMIT + 5);
    await addToCampaign(instance, id, ids);
    // Spread the additions over 25 days, as if added one a day.
    for (const [i, member] of ids.entries()) {
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({ created: new Date(Date.UTC(2026, 0, 1 + i, 9)).toISOString() })
        .where('campaign_id', '=', id)
        .where('member_id', '=', member)
        .execute();
    }
    const entries = await campaignActivity(instance.db.kysely, id, new Date());
    expect(entries).toHaveLength(ACTIVITY_LIMIT);
    expect(entries[0]?.kind).toBe('created');
    expect(entries.slice(1).every((entry) => entry.kind === 'members-added')).toBe(true);

    await browser.post('/console/language', { language: 'nlNL', next: `/console/campaigns/${id}` });
    const page = await browser.get(`/console/campaigns/${id}`);
    expect(page.body).toContain('id="activity-heading">Activiteit</h2>');
    expect(page.body).toContain('1 deelnemer toegevoegd');
    expect(page.body).toContain('Campagne aangemaakt');
    await browser.post('/console/language', { language: 'enUS', next: '/console' });
  });

  it('answers nothing for a campaign that is gone', async () => {
    expect(await campaignActivity(instance.db.kysely, 'nosuchcamp', new Date())).toEqual([]);
  });
});
