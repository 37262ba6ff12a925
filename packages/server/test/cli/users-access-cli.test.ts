import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, consoleActor } from '../../src/audit/actor.js';
import { checkPassword } from '../../src/auth/password-sign-in.js';
import { FailureLimiter } from '../../src/auth/rate-limit.js';
import { setPassword } from '../../src/cli/commands.js';
import { inviteUser } from '../../src/console/invitations.service.js';
import { openSessions, startSession } from '../../src/console/sessions.service.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { cliDialects, freshCliDatabase } from '../helpers/cli-process.js';

const PASSWORD = 'a long enough passphrase';

// `assay users deactivate|reactivate` (the console's deactivation, through the same service) and
// `users list` naming deactivated and invited users; in-process, on a real database of each engine.
describe.each(cliDialects)('assay users deactivate|reactivate and list, on %s', (dialect) => {
  let dataDir: string;
  let url: string | undefined;
  let drop: () => Promise<void>;
  let db: Db;
  const assay = (...args: string[]) =>
    runAssay([...args, '--data', dataDir, ...(url ? ['--database-url', url] : [])]);
  const row = (email: string) =>
    db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

  beforeAll(async () => {
    const fresh = await freshCliDatabase(dialect, 'assay-users-access-cli-');
    ({ dataDir, url, drop } = fresh);
    expect((await assay('setup', '--no-keys')).code).toBe(0);
    db = openDatabase({ dataDir, databaseUrl: url });
    expect(
      (
        await assay(
          'users',
          'create',
          '--email',
          'dee@example.test',
          '--firstname',
          'Dee',
          '--lastname',
          'Activated',
        )
      ).code,
    ).toBe(0);
    await setPassword(db.kysely, 'dee@example.test', PASSWORD);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('deactivates a user: sessions end, sign-in is refused, the list says so; reactivates them', async () => {
    const dee = await row('dee@example.test');
    await startSession(db.kysely, consoleActor(dee.id, null), new Date());
    expect(await openSessions(db.kysely, dee.id)).toBe(1);

    const done = await assay('users', 'deactivate', '--email', 'DEE@example.test');
    expect(done).toEqual({ code: 0, stdout: `user deactivated: ${dee.id} dee@example.test\n`, stderr: '' });
    expect((await row('dee@example.test')).deactivated).not.toBeNull();
    expect(await openSessions(db.kysely, dee.id)).toBe(0);
    const limiter = new FailureLimiter(100, () => new Date());
    const refused = await checkPassword(db.kysely, limiter, {
      email: 'dee@example.test',
      password: PASSWORD,
      caller: 'cli-test',
    });
    expect(refused.ok).toBe(false);
    // Twice is no error, and says so.
    expect((await assay('users', 'deactivate', '--email', 'dee@example.test')).stdout).toBe(
      `user already deactivated: ${dee.id} dee@example.test\n`,
    );
    const lines = (await assay('users', 'list')).stdout.split('\n');
    expect(lines.find((line) => line.includes('dee@example.test'))).toMatch(
      /^[A-Za-z0-9]{10} {2}dee@example\.test {2}user {3}Dee Activated {2}\(deactivated \d{4}-\d\d-\d\dT[\d:]+\+00:00\)$/,
    );
    const json = JSON.parse((await assay('users', 'list', '--json')).stdout);
    expect(json.find((user: { email: string }) => user.email === 'dee@example.test').status).toBe(
      'deactivated',
    );

    const back = await assay('users', 'reactivate', '--email', 'dee@example.test', '--json');
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({
      id: dee.id,
      email: 'dee@example.test',
      status: 'active',
    });
    expect((await row('dee@example.test')).deactivated).toBeNull();
    expect(
      (
        await checkPassword(db.kysely, limiter, {
          email: 'dee@example.test',
          password: PASSWORD,
          caller: 'cli-test',
        })
      ).ok,
    ).toBe(true);
    expect((await assay('users', 'reactivate', '--email', 'dee@example.test')).stdout).toBe(
      `user already active: ${dee.id} dee@example.test\n`,
    );
  });

  it('never deactivates the only active admin, and names an unknown user in one line', async () => {
    const admin = await assay('users', 'deactivate', '--email', 'admin@localhost');
    expect(admin).toEqual({
      code: 1,
      stdout: '',
      stderr: 'assay: user: the only active admin cannot be deactivated\n',
    });
    expect((await row('admin@localhost')).deactivated).toBeNull();
    for (const command of ['deactivate', 'reactivate']) {
      const unknown = await assay('users', command, '--email', 'nobody@example.test');
      expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'assay: user: no user nobody@example.test\n' });
      const usage = await assay('users', command);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--email is required');
    }
  });

  it('lists a user invited in the console as invited, with when the invitation expires', async () => {
    const admin = await row('admin@localhost');
    await inviteUser(
      {
        db: db.kysely,
        config: { publicUrl: 'https://assay.example.test', mailFrom: 'Assay <assay@example.test>' },
        clock: () => new Date(),
        mailQueued: () => {},
      },
      admin.id,
      { email: 'ivy@example.test', firstname: 'Ivy', lastname: 'Invited', admin: false, language: 'frFR' },
      cliActor(),
    );
    const line = (await assay('users', 'list')).stdout.split('\n').find((text) => text.includes('ivy@'));
    expect(line).toMatch(
      / {2}Ivy Invited {2}\(invited; the invitation expires \d{4}-\d\d-\d\dT[\d:]+\+00:00\)$/,
    );
    const json = JSON.parse((await assay('users', 'list', '--json')).stdout);
    expect(json.find((user: { email: string }) => user.email === 'ivy@example.test').status).toBe('invited');
  });
});
