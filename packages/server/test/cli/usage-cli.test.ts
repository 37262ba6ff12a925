import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';

const run = promisify(execFile);
const MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');
const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('usage errors, --help and --version of the built command', () => {
  let parent: string;
  let data: string;
  beforeAll(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-usage-'));
    data = path.join(parent, 'data');
  });
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  const assay = (...args: string[]): Promise<Outcome> =>
    run(process.execPath, [MAIN, ...args], { env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      ({ code, stdout, stderr }: Outcome) => ({ code, stdout, stderr }),
    );

  it('answers an unknown or misused option with one line pointing at --help, exit code 2', async () => {
    const cases: [string[], string][] = [
      [['users', 'list', '--bogus'], 'unknown option --bogus'],
      [['--bogus'], 'unknown option --bogus'],
      [['--bogus', 'users', 'list'], 'unknown option --bogus'],
      [['apikeys', 'list', '-x'], 'unknown option -x'],
      [['users', 'list', '--json=yes'], '--json takes no value'],
      [['users', 'password', '--email'], '--email needs a value'],
      [
        ['users', 'password', '--email', '--password', 'x'],
        '--email needs a value; one that starts with a dash is written --email=-VALUE',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await assay('--data', data, ...args);
      expect([result.code, result.stdout, result.stderr], args.join(' ')).toEqual([
        2,
        '',
        `assay: ${message} (see assay --help)\n`,
      ]);
    }
    // Refused before anything is opened: no data folder was made.
    expect(fs.existsSync(data)).toBe(false);
  });

  it('gives every other usage error the same one line', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], 'unknown command: frobnicate'],
      [['users', 'password', '--password', 'long enough secret'], '--email is required'],
      [['clients', 'delete'], 'clients delete needs the client id'],
      [['apikeys', 'revoke'], 'apikeys revoke needs the key id (see assay apikeys list)'],
      [['members', 'import'], 'members import needs the file to import'],
    ];
    for (const [args, message] of cases) {
      const result = await assay('--data', data, ...args);
      expect([result.code, result.stdout, result.stderr], args.join(' ')).toEqual([
        2,
        '',
        `assay: ${message} (see assay --help)\n`,
      ]);
    }
  });

  it('prints the version with --version and -v, whatever else is given', async () => {
    for (const args of [['--version'], ['-v'], ['users', 'list', '--version']]) {
      expect(await assay(...args), args.join(' ')).toEqual({
        code: 0,
        stdout: `assay ${VERSION}\n`,
        stderr: '',
      });
    }
  });

  it('lists the new commands in --help', async () => {
    const help = await assay('--help');
    expect(help.code).toBe(0);
    for (const command of [
      'apikeys list [--json]',
      'apikeys revoke ID',
      'clients delete ID',
      'members import FILE [--group ID] [--update] [--json]',
      '--version, -v',
    ]) {
      expect(help.stdout).toContain(command);
    }
    expect((await assay('-h')).stdout).toBe(help.stdout);
  });
});
