import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { type AuditRow, listAuditRows } from '../../src/audit/audit.repository.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

// Issue 23, part 3: webhook subscriptions created, changed, rotated, tested and deleted through the
// API (as the client that called) and the command line (as its operating-system user) are in the
// audit log with their field names; never the URL, the description or a secret.

const URL_ONE = 'https://127.0.0.1:9/audited-hook';
const URL_TWO = 'https://127.0.0.1:9/audited-hook-moved';

describe.each(dialects)('the audit log of webhook subscriptions (%s)', (dialect) => {
  let instance: Instance;
  let adminId: string;
  const typed: string[] = [URL_ONE, URL_TWO, 'Audited description'];

  const assay = (...args: string[]) =>
    runAssay(
      [
        ...args,
        '--data',
        instance.config.dataDir,
        ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
      ],
      { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' },
    );
  const entries = async (id: string): Promise<AuditRow[]> =>
    (
      await listAuditRows(instance.db.kysely, { limit: 100, resourceType: 'webhook', resourceId: id })
    ).reverse();

  beforeAll(async () => {
    instance = await startInstance(dialect, { env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } });
    adminId = (
      await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.test')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => instance?.close());

  it('records each change through the API as the client, with its address and the fields changed', async () => {
    const created = await instance.call('POST', '/webhooks', {
      body: { url: URL_ONE, events: ['report.created'], description: 'Audited description' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json.data.webhookid as string;
    typed.push(created.json.data.secret);
    const patched = await instance.call('PATCH', `/webhooks/${id}`, {
      body: { url: URL_TWO, enabled: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Nothing to change: no entry.
    expect((await instance.call('PATCH', `/webhooks/${id}`, { body: { enabled: false } })).statusCode).toBe(
      200,
    );
    // Refused (a disabled subscription is not tested): no entry.
    expect((await instance.call('POST', `/webhooks/${id}/test`)).json.status).toBe('ERROR');
    expect((await instance.call('PATCH', `/webhooks/${id}`, { body: { enabled: true } })).statusCode).toBe(
      200,
    );
    expect((await instance.call('POST', `/webhooks/${id}/test`)).statusCode).toBe(200);
    const rotated = await instance.call('POST', `/webhooks/${id}/rotate`);
    expect(rotated.statusCode).toBe(200);
    typed.push(rotated.json.data.secret);
    expect((await instance.call('DELETE', `/webhooks/${id}`)).statusCode).toBe(200);
    // Gone: a second delete is refused, and is logged as a refusal, not as a change.
    expect((await instance.call('DELETE', `/webhooks/${id}`)).statusCode).toBe(404);

    const all = await entries(id);
    expect(all.at(-1)).toMatchObject({ action: 'delete', outcome: 'failed' });
    const rows = all.slice(0, -1);
    expect(rows.map((row) => [row.action, row.fields])).toEqual([
      ['create', null],
      ['update', 'url enabled'],
      ['update', 'enabled'],
      ['test', null],
      ['rotate', 'secret'],
      ['delete', null],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        actor_type: 'client',
        actor_id: instance.client.client_id,
        user_id: adminId,
        channel: 'api',
        address: '127.0.0.1',
        outcome: 'succeeded',
      });
    }
  });

  it('records the command line as its operating-system user', async () => {
    const created = await assay(
      'webhooks',
      'create',
      '--url',
      URL_ONE,
      '--events',
      'report.created',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).webhookid as string;
    typed.push(JSON.parse(created.stdout).secret);
    expect((await assay('webhooks', 'update', id, '--events', 'report.created report.deleted')).code).toBe(0);
    expect((await assay('webhooks', 'rotate', id)).code).toBe(0);
    expect((await assay('webhooks', 'delete', id)).code).toBe(0);
    const rows = await entries(id);
    expect(rows.map((row) => [row.action, row.fields])).toEqual([
      ['create', null],
      ['update', 'events'],
      ['rotate', 'secret'],
      ['delete', null],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        actor_type: 'cli',
        actor_id: cliActor().id,
        channel: 'cli',
        address: null,
      });
    }
  });

  it('holds no URL, description or secret', async () => {
    const all = JSON.stringify(
      await listAuditRows(instance.db.kysely, { limit: 1000, resourceType: 'webhook' }),
    );
    for (const value of typed) expect(all).not.toContain(value);
  });
});
