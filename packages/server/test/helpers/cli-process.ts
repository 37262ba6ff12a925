import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { adminQuery } from './templates.js';

// For tests that run the built `assay` command as a real process: nothing of the server is
// imported, so the command is exercised exactly as an operator runs it.

/** The built command. */
export const MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');
const postgresUrl = process.env.TEST_DATABASE_URL;

/** SQLite always, PostgreSQL too when TEST_DATABASE_URL is set (as the API tests do). */
export const cliDialects = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** What a run of the command printed and how it exited. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** An empty data folder and, on PostgreSQL, a new database: only the built command touches them. */
export async function freshCliDatabase(
  dialect: string,
  prefix = 'assay-cli-',
): Promise<{ dataDir: string; url?: string; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite' || !postgresUrl) return { dataDir, drop: async () => removeDir() };
  const name = `assay_t_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = (statement: string) => adminQuery(postgresUrl, statement);
  await admin(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    url: url.toString(),
    drop: async () => {
      await admin(`drop database if exists ${name} with (force)`);
      removeDir();
    },
  };
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `check` holds, looking every 25 ms; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Stops a server process (SIGTERM, or Ctrl-C's SIGINT) and answers its exit code. */
export const stopProcess = (child: ChildProcess, signal: 'SIGTERM' | 'SIGINT' = 'SIGTERM') =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.on('exit', (code) => resolve(code));
    child.kill(signal);
  });

/**
 * Starts `assay serve` on a port and waits until it listens; answers the process, whether it
 * started, and its output so far. `where` is a data folder, or the flags that say where the instance
 * lives (`--data DIR [--database-url URL]`); `env` adds to the test's environment (an undefined
 * value removes a variable).
 */
export async function serveProcess(where: string | string[], port: number, env: NodeJS.ProcessEnv = {}) {
  const store = typeof where === 'string' ? ['--data', where] : where;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const child = spawn(
    process.execPath,
    [MAIN, 'serve', ...store, '--port', String(port), '--host', '127.0.0.1'],
    {
      env: childEnv,
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const started = await new Promise<boolean>((resolve) => {
    child.stdout.on('data', () => output.includes('Assay is serving') && resolve(true));
    child.on('exit', () => resolve(false));
  });
  return { child, started, output: () => output };
}
