import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiActor, cliActor, consoleActor } from '../../src/audit/actor.js';
import { recordChange } from '../../src/audit/audit.service.js';
import { openDatabase } from '../../src/db/connect.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { cliDialects, freshCliDatabase, type Outcome } from '../helpers/cli-process.js';

describe.each(cliDialects)('assay audit list (%s)', (dialect) => {
  let dataDir: string;
  let url: string | undefined;
  let drop: () => Promise<void>;
  const where = () => ['--data', dataDir, ...(url ? ['--database-url', url] : [])];
  const assay = (...args: string[]): Promise<Outcome> => runAssay([...args, ...where()]);
  // The entries this test writes lie before this day; whatever the instance records of its own
  // (its setup) comes later and stays outside every listing.
  const window = ['--until', '2026-07-01'];

  beforeAll(async () => {
    ({ dataDir, url, drop } = await freshCliDatabase(dialect));
    expect((await assay('setup', '--no-keys')).code).toBe(0);
    const db = openDatabase({ databaseUrl: url, dataDir });
    try {
      await recordChange(
        db.kysely,
        cliActor(),
        { resource: 'member', id: 'm000000001', action: 'create' },
        '2026-01-05T10:00:00+00:00',
      );
      await recordChange(
        db.kysely,
        consoleActor('u000000001', '192.0.2.7'),
        { resource: 'member', id: 'm000000001', action: 'update', fields: ['firstname', 'email'] },
        '2026-02-05T10:00:00+00:00',
      );
      await recordChange(
        db.kysely,
        apiActor({ userId: 'u000000001', credential: { kind: 'client', id: 'c000000001' } }, '198.51.100.4'),
        { resource: 'campaign', id: 'k000000001', action: 'delete', outcome: 'denied' },
        '2026-03-05T10:00:00+00:00',
      );
    } finally {
      await db.close();
    }
  });
  afterAll(async () => {
    await drop?.();
  });

  it('prints a table, newest first, that the filters narrow', async () => {
    const all = await assay('audit', 'list', ...window);
    expect([all.code, all.stderr]).toEqual([0, '']);
    const lines = all.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SEQ +AT +ACTOR +RESOURCE +ACTION +FIELDS +OUTCOME$/);
    expect(lines.slice(1).map((line) => line.split(/ {2,}/).slice(1))).toEqual([
      [
        '2026-03-05T10:00:00+00:00',
        'client c000000001 (api 198.51.100.4)',
        'campaign/k000000001',
        'delete',
        '-',
        'denied',
      ],
      [
        '2026-02-05T10:00:00+00:00',
        'user u000000001 (console 192.0.2.7)',
        'member/m000000001',
        'update',
        'firstname,email',
        'succeeded',
      ],
      [
        '2026-01-05T10:00:00+00:00',
        `cli ${cliActor().id} (cli)`,
        'member/m000000001',
        'create',
        '-',
        'succeeded',
      ],
    ]);
    const actions = async (...args: string[]) =>
      (
        JSON.parse((await assay('audit', 'list', '--json', ...window, ...args)).stdout) as {
          action: string;
        }[]
      ).map((entry) => entry.action);
    expect(await actions('--since', '2026-02-01')).toEqual(['delete', 'update']);
    expect(await actions('--since', '2026-02-01', '--until', '2026-03-01')).toEqual(['update']);
    expect(await actions('--actor', 'u000000001')).toEqual(['update']);
    expect(await actions('--resource', 'member')).toEqual(['update', 'create']);
    expect(await actions('--resource', 'campaign/k000000001')).toEqual(['delete']);
    expect(await actions('--limit', '1')).toEqual(['delete']);
    expect((await assay('audit', 'list', '--resource', 'group')).stdout).toBe('no entries\n');
  });

  it('prints one JSON array in the API’s shape with --json', async () => {
    const json = await assay('audit', 'list', '--json', '--limit', '1', ...window);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        seq: expect.any(Number),
        at: '2026-03-05T10:00:00+00:00',
        actor: {
          type: 'client',
          id: 'c000000001',
          userid: 'u000000001',
          channel: 'api',
          address: '198.51.100.4',
        },
        resource: { type: 'campaign', id: 'k000000001' },
        action: 'delete',
        fields: [],
        outcome: 'denied',
      },
    ]);
  });

  it('refuses bad values (exit 1, naming the option) and unknown options (exit 2)', async () => {
    for (const [args, message] of [
      [['--limit', '0'], 'limit: must be at least 1'],
      [['--limit', '1001'], 'limit: must be at most 1000'],
      [['--limit', 'many'], 'limit: must be a whole number'],
      [['--since', 'last week'], 'since: must be a date such as 2026-11-22T11:46:36+00:00'],
      [['--until', '2026-13-01'], 'until: must be a date such as 2026-11-22T11:46:36+00:00'],
      [
        ['--resource', 'Member/x'],
        'resource: must be a resource type, or a type and an id such as member/Ab12Cd34Ef',
      ],
      [['--actor', ''], 'actor: must not be empty'],
    ] as const) {
      const refused = await assay('audit', 'list', ...args);
      expect([refused.code, refused.stdout, refused.stderr], args.join(' ')).toEqual([
        1,
        '',
        `assay: ${message}\n`,
      ]);
    }
    const unknown = await assay('audit', 'list', '--before', '5');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--before');
    const help = await runAssay(['--help']);
    expect(help.stdout).toMatch(/audit list .*the audit log, newest first/);
  });
});
