import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cliActor } from '../../src/audit/actor.js';
import { createClient, createUser } from '../../src/auth/auth.service.js';
import { hashPassword } from '../../src/auth/secrets.js';
import type { Db } from '../../src/db/database.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// The guessing limits hold across server processes on one PostgreSQL: two apps on the same
// database (as two `assay serve` would be) share one budget per address. SQLite serves one process
// per data folder, where the limits are counted in memory (test/auth/token.test.ts and
// test/questionnaire/signup.test.ts test them there).

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const PAST = '2026-01-01T09:00:00+00:00';
const REDIRECT = 'https://app.example.test/callback';
const PASSWORD = 'correct horse battery staple';
/** ASSAY_TOKEN_FAILURES_PER_MINUTE for these instances. */
const LIMIT = 4;

/**
 * Both processes' clock, standing still: the attempts below fall in one window of the limits however
 * slowly the machine answers them.
 */
const now = new Date();

let ipCounter = 0;
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

describe.runIf(dialects.includes('postgres'))(
  'guessing limits across two server processes (postgres)',
  () => {
    let instance: Instance;
    let otherDb: Db;
    let second: FastifyInstance;
    /** The instance's app and a second app on the same database: two server processes. */
    let both: [FastifyInstance, FastifyInstance];

    beforeAll(async () => {
      instance = await startInstance('postgres', {
        clock: () => now,
        env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: String(LIMIT) },
      });
      otherDb = instance.otherProcess();
      second = await buildApp({
        config: instance.config,
        database: otherDb,
        background: false,
        clock: () => now,
      });
      await second.ready();
      both = [instance.app, second];
    });
    afterAll(async () => {
      await second?.close();
      await otherDb?.close();
      await instance?.close();
    });

    const tokenRequest = (app: FastifyInstance, ip: string, secret: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        remoteAddress: ip,
        headers: FORM,
        payload: form({
          grant_type: 'client_credentials',
          client_id: instance.client.client_id,
          client_secret: secret,
          scope: 'members',
        }),
      });
    const expectRefused = (response: { statusCode: number; headers: Record<string, unknown> }) => {
      expect(response.statusCode).toBe(429);
      const wait = Number(response.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    };

    it('refuses failed client secrets spread over both processes at the limit, with Retry-After', async () => {
      const ip = freshIp();
      const [a, b] = both;
      const statuses = [];
      for (const app of [a, b, a, b]) statuses.push((await tokenRequest(app, ip, 'wrong')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401]);
      for (const app of both) {
        const refused = await tokenRequest(app, ip, 'wrong');
        expectRefused(refused);
        expect(refused.json().error).toBe('slow_down');
        // The right secret waits too, at either process; another address is not held up.
        expectRefused(await tokenRequest(app, ip, instance.client.client_secret));
        expect((await tokenRequest(app, freshIp(), instance.client.client_secret)).statusCode).toBe(200);
      }
    });

    it('costs a caller that has not failed no database round trip: the table is never read', async () => {
      // Another connection holds the table locked: any statement on it would wait for the rollback.
      const locker = instance.otherProcess();
      try {
        await locker.kysely.connection().execute(async (connection) => {
          await sql`begin`.execute(connection);
          await sql`lock table guess_failures in access exclusive mode`.execute(connection);
          try {
            for (const app of both) {
              const answer = await Promise.race([
                tokenRequest(app, freshIp(), instance.client.client_secret),
                new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 2000)),
              ]);
              expect(answer === 'blocked' ? answer : answer.statusCode).toBe(200);
            }
          } finally {
            await sql`rollback`.execute(connection);
          }
        });
      } finally {
        await locker.close();
      }
    });

    it('counts Basic and X-API-Key guesses at one process with token guesses at the other', async () => {
      const ip = freshIp();
      const [a, b] = both;
      const apiKey = await instance.apiKey('members');
      const basic = `Basic ${Buffer.from(`${instance.client.client_id}:wrong`).toString('base64')}`;
      const get = (app: FastifyInstance, headers: Record<string, string>) =>
        app.inject({ method: 'GET', url: '/api/v1/members', remoteAddress: ip, headers });
      expect((await tokenRequest(a, ip, 'wrong')).statusCode).toBe(401);
      expect((await get(b, { authorization: basic })).statusCode).toBe(401);
      expect((await get(b, { 'x-api-key': 'not-a-key' })).statusCode).toBe(401);
      expect((await tokenRequest(a, ip, 'wrong')).statusCode).toBe(401);
      expectRefused(await get(b, { 'x-api-key': apiKey }));
      expectRefused(await get(a, { 'x-api-key': apiKey }));
      expectRefused(await tokenRequest(b, ip, instance.client.client_secret));
    });

    it('lets an address that failed only at the other process at most one attempt more', async () => {
      const ip = freshIp();
      const [a, b] = both;
      for (let i = 0; i < LIMIT; i++) expect((await tokenRequest(a, ip, 'wrong')).statusCode).toBe(401);
      expectRefused(await tokenRequest(a, ip, 'wrong'));
      // b has not seen this address fail: its first attempt is not checked (no database round trip
      // for a caller that has not failed here), and is counted; from then on b reads the shared count.
      expect([401, 429]).toContain((await tokenRequest(b, ip, 'wrong')).statusCode);
      expectRefused(await tokenRequest(b, ip, 'wrong'));
      expectRefused(await tokenRequest(b, ip, instance.client.client_secret));
    });

    it('shares the sign-in password limit', async () => {
      const user = await createUser(
        instance.db.kysely,
        {
          email: 'limits@example.test',
          firstname: 'Li',
          lastname: 'Mits',
        },
        cliActor(),
      );
      await instance.db.kysely
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', user.id)
        .execute();
      const client = await createClient(
        instance.db.kysely,
        {
          name: 'Limits app',
          userId: user.id,
          scopes: ['members'],
          redirectUris: [REDIRECT],
        },
        cliActor(),
      );
      const params = {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        scope: 'members',
        state: 's',
        code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
        code_challenge_method: 'S256',
      };
      const query = form(params);
      const ip = freshIp();
      const signIn = async (app: FastifyInstance, password: string) => {
        const page = await app.inject({
          method: 'GET',
          url: `/api/v1/auth/authorize?${query}`,
          remoteAddress: ip,
        });
        const cookie = String(page.headers['set-cookie']).split(';')[0] as string;
        const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
        return app.inject({
          method: 'POST',
          url: '/api/v1/auth/authorize',
          remoteAddress: ip,
          headers: { ...FORM, cookie },
          payload: form({ ...params, email: 'limits@example.test', password, decision: 'approve', csrf }),
        });
      };
      const [a, b] = both;
      const statuses = [];
      for (const app of [a, b, a, b]) statuses.push((await signIn(app, 'not it')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401]);
      for (const app of both) {
        const refused = await signIn(app, PASSWORD);
        expect(refused.statusCode).toBe(429);
        expect(refused.body).toMatch(/Too many failed attempts: try again in \d+ seconds/);
      }
    });

    it('shares the sign-up and the nomination limits (10 a minute from one address)', async () => {
      const ip = freshIp();
      const made = await instance.call('POST', '/campaigns', {
        body: {
          name: 'Open',
          variant: 'teamscan',
          start: PAST,
          config: { selfregistration: { register: true } },
        },
      });
      const alias = made.json.data.alias as string;
      const browsers = both.map((app) => new FormBrowser({ ...instance, app }, ip));
      for (const browser of browsers) await browser.get(`/s/${alias}`);
      const signUps = [];
      for (let i = 0; i < 10; i++) {
        const browser = browsers[i % 2] as FormBrowser;
        signUps.push(
          (await browser.post(`/s/${alias}`, { firstname: 'Sig', lastname: `Nup ${i}`, email: email('su') }))
            .statusCode,
        );
      }
      expect(signUps.every((status) => status === 200)).toBe(true);
      for (const browser of browsers) {
        const refused = await browser.post(`/s/${alias}`, {
          firstname: 'Sig',
          lastname: 'Nup',
          email: email('su'),
        });
        expectRefused(refused);
        expect(refused.body).toContain('Too many attempts');
      }

      const round = await instance.call('POST', '/campaigns', {
        body: { name: '360', variant: 'leadership360', start: PAST, autoinvite: 'none' },
      });
      const campaignid = round.json.data.campaignid as string;
      const subject = (
        await instance.call('POST', '/members', {
          body: { email: email('subj'), firstname: 'Sub', lastname: 'Ject' },
        })
      ).json.data.memberid as string;
      await instance.call('POST', `/campaigns/${campaignid}/members/${subject}`);
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${subject}`, {
        body: { extra: { role: 'self' } },
      });
      const token = (
        await instance.db.kysely
          .selectFrom('campaign_members')
          .select('token')
          .where('campaign_id', '=', campaignid)
          .executeTakeFirstOrThrow()
      ).token;
      const raterIp = freshIp();
      const nominators = both.map((app) => new FormBrowser({ ...instance, app }, raterIp));
      for (const browser of nominators) await browser.get(`/q/${token}/raters`);
      const nominations = [];
      for (let i = 0; i < 10; i++) {
        const browser = nominators[i % 2] as FormBrowser;
        nominations.push(
          (
            await browser.post(`/q/${token}/raters`, {
              firstname: 'Ray',
              lastname: `Ter ${i}`,
              email: email('rt'),
              role: i < 5 ? 'peer' : 'directreport',
            })
          ).statusCode,
        );
      }
      expect(nominations.every((status) => status === 303)).toBe(true);
      for (const browser of nominators) {
        expectRefused(
          await browser.post(`/q/${token}/raters`, {
            firstname: 'Ray',
            lastname: 'Ter',
            email: email('rt'),
            role: 'manager',
          }),
        );
      }
    });
  },
);
