import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, GLOBAL_OPTIONS } from '../../src/cli/command-table.js';
import { VERSION } from '../../src/version.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { MAIN, type Outcome } from '../helpers/cli-process.js';

const run = promisify(execFile);
const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;

/** A value for an option: a word for a string, nothing for a flag. */
const given = (name: string, type: string) => (type === 'string' ? [`--${name}`, 'x'] : [`--${name}`]);

describe('usage errors, help and --version', () => {
  let parent: string;
  let data: string;
  beforeAll(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-usage-'));
    data = path.join(parent, 'data');
  });
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  /** The built command, end to end. */
  const built = (...args: string[]): Promise<Outcome> =>
    run(process.execPath, [MAIN, ...args], { env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      ({ code, stdout, stderr }: Outcome) => ({ code, stdout, stderr }),
    );
  const assay = (...args: string[]) => runAssay(args);
  const refusedWith = async (args: string[], line: string) => {
    expect(await assay('--data', data, ...args), args.join(' ')).toEqual({
      code: 2,
      stdout: '',
      stderr: `${line}\n`,
    });
  };

  it('the built command: options of another command, help, the version and an unknown command', async () => {
    // The issue's example: options of `mail preview` given to `users list`.
    expect(await built('users', 'list', '--stage', 'x', '--html', '--data', data)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'assay: --stage is not an option of users list (see assay help users list)\n',
    });
    expect(await built('--bogus')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'assay: unknown option --bogus (see assay --help)\n',
    });
    expect(await built('frobnicate')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'assay: unknown command: frobnicate (see assay --help)\n',
    });
    expect(await built('--version')).toEqual({ code: 0, stdout: `assay ${VERSION}\n`, stderr: '' });
    const help = await built('--help');
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toBe((await assay('--help')).stdout);
    const one = await built('users', 'list', '--help');
    expect(one).toEqual({ code: 0, stdout: (await assay('help', 'users', 'list')).stdout, stderr: '' });
    expect(one.stdout).toMatch(/^Usage: assay users list \[--json\]\n/);
    // Refused before anything is opened: no data folder was made.
    expect(fs.existsSync(data)).toBe(false);
  }, 90_000);

  it('prints the version with --version and -v, whatever else is given', async () => {
    for (const args of [['--version'], ['-v'], ['users', 'list', '--version'], ['frobnicate', '-v']]) {
      expect(await assay(...args), args.join(' ')).toEqual({
        code: 0,
        stdout: `assay ${VERSION}\n`,
        stderr: '',
      });
    }
  });

  it('answers an unknown or misused option with one line naming it and the command, exit code 2', async () => {
    const cases: [string[], string][] = [
      [['users', 'list', '--bogus'], 'unknown option --bogus for users list (see assay help users list)'],
      [['--bogus'], 'unknown option --bogus (see assay --help)'],
      [['--bogus', 'users', 'list'], 'unknown option --bogus for users list (see assay help users list)'],
      [['apikeys', 'list', '-x'], 'unknown option -x for apikeys list (see assay help apikeys list)'],
      [['users', 'list', '--json=yes'], '--json takes no value (see assay help users list)'],
      [['users', 'password', '--email'], '--email needs a value (see assay help users password)'],
      [
        ['users', 'password', '--email', '--password', 'x'],
        '--email needs a value; one that starts with a dash is written --email=-VALUE (see assay help users password)',
      ],
      [['setup', '--json'], '--json is not an option of setup (see assay help setup)'],
      [['serve', '--no-keys'], '--no-keys is not an option of serve (see assay help serve)'],
      [
        ['members', 'import', 'f.csv', '--scopes', 'members'],
        '--scopes is not an option of members import (see assay help members import)',
      ],
    ];
    for (const [args, line] of cases) await refusedWith(args, `assay: ${line}`);
    expect(fs.existsSync(data)).toBe(false);
  });

  it('refuses, for every command, each option that only other commands take', async () => {
    const global = new Set(Object.keys(GLOBAL_OPTIONS));
    for (const command of COMMANDS) {
      const args = (command.args ?? []).filter((arg) => arg.missing).map(() => 'ID0000000');
      for (const other of COMMANDS) {
        for (const [name, option] of Object.entries(other.options)) {
          if (name in command.options || global.has(name)) continue;
          await refusedWith(
            [...command.name.split(' '), ...args, ...given(name, option.type)],
            `assay: ${command.refused?.[name] ?? `--${name} is not an option of ${command.name}`} (see assay help ${command.name})`,
          );
        }
      }
    }
    expect(fs.existsSync(data)).toBe(false);
  });

  it('gives every other usage error the same one line, before anything is opened', async () => {
    const cases: [string[], string][] = [
      [['frobnicate'], 'unknown command: frobnicate (see assay --help)'],
      [['users', 'frobnicate'], 'unknown command: users frobnicate (see assay --help)'],
      [
        ['users'],
        'users needs a command: create, update, list, deactivate, reactivate, password, sign-in-link (see assay help users)',
      ],
      [['help', 'frobnicate'], 'unknown command: frobnicate (see assay --help)'],
      [
        ['users', 'password', '--password', 'long enough secret'],
        '--email is required (see assay help users password)',
      ],
      [['clients', 'delete'], 'clients delete needs the client id (see assay help clients delete)'],
      [
        ['apikeys', 'revoke'],
        'apikeys revoke needs the key id: assay apikeys list shows them (see assay help apikeys revoke)',
      ],
      [['members', 'import'], 'members import needs the file to import (see assay help members import)'],
      [['users', 'list', 'extra'], 'users list takes no arguments, got: extra (see assay help users list)'],
      [['mail', 'show', 'a', 'b'], 'mail show takes ID, and got more: b (see assay help mail show)'],
      [['campaigns', 'share', 'c1'], '--user is required (see assay help campaigns share)'],
    ];
    for (const [args, line] of cases) await refusedWith(args, `assay: ${line}`);
    expect(fs.existsSync(data)).toBe(false);
  });

  it('lists every command and the global options in the general help, one line each', async () => {
    const help = (await assay('--help')).stdout;
    expect(help.startsWith('Usage: assay <command> [options]\n')).toBe(true);
    for (const command of COMMANDS) {
      expect(help, command.name).toMatch(
        new RegExp(`\\n {2}${command.name}( \\S+)? +${escapeRegExp(command.summary)}\\n`),
      );
    }
    for (const [name, option] of Object.entries(GLOBAL_OPTIONS)) {
      expect(help, name).toContain(`--${name}`);
      expect(help, name).toContain(option.description);
    }
    expect(help).toContain('--version, -v');
    expect(help).toContain('--help, -h');
    for (const args of [[], ['-h'], ['help'], ['--data', data]])
      expect(await assay(...args), args.join(' ')).toEqual({ code: 0, stdout: help, stderr: '' });
  });

  it('describes each command with its arguments and options, by `help COMMAND` and `COMMAND --help`', async () => {
    for (const command of COMMANDS) {
      const words = command.name.split(' ');
      const help = await assay('help', ...words);
      expect([help.code, help.stderr], command.name).toEqual([0, '']);
      expect(help.stdout, command.name).toMatch(new RegExp(`^Usage: assay ${command.name}[ \\n]`));
      for (const [name, option] of Object.entries(command.options)) {
        expect(help.stdout, `${command.name} --${name}`).toContain(`--${name}`);
        expect(help.stdout, `${command.name} --${name}`).toContain(option.description);
      }
      for (const arg of command.args ?? []) expect(help.stdout).toContain(arg.description);
      expect(await assay(...words, '--help'), command.name).toEqual(help);
      expect(await assay(...words, '-h'), command.name).toEqual(help);
    }
    const users = await assay('help', 'users');
    for (const name of ['users create', 'users update', 'users list', 'users password'])
      expect(users.stdout).toContain(`  ${name} `);
    expect(await assay('users', '--help')).toEqual(users);
    expect((await assay('help', 'users', 'create')).stdout).toContain(
      'Usage: assay users create --email E --firstname F --lastname L [--admin]',
    );
  });

  it('keeps the table consistent: an option name means one thing in every command', () => {
    const seen = new Map<string, string>();
    for (const command of COMMANDS) {
      expect(command.summary.includes('\n'), command.name).toBe(false);
      for (const [name, option] of Object.entries(command.options)) {
        expect(name in GLOBAL_OPTIONS, `${command.name} --${name}`).toBe(false);
        const shape = `${option.type}${option.multiple ? '[]' : ''}`;
        expect(seen.get(name) ?? shape, `${command.name} --${name}`).toBe(shape);
        seen.set(name, shape);
      }
    }
    expect(new Set(COMMANDS.map((command) => command.name)).size).toBe(COMMANDS.length);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
