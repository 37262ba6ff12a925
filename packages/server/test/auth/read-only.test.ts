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
