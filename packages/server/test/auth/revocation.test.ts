import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createClient, updateClientScopes } from '../../src/auth/auth.service.js';
import { SQLITE_STAMP_REUSE_MS } from '../../src/db/freshness.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

for (const dialect of dialects) {
  describe(`revocation across processes (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('ends the tokens of a client that another process changed, though the server had it cached', async () => {
      const admin = await instance.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const client = await createClient(
        instance.db.kysely,
        {
          name: 'cached',
          userId: admin.id,
          scopes: ['members'],
        },
        cliActor(),
      );
      const response = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        headers: FORM,
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
          scope: 'members',
        }).toString(),
      });
      const auth = `Bearer ${response.json.data.access_token}`;
      // Warm the cache: several calls that all find the client.
      for (let i = 0; i < 3; i++)
        expect((await instance.call('GET', '/members', { auth })).statusCode).toBe(200);

      const other = instance.otherProcess();
      try {
        await updateClientScopes(other.kysely, 'operator', client.client_id, ['members'], cliActor());
      } finally {
        await other.close();
      }
      // SQLite learns of the commit as soon as its last look is older than the reuse window;
      // PostgreSQL within moments, through its notification.
      if (dialect === 'sqlite') {
        await new Promise((resolve) => setTimeout(resolve, SQLITE_STAMP_REUSE_MS + 1));
        expect((await instance.call('GET', '/members', { auth })).statusCode).toBe(401);
        return;
      }
      // 20 s is only a safety net for a busy machine.
      await expect
        .poll(async () => (await instance.call('GET', '/members', { auth })).statusCode, {
          timeout: 20_000,
          interval: 5,
        })
        .toBe(401);
    });
  });
}
