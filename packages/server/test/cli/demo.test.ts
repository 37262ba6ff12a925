import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.commands.js';
import { loadInstanceVariants } from '../../src/variants/load-variants.js';
import { MAIN, type Outcome } from '../helpers/cli-process.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { readPdf } from '../pdf/pdf-reader.js';

for (const dialect of dialects) {
  describe(`assay demo (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(async () => {
      await instance?.close();
    });

    const deps = (on: Instance = instance) => ({
      db: on.db.kysely,
      dialect: on.db.dialect,
      variants: loadInstanceVariants(on.config),
      config: on.config,
      clock: () => new Date(),
      mailQueued: () => {},
      campaignsDue: () => {},
    });

    it('is one transaction: a run that fails half-way leaves nothing, and the next run makes it whole', async () => {
      // An instance of its own: the demo runs once per instance, so the shared one may already hold
      // it (the other test's run), and this test needs a failed run on an empty one, then the next.
      const own = await startInstance(dialect);
      try {
        const whole = own.otherProcess({ oneTransaction: true });
        const variants = loadInstanceVariants(own.config);
        // The 360 rounds come after the groups, the members, two campaigns and their reports.
        const without360 = {
          list: () => variants.list(),
          get: (alias: string) => (alias === 'leadership360' ? undefined : variants.get(alias)),
        };
        await expect(
          runDemo({ ...deps(own), db: whole.kysely, dialect: whole.dialect, variants: without360 }),
        ).rejects.toThrow('leadership360');
        await whole.close();
        const count = async (table: 'groups' | 'members' | 'campaigns' | 'reports') =>
          Number(
            (
              await own.db.kysely
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const counts = async () => [
          await count('groups'),
          await count('members'),
          await count('campaigns'),
          await count('reports'),
        ];
        expect(await counts()).toEqual([0, 0, 0, 0]);

        // The next run, as `assay demo` makes it (one transaction, committed), finds nothing in its
        // way and leaves the whole data set.
        const next = own.otherProcess({ oneTransaction: true });
        let summary: Awaited<ReturnType<typeof runDemo>>;
        try {
          summary = await runDemo({ ...deps(own), db: next.kysely, dialect: next.dialect });
          await next.commit?.();
        } finally {
          await next.close();
        }
        expect([summary.groups, summary.members, summary.campaigns.length]).toEqual([6, 200, 5]);
        expect(await counts()).toEqual([6, 200, 5, summary.personalReports + summary.groupReports.length]);
      } finally {
        await own.close();
      }
    }, 60_000);

    it('fills the instance through the services, with a group report of every type, and refuses a second run', async () => {
      const summary = await runDemo(deps());
      expect(summary.members).toBe(200);
      expect(summary.campaigns).toHaveLength(5);
      expect(summary.personalReports).toBeGreaterThan(80);
      expect(new Set(summary.groupReports.map((report) => report.type))).toEqual(
        new Set(['group', 'groupanon', 'condensed', 'complete']),
      );

      const counts = (await instance.call('GET', '/reports/counts')).json.data;
      expect(Number(counts.bigfive.personal)).toBeGreaterThan(40);
      expect(counts.leadership360.personal).toBe('24');
      expect(counts.leadership360.group).toBe('3');

      // Completion went through the campaign: members completed with their report in `results`.
      const campaign = summary.campaigns[0] as string;
      const members = (await instance.call('GET', `/campaigns/${campaign}/members`)).json.data;
      const completed = members.filter((m: { status: string }) => m.status === 'completed');
      expect(completed.length).toBeGreaterThan(0);
      expect(completed[0].results).toEqual({ status: 'completed', reportid: expect.any(String) });
      // A member who completed has started: the link is theirs ("empty until the member starts").
      for (const member of completed) {
        expect(member.sessionurl).toBe(`${instance.config.questionnaireUrl}/q/${member.token}`);
        expect(member.datestarted).not.toBeNull();
      }
      for (const member of members.filter((m: { status: string }) => m.status === 'invited'))
        expect(member.sessionurl).toBe('');
      expect(members.some((m: { status: string }) => m.status === 'invited')).toBe(true);

      for (const report of summary.groupReports) {
        const response = await instance.app.inject({
          method: 'GET',
          url: `/api/v1/reports/${report.reportid}`,
          headers: { authorization: `Bearer ${await instance.token()}` },
        });
        expect(response.statusCode, report.type).toBe(200);
        const read = await readPdf(response.rawPayload);
        expect(read.pages, report.type).toBeGreaterThan(0);
        if (report.type === 'condensed') expect(read.pages).toBe(1);
      }
      await expect(runDemo(deps())).rejects.toThrow(/already on this instance/);
    }, 60_000);
  });
}

describe('assay demo, the built command', () => {
  let data: string;
  beforeAll(() => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-demo-'));
  });
  afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const assay = (...args: string[]): Promise<Outcome> =>
    promisify(execFile)(process.execPath, [MAIN, ...args, '--data', data], { env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      ({ code, stdout, stderr }: Outcome) => ({ code, stdout, stderr }),
    );

  it('fills a new instance, prints the group reports, and refuses a second run with exit code 1', async () => {
    expect((await assay('setup')).code).toBe(0);
    const made = await assay('demo');
    expect([made.code, made.stderr]).toEqual([0, '']);
    const lines = made.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^demo data made in \d+\.\d s: \d+ groups, 200 members, 5 campaigns, \d+ personal reports$/,
    );
    const reports = lines.slice(1, -2);
    expect(reports.length).toBeGreaterThanOrEqual(4);
    for (const line of reports)
      expect(line).toMatch(/^ {2}(group|groupanon|condensed|complete) +\S{10} {2}\S/);
    expect(lines.slice(-2)).toEqual([
      'open a PDF with GET /api/v1/reports/{reportid}, or list them with GET /api/v1/reports',
      '',
    ]);
    expect(await assay('demo', '--json')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'assay: the demo data is already on this instance (group alias demo-northwind)\n',
    });
  }, 120_000);
});
