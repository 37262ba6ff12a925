import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dialects,
  email,
  type Instance,
  whileRivalCommits as rivalCommits,
  startInstance,
} from '../helpers/instance.js';

const error = (data: string) => ({ status: 'ERROR', data });

function answers(value: number): Record<string, number> {
  const result: Record<string, number> = {};
  for (let i = 1; i <= 24; i++) result[`Q${i}`] = value;
  return result;
}

// As in the other race tests: another connection holds a rival change uncommitted, the request
// reads past it and blocks on its lock, and the rival commits. (SQLite writes one at a time.)
describe.skipIf(!dialects.includes('postgres'))('reports: races with a concurrent change (postgres)', () => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance('postgres');
  });
  afterAll(() => instance.close());

  const member = async () =>
    (await instance.call('POST', '/members', { body: { email: email(), firstname: 'R', lastname: 'C' } }))
      .json.data.memberid as string;
  const personal = async (memberid?: string) => {
    const response = await instance.call('POST', '/reports/import/leadership360', {
      body: { reports: [{ memberid: memberid ?? (await member()), answers: answers(3) }] },
    });
    expect(response.json.data.errors, response.body).toEqual([]);
    return response.json.data.created[0] as string;
  };
  const count = async () =>
    Number(
      (
        await instance.db.kysely
          .selectFrom('reports')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a group report whose selected report is deleted meanwhile, and stores nothing', async () => {
    const kept = await personal();
    const doomed = await personal();
    const before = await count();
    const response = await rivalCommits(instance, `delete from reports where id = '${doomed}'`, () =>
      instance.call('POST', '/reports', {
        body: { reportType: 'group', variant: 'leadership360', selectedReports: `${kept},${doomed}` },
      }),
    );
    expect(response.json).toEqual(error(`selectedReports: unknown report ${doomed}`));
    expect(await count()).toBe(before - 1);
    expect(
      await instance.db.kysely
        .selectFrom('report_sources')
        .selectAll()
        .where('source_id', '=', kept)
        .execute(),
    ).toEqual([]);
  });

  it('refuses to delete a report that a group report being made meanwhile uses', async () => {
    const source = await personal();
    const other = await personal();
    const group = (
      await instance.call('POST', '/reports', {
        body: { reportType: 'group', variant: 'leadership360', selectedReports: other },
      })
    ).json.data.reportid as string;
    const response = await rivalCommits(
      instance,
      `insert into report_sources (report_id, source_id, position) values ('${group}', '${source}', 1)`,
      () => instance.call('DELETE', `/reports/${source}`),
    );
    expect(response.json).toEqual(error(`report: used by group report ${group}; delete it first`));
    expect((await instance.call('GET', `/reports/${source}/short`)).statusCode).toBe(200);
  });

  it('writes nothing of an import whose member is erased meanwhile', async () => {
    const doomed = await member();
    const alive = await member();
    const before = await count();
    const response = await rivalCommits(instance, `delete from members where id = '${doomed}'`, () =>
      instance.call('POST', '/reports/import/leadership360', {
        body: {
          reports: [
            { memberid: alive, answers: answers(4) },
            { memberid: doomed, answers: answers(4) },
          ],
        },
      }),
    );
    expect(response.json).toEqual(
      error('reports: a member or campaign of the import was deleted meanwhile; nothing was imported'),
    );
    expect(await count()).toBe(before);
  });
});
