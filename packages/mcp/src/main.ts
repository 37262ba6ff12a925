/**
 * `assay-mcp`: Assay's MCP tool layer. Over stdio by default (an MCP client starts it as a
 * subprocess); with `--http`, Streamable HTTP at http://127.0.0.1:3001/mcp. Configured by the
 * environment (see config.ts and the package README). Nothing but MCP messages goes to stdout.
 */
import { parseArgs } from 'node:util';
import { createClient } from '@assay/client';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, configFromEnv } from './config.js';
import { endpointOf, isLoopback, serveHttp } from './http.js';
import { createAssayMcpServer } from './server.js';
import { VERSION } from './version.js';

const USAGE = `Usage: assay-mcp [--http [--host 127.0.0.1] [--port 3001]]

Assay's MCP server. Over stdio by default; --http serves Streamable HTTP at /mcp instead.

Environment:
  ASSAY_URL                               the Assay instance, e.g. http://localhost:8080
  ASSAY_CLIENT_ID, ASSAY_CLIENT_SECRET    an OAuth client of the instance: every tool
  ASSAY_API_KEY                           instead, an API key: the read tools only
  ASSAY_MCP_TOKEN                         with --http: the bearer token clients must send
                                          (required when --host is not a loopback address)

Options:
  --http          serve Streamable HTTP instead of stdio
  --host HOST     with --http: the address to listen on (default 127.0.0.1)
  --port PORT     with --http: the port (default 3001; 0 picks a free one)
  --version       print the version
  --help          print this help`;

function fail(message: string): never {
  process.stderr.write(`assay-mcp: ${message}\n`);
  process.exit(2);
}

async function main() {
  let values: { http?: boolean; host?: string; port?: string; version?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        http: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(`${(error as Error).message.split('\n')[0]} (see assay-mcp --help)`);
  }
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  if (values.version) return void process.stdout.write(`assay-mcp ${VERSION}\n`);
  if (!values.http && (values.host !== undefined || values.port !== undefined)) {
    fail('--host and --port go with --http (see assay-mcp --help)');
  }

  const config = configFromEnv(process.env, `assay-mcp/${VERSION}`);
  const client = createClient(config.client);
  const makeServer = () => createAssayMcpServer({ client, readOnly: config.readOnly });

  if (!values.http) {
    const server = makeServer();
    await server.connect(new StdioServerTransport());
    return;
  }

  const host = values.host ?? '127.0.0.1';
  const port = values.port === undefined ? 3001 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail(`--port must be a port number, not "${values.port}"`);
  const token = process.env.ASSAY_MCP_TOKEN?.trim() || undefined;
  if (!isLoopback(host) && !token) {
    fail(
      `listening on ${host} needs ASSAY_MCP_TOKEN: whoever reaches the port acts with the Assay credentials`,
    );
  }
  const server = await serveHttp({
    host,
    port,
    token,
    makeServer,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stderr.write(
    `assay-mcp ${VERSION}: ${config.readOnly ? 'read tools' : 'every tool'} at ${endpointOf(server)} (Streamable HTTP)\n`,
  );
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  fail(error instanceof Error ? error.message : String(error));
});
