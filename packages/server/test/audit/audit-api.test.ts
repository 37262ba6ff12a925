import { createClient } from '@assay/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiActor, cliActor, consoleActor, participantActor, SYSTEM_ACTOR } from '../../src/audit/actor.js';
import { recordChange, recordChanges } from '../../src/audit/audit.service.js';
import { dialects, type Instance, listen, startInstance } from '../helpers/instance.js';

for (const dialect of dialects) {
  describe(`GET /api/v1/audit (${dialect})`, () => {
    let instance: Instance;
    const admin = 'u000000001';
    // The entries this test writes lie before this moment; entries the instance writes of its own
    // (its first client, the tokens the test asks for) come later and stay outside every query.
    const WINDOW = '?until=2026-07-01';
    let seqs: number[];
    const db = () => instance.db.kysely;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      await recordChange(
        db(),
        cliActor(),
        { resource: 'member', id: 'm000000001', action: 'create' },
        '2025-06-01T10:00:00+00:00',
      );
      await recordChanges(
        db(),
        consoleActor(admin, '192.0.2.7'),
        [
          { resource: 'member', id: 'm000000001', action: 'update', fields: ['firstname', 'email'] },
          { resource: 'campaign', id: 'c000000001', action: 'create' },
        ],
        '2026-03-01T09:30:00+00:00',
      );
      await recordChange(
        db(),
        apiActor({ userId: admin, credential: { kind: 'apikey', id: 'k000000001' } }, '198.51.100.4'),
        { resource: 'group', id: 'g000000001', action: 'delete' },
        '2026-04-01T12:00:00.000Z',
      );
      await recordChange(
        db(),
        participantActor('m000000001', '203.0.113.9'),
        { resource: 'answers', id: 'm000000001', action: 'complete' },
        '2026-05-01T08:00:00+00:00',
      );
      await recordChange(
        db(),
        SYSTEM_ACTOR,
        { resource: 'audit_log', id: null, action: 'prune' },
        '2026-06-01T00:00:00+00:00',
      );
      seqs = ((await list(WINDOW)).data as { seq: number }[]).map((entry) => entry.seq);
    });
    afterAll(async () => {
      await instance?.close();
    });

    const list = async (query = '', auth?: string | null, headers?: Record<string, string>) =>
      (await instance.call('GET', `/audit${query}`, { auth, headers })).json;
    const actions = async (query = '') =>
      ((await list(query)).data as { action: string; resource: { type: string } }[]).map(
        (entry) => `${entry.resource.type} ${entry.action}`,
      );

    it('answers the entries newest first in the wire shape: ids and field names, never values', async () => {
      const answer = await list(WINDOW);
      expect(answer.status).toBe('OK');
      expect(seqs).toHaveLength(6);
      expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
      expect(answer.data[2]).toEqual({
        seq: seqs[2],
        // Written with milliseconds, given in the wire form.
        at: '2026-04-01T12:00:00+00:00',
        actor: { type: 'apikey', id: 'k000000001', userid: admin, channel: 'api', address: '198.51.100.4' },
        resource: { type: 'group', id: 'g000000001' },
        action: 'delete',
        fields: [],
        outcome: 'succeeded',
      });
      expect(answer.data[4]).toMatchObject({
        actor: { type: 'user', id: admin, userid: admin, channel: 'console', address: '192.0.2.7' },
        resource: { type: 'member', id: 'm000000001' },
        action: 'update',
        fields: ['firstname', 'email'],
      });
      expect(answer.data[0]).toMatchObject({
        actor: { type: 'system', id: 'scheduler', userid: null, channel: 'scheduler', address: null },
        resource: { type: 'audit_log', id: null },
        action: 'prune',
      });
    });

    it('narrows by moment (a date or ISO 8601), actor and resource type or type/id', async () => {
      expect(await actions('?since=2026-03-01&until=2026-04-30')).toEqual([
        'group delete',
        'campaign create',
        'member update',
      ]);
      expect(await actions('?until=2026-03-01T09:30:00%2B00:00')).toEqual(['member create']);
      expect(await actions('?since=2026-04-01T13:00:00%2B01:00&until=2026-06-01')).toEqual([
        'answers complete',
        'group delete',
      ]);
      expect(await actions(`${WINDOW}&actor=${admin}`)).toEqual(['campaign create', 'member update']);
      expect(await actions(`${WINDOW}&actor=m000000001`)).toEqual(['answers complete']);
      expect(await actions(`${WINDOW}&resource=member`)).toEqual(['member update', 'member create']);
      expect(await actions('?resource=answers/m000000001')).toEqual(['answers complete']);
      expect(await actions('?resource=member/nosuch')).toEqual([]);
    });

    it('pages by seq: limit, then before the last seq read', async () => {
      const first = (await list(`${WINDOW}&limit=2`)).data as { seq: number }[];
      expect(first.map((entry) => entry.seq)).toEqual(seqs.slice(0, 2));
      const next = (await list(`${WINDOW}&limit=2&before=${first[1]?.seq}`)).data as { seq: number }[];
      expect(next.map((entry) => entry.seq)).toEqual(seqs.slice(2, 4));
      expect((await list(`${WINDOW}&before=${seqs[5]}`)).data).toEqual([]);
      expect((await list(`${WINDOW}&limit=1000`)).data).toHaveLength(6);
    });

    it('refuses bad values with the JSend error naming the field', async () => {
      for (const [query, message] of [
        ['?limit=0', 'limit: must be at least 1'],
        ['?limit=1001', 'limit: must be at most 1000'],
        ['?limit=ten', 'limit: must be a whole number'],
        ['?limit=1.5', 'limit: must be a whole number'],
        ['?before=0', 'before: must be at least 1'],
        ['?before=x', 'before: must be a whole number'],
        ['?since=yesterday', 'since: must be a date such as 2026-11-22T11:46:36+00:00'],
        ['?until=2026-02-31', 'until: must be a date such as 2026-11-22T11:46:36+00:00'],
        [
          '?resource=Member',
          'resource: must be a resource type, or a type and an id such as member/Ab12Cd34Ef',
        ],
        [
          '?resource=member/',
          'resource: must be a resource type, or a type and an id such as member/Ab12Cd34Ef',
        ],
        [
          '?resource=member/a/b',
          'resource: must be a resource type, or a type and an id such as member/Ab12Cd34Ef',
        ],
        ['?actor=', 'actor: must not be empty'],
      ]) {
        expect(await list(query), query).toEqual({ status: 'ERROR', data: message });
      }
    });

    it('needs the audit scope; read-only credentials may read it', async () => {
      const without = await instance.token('members groups campaigns reports settings samples webhooks');
      expect((await instance.call('GET', '/audit', { auth: `Bearer ${without}` })).statusCode).toBe(403);
      expect((await instance.call('GET', '/audit', { auth: null })).statusCode).toBe(401);
      const reader = await instance.token('audit');
      expect((await list('?limit=1', `Bearer ${reader}`)).data).toHaveLength(1);
      const key = await instance.apiKey('audit');
      expect((await list('?limit=1', null, { 'x-api-key': key })).data).toHaveLength(1);
      const otherKey = await instance.apiKey('members');
      expect(
        (await instance.call('GET', '/audit', { auth: null, headers: { 'x-api-key': otherKey } })).statusCode,
      ).toBe(403);
      expect((await instance.call('POST', '/audit', { body: {} })).statusCode).toBe(405);
    });

    it('the typed client reads it, page by page', async () => {
      const base = await listen(instance);
      const client = createClient({ baseUrl: base, apiKey: await instance.apiKey('audit') });
      const until = '2026-07-01';
      const page = await client.audit.list({ limit: 3, resource: 'member', until });
      expect(page.map((entry) => entry.action)).toEqual(['update', 'create']);
      const last = (await client.audit.list({ limit: 4, until })).at(-1);
      expect((await client.audit.list({ before: last?.seq, until })).map((entry) => entry.seq)).toEqual(
        seqs.slice(4),
      );
    });
  });
}
