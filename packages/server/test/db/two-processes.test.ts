import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, MAIN, serveProcess, stopProcess } from '../helpers/cli-process.js';

const run = promisify(execFile);
const ENV = { ...process.env, LOG_LEVEL: 'warn' };
// Members each of the six writers creates at least; each goes on until the import has answered,
// so that the writes of both servers span the whole import however fast the machine is.
const WRITES_EACH = 50;

/**
 * Two `assay serve` processes and a CLI import on one SQLite folder: every write takes the lock up
 * front and waits for it without blocking its server, so contention is never an error.
 */
describe('one SQLite folder, several processes (sqlite)', () => {
  let data: string;
  let servers: Awaited<ReturnType<typeof serveProcess>>[] = [];
  let bases: string[] = [];
  let credentials: { client_id: string; client_secret: string };

  beforeAll(async () => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-two-'));
    await run(process.execPath, [MAIN, 'setup', '--data', data], { env: ENV });
    credentials = JSON.parse(
      (
        await run(
          process.execPath,
          [
            MAIN,
            'clients',
            'create',
            '--name',
            'burst',
            '--scopes',
            'members groups',
            '--json',
            '--data',
            data,
          ],
          {
            env: ENV,
          },
        )
      ).stdout,
    );
    const ports = [await freePort(), await freePort()];
    bases = ports.map((port) => `http://127.0.0.1:${port}`);
    servers = await Promise.all(ports.map((port) => serveProcess(data, port, { ASSAY_TICK_SECONDS: '1' })));
  });
  afterAll(async () => {
    for (const server of servers) await stopProcess(server.child);
    fs.rmSync(data, { recursive: true, force: true });
  });

  it('makes the data folder private', () => {
    expect(fs.statSync(data).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(data, 'assay.sqlite')).mode & 0o777).toBe(0o600);
  });

  // The timeout is a safety net only: the writes end with the import, which a busy machine makes slower.
  it('answers no 5xx to writes from two servers all through an import, and loses none of them', async () => {
    for (const server of servers) expect(server.started, server.output()).toBe(true);
    const tokens = await Promise.all(
      bases.map(async (base) => {
        const response = await fetch(`${base}/api/v1/auth/access_token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            ...credentials,
            scope: 'members groups',
          }),
        });
        return ((await response.json()) as { data: { access_token: string } }).data.access_token;
      }),
    );
    const csv = path.join(data, 'import.csv');
    fs.writeFileSync(
      csv,
      `email,firstname,lastname\n${Array.from({ length: 4000 }, (_, i) => `import.${i}@example.test,Im,Port${i}`).join('\n')}\n`,
    );

    const statuses = new Map<number, number>();
    const created: string[][] = [[], []];
    const groups: string[] = [];
    let importAnswered = false;
    let n = 0;
    const writer = async (side: number) => {
      const base = bases[side] as string;
      const headers = { authorization: `Bearer ${tokens[side]}`, 'content-type': 'application/json' };
      for (let mine = 0; mine < WRITES_EACH || !importAnswered; mine++) {
        const email = `burst.${side}.${n++}@example.test`;
        const response = await fetch(`${base}/api/v1/members`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email, firstname: 'Burst', lastname: `Side ${side}` }),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const body = (await response.json()) as { status?: string; data?: { memberid?: string } };
        if (response.status === 200 && body.status === 'OK') created[side]?.push(email);
        // A group write too: a transaction that reads before it writes.
        if (n % 10 === 0) {
          const alias = `g${side}x${n}`;
          const group = await fetch(`${base}/api/v1/groups`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: alias, alias }),
          });
          statuses.set(group.status, (statuses.get(group.status) ?? 0) + 1);
          if (((await group.json()) as { status?: string }).status === 'OK') groups.push(alias);
        }
      }
    };
    const importing = run(process.execPath, [MAIN, 'members', 'import', csv, '--json', '--data', data], {
      env: ENV,
    }).finally(() => {
      importAnswered = true;
    });
    await Promise.all([0, 0, 0, 1, 1, 1].map((side) => writer(side)));
    const imported = JSON.parse((await importing).stdout) as {
      created: number | string[];
      errors: unknown[];
    };

    // Every write answered, none refused: both servers wrote, and the import went through.
    expect([...statuses.keys()]).toEqual([200]);
    expect(created[0]?.length).toBeGreaterThanOrEqual(3 * WRITES_EACH);
    expect(created[1]?.length).toBeGreaterThanOrEqual(3 * WRITES_EACH);
    expect(imported.errors).toEqual([]);
    // Neither lost a write: each server sees every member and group either wrote, and the
    // import's 4,000, once each and nothing else.
    for (const side of [0, 1]) {
      const headers = { authorization: `Bearer ${tokens[side]}` };
      const list = await fetch(`${bases[side]}/api/v1/members`, { headers });
      const emails = ((await list.json()) as { data: { email: string }[] }).data.map(
        (member) => member.email,
      );
      expect(new Set(emails).size).toBe(emails.length);
      expect(emails.sort()).toEqual(
        [
          ...(created[0] ?? []),
          ...(created[1] ?? []),
          ...Array.from({ length: 4000 }, (_, i) => `import.${i}@example.test`),
        ].sort(),
      );
      const listed = await fetch(`${bases[side]}/api/v1/groups`, { headers });
      const aliases = ((await listed.json()) as { data: { alias: string }[] }).data.map(
        (group) => group.alias,
      );
      expect(aliases.sort()).toEqual([...groups].sort());
    }
  }, 180_000);
});
