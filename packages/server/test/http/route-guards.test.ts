import { SCOPES } from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familiesOf } from '../../src/http/route-guard.js';
import { type Instance, startInstance } from '../helpers/instance.js';

/** The routes that check what they need themselves: the token, the authorize page and the document. */
const PUBLIC = [
  'POST /api/v1/auth/access_token',
  'GET /api/v1/auth/authorize',
  'HEAD /api/v1/auth/authorize',
  'POST /api/v1/auth/authorize',
  'GET /api/v1/openapi.json',
  'HEAD /api/v1/openapi.json',
];

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// What guards a route does not depend on the database: SQLite only.
describe('every /api/v1 route declares what guards it', () => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance('sqlite');
  });
  afterAll(async () => {
    await instance?.close();
  });

  it('lists every route with its guard: its family (the first path segment) or one of the public routes', () => {
    const routes = instance.app.apiRoutes;
    const lines = [...routes]
      .sort((a, b) => order(a.url, b.url) || order(a.method, b.method))
      .map(
        ({ method, url, guard, access }) =>
          `${method} ${url} ${guard === 'public' ? guard : familiesOf(guard).join(' + ')}${access === 'read' && method !== 'GET' && method !== 'HEAD' ? ' (changes nothing)' : ''}`,
      );
    // The whole list, so that a new route and its guard show in review.
    expect(lines).toMatchInlineSnapshot(`
      [
        "GET /api/v1/audit audit",
        "HEAD /api/v1/audit audit",
        "POST /api/v1/auth/access_token public",
        "GET /api/v1/auth/authorize public",
        "HEAD /api/v1/auth/authorize public",
        "POST /api/v1/auth/authorize public",
        "GET /api/v1/campaigns campaigns",
        "HEAD /api/v1/campaigns campaigns",
        "POST /api/v1/campaigns campaigns",
        "DELETE /api/v1/campaigns/:campaignid campaigns",
        "GET /api/v1/campaigns/:campaignid campaigns",
        "HEAD /api/v1/campaigns/:campaignid campaigns",
        "PATCH /api/v1/campaigns/:campaignid campaigns",
        "GET /api/v1/campaigns/:campaignid/export campaigns + reports",
        "HEAD /api/v1/campaigns/:campaignid/export campaigns + reports",
        "GET /api/v1/campaigns/:campaignid/members campaigns",
        "HEAD /api/v1/campaigns/:campaignid/members campaigns",
        "POST /api/v1/campaigns/:campaignid/members campaigns",
        "DELETE /api/v1/campaigns/:campaignid/members/:memberid campaigns",
        "GET /api/v1/campaigns/:campaignid/members/:memberid campaigns",
        "HEAD /api/v1/campaigns/:campaignid/members/:memberid campaigns",
        "PATCH /api/v1/campaigns/:campaignid/members/:memberid campaigns",
        "POST /api/v1/campaigns/:campaignid/members/:memberid campaigns",
        "GET /api/v1/campaigns/:campaignid/members/:memberid/reports campaigns",
        "HEAD /api/v1/campaigns/:campaignid/members/:memberid/reports campaigns",
        "PATCH /api/v1/campaigns/:campaignid/members/:memberid/reset campaigns",
        "DELETE /api/v1/campaigns/:campaignid/members/all campaigns",
        "POST /api/v1/campaigns/:campaignid/members/invite campaigns",
        "POST /api/v1/campaigns/:campaignid/members/remind campaigns",
        "GET /api/v1/campaigns/:campaignid/reports campaigns",
        "HEAD /api/v1/campaigns/:campaignid/reports campaigns",
        "POST /api/v1/campaigns/dupecheck campaigns (changes nothing)",
        "GET /api/v1/groups groups",
        "HEAD /api/v1/groups groups",
        "POST /api/v1/groups groups",
        "DELETE /api/v1/groups/:groupid groups",
        "GET /api/v1/groups/:groupid groups",
        "HEAD /api/v1/groups/:groupid groups",
        "PATCH /api/v1/groups/:groupid groups",
        "POST /api/v1/groups/:groupid/member/:memberid groups",
        "GET /api/v1/groups/:groupid/members groups",
        "HEAD /api/v1/groups/:groupid/members groups",
        "DELETE /api/v1/groups/:groupid/members/:memberid groups",
        "POST /api/v1/groups/:groupid/members/:memberid groups",
        "GET /api/v1/groups/:groupid/reports groups",
        "HEAD /api/v1/groups/:groupid/reports groups",
        "GET /api/v1/groups/:groupid/reports/counts groups",
        "HEAD /api/v1/groups/:groupid/reports/counts groups",
        "POST /api/v1/groups/dupecheck groups (changes nothing)",
        "GET /api/v1/groups/members groups",
        "HEAD /api/v1/groups/members groups",
        "GET /api/v1/groups/nogroup/members groups",
        "HEAD /api/v1/groups/nogroup/members groups",
        "GET /api/v1/members members",
        "HEAD /api/v1/members members",
        "POST /api/v1/members members",
        "DELETE /api/v1/members/:memberid members",
        "GET /api/v1/members/:memberid members",
        "HEAD /api/v1/members/:memberid members",
        "PATCH /api/v1/members/:memberid members",
        "GET /api/v1/members/:memberid/campaigns members",
        "HEAD /api/v1/members/:memberid/campaigns members",
        "GET /api/v1/members/:memberid/reports members",
        "HEAD /api/v1/members/:memberid/reports members",
        "POST /api/v1/members/dupecheck members (changes nothing)",
        "POST /api/v1/members/import members",
        "GET /api/v1/openapi.json public",
        "HEAD /api/v1/openapi.json public",
        "GET /api/v1/reports reports",
        "HEAD /api/v1/reports reports",
        "POST /api/v1/reports reports",
        "DELETE /api/v1/reports/:reportid reports",
        "GET /api/v1/reports/:reportid reports",
        "HEAD /api/v1/reports/:reportid reports",
        "PATCH /api/v1/reports/:reportid reports",
        "GET /api/v1/reports/:reportid/data reports",
        "HEAD /api/v1/reports/:reportid/data reports",
        "POST /api/v1/reports/:reportid/recalc reports",
        "GET /api/v1/reports/:reportid/short reports",
        "HEAD /api/v1/reports/:reportid/short reports",
        "GET /api/v1/reports/:reportid/usage reports",
        "HEAD /api/v1/reports/:reportid/usage reports",
        "GET /api/v1/reports/counts reports",
        "HEAD /api/v1/reports/counts reports",
        "GET /api/v1/reports/filtered/:variant/:entitytype/:entityid reports",
        "HEAD /api/v1/reports/filtered/:variant/:entitytype/:entityid reports",
        "POST /api/v1/reports/import/:variant reports",
        "GET /api/v1/reports/search/:term reports",
        "HEAD /api/v1/reports/search/:term reports",
        "POST /api/v1/reports/summary reports (changes nothing)",
        "GET /api/v1/reports/summary/:variant reports",
        "HEAD /api/v1/reports/summary/:variant reports",
        "GET /api/v1/reports/verbatims reports",
        "HEAD /api/v1/reports/verbatims reports",
        "GET /api/v1/samples samples",
        "HEAD /api/v1/samples samples",
        "GET /api/v1/samples/:variant/:language samples",
        "HEAD /api/v1/samples/:variant/:language samples",
        "GET /api/v1/settings/config settings",
        "HEAD /api/v1/settings/config settings",
        "GET /api/v1/settings/config/short settings",
        "HEAD /api/v1/settings/config/short settings",
        "GET /api/v1/settings/reports settings",
        "HEAD /api/v1/settings/reports settings",
        "GET /api/v1/settings/reports/:reportalias/:lang/texts settings",
        "HEAD /api/v1/settings/reports/:reportalias/:lang/texts settings",
        "GET /api/v1/settings/reports/:reportalias/datastructure settings",
        "HEAD /api/v1/settings/reports/:reportalias/datastructure settings",
        "GET /api/v1/settings/reports/:reportalias/textkeys settings",
        "HEAD /api/v1/settings/reports/:reportalias/textkeys settings",
        "GET /api/v1/webhooks webhooks",
        "HEAD /api/v1/webhooks webhooks",
        "POST /api/v1/webhooks webhooks",
        "DELETE /api/v1/webhooks/:webhookid webhooks",
        "GET /api/v1/webhooks/:webhookid webhooks",
        "HEAD /api/v1/webhooks/:webhookid webhooks",
        "PATCH /api/v1/webhooks/:webhookid webhooks",
        "GET /api/v1/webhooks/:webhookid/deliveries webhooks",
        "HEAD /api/v1/webhooks/:webhookid/deliveries webhooks",
        "POST /api/v1/webhooks/:webhookid/rotate webhooks",
        "POST /api/v1/webhooks/:webhookid/test webhooks",
      ]
    `);
    for (const { method, url, guard } of routes) {
      const route = `${method} ${url}`;
      if (guard === 'public') expect(PUBLIC, `${route} is public`).toContain(route);
      // The path's family first; a route may need others besides (the campaign export: reports).
      else expect(familiesOf(guard)[0], route).toBe(url.split('/')[3]);
    }
    // Every family is served, and each public route is registered (the list above is not stale).
    expect(
      new Set(routes.map((route) => (route.guard === 'public' ? 'public' : familiesOf(route.guard)[0]))),
    ).toEqual(new Set([...SCOPES, 'public']));
    expect(
      routes
        .filter((route) => route.guard === 'public')
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([...PUBLIC].sort());
  });

  it('answers 401 without credentials on every scoped route: the guard is attached, not only declared', async () => {
    const refused: string[] = [];
    // Each from an address of its own: a request without credentials counts against the guessing
    // limit, and a few dozen from one address would be answered 429.
    let caller = 0;
    for (const { method, url, guard } of instance.app.apiRoutes) {
      if (guard === 'public') continue;
      caller++;
      const answer = await instance.inject({
        method: method as 'GET',
        url: url.replaceAll(/:[a-z]+/g, 'a1B2c3D4e5'),
        remoteAddress: `10.41.${Math.floor(caller / 250)}.${caller % 250}`,
      });
      if (answer.statusCode !== 401) refused.push(`${method} ${url}: ${answer.statusCode}`);
    }
    expect(refused).toEqual([]);
  });
});
