/**
 * Streamable HTTP (`assay-mcp --http`): one stateless MCP exchange per POST at /mcp, answered as
 * JSON. Every request gets its own `Server` and transport over the one shared Assay client, so no
 * session state lives here and any number of MCP clients can call at once.
 *
 * The server holds Assay credentials, so whoever reaches the port acts with them: it listens on
 * 127.0.0.1 unless told otherwise, refuses requests from a web page of another origin (DNS
 * rebinding), and on any other address needs a bearer token (ASSAY_MCP_TOKEN).
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** The bearer token clients must send; required when `host` is not a loopback address. */
  token?: string;
  /** Makes a fresh MCP server (one per request). */
  makeServer: () => Server;
  /** Where to report a failure of the transport itself (not of a tool). */
  log?: (message: string) => void;
}

const MAX_BODY = 4 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export const isLoopback = (host: string) => LOOPBACK.has(host.replace(/^\[|\]$/g, ''));

function answer(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An Origin is accepted when absent (not a browser) or naming a loopback host. */
function originAllowed(origin: string | undefined): boolean {
  if (!origin) return true;
  try {
    return isLoopback(new URL(origin).hostname);
  } catch {
    return false;
  }
}

async function readBody(request: http.IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts listening; resolves to the HTTP server (its address has the port chosen for port 0). */
export async function serveHttp(options: HttpOptions): Promise<http.Server> {
  const { token, makeServer, log = () => {} } = options;
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`assay-mcp: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) answer(response, 500, rpcError(-32603, 'Internal error'));
      else response.end();
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp')
      return answer(response, 404, { error: 'not_found', message: 'The MCP endpoint is /mcp' });
    if (!originAllowed(request.headers.origin)) {
      return answer(
        response,
        403,
        rpcError(-32000, 'Forbidden: requests from web pages of other origins are refused'),
      );
    }
    if (token !== undefined) {
      const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(given, token)) {
        return answer(
          response,
          401,
          rpcError(-32001, 'Unauthorized: send Authorization: Bearer <ASSAY_MCP_TOKEN>'),
          {
            'WWW-Authenticate': 'Bearer',
          },
        );
      }
    }
    if (request.method !== 'POST') {
      return answer(
        response,
        405,
        rpcError(-32000, 'Method not allowed: this server is stateless, POST only'),
        {
          Allow: 'POST',
        },
      );
    }
    const text = await readBody(request);
    if (text === undefined) return answer(response, 413, rpcError(-32600, 'Request too large'));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return answer(response, 400, rpcError(-32700, 'Parse error: the body is not JSON'));
    }
    const mcp = makeServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** The address a started server listens on, as a URL of its endpoint. */
export function endpointOf(server: http.Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}/mcp`;
}
