// The typed client and the MCP tool layer (issue 11), each figure beside a floor from the same run:
//   1. GET /members with 100,000 members through `client.members.list()` (token held, JSend
//      unwrapped, every item read tolerantly) against a bare `fetch` of the same URL with the same
//      token and `response.json()`, alternated in this process, median of 5 each after a warm-up.
//      Target: at most 1.2x.
//   2. The MCP tool `findMembers` listing 10,000 members (`limit: 10000`), called by the SDK's own
//      client over stdio on a spawned `assay-mcp`: the time of the call (median of 5 after a warm-up)
//      and the size of its result (structured content plus the same JSON as text, as the SDK advises),
//      beside `client.members.list()` in this process on the same instance. Reported, no target.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from '@assay/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fmtMB, fmtMs, fmtX, median, onEachEngine, prepareInstance, ROOT, startServer } from '../harness.mjs';

const MEMBERS = 100_000;
const MCP_MEMBERS = 10_000;
const RUNS = 5;

async function timed(work) {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function clientOverhead(ctx, engine) {
  const label = `client.members.list(), ${MEMBERS / 1000}k members (${engine})`;
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'client');
  try {
    const server = await startServer('assay', instance.store);
    try {
      const baseUrl = `http://127.0.0.1:${server.port}`;
      const client = createClient({
        baseUrl,
        clientId: instance.client.client_id,
        clientSecret: instance.client.client_secret,
      });
      const { access_token: token } = await client.auth.token('members');
      const bare = async () => {
        const response = await fetch(`${baseUrl}/api/v1/members`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = await response.json();
        if (!Array.isArray(body.data))
          throw new Error(`GET /members: HTTP ${response.status} ${JSON.stringify(body)}`);
        return body.data.length;
      };
      const typed = async () => (await client.members.list()).length;
      const bareTimes = [];
      const clientTimes = [];
      let items = -1;
      for (let i = 0; i <= RUNS; i++) {
        const a = await timed(bare);
        const b = await timed(typed);
        if (i > 0) {
          bareTimes.push(a.ms);
          clientTimes.push(b.ms);
        }
        items = Math.min(a.value, b.value);
      }
      const ms = median(clientTimes);
      const floor = median(bareTimes);
      ctx.note(
        `${label}: client ${clientTimes.map((t) => t.toFixed(0)).join(', ')} ms; bare fetch ${bareTimes.map((t) => t.toFixed(0)).join(', ')} ms`,
      );
      return [
        {
          scenario: `${label}: time to the typed array (median of ${RUNS}), ${items.toLocaleString('en')} items`,
          figure: fmtMs(ms),
          floor: `${fmtMs(floor)} (fetch + response.json())`,
          ratio: fmtX(ms / floor),
          target: '≤ 1.2x',
          pass: items === MEMBERS && ms / floor <= 1.2,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    instance.dispose();
  }
}

async function mcpListing(ctx, engine) {
  const label = `MCP findMembers listing ${MCP_MEMBERS / 1000}k members over stdio (${engine})`;
  const instance = await prepareInstance(ctx, engine, MCP_MEMBERS, 'mcp');
  try {
    const server = await startServer('assay', instance.store);
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const mcp = new Client({ name: 'assay-bench', version: '1.0.0' });
    try {
      await mcp.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(ROOT, 'packages/mcp/bin/assay-mcp.js')],
          env: {
            PATH: process.env.PATH ?? '',
            ASSAY_URL: baseUrl,
            ASSAY_CLIENT_ID: instance.client.client_id,
            ASSAY_CLIENT_SECRET: instance.client.client_secret,
          },
        }),
      );
      const client = createClient({
        baseUrl,
        clientId: instance.client.client_id,
        clientSecret: instance.client.client_secret,
      });
      const toolTimes = [];
      const floorTimes = [];
      let result;
      for (let i = 0; i <= RUNS; i++) {
        const a = await timed(() => mcp.callTool({ name: 'findMembers', arguments: { limit: MCP_MEMBERS } }));
        const b = await timed(() => client.members.list());
        if (i > 0) {
          toolTimes.push(a.ms);
          floorTimes.push(b.ms);
        }
        result = a.value;
      }
      const listed = result?.structuredContent?.members?.length ?? -1;
      const bytes = Buffer.byteLength(JSON.stringify(result));
      const structured = Buffer.byteLength(JSON.stringify(result?.structuredContent));
      const ms = median(toolTimes);
      const floor = median(floorTimes);
      ctx.note(
        `${label}: tool ${toolTimes.map((t) => t.toFixed(0)).join(', ')} ms; client ${floorTimes.map((t) => t.toFixed(0)).join(', ')} ms; ` +
          `result ${fmtMB(bytes)} (structured content ${fmtMB(structured)}, the rest its JSON as text), ${listed} members`,
      );
      return [
        {
          scenario: `${label}: tool call (median of ${RUNS}), ${listed.toLocaleString('en')} members, result ${fmtMB(bytes)}`,
          figure: fmtMs(ms),
          floor: `${fmtMs(floor)} (client.members.list() in-process)`,
          ratio: fmtX(ms / floor),
          target: '- (reported)',
          pass: listed === MCP_MEMBERS && !result?.isError,
        },
      ];
    } finally {
      await mcp.close();
      await server.stop();
    }
  } finally {
    instance.dispose();
  }
}

export default async (ctx) => [
  ...(await onEachEngine(ctx, clientOverhead)),
  ...(await onEachEngine(ctx, mcpListing)),
];
