import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import { freshCliDatabase } from '../helpers/cli-process.js';
import { dialects, freshDatabase } from '../helpers/instance.js';

interface UserJson {
  id: string;
  email: string;
  role: 'admin' | 'user';
  firstname: string;
  lastname: string;
  color: string;
  agencyname: string;
  agencyfooter: string;
  status: 'active' | 'deactivated' | 'invited';
}

/** The database a command line is given: a data folder and, on PostgreSQL, a URL. */
interface Where {
  dataDir: string;
  url?: string;
}

// In-process: the command line's parsing, table and handlers on a real database, without a process
// per case (usage-cli.test.ts and cli.test.ts prove the built command itself).
describe.each(dialects)('assay users create|update|list, on %s', (dialect) => {
  let shared: Where;
  let drop: () => Promise<void>;
  const assayOn = async (at: Where, ...args: string[]) => {
    const where = at.url ? ['--database-url', at.url] : [];
    const result = await runAssay([...args, '--data', at.dataDir, ...where]);
    if (result.code !== 0) throw result;
    return result.stdout;
  };
  /** A command on the file's database, which every test but the list's shares. */
  const assay = (...args: string[]) => assayOn(shared, ...args);
  /** A command that must fail: its exit code and what it wrote. */
  const refused = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const result = await assay(...args).then(
      (stdout) => ({ code: 0, stdout, stderr: '' }),
      (error) => error,
    );
    expect(result.code, args.join(' ')).not.toBe(0);
    return result;
  };
  const list = async (at = shared): Promise<UserJson[]> =>
    JSON.parse(await assayOn(at, 'users', 'list', '--json'));
  const one = async (email: string) => (await list()).find((user) => user.email === email) as UserJson;
  /** A user of the test's own, with the defaults unless `flags` say otherwise. */
  const newUserOn = (at: Where, email: string, firstname: string, lastname: string, ...flags: string[]) =>
    assayOn(
      at,
      'users',
      'create',
      '--email',
      email,
      '--firstname',
      firstname,
      '--lastname',
      lastname,
      ...flags,
    );
  const newUser = (email: string, firstname: string, lastname: string, ...flags: string[]) =>
    newUserOn(shared, email, firstname, lastname, ...flags);

  beforeAll(async () => {
    const fresh = await freshCliDatabase(dialect, 'assay-users-cli-');
    shared = fresh;
    drop = fresh.drop;
    expect(await assay('setup', '--no-keys')).toContain('admin user created: admin@localhost');
  });
  afterAll(async () => drop?.());

  it('creates a user with the branding of their reports, or with the defaults', async () => {
    const created: UserJson = JSON.parse(
      await assay(
        'users',
        'create',
        '--email',
        'ana@example.test',
        '--firstname',
        'Ana',
        '--lastname',
        'Lyst',
        '--agency-name',
        '  Acme Assessments ',
        '--agency-footer',
        'Acme BV\r\nKeizersgracht 1\nAmsterdam\n',
        '--color',
        '#80C',
        '--json',
      ),
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{10}$/),
      email: 'ana@example.test',
      role: 'user',
      firstname: 'Ana',
      lastname: 'Lyst',
      color: '#8800cc',
      agencyname: 'Acme Assessments',
      agencyfooter: 'Acme BV\nKeizersgracht 1\nAmsterdam',
      status: 'active',
    });
    expect(await one('ana@example.test')).toEqual(created);

    const plain = await assay(
      'users',
      'create',
      '--email',
      'bo@example.test',
      '--firstname',
      'Bo',
      '--lastname',
      'Ss',
      '--admin',
    );
    expect(plain).toMatch(/^user created: [A-Za-z0-9]{10} bo@example\.test \(admin\)\n$/);
    expect(await one('bo@example.test')).toMatchObject({
      role: 'admin',
      color: '#1d70b8',
      agencyname: '',
      agencyfooter: '',
    });
  });

  it('changes only the given field, each in turn', async () => {
    await newUser('dee@example.test', 'Dee', 'Lyst', '--agency-name', 'Acme Assessments', '--color', '#80C');
    await newUser('eve@example.test', 'Eve', 'Ss', '--admin');
    let expected = await one('dee@example.test');
    const steps: [string[], Partial<UserJson>][] = [
      [['--firstname', 'Anna'], { firstname: 'Anna' }],
      [['--lastname', 'Lyst-Smit'], { lastname: 'Lyst-Smit' }],
      [['--agency-name', 'Beta Talent'], { agencyname: 'Beta Talent' }],
      [['--agency-footer', 'Beta\nPostbus 2'], { agencyfooter: 'Beta\nPostbus 2' }],
      // A typed backslash-n is not a line break: it is kept as it is.
      [['--agency-footer', 'One\\nline'], { agencyfooter: 'One\\nline' }],
      [['--color', '#00703C'], { color: '#00703c' }],
      [['--color', '#235'], { color: '#223355' }],
      [['--admin'], { role: 'admin' }],
      [['--no-admin'], { role: 'user' }],
      [['--agency-name', ''], { agencyname: '' }],
      [['--agency-footer', ''], { agencyfooter: '' }],
      [
        ['--firstname', 'Ana', '--color', '#123456', '--agency-name', 'Gamma'],
        { firstname: 'Ana', color: '#123456', agencyname: 'Gamma' },
      ],
    ];
    for (const [flags, patch] of steps) {
      expected = { ...expected, ...patch };
      // The address is found whatever its case.
      const answer = await assay('users', 'update', '--email', 'DEE@Example.test', ...flags, '--json');
      expect(JSON.parse(answer), flags.join(' ')).toEqual(expected);
    }
    expect(await one('dee@example.test')).toEqual(expected);
    expect(await assay('users', 'update', '--email', 'dee@example.test', '--lastname', 'Lyst')).toBe(
      `user updated: ${expected.id} dee@example.test (user)\n`,
    );
    // Someone else is untouched.
    expect(await one('eve@example.test')).toMatchObject({
      firstname: 'Eve',
      color: '#1d70b8',
      role: 'admin',
    });
  });

  it('takes the longest agency name and footer, counting characters as the database does', async () => {
    const name = '😀'.repeat(255);
    const footer = `${'x'.repeat(499)}\n${'é'.repeat(500)}`;
    await newUser('fay@example.test', 'Fay', 'Long');
    const updated: UserJson = JSON.parse(
      await assay(
        'users',
        'update',
        '--email',
        'fay@example.test',
        '--agency-name',
        name,
        '--agency-footer',
        footer,
        '--json',
      ),
    );
    expect([updated.agencyname, updated.agencyfooter]).toEqual([name, footer]);
    expect(await one('fay@example.test')).toEqual(updated);
  });

  it('refuses a bad value with one line naming its flag, and changes nothing', async () => {
    await newUser('gus@example.test', 'Gus', 'Refused');
    const before = await list();
    const update = ['users', 'update', '--email', 'gus@example.test'];
    const attempts: [string[], string][] = [
      [[...update, '--color', 'red'], '--color: must be #rgb or #rrggbb (like #1d70b8), got "red"'],
      [[...update, '--color', '#12345'], '--color: must be #rgb or #rrggbb (like #1d70b8), got "#12345"'],
      [[...update, '--color', '#ggg'], '--color: must be #rgb or #rrggbb (like #1d70b8), got "#ggg"'],
      [[...update, '--color', '1d70b8'], '--color: must be #rgb or #rrggbb (like #1d70b8), got "1d70b8"'],
      [[...update, '--color', ''], '--color: must be #rgb or #rrggbb (like #1d70b8), got ""'],
      [
        [...update, '--color', '#FD0'],
        '--color: the colour #ffdd00 has a contrast of 1.3:1 against white; text needs at least 4.5:1',
      ],
      // A good value next to a bad one is not applied either.
      [
        [...update, '--color', '#000000', '--agency-name', 'a'.repeat(256)],
        '--agency-name: at most 255 characters, got 256',
      ],
      [
        [...update, '--agency-name', 'Two\nlines'],
        '--agency-name: must be one line, without control characters',
      ],
      [
        [...update, '--agency-footer', 'f'.repeat(1001)],
        '--agency-footer: at most 1000 characters, got 1001',
      ],
      [
        [...update, '--agency-footer', 'ring\u0007bell'],
        '--agency-footer: must not contain control characters other than line breaks and tabs',
      ],
      [[...update, '--firstname', '  '], '--firstname: must not be empty'],
      [[...update, '--lastname', 'l'.repeat(300)], '--lastname: at most 255 characters, got 300'],
      [
        [
          'users',
          'create',
          '--email',
          'cy@example.test',
          '--firstname',
          'C',
          '--lastname',
          'Y',
          '--color',
          'blue',
        ],
        '--color: must be #rgb or #rrggbb (like #1d70b8), got "blue"',
      ],
      [
        [
          'users',
          'create',
          '--email',
          'cy@example.test',
          '--firstname',
          'C',
          '--lastname',
          'Y',
          '--agency-footer',
          'f'.repeat(1001),
        ],
        '--agency-footer: at most 1000 characters, got 1001',
      ],
    ];
    for (const [args, message] of attempts) {
      const result = await refused(...args);
      expect([result.code, result.stderr], args.join(' ').slice(0, 120)).toEqual([1, `assay: ${message}\n`]);
      expect(result.stdout).toBe('');
    }
    expect(await list()).toEqual(before);
  });

  it('says in one line that there is no user with an unknown address', async () => {
    const before = await list();
    const result = await refused('users', 'update', '--email', 'nobody@example.test', '--color', '#000');
    expect([result.code, result.stderr]).toEqual([1, 'assay: user: no user nobody@example.test\n']);
    expect(await list()).toEqual(before);
  });

  it('answers usage errors with exit code 2', async () => {
    const attempts: [string[], string][] = [
      [['users', 'update', '--email', 'ana@example.test'], 'users update needs a field to change'],
      [['users', 'update', '--color', '#000'], '--email is required'],
      [['users', 'update', '--email', 'ana@example.test', '--admin', '--no-admin'], 'not both'],
      [
        ['users', 'update', '--email', 'ana@example.test', '--password', 'long enough secret'],
        'use `assay users password`',
      ],
    ];
    for (const [args, message] of attempts) {
      const result = await refused(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0], args.join(' ')).toContain(message);
      // One line, pointing at the help of the command it concerns.
      expect(result.stderr, args.join(' ')).toMatch(/^assay: [^\n]+ \(see assay help users update\)\n$/);
    }
  });

  it('keeps an admin: the only admin cannot be made a plain user', async () => {
    // A second admin can be made a plain user: this test's own, and any other test's, so that the
    // first admin is the only one left.
    await newUser('hal@example.test', 'Hal', 'Admin', '--admin');
    for (const admin of (await list()).filter((user) => user.role === 'admin')) {
      if (admin.email !== 'admin@localhost')
        await assay('users', 'update', '--email', admin.email, '--no-admin');
    }
    const admins = (await list()).filter((user) => user.role === 'admin');
    expect(admins.map((user) => user.email)).toEqual(['admin@localhost']);
    const result = await refused('users', 'update', '--email', 'admin@localhost', '--no-admin');
    expect([result.code, result.stderr]).toEqual([
      1,
      'assay: --no-admin: admin@localhost is the only admin user: make another user admin first\n',
    ]);
    expect((await one('admin@localhost')).role).toBe('admin');
  });

  it('lists the users, oldest first', async () => {
    // A database of its own: the list is every user there is, and its columns are as wide as their
    // longest value, so no other test's user may be in it.
    const own = await freshDatabase(dialect, undefined, { migrated: true });
    await own.db.close();
    try {
      await assayOn(own, 'setup', '--no-keys');
      await newUserOn(own, 'ana@example.test', 'Ana', 'Lyst', '--agency-name', 'Gamma');
      await newUserOn(own, 'bo@example.test', 'Bo', 'Ss', '--agency-name', '😀'.repeat(255));
      const users = await list(own);
      // Creation times are kept to the second: users made within one second come in id order.
      expect(users.map((user) => user.email).sort()).toEqual([
        'admin@localhost',
        'ana@example.test',
        'bo@example.test',
      ]);
      expect(Object.keys(users[0] as UserJson)).toEqual([
        'id',
        'email',
        'role',
        'firstname',
        'lastname',
        'color',
        'agencyname',
        'agencyfooter',
        'status',
      ]);
      const line: Record<string, (id: string) => string> = {
        'admin@localhost': (id) => `${id}  admin@localhost   admin  Admin Assay`,
        'ana@example.test': (id) => `${id}  ana@example.test  user   Ana Lyst  [Gamma]`,
        'bo@example.test': (id) => `${id}  bo@example.test   user   Bo Ss  [${'😀'.repeat(255)}]`,
      };
      expect((await assayOn(own, 'users', 'list')).split('\n')).toEqual([
        ...users.map((user) => (line[user.email] as (id: string) => string)(user.id)),
        '',
      ]);
    } finally {
      await own.drop();
    }
  });
});
