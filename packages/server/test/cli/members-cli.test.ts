import { type ChildProcess, execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import {
  cliDialects,
  freePort,
  freshCliDatabase,
  MAIN,
  type Outcome,
  serveProcess,
  stopProcess,
} from '../helpers/cli-process.js';

const run = promisify(execFile);

const dialects = cliDialects;

/** `script` (util-linux) runs a command on a pseudo-terminal: how the progress bar is seen. */
const hasScript = spawnSync('script', ['--version']).status === 0;

interface ImportResult {
  created: string[];
  updated: string[];
  errors: { row: number; message: string }[];
}

/**
 * 1,234 members across three chunks of the command, with refused rows in each: an e-mail given
 * again (in the same chunk and in later ones, in another case), a bad address, a missing name, a
 * bad status, and a run of 25 bad rows at the end. The domain keeps two files apart.
 */
function bigCsv(domain: string): string {
  const lines = ['email,firstname,lastname,status,testuser,extra.team'];
  for (let i = 1; i <= 1234; i++) {
    let line = `p${i}@${domain},First${i},Last${i},active,${i % 7 === 0 ? 'TRUE' : 'FALSE'},T${i % 3}`;
    if (i === 7) line = `not-an-address,First7,Last7,active,FALSE,T1`;
    if (i === 12) line = `p3@${domain},Again,Three,active,FALSE,T0`;
    if (i === 640) line = `P3@${domain.toUpperCase()},Later,Three,active,FALSE,T0`;
    if (i === 700) line = `p700@${domain},First700,,active,FALSE,T1`;
    if (i === 1001) line = `p1001@${domain},First1001,Last1001,retired,FALSE,T2`;
    if (i === 1150) line = `p20@${domain},Twice,Twenty,active,FALSE,T2`;
    if (i > 1209) line = `bad${i}@,First${i},Last${i},active,FALSE,T0`;
    lines.push(line);
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe.each(dialects)('assay members import, with `assay serve` running on %s', (dialect) => {
  let dataDir: string;
  let url: string | undefined;
  let drop: () => Promise<void>;
  let server: ChildProcess;
  let base: string;
  let bearer: string;
  let files: string;
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const where = () => ['--data', dataDir, ...(url ? ['--database-url', url] : [])];

  // The command lines run in-process, each with its own connection as a separate `assay`
  // would; the server that reads what they wrote is a real `assay serve` process, and the
  // progress bar on a terminal is drawn by the built command (the last test).
  const assay = (...args: string[]): Promise<Outcome> => runAssay([...args, ...where()]);
  const ok = async (...args: string[]) => {
    const result = await assay(...args);
    expect([result.code, result.stderr], args.join(' ')).toEqual([0, '']);
    return result.stdout;
  };
  const file = (name: string, content: string | Buffer) => {
    const at = path.join(files, name);
    fs.writeFileSync(at, content);
    return at;
  };
  const api = async (
    method: string,
    route: string,
    body?: string,
    type = 'application/json',
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert their shape.
  ): Promise<any> => {
    const response = await fetch(`${base}/api/v1${route}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      body,
    });
    expect(response.status, `${method} ${route}`).toBe(200);
    const answer = (await response.json()) as { status: string; data: unknown };
    expect(answer.status, JSON.stringify(answer).slice(0, 200)).toBe('OK');
    return answer.data;
  };
  const memberCount = async () => ((await api('GET', '/members')) as unknown[]).length;

  beforeAll(async () => {
    const fresh = await freshCliDatabase(dialect, 'assay-members-cli-');
    dataDir = fresh.dataDir;
    url = fresh.url;
    drop = fresh.drop;
    files = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-members-files-'));
    await ok('setup');
    const client = JSON.parse(
      await ok('clients', 'create', '--name', 't', '--scopes', 'members groups', '--json'),
    );
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const served = await serveProcess(where(), port, { DATABASE_URL: undefined });
    server = served.child;
    expect(served.started, served.output()).toBe(true);
    const response = await fetch(`${base}/api/v1/auth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope: 'members groups',
      }),
    });
    bearer = ((await response.json()) as { data: { access_token: string } }).data.access_token;
  });
  afterAll(async () => {
    if (server) expect(await stopProcess(server)).toBe(0);
    await drop?.();
    if (files) fs.rmSync(files, { recursive: true, force: true });
  });

  it('imports a CSV in chunks with the rules and row numbers of POST /members/import', async () => {
    const before = await memberCount();
    const viaCli = await assay('members', 'import', file('people.csv', bigCsv('cli.example.test')), '--json');
    expect(viaCli.code, viaCli.stderr).toBe(1);
    // No terminal: no progress bar.
    expect(viaCli.stderr).toBe('');
    const cli = JSON.parse(viaCli.stdout) as ImportResult;
    const viaApi = (await api(
      'POST',
      '/members/import',
      bigCsv('api.example.test'),
      'text/csv',
    )) as ImportResult;
    expect(cli.errors).toEqual(viaApi.errors);
    expect([cli.created.length, cli.updated.length]).toEqual([viaApi.created.length, viaApi.updated.length]);
    expect(cli.errors.map((error) => error.row)).toEqual([
      7,
      12,
      640,
      700,
      1001,
      1150,
      ...Array.from({ length: 25 }, (_, i) => 1210 + i),
    ]);
    expect(cli.errors[1]).toEqual({ row: 12, message: 'email: appears twice in this import' });
    expect(cli.errors[2]).toEqual({ row: 640, message: 'email: appears twice in this import' });
    expect(cli.created).toHaveLength(1234 - 31);
    expect(new Set(cli.created).size).toBe(cli.created.length);
    expect(await memberCount()).toBe(before + 2 * (1234 - 31));
    // What went in is what the row said.
    const one = await api('GET', `/members/${cli.created[6]}`);
    expect(one).toMatchObject({
      email: 'p8@cli.example.test',
      firstname: 'First8',
      lastname: 'Last8',
      testuser: false,
      extra: { team: 'T2' },
      groupid: null,
    });
  });

  it('prints a summary with the first 20 errors and their rows, exit code 1 when a row was refused', async () => {
    // A file whose members are all in already, from its first import: every row is refused again.
    const at = file('again.csv', bigCsv('again.example.test'));
    expect((await assay('members', 'import', at)).code).toBe(1);
    const before = await memberCount();
    const again = await assay('members', 'import', at);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('');
    const lines = again.stdout.split('\n');
    expect(lines[0]).toBe(`${at}: 0 created, 0 updated, 1234 errors (rows counted from 1, the first member)`);
    expect(lines.slice(1, 7)).toEqual([
      '  row 1: email: already exists',
      '  row 2: email: already exists',
      '  row 3: email: already exists',
      '  row 4: email: already exists',
      '  row 5: email: already exists',
      '  row 6: email: already exists',
    ]);
    expect(lines[7]).toMatch(/^ {2}row 7: email: /);
    expect(lines).toHaveLength(1 + 20 + 1 + 1);
    expect(lines[21]).toBe('  … and 1214 more (--json lists them all)');
    expect(lines[22]).toBe('');
    expect(await memberCount()).toBe(before);

    const clean = file(
      'two.csv',
      'email,firstname,lastname\nana@cli.example.test,Ana,Lyst\nbo@cli.example.test,Bo,Ss\n',
    );
    expect(await assay('members', 'import', clean)).toEqual({
      code: 0,
      stdout: `${clean}: 2 created, 0 updated, 0 errors\n`,
      stderr: '',
    });
  });

  it('reads JSON, puts new members in --group and changes existing ones with --update', async () => {
    // The two members the import changes, at a domain of this test's own.
    await ok(
      'members',
      'import',
      file(
        'existing.csv',
        'email,firstname,lastname\nana@json.example.test,Ana,Lyst\nbo@json.example.test,Bo,Ss\n',
      ),
    );
    const group = await api('POST', '/groups', JSON.stringify({ name: 'Imported', alias: 'imported' }));
    const existing = (await api('GET', '/members')) as { memberid: string; email: string }[];
    const ana = existing.find((member) => member.email === 'ana@json.example.test') as { memberid: string };
    const rows = [
      { email: 'ana@json.example.test', jobtitle: 'Analyst', lastname: 'Lyst-Smith' },
      { email: 'new.one@json.example.test', firstname: 'New', lastname: 'One', testuser: 1 },
      { email: 'half@json.example.test', firstname: 'Half' },
    ];
    // No extension to go by: the content says JSON.
    const json = file('members.export', JSON.stringify(rows));
    const result = JSON.parse(
      (await assay('members', 'import', json, '--group', group.groupid, '--update', '--json')).stdout,
    ) as ImportResult;
    expect(result.updated).toEqual([ana.memberid]);
    expect(result.created).toHaveLength(1);
    expect(result.errors).toEqual([{ row: 3, message: expect.stringMatching(/^lastname: /) }]);
    expect(await api('GET', `/members/${ana.memberid}`)).toMatchObject({
      email: 'ana@json.example.test',
      firstname: 'Ana',
      lastname: 'Lyst-Smith',
      groupid: group.groupid,
    });
    expect(await api('GET', `/members/${result.created[0]}`)).toMatchObject({
      email: 'new.one@json.example.test',
      testuser: true,
      groupid: group.groupid,
    });

    // The API's JSON body is read too; flags win over what it says.
    const body = file(
      'body.json',
      JSON.stringify({ members: [{ email: 'bo@json.example.test', company: 'Acme' }], update: 1 }),
    );
    expect(await assay('members', 'import', body)).toEqual({
      code: 0,
      stdout: `${body}: 0 created, 1 updated, 0 errors\n`,
      stderr: '',
    });
    const notUpdated = await assay('members', 'import', body, '--group', 'nosuchgrp0');
    expect(notUpdated).toEqual({ code: 1, stdout: '', stderr: 'assay: --group: no group nosuchgrp0\n' });
  });

  it('says in one line why a file cannot be imported, and writes nothing', async () => {
    const before = await memberCount();
    const latin1 = Buffer.from('email,firstname,lastname\nzoe@cli.example.test,Zo\xe9,Z\n', 'latin1');
    const cases: [string, string][] = [
      [path.join(files, 'missing.csv'), 'no such file'],
      [files, 'is a folder, not a file'],
      [file('empty.csv', '\n  \n'), 'the file is empty'],
      [file('header.csv', 'email,firstname,lastname\r\n'), 'the CSV has a header but no rows'],
      [
        file('semicolons.csv', 'email;firstname;lastname\na@b.example;A;B\n'),
        'not valid CSV: the header has no email column (is the separator a comma?)',
      ],
      [
        file('open.csv', 'email,firstname,lastname\n"a@b.example,A,B\n'),
        'not valid CSV: a quoted field is not closed',
      ],
      [file('latin1.csv', latin1), 'not UTF-8 (save it as UTF-8)'],
      [file('nothing.json', '[]'), 'no members in it'],
      [
        file('object.json', '{"email": "a@b.example"}'),
        'JSON must be an array of members or {"members": [...]}',
      ],
      [file('members.json', '{"members": "a@b.example"}'), 'members: must be an array'],
    ];
    for (const [at, message] of cases) {
      expect(await assay('members', 'import', at), at).toEqual({
        code: 1,
        stdout: '',
        stderr: `assay: ${at}: ${message}\n`,
      });
    }
    const broken = await assay('members', 'import', file('broken.json', '[{"email": '));
    expect([broken.code, broken.stdout]).toEqual([1, '']);
    expect(broken.stderr).toMatch(/^assay: \S+broken\.json: not valid JSON: .+\n$/);
    expect(await memberCount()).toBe(before);
  });

  it.skipIf(!hasScript)('draws a progress bar on a terminal (stderr), then the summary', async () => {
    const csv = file('progress.csv', bigCsv('tty.example.test'));
    const command = [process.execPath, MAIN, 'members', 'import', csv, ...where()]
      .map((part) => `'${part}'`)
      .join(' ');
    // Exit code 1: rows were refused.
    const { stdout } = await run('script', ['-qec', command, '/dev/null'], { env }).catch((error) => error);
    const frames = stdout.split('\r').filter((frame: string) => frame.startsWith('importing ['));
    // One frame before the first chunk, one after each of the three.
    const counts = frames.map((frame: string) => Number(/\] (\d+)\/1234 rows/.exec(frame)?.[1]));
    expect(counts).toHaveLength(4);
    expect(counts[0]).toBe(0);
    expect(counts[1]).toBeGreaterThan(500);
    expect(counts[2]).toBeGreaterThan(counts[1]);
    expect(counts[3]).toBe(1234);
    expect(frames.at(-1)).toMatch(/^importing \[#+\] 1234\/1234 rows \(100%\)/);
    expect(frames.at(-1)?.endsWith('(100%)\x1b[K')).toBe(true);
    expect(stdout).toContain(`\r\x1b[K${csv}: 1203 created, 0 updated, 31 errors`);
  });
});
