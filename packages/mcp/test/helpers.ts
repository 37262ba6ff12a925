import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The bin as npm links it (it runs dist/main.js, which the root's `prepare` builds at `npm ci`). */
export const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'assay-mcp.js');

/** The environment of a spawned assay-mcp: only what it is given (and PATH). */
export function mcpEnv(settings: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', ...settings };
}

/** An MCP client (the SDK's own) connected over stdio to a freshly spawned assay-mcp. */
export async function connectStdio(settings: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN],
    env: mcpEnv(settings),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'assay-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** A tool call's result, typed as the SDK's CallToolResult. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call; throws with the tool's message otherwise. */
export async function data<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** Runs the bin to its end (for --help, --version and configuration errors). */
export function runOnce(args: string[], settings: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: mcpEnv(settings),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
