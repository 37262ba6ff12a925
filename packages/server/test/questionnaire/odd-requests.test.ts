import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { email, type Instance, startInstance } from '../helpers/instance.js';

/**
 * The pages' routes declare TypeBox schemas for their params, query and form, but a page is not an
 * API: an odd request (no body, a repeated or unknown field, JSON instead of a form) gets the page
 * it got before the schemas, never a 400.
 */
describe('odd requests to the participant pages', () => {
  let instance: Instance;
  let token: string;
  beforeAll(async () => {
    instance = await startInstance('sqlite');
    const campaign = await instance.call('POST', '/campaigns', {
      body: { name: 'Team', variant: 'teamscan', start: '2026-01-01T09:00:00+00:00' },
    });
    const campaignid = campaign.json.data.campaignid as string;
    const member = await instance.call('POST', '/members', {
      body: { email: email(), firstname: 'Zoë', lastname: 'Bo' },
    });
    await instance.call('POST', `/campaigns/${campaignid}/members/${member.json.data.memberid as string}`);
    const row = await instance.db.kysely
      .selectFrom('campaign_members')
      .select('token')
      .where('campaign_id', '=', campaignid)
      .executeTakeFirstOrThrow();
    token = row.token;
  });
  afterAll(async () => {
    await instance?.close();
  });

  it('shows a question page whatever else the query holds', async () => {
    for (const query of ['?return=check&return=check', '?foo=1', '?return[a]=1', '?return=']) {
      const page = await instance.app.inject({ method: 'GET', url: `/q/${token}/page/1${query}` });
      expect(page.statusCode, query).toBe(200);
      expect(page.body, query).toContain('<form method="post"');
    }
  });

  it('refuses a post without a form, or with JSON, as a form without its token (403)', async () => {
    const bare = await instance.app.inject({ method: 'POST', url: `/q/${token}/page/1` });
    expect(bare.statusCode).toBe(403);
    const json = await instance.app.inject({
      method: 'POST',
      url: `/q/${token}/check`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ csrf: { nested: true }, Q1: [1] }),
    });
    expect(json.statusCode).toBe(403);
    const raters = await instance.app.inject({ method: 'GET', url: `/q/${token}/raters?added=a&added=b` });
    expect(raters.statusCode).toBe(303);
  });
});
