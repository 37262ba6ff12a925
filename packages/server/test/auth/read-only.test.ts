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
  });
}
