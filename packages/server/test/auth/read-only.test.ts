import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

for (const dialect of dialects) {
  describe(`read-only credentials (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('lets an API key read, and answers 403 to any write', async () => {
      const key = await instance.apiKey('members');
      const read = await instance.call('GET', '/members', { auth: null, headers: { 'x-api-key': key } });
      expect(read.statusCode).toBe(200);
      const write = await instance.call('POST', '/members', {
        auth: null,
        headers: { 'x-api-key': key },
        body: { email: email(), firstname: 'A', lastname: 'B' },
      });
      expect(write.statusCode).toBe(403);
      expect((await instance.call('GET', '/members', { auth: null })).json.data).toBeUndefined();
      const groups = await instance.call('GET', '/groups', { auth: null, headers: { 'x-api-key': key } });
      expect(groups.statusCode).toBe(403);
    });

    it('lets Basic with the client id and secret read, and answers 403 to any write', async () => {
      const basic = `Basic ${Buffer.from(`${instance.client.client_id}:${instance.client.client_secret}`).toString('base64')}`;
      expect((await instance.call('GET', '/groups', { auth: basic })).statusCode).toBe(200);
      const write = await instance.call('POST', '/groups', {
        auth: basic,
        body: { name: 'RO', alias: 'ro' },
      });
      expect(write.statusCode).toBe(403);
      const wrong = `Basic ${Buffer.from(`${instance.client.client_id}:wrong`).toString('base64')}`;
      expect((await instance.call('GET', '/groups', { auth: wrong })).statusCode).toBe(401);
    });

    it('lets read-only credentials call the POSTs that change nothing, with the answers a token gets', async () => {
      const key = await instance.apiKey();
      const basic = `Basic ${Buffer.from(`${instance.client.client_id}:${instance.client.client_secret}`).toString('base64')}`;
      const taken = email();
      expect(
        (await instance.call('POST', '/members', { body: { email: taken, firstname: 'A', lastname: 'B' } }))
          .json.status,
      ).toBe('OK');
      const member = (
        await instance.call('POST', '/members', { body: { email: email(), firstname: 'C', lastname: 'D' } })
      ).json.data.memberid;
      const rows = [
        {
          memberid: member,
          answers: Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`Q${i + 1}`, 3])),
        },
      ];
      const imported = await instance.call('POST', '/reports/import/leadership360', {
        body: { reports: rows },
      });
      const reportid = imported.json.data.created[0];
      const calls: [string, unknown][] = [
        ['/members/dupecheck', { value: taken }],
        ['/members/dupecheck', { value: email() }],
        ['/groups/dupecheck', { value: 'nosuchalias' }],
        ['/campaigns/dupecheck', { value: 'nosuchalias' }],
        ['/reports/summary', { variant: 'leadership360', selectedReports: reportid }],
        ['/reports/summary', { variant: 'leadership360' }],
      ];
      const before = (await instance.call('GET', '/members')).body;
      for (const [url, body] of calls) {
        const bearer = await instance.call('POST', url, { body });
        expect(bearer.statusCode, url).toBe(200);
        for (const headers of [{ 'x-api-key': key }, { authorization: basic }] as Record<string, string>[]) {
          const answer = await instance.call('POST', url, { auth: null, headers, body });
          expect(answer.statusCode, url).toBe(200);
          expect(answer.body, url).toBe(bearer.body);
        }
      }
      expect(
        (
          await instance.call('POST', '/members/dupecheck', {
            auth: null,
            headers: { 'x-api-key': key },
            body: { value: taken },
          })
        ).json,
      ).toEqual({ status: 'ERROR', data: '' });
      expect(
        (
          await instance.call('POST', '/reports/summary', {
            auth: null,
            headers: { 'x-api-key': key },
            body: { variant: 'leadership360', selectedReports: reportid },
          })
        ).json.data.n,
      ).toBe(1);
      // Nothing changed, and a write that looks alike is still refused.
      expect((await instance.call('GET', '/members')).body).toBe(before);
      const write = await instance.call('POST', '/reports', {
        auth: null,
        headers: { 'x-api-key': key },
        body: { reportType: 'group', variant: 'leadership360', selectedReports: reportid },
      });
      expect(write.statusCode).toBe(403);
      expect(write.json.message).toMatch(/read-only/);
      // The scope still counts: a key without `reports` may not summarise.
      const members = await instance.apiKey('members');
      const scoped = await instance.call('POST', '/reports/summary', {
        auth: null,
        headers: { 'x-api-key': members },
        body: { variant: 'leadership360', selectedReports: reportid },
      });
      expect(scoped.statusCode).toBe(403);
      expect(scoped.json.message).toMatch(/scope "reports"/);
      // Bad input from a read-only caller is a business failure, as for anyone.
      const bad = await instance.call('POST', '/reports/summary', {
        auth: null,
        headers: { 'x-api-key': key },
        body: '{"variant":',
      });
      expect(bad.json).toEqual({ status: 'ERROR', data: 'body: not valid JSON' });
    });

    it('answers 401 for an unknown API key', async () => {
      const response = await instance.call('GET', '/members', {
        auth: null,
        headers: { 'x-api-key': 'ak_nope' },
      });
      expect(response.statusCode).toBe(401);
    });

    it('puts guesses of a secret or a key through Basic or X-API-Key under the token endpoint limit', async () => {
      const limited = await startInstance(dialect, { env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '2' } });
      try {
        const basic = (secret: string) =>
          `Basic ${Buffer.from(`${limited.client.client_id}:${secret}`).toString('base64')}`;
        expect((await limited.call('GET', '/members', { auth: basic('guess-1') })).statusCode).toBe(401);
        const key = await limited.call('GET', '/members', {
          auth: null,
          headers: { 'x-api-key': 'ak_guess' },
        });
        expect(key.statusCode).toBe(401);
        // Two failures from this address: even the right secret waits now, as at the token endpoint.
        const blocked = await limited.call('GET', '/members', { auth: basic(limited.client.client_secret) });
        expect(blocked.statusCode).toBe(429);
        expect(blocked.json).toEqual({ error: 'too_many_requests', message: expect.any(String) });
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        const token = await limited.inject({
          method: 'POST',
          url: '/api/v1/auth/access_token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'grant_type=client_credentials&client_id=x&client_secret=y&scope=members',
        });
        expect(token.statusCode).toBe(429);
      } finally {
        await limited.close();
      }
    });
  });
}
