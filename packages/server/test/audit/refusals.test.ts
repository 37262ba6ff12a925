import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditRow, listAuditRows } from '../../src/audit/audit.repository.js';
import { routeChange } from '../../src/http/audit-refusals.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// An API write refused (401, 403) or failed (another 4xx, a 5xx) leaves one entry of its own,
// written after the answer (http/audit-refusals.ts); a read, or a write that succeeds, leaves none.

describe('the action of a refused route', () => {
  it('is the method, then the path after the family and its id', () => {
    expect(routeChange('POST', '/api/v1/members', '/api/v1')).toEqual({ idParam: undefined, action: 'post' });
    expect(routeChange('PATCH', '/api/v1/members/:memberid', '/api/v1')).toEqual({
      idParam: 'memberid',
      action: 'patch',
    });
    expect(routeChange('POST', '/api/v1/members/import', '/api/v1')).toEqual({
      idParam: undefined,
      action: 'post import',
    });
    expect(routeChange('DELETE', '/api/v1/groups/:groupid/members/:memberid', '/api/v1')).toEqual({
      idParam: 'groupid',
      action: 'delete members/:memberid',
    });
  });
});

for (const dialect of dialects) {
  describe(`refused API writes in the audit log (${dialect})`, () => {
    let instance: Instance;
    let memberId: string;

    const count = async () => (await listAuditRows(instance.db.kysely, { limit: 10_000 })).length;
    /** The entries written after the first `before`, oldest first, once there are `expected` (20 s at most: a safety net). */
    const newEntries = async (before: number, expected: number): Promise<AuditRow[]> => {
      for (const until = Date.now() + 20_000; ; ) {
        const rows = await listAuditRows(instance.db.kysely, { limit: 10_000 });
        if (rows.length >= before + expected || Date.now() > until)
          return rows.slice(0, rows.length - before).reverse();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    /** Makes a request and answers its status and the entries it left (after a moment for stray ones). */
    const attempt = async (request: () => Promise<{ statusCode: number }>, expected: number) => {
      const before = await count();
      const { statusCode } = await request();
      const rows = await newEntries(before, expected);
      // Nothing more arrives later.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await count()).toBe(before + rows.length);
      return { statusCode, rows };
    };

    beforeAll(async () => {
      instance = await startInstance(dialect);
      const created = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace' },
      });
      memberId = created.json.data.memberid;
    });
    afterAll(() => instance.close());

    it('records a write with read-only credentials (403) as denied, naming the key', async () => {
      const key = await instance.apiKey();
      const keyId = (await instance.db.kysely.selectFrom('api_keys').select('id').executeTakeFirstOrThrow())
        .id;
      const { statusCode, rows } = await attempt(
        () =>
          instance.call('PATCH', `/members/${memberId}`, {
            auth: null,
            headers: { 'x-api-key': key },
            body: { firstname: 'Eve' },
          }),
        1,
      );
      expect(statusCode).toBe(403);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_type: 'apikey',
        actor_id: keyId,
        channel: 'api',
        address: '127.0.0.1',
        resource_type: 'member',
        resource_id: memberId,
        action: 'patch',
        fields: null,
        outcome: 'denied',
      });
      // The same key may read, and a read leaves no entry; nor does a dupecheck, which changes nothing.
      const read = await attempt(
        () => instance.call('GET', '/members', { auth: null, headers: { 'x-api-key': key } }),
        0,
      );
      expect([read.statusCode, read.rows]).toEqual([200, []]);
    });

    it('records a scope not granted (403) as denied, naming the client', async () => {
      const token = await instance.token('groups');
      const { statusCode, rows } = await attempt(
        () => instance.call('DELETE', `/members/${memberId}`, { auth: `Bearer ${token}` }),
        1,
      );
      expect(statusCode).toBe(403);
      expect(
        rows.map((row) => [row.actor_type, row.actor_id, row.resource_id, row.action, row.outcome]),
      ).toEqual([['client', instance.client.client_id, memberId, 'delete', 'denied']]);
    });

    it('records a write without credentials (401) as denied, by an anonymous caller', async () => {
      const { statusCode, rows } = await attempt(
        () => instance.call('POST', `/groups/AAAAAAAAAA/members/${memberId}`, { auth: null }),
        1,
      );
      expect(statusCode).toBe(401);
      expect(rows[0]).toMatchObject({
        actor_type: 'anonymous',
        actor_id: null,
        user_id: null,
        channel: 'api',
        address: '127.0.0.1',
        resource_type: 'group',
        resource_id: 'AAAAAAAAAA',
        action: 'post members/:memberid',
        outcome: 'denied',
      });
      expect(rows).toHaveLength(1);
      const bad = await attempt(
        () => instance.call('PATCH', '/members/not%20an%20id%3Cx%3E', { auth: 'Bearer nonsense' }),
        1,
      );
      expect(bad.statusCode).toBe(401);
      // A path's id that no id could be is not kept.
      expect(bad.rows.map((row) => [row.actor_type, row.resource_id, row.outcome])).toEqual([
        ['anonymous', null, 'denied'],
      ]);
      // Reads and dupechecks without credentials are refused too, and leave nothing.
      expect((await attempt(() => instance.call('GET', '/members', { auth: null }), 0)).rows).toEqual([]);
      expect(
        (
          await attempt(
            () => instance.call('POST', '/members/dupecheck', { auth: null, body: { value: 'x' } }),
            0,
          )
        ).rows,
      ).toEqual([]);
    });

    it('records a body too large (413) and an unknown id (404) as failed, naming the client', async () => {
      // A body that is not JSON is a business failure (HTTP 200, ERROR) like every bad body: the
      // statuses of 400 and more a write meets are these.
      const notJson = await attempt(() => instance.call('POST', '/members', { body: '{"email": ' }), 0);
      expect([notJson.statusCode, notJson.rows]).toEqual([200, []]);
      const { statusCode, rows } = await attempt(
        () => instance.call('POST', '/members', { body: { email: email(), firstname: 'x'.repeat(2 << 20) } }),
        1,
      );
      expect(statusCode).toBe(413);
      expect(
        rows.map((row) => [row.actor_type, row.resource_type, row.resource_id, row.action, row.outcome]),
      ).toEqual([['client', 'member', null, 'post', 'failed']]);
      const unknown = await attempt(() => instance.call('DELETE', '/groups/AAAAAAAAAA'), 1);
      expect(unknown.statusCode).toBe(404);
      expect(
        unknown.rows.map((row) => [row.resource_type, row.resource_id, row.action, row.outcome]),
      ).toEqual([['group', 'AAAAAAAAAA', 'delete', 'failed']]);
    });

    it('records nothing more for a write that succeeds, nor for a business failure', async () => {
      const made = await attempt(
        () => instance.call('POST', '/members', { body: { email: email(), firstname: 'B', lastname: 'C' } }),
        1,
      );
      expect(made.statusCode).toBe(200);
      expect(made.rows.map((row) => [row.action, row.outcome])).toEqual([['create', 'succeeded']]);
      const refused = await attempt(
        () =>
          instance.call('POST', '/members', {
            body: { email: 'not-an-address', firstname: 'B', lastname: 'C' },
          }),
        0,
      );
      expect([refused.statusCode, refused.rows]).toEqual([200, []]);
      // A path no route serves attempted nothing of a family.
      expect((await attempt(() => instance.call('POST', '/nothing-here'), 0)).rows).toEqual([]);
    });
  });
}
