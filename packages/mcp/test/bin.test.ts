import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, serve } from '../../client/test/helpers.js';
import { call, data, MAIN, mcpEnv, runOnce, textOf } from './helpers.js';

/** Starts `assay-mcp --http` on a free port; resolves when it says where it listens. */
async function startHttp(settings: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [MAIN, '--http', '--port', '0', ...args], {
    env: mcpEnv(settings),
  }) as ChildProcessWithoutNullStreams;
  let stderr = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    child.on('exit', (code) => reject(new Error(`assay-mcp exited ${code}: ${stderr}`)));
  });
  return {
    endpoint,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

// Every wait here is for an event: a process's end, its readiness line, an answer on stdout. The
// suite's timeouts (vitest.config.ts) are only a safety net, generous because each test starts node
// processes of its own, which a machine busy with other work makes slow.
describe('the assay-mcp command', () => {
  let served: Served;
  let credentials: Record<string, string>;

  beforeAll(async () => {
    served = await serve('sqlite');
    credentials = {
      ASSAY_URL: served.url,
      ASSAY_CLIENT_ID: served.instance.client.client_id,
      ASSAY_CLIENT_SECRET: served.instance.client.client_secret,
    };
  });
  afterAll(async () => served?.close());

  it('prints its version and help, and refuses a wrong flag or setting in one line', async () => {
    expect((await runOnce(['--version'], {})).stdout).toBe('assay-mcp 0.1.0\n');
    const help = await runOnce(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/ASSAY_URL/);
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--htp'], credentials, /^assay-mcp: Unknown option '--htp'.*\(see assay-mcp --help\)\n$/],
      [[], {}, /^assay-mcp: ASSAY_URL is not set\. Set ASSAY_URL .*ASSAY_API_KEY/],
      [
        [],
        { ASSAY_URL: 'localhost:8080', ASSAY_API_KEY: 'k' },
        /^assay-mcp: ASSAY_URL must start with http:\/\/ or https:\/\//,
      ],
      [[], { ASSAY_URL: 'http://x', ASSAY_CLIENT_ID: 'id' }, /^assay-mcp: ASSAY_CLIENT_SECRET is not set/],
      [[], { ASSAY_URL: 'http://x' }, /^assay-mcp: No credentials\./],
      [['--port', '3001'], credentials, /^assay-mcp: --host and --port go with --http/],
      [['--http', '--port', 'x'], credentials, /^assay-mcp: --port must be a port number/],
      [
        ['--http', '--host', '0.0.0.0'],
        credentials,
        /^assay-mcp: listening on 0\.0\.0\.0 needs ASSAY_MCP_TOKEN/,
      ],
    ];
    const results = await Promise.all(cases.map(([args, settings]) => runOnce(args, settings)));
    for (const [i, [args, , message]] of cases.entries()) {
      const result = results[i] as Awaited<ReturnType<typeof runOnce>>;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
  });

  it('survives garbage on stdin: answers a parse error and goes on serving', async () => {
    const child = spawn(process.execPath, [MAIN], { env: mcpEnv(credentials) });
    let stdout = '';
    // Whole lines only: a chunk may end inside one.
    const lines = () =>
      stdout
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.trim());
    const answered = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const ids = lines().map((line) => (JSON.parse(line) as { id?: unknown }).id);
        if (ids.includes(1) && ids.includes(2)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`assay-mcp exited ${code}: ${stdout}`)));
    });
    child.stdin.write('this is not json\n');
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"nosuchmethod"}\n');
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await answered;
    const answers = lines().map((line) => JSON.parse(line));
    expect(answers).toContainEqual(
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32601 }) }),
    );
    expect(answers).toContainEqual(
      expect.objectContaining({ id: 2, result: expect.objectContaining({ serverInfo: expect.anything() }) }),
    );
    expect(child.exitCode).toBeNull();
    child.kill();
    await once(child, 'exit');
  });

  it('serves Streamable HTTP with --http: the SDK client lists and calls tools; other origins and methods are refused', async () => {
    const server = await startHttp(credentials);
    try {
      expect(server.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
      expect((await client.listTools()).tools).toHaveLength(23);
      const created = await data<{ memberId: string }>(client, 'createMember', {
        email: 'http.member@example.test',
        firstName: 'Http',
        lastName: 'Member',
      });
      expect(
        (await data<{ members: { memberId: string }[] }>(client, 'findMembers', { query: 'http' })).members,
      ).toEqual([expect.objectContaining({ memberId: created.memberId })]);
      expect(textOf(await call(client, 'getMember', { memberId: 'nope' }))).toMatch(/Invalid arguments/);
      await client.close();

      const post = (headers: Record<string, string>, body: string) =>
        fetch(server.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
          body,
        });
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect((await post({ origin: 'https://evil.example' }, list)).status).toBe(403);
      expect((await post({}, '{not json')).status).toBe(400);
      expect((await fetch(server.endpoint)).status).toBe(405);
      expect((await fetch(server.endpoint.replace('/mcp', '/other'))).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('asks for the bearer token when ASSAY_MCP_TOKEN is set', async () => {
    const server = await startHttp({ ...credentials, ASSAY_MCP_TOKEN: 's3cret-token' });
    try {
      const bare = new Client({ name: 'no-token', version: '1.0.0' });
      await expect(
        bare.connect(new StreamableHTTPClientTransport(new URL(server.endpoint))),
      ).rejects.toThrow();
      const client = new Client({ name: 'token', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.endpoint), {
          requestInit: { headers: { Authorization: 'Bearer s3cret-token' } },
        }),
      );
      expect((await client.listTools()).tools.length).toBe(23);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
