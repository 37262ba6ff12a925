import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditRow, listAuditRows } from '../../src/audit/audit.repository.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// Issue 23, part 3: reports imported, made, changed, recalculated and deleted through the API (as
// the client) and the console (as the signed-in user) are in the audit log, one entry a report
// (an import of many writes many), with the names of the fields changed and never an answer.

function answers(value: number): Record<string, number> {
  const result: Record<string, number> = {};
  for (let i = 1; i <= 24; i++) result[`Q${i}`] = value;
  return result;
}

describe.each(dialects)('the audit log of reports (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let adminId: string;

  const entries = async (id: string): Promise<AuditRow[]> =>
    (
      await listAuditRows(instance.db.kysely, { limit: 100, resourceType: 'report', resourceId: id })
    ).reverse();
  const member = async () =>
    (await instance.call('POST', '/members', { body: { email: email(), firstname: 'R', lastname: 'A' } }))
      .json.data.memberid as string;

  beforeAll(async () => {
    instance = await startInstance(dialect);
    adminId = (
      await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.test')
        .executeTakeFirstOrThrow()
    ).id;
    admin = await new ConsoleBrowser(instance, '192.0.2.30').signIn();
  });
  afterAll(() => instance?.close());

  it('records an import one entry a report, a group report, its changes and deletes, as the API client', async () => {
    const imported = await instance.call('POST', '/reports/import/leadership360', {
      body: {
        reports: [
          { memberid: await member(), answers: answers(3) },
          { memberid: await member(), answers: answers(4) },
          { memberid: 'no-such-member', answers: answers(4) },
        ],
      },
    });
    expect(imported.json.data.errors).toHaveLength(1);
    const [first, second] = imported.json.data.created as string[];
    for (const id of [first, second] as string[]) {
      expect(
        (await entries(id)).map((row) => [row.actor_type, row.actor_id, row.channel, row.action]),
      ).toEqual([['client', instance.client.client_id, 'api', 'import']]);
    }

    const group = await instance.call('POST', '/reports', {
      body: { reportType: 'group', variant: 'leadership360', selectedReports: `${first},${second}` },
    });
    expect(group.json.status, group.body).toBe('OK');
    const groupId = group.json.data.reportid as string;
    expect(
      (
        await instance.call('PATCH', `/reports/${groupId}`, {
          body: { name: 'Secret team name', tags: ['x'] },
        })
      ).statusCode,
    ).toBe(200);
    expect((await instance.call('POST', `/reports/${groupId}/recalc`)).statusCode).toBe(200);
    // Refused while the group report uses it: no entry.
    expect((await instance.call('DELETE', `/reports/${first}`)).json.status).toBe('ERROR');
    expect((await instance.call('DELETE', `/reports/${groupId}`)).statusCode).toBe(200);

    expect((await entries(groupId)).map((row) => [row.action, row.fields, row.user_id, row.address])).toEqual(
      [
        ['create', null, adminId, '127.0.0.1'],
        ['update', 'name tags', adminId, '127.0.0.1'],
        ['recalc', 'processed', adminId, '127.0.0.1'],
        ['delete', null, adminId, '127.0.0.1'],
      ],
    );
    expect((await entries(first as string)).map((row) => row.action)).toEqual(['import']);
  });

  it('records the console recalculating, changing the language of and deleting a report, as the user', async () => {
    const imported = await instance.call('POST', '/reports/import/leadership360', {
      body: { reports: [{ memberid: await member(), answers: answers(2) }] },
    });
    const id = imported.json.data.created[0] as string;
    expect((await admin.post(`/console/reports/${id}/recalc`, {})).statusCode).toBe(303);
    expect((await admin.post(`/console/reports/${id}/language`, { language: 'nlNL' })).statusCode).toBe(303);
    expect((await admin.post(`/console/reports/${id}/delete`, {})).statusCode).toBe(303);
    expect(
      (await entries(id))
        .slice(1)
        .map((row) => [row.actor_type, row.actor_id, row.channel, row.address, row.action, row.fields]),
    ).toEqual([
      ['user', adminId, 'console', '192.0.2.30', 'recalc', 'processed'],
      ['user', adminId, 'console', '192.0.2.30', 'update', 'language'],
      ['user', adminId, 'console', '192.0.2.30', 'delete', null],
    ]);
  });

  it('holds no name or answer', async () => {
    const all = JSON.stringify(
      await listAuditRows(instance.db.kysely, { limit: 1000, resourceType: 'report' }),
    );
    expect(all).not.toContain('Secret team name');
    // A question's code as a quoted value or key of its own ("Q1", or \"Q1\" inside a JSON
    // string): bare, it may be part of a random id.
    expect(all).not.toMatch(/"Q1\\?"/);
  });
});
