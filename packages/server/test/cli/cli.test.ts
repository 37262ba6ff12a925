import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import { freePort, MAIN, serveProcess, stopProcess } from '../helpers/cli-process.js';
import { writeTiny } from '../variants/fixtures.js';

const run = promisify(execFile);
const ENV = { ...process.env, LOG_LEVEL: 'warn' };

// Serving, the first start and start-up failures are the built command's own (processes); the
// other command lines around them run in-process (runCli), on the same data folder.
const assay = async (data: string, ...args: string[]) => {
  const result = await runAssay([...args, '--data', data]);
  expect([result.code, result.stderr], args.join(' ')).toEqual([0, '']);
  return result.stdout;
};

const serve = serveProcess;
const stop = stopProcess;

async function token(base: string, id: string, secret: string, scope = 'members') {
  const response = await fetch(`${base}/api/v1/auth/access_token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: id,
      client_secret: secret,
      scope,
    }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: { access_token: string }; message?: string },
  };
}

describe('the assay command line, against the built server', () => {
  let data: string;
  const folders: string[] = [];
  beforeAll(() => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-cli-'));
  });
  afterAll(() => {
    for (const folder of [data, ...folders]) fs.rmSync(folder, { recursive: true, force: true });
  });

  // A data folder of the test's own, set up as the first test sets up its own (an admin user, no
  // signing key): a test must not find the instance another test happened to set up before it.
  const setUp = async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-cli-'));
    folders.push(folder);
    expect(await assay(folder, 'setup', '--no-keys')).toContain('admin user created: admin@localhost');
    return folder;
  };

  it('sets up without keys, creates clients and API keys, and serves over real HTTP', async () => {
    expect(await assay(data, 'setup', '--no-keys')).toContain('admin user created: admin@localhost');
    const client = JSON.parse(
      await assay(data, 'clients', 'create', '--name', 'ci', '--scopes', 'members groups', '--json'),
    );
    expect(Object.keys(client).sort()).toEqual(['client_id', 'client_secret', 'scopes']);
    expect(client.scopes).toBe('members groups');
    const key = JSON.parse(await assay(data, 'apikeys', 'create', '--scopes', 'members', '--json'));
    expect(Object.keys(key)).toEqual(['apikey']);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await serve(data, port);
    try {
      expect(server.started, server.output()).toBe(true);
      expect(server.output()).not.toContain('First start');
      const noKey = await token(base, client.client_id, client.client_secret);
      expect([noKey.status, noKey.body.message]).toEqual([500, 'Invalid key supplied']);

      expect(await assay(data, 'keys', 'generate')).toMatch(/^signing key created: /);
      const granted = await token(base, client.client_id, client.client_secret);
      expect(granted.status).toBe(200);
      const members = await fetch(`${base}/api/v1/members`, {
        headers: { authorization: `Bearer ${granted.body.data?.access_token}` },
      });
      expect(await members.json()).toEqual({ status: 'OK', data: [] });
      const byKey = await fetch(`${base}/api/v1/members`, { headers: { 'x-api-key': key.apikey } });
      expect(byKey.status).toBe(200);

      const updated = JSON.parse(
        await assay(data, 'clients', 'update', client.client_id, '--scopes', 'groups', '--json'),
      );
      expect(updated.client_secret).not.toBe(client.client_secret);
      expect((await token(base, client.client_id, client.client_secret, 'groups')).status).toBe(401);
      expect((await token(base, client.client_id, updated.client_secret, 'groups')).status).toBe(200);
      const listed = JSON.parse(await assay(data, 'clients', 'list', '--json'));
      expect(listed.map((c: { client_id: string }) => c.client_id)).toContain(client.client_id);
      expect(JSON.stringify(listed)).not.toContain(updated.client_secret);
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
  });

  it('prints the first client and a curl line that works as printed on the first start of an empty instance', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-first-'));
    const port = await freePort();
    // A start that cannot listen says why in one line and keeps no client whose secret nobody saw.
    const busy = net.createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => busy.once('listening', resolve));
    const refused = await run(process.execPath, [MAIN, 'start'], {
      env: { ...ENV, PORT: String(port), HOST: '127.0.0.1', ASSAY_DATA_DIR: fresh },
    }).catch((e) => e);
    await new Promise((resolve) => busy.close(resolve));
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('client_secret');
    expect(refused.stderr.trim()).toBe(`assay: PORT (--port): 127.0.0.1:${port} is already in use`);
    // As `npm start` runs it: the place and the port from the environment, no flags.
    const child = spawn(process.execPath, [MAIN, 'start'], {
      env: { ...ENV, PORT: String(port), HOST: '127.0.0.1', ASSAY_DATA_DIR: fresh },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    try {
      await new Promise<void>((resolve) =>
        child.stdout.on('data', () => output.includes('Then:') && resolve()),
      );
      const curl = output.split('\n').find((line) => line.trim().startsWith('curl -s -X POST'));
      expect(curl).toBeDefined();
      // The printed line, with the public URL swapped for the loopback address it listens on.
      const { stdout } = await run('bash', [
        '-c',
        (curl as string).replace(`http://localhost:${port}`, `http://127.0.0.1:${port}`),
      ]);
      const answer = JSON.parse(stdout);
      expect(answer.status).toBe('OK');
      expect(answer.data.scope).toBe('members groups campaigns reports settings samples webhooks audit');
    } finally {
      await stop(child);
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('shows a customer variant after a restart, and a broken one stops start-up with one clear line', async () => {
    const data = await setUp();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-customer-'));
    try {
      writeTiny(dir);
      const client = JSON.parse(
        await assay(data, 'clients', 'create', '--name', 'v', '--scopes', 'settings', '--json'),
      );
      await assay(data, 'keys', 'generate');
      const port = await freePort();
      const server = await serve(data, port, { ASSAY_VARIANTS_DIR: dir });
      try {
        expect(server.started, server.output()).toBe(true);
        const granted = await token(
          `http://127.0.0.1:${port}`,
          client.client_id,
          client.client_secret,
          'settings',
        );
        const reports = await fetch(`http://127.0.0.1:${port}/api/v1/settings/reports`, {
          headers: { authorization: `Bearer ${granted.body.data?.access_token}` },
        });
        const aliases = ((await reports.json()) as { data: { alias: string }[] }).data.map((v) => v.alias);
        expect(aliases).toEqual(['bigfive', 'leadership360', 'teamscan', 'tiny']);
      } finally {
        // Ctrl-C shuts down as cleanly as SIGTERM (the other tests' stop).
        expect(await stop(server.child, 'SIGINT')).toBe(0);
      }

      fs.writeFileSync(path.join(dir, 'tiny', 'texts', 'nlNL.json'), '{"variant.name": ');
      const broken = await serve(data, await freePort(), { ASSAY_VARIANTS_DIR: dir });
      expect(broken.started).toBe(false);
      expect(broken.child.exitCode).toBe(1);
      const lines = broken.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(path.join(dir, 'tiny', 'texts', 'nlNL.json'));
      expect(lines[0]).toMatch(/^assay: /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses clients without scopes, bad redirect URIs and users without an address', async () => {
    // Set up, so that each command is refused for what it was given, not for a missing admin user.
    const data = await setUp();
    const attempts: [string[], string][] = [
      [['clients', 'create', '--name', 'x', '--scopes', ' '], 'assay: scopes: name at least one'],
      [
        ['clients', 'create', '--name', 'x', '--scopes', 'members', '--redirect-uri', 'not a uri'],
        'assay: redirect-uri: not an absolute URI: "not a uri"',
      ],
      [
        [
          'clients',
          'create',
          '--name',
          'x',
          '--scopes',
          'members',
          '--redirect-uri',
          'https://a.example/cb#x',
        ],
        'assay: redirect-uri: must not have a fragment',
      ],
      [
        ['clients', 'create', '--name', 'x', '--scopes', 'members', '--redirect-uri', 'javascript:alert(1)'],
        'assay: redirect-uri: the scheme javascript: cannot be a return address',
      ],
      [
        ['users', 'create', '--email', 'notanemail', '--firstname', 'N', '--lastname', 'E'],
        'assay: email: not an e-mail address: "notanemail"',
      ],
    ];
    const before = await assay(data, 'clients', 'list', '--json');
    for (const [args, message] of attempts) {
      const result = await runAssay([...args, '--data', data]);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toContain(message);
    }
    expect(await assay(data, 'clients', 'list', '--json')).toBe(before);
  });

  it('refuses a bad configuration value with one line', async () => {
    expect(await runAssay(['serve', '--data', data, '--port', 'eighty'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'assay: PORT: must be a whole number, got "eighty"\n',
    });
  });
});
