import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssay } from '../helpers/cli-in-process.js';
import {
  cliDialects,
  freePort,
  freshCliDatabase,
  type Outcome,
  serveProcess,
  stopProcess,
} from '../helpers/cli-process.js';

const dialects = cliDialects;

interface ApiKeyJson {
  id: string;
  name: string;
  scopes: string;
  user_email: string;
  created: string;
  revoked: string | null;
}

describe.each(dialects)(
  'assay apikeys list|revoke and clients delete, with `assay serve` running on %s',
  (dialect) => {
    let dataDir: string;
    let url: string | undefined;
    let drop: () => Promise<void>;
    let server: ChildProcess;
    let base: string;
    const where = () => ['--data', dataDir, ...(url ? ['--database-url', url] : [])];

    // The commands run in-process (their own connection, as a separate `assay` would open);
    // the server they must reach at once is a real `assay serve` process.
    const assay = (...args: string[]): Promise<Outcome> => runAssay([...args, ...where()]);
    const ok = async (...args: string[]) => {
      const result = await assay(...args);
      expect([result.code, result.stderr], args.join(' ')).toEqual([0, '']);
      return result.stdout;
    };

    const members = async (headers: Record<string, string>) => {
      const response = await fetch(`${base}/api/v1/members`, { headers });
      return {
        status: response.status,
        body: (await response.json()) as { status?: string; message?: string },
      };
    };
    const token = async (id: string, secret: string) => {
      const response = await fetch(`${base}/api/v1/auth/access_token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: id,
          client_secret: secret,
          scope: 'members',
        }),
      });
      const body = (await response.json()) as { data?: { access_token: string } };
      return { status: response.status, token: body.data?.access_token };
    };

    beforeAll(async () => {
      const fresh = await freshCliDatabase(dialect, 'assay-keys-cli-');
      dataDir = fresh.dataDir;
      url = fresh.url;
      drop = fresh.drop;
      await ok('setup');
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const served = await serveProcess(where(), port, { DATABASE_URL: undefined });
      server = served.child;
      expect(served.started, served.output()).toBe(true);
    });
    afterAll(async () => {
      if (server) expect(await stopProcess(server)).toBe(0);
      await drop?.();
    });

    it('lists the API keys without the keys, and a revoked key is refused by the running server at once', async () => {
      await ok(
        'users',
        'create',
        '--email',
        'reader@example.test',
        '--firstname',
        'Rea',
        '--lastname',
        'Der',
      );
      const { apikey: first } = JSON.parse(
        await ok('apikeys', 'create', '--scopes', 'members groups', '--name', 'nightly export', '--json'),
      );
      const { apikey: second } = JSON.parse(
        await ok('apikeys', 'create', '--scopes', 'members', '--user', 'reader@example.test', '--json'),
      );
      for (let i = 0; i < 3; i++) {
        expect((await members({ 'x-api-key': first })).status).toBe(200);
        expect((await members({ 'x-api-key': second })).status).toBe(200);
      }

      const listed = await ok('apikeys', 'list', '--json');
      for (const secret of [first, second, first.slice(3), second.slice(3)])
        expect(listed).not.toContain(secret);
      expect(listed).not.toContain('hash');
      const keys = JSON.parse(listed) as ApiKeyJson[];
      expect(keys.map((key) => Object.keys(key))).toEqual([
        ['id', 'name', 'scopes', 'user_email', 'created', 'revoked'],
        ['id', 'name', 'scopes', 'user_email', 'created', 'revoked'],
      ]);
      // Both were made within the same second: the list's order between them is not defined.
      const nightly = keys.find((key) => key.name === 'nightly export') as ApiKeyJson;
      const reader = keys.find((key) => key.name === '') as ApiKeyJson;
      expect(nightly).toMatchObject({
        name: 'nightly export',
        scopes: 'members groups',
        user_email: 'admin@localhost',
        revoked: null,
      });
      expect(reader).toMatchObject({
        name: '',
        scopes: 'members',
        user_email: 'reader@example.test',
        revoked: null,
      });
      expect(nightly.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      expect((await ok('apikeys', 'list')).split('\n').sort()).toEqual(
        [
          '',
          `${nightly.id}  nightly export  [members groups]  admin@localhost      ${nightly.created}`,
          `${reader.id}  -               [members]         reader@example.test  ${reader.created}`,
        ].sort(),
      );

      expect(await ok('apikeys', 'revoke', nightly.id)).toBe(
        `API key ${nightly.id} revoked: calls with it are refused from now on\n`,
      );
      // The very next call, on the server that has been answering the key all along.
      expect(await members({ 'x-api-key': first })).toEqual({
        status: 401,
        body: expect.objectContaining({ message: 'Unknown or revoked API key' }),
      });
      expect((await members({ 'x-api-key': second })).status).toBe(200);

      const again = await ok('apikeys', 'revoke', nightly.id);
      expect(again).toMatch(new RegExp(`^API key ${nightly.id} was already revoked \\(\\d{4}-.+\\)\\n$`));
      const after = JSON.parse(await ok('apikeys', 'list', '--json')) as ApiKeyJson[];
      expect(after.find((key) => key.id === nightly.id)?.revoked).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(after.find((key) => key.id === reader.id)?.revoked).toBeNull();
      const line = (await ok('apikeys', 'list')).split('\n').find((text) => text.startsWith(nightly.id));
      expect(line).toMatch(/ {2}revoked \d{4}-\d{2}-\d{2}T\S+$/);
      expect(await assay('apikeys', 'revoke', 'nosuchkey0')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'assay: apikey: nosuchkey0 not found\n',
      });
    });

    it('deletes a client: its tokens, its secret and its Basic credentials are refused by the running server at once', async () => {
      const doomed = JSON.parse(
        await ok('clients', 'create', '--name', 'doomed', '--scopes', 'members', '--json'),
      );
      const kept = JSON.parse(
        await ok('clients', 'create', '--name', 'kept', '--scopes', 'members', '--json'),
      );
      const doomedToken = await token(doomed.client_id, doomed.client_secret);
      const keptToken = await token(kept.client_id, kept.client_secret);
      expect([doomedToken.status, keptToken.status]).toEqual([200, 200]);
      const bearer = (value: string | undefined) => ({ authorization: `Bearer ${value}` });
      const basic = { authorization: `Basic ${btoa(`${doomed.client_id}:${doomed.client_secret}`)}` };
      // Answered several times first, so that the server holds the client in its cache.
      for (let i = 0; i < 3; i++) {
        expect((await members(bearer(doomedToken.token))).status).toBe(200);
        expect((await members(basic)).status).toBe(200);
      }

      expect(await ok('clients', 'delete', doomed.client_id)).toBe(
        `client ${doomed.client_id} deleted: its secret and its tokens no longer work\n`,
      );
      if (dialect === 'postgres') {
        // PostgreSQL tells the server of the change by a notification, which arrives a moment
        // after the command's commit: a call in that moment may still be answered from the
        // server's cache. A separate process used to hide it by taking that long to exit; wait
        // for the notification (bounded by a safety net a busy machine never reaches), then hold the
        // server to it. On SQLite the server reads the change at once, with no wait.
        for (const until = Date.now() + 20_000; Date.now() < until; ) {
          if ((await members(bearer(doomedToken.token))).status === 401) break;
        }
      }
      expect(await members(bearer(doomedToken.token))).toEqual({
        status: 401,
        body: expect.objectContaining({ message: 'The access token was revoked' }),
      });
      expect((await members(basic)).status).toBe(401);
      expect((await token(doomed.client_id, doomed.client_secret)).status).toBe(401);
      expect((await members(bearer(keptToken.token))).status).toBe(200);

      const listed = JSON.parse(await ok('clients', 'list', '--json')) as { client_id: string }[];
      expect(listed.map((client) => client.client_id)).not.toContain(doomed.client_id);
      expect(listed.map((client) => client.client_id)).toContain(kept.client_id);
      expect(await assay('clients', 'delete', doomed.client_id)).toEqual({
        code: 1,
        stdout: '',
        stderr: `assay: client: ${doomed.client_id} not found\n`,
      });
    });

    it('says what deleting the last client means', async () => {
      const clients = JSON.parse(await ok('clients', 'list', '--json')) as { client_id: string }[];
      const last = clients.pop() as { client_id: string };
      for (const client of clients) await ok('clients', 'delete', client.client_id);
      expect((await ok('clients', 'delete', last.client_id)).split('\n')).toEqual([
        `client ${last.client_id} deleted: its secret and its tokens no longer work`,
        'that was the last client: `assay clients create` makes another (a start never makes one again)',
        '',
      ]);
      expect(await ok('clients', 'list', '--json')).toBe('[]\n');
    });
  },
);
