import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleActor } from '../../src/audit/actor.js';
import { consoleRoutes } from '../../src/console/console-kit.js';
import { startSession } from '../../src/console/sessions.service.js';
import { formatDate } from '../../src/util/dates.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

// The console's stylesheet and script are routes that declare themselves open to anyone and the
// same for everyone (`config.console: 'asset'`): the console's hook decides by that declaration,
// not by the path, and looks no session up for them. Any other path under the assets is not found.

describe.each(dialects)('the console assets (%s)', (dialect) => {
  let instance: Instance;
  const start = new Date('2026-12-01T09:00:00Z');
  // The instance's clock, moved only by the test.
  let now = start;

  beforeAll(async () => {
    instance = await startInstance(dialect, { clock: () => now });
  });
  afterAll(() => instance?.close());

  /** A session of the admin begun now, as the cookie a browser sends. */
  async function sessionCookie(): Promise<{ cookie: string; lastSeen: () => Promise<string | undefined> }> {
    const user = await instance.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const secret = await startSession(instance.db.kysely, consoleActor(user.id, null), now);
    const lastSeen = async () =>
      (
        await instance.db.kysely
          .selectFrom('console_sessions')
          .select(['last_seen', 'user_id'])
          .orderBy('last_seen', 'desc')
          .execute()
      ).find((row) => row.user_id === user.id)?.last_seen;
    return { cookie: `assay_session=${secret}`, lastSeen };
  }
  const get = (url: string, cookie?: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
    instance.app.inject({ method, url, headers: cookie ? { cookie } : {} });

  it('declares every route under the assets an asset, and no other', () => {
    // A line per path and access (a GET route's HEAD is registered as a route of its own).
    const routes = [...new Set(consoleRoutes(instance.app).map((route) => `${route.url} ${route.access}`))];
    const assets = routes.filter((line) => line.startsWith('/console/assets/'));
    expect(assets).toEqual([
      '/console/assets/assay.css asset',
      '/console/assets/console.js asset',
      '/console/assets/* asset',
    ]);
    expect(routes.filter((line) => line.endsWith(' asset'))).toEqual(assets);
  });

  it('serves them without looking the session up: an asset neither keeps a session alive nor ends it', async () => {
    now = start;
    try {
      const { cookie, lastSeen } = await sessionCookie();
      expect(await lastSeen()).toBe(formatDate(start));
      // Two minutes on, a page would note that the session was used (it is noted once a minute).
      now = new Date(start.getTime() + 2 * 60_000);
      for (const path of ['/console/assets/assay.css', '/console/assets/console.js']) {
        const asset = await get(path, cookie);
        expect(asset.statusCode).toBe(200);
        expect(asset.headers['content-security-policy']).toBeDefined();
      }
      expect(await lastSeen()).toBe(formatDate(start));
      expect((await get('/console', cookie)).statusCode).toBe(200);
      expect(await lastSeen()).toBe(formatDate(now));

      // Left idle past its end: an asset still does not look, so the session is still there...
      now = new Date(now.getTime() + (instance.config.consoleIdleMinutes + 1) * 60_000);
      expect((await get('/console/assets/assay.css', cookie)).statusCode).toBe(200);
      expect(await lastSeen()).toBeDefined();
      // ...until a page looks it up and ends it.
      const page = await get('/console', cookie);
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe('/console/sign-in');
      expect(await lastSeen()).toBeUndefined();
    } finally {
      now = start;
    }
  });

  it('answers any other path under the assets not found, to anyone and whatever the method', async () => {
    const { cookie } = await sessionCookie();
    for (const who of [undefined, cookie]) {
      for (const method of ['GET', 'HEAD', 'POST'] as const) {
        for (const path of ['/console/assets/nope.css', '/console/assets/deeper/still.js']) {
          const answer = await get(path, who, method);
          expect(answer.statusCode, `${method} ${path} ${who ? 'signed in' : 'anonymous'}`).toBe(404);
          if (method === 'GET') expect(answer.headers['content-type']).toContain('text/html');
        }
      }
    }
    // A console page that does not exist is still kept from someone not signed in.
    const elsewhere = await get('/console/nope');
    expect(elsewhere.statusCode).toBe(303);
    expect(elsewhere.headers.location).toContain('/console/sign-in');
  });
});
