// Shared pieces of the bench: child processes and temp dirs that are always cleaned up, the
// assay CLI and server, seeding, an HTTP client that times to the last byte, an RSS sampler.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
export const SCOPES = 'members groups campaigns reports settings samples';
/**
 * The environment of a server measured alone (startServer's `env`): no SMTP (its mail worker marks
 * mails `captured`, after the answer) and no scheduler tick of its own during the run, so only the
 * load measured is on it.
 */
export const QUIET = { SMTP_URL: undefined, ASSAY_TICK_SECONDS: '86400' };

// ---------------------------------------------------------------------------------------------
// Resources: every child and temp dir is tracked so that a failed or timed-out scenario, or an
// interrupted run, still leaves nothing behind.

const children = new Set();
const tempDirs = new Set();

export function tempDir(label = 'bench') {
  const dir = mkdtempSync(path.join(os.tmpdir(), `assay-${label}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** Synchronous, so that it also works from an 'exit' handler. */
export function cleanupSync() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {}
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Kills every child still running (politely first) and removes every temp dir. */
export async function cleanupAll() {
  await Promise.all([...children].map((child) => stopChild(child)));
  cleanupSync();
}

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stopChild(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A date as the interface writes it: `YYYY-MM-DDTHH:MM:SS+00:00`. */
export const wireDate = (ms) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

/** The p-th percentile (0 < p <= 100) of `values`, the nearest-rank way. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
export const fmtMB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const fmtRps = (rps) => `${Math.round(rps).toLocaleString('en')} req/s`;
export const fmtX = (ratio) => `${ratio.toFixed(2)}x`;

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a node script to completion; answers its stdout. */
export function runNode(args, { env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = track(
      execFile(
        process.execPath,
        args,
        {
          cwd: ROOT,
          env: { ...process.env, LOG_LEVEL: 'warn', ...env },
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          if (error) {
            reject(new Error(`node ${args.join(' ')} failed: ${error.message}\n${stderr}`.trim()));
          } else resolve(stdout);
        },
      ),
    );
    return child;
  });
}

// ---------------------------------------------------------------------------------------------
// The assay CLI and server

/** `--data DIR` or `--database-url URL`: where an instance keeps its state. */
export const storeFlags = (store) =>
  store.databaseUrl ? ['--database-url', store.databaseUrl] : ['--data', store.dataDir];

/** `assay setup` then `assay clients create --json`: answers the client's id and secret. */
export async function setupInstance(store) {
  await runNode([MAIN, 'setup', ...storeFlags(store)]);
  const out = await runNode([
    MAIN,
    'clients',
    'create',
    '--name',
    'bench',
    '--scopes',
    SCOPES,
    '--json',
    ...storeFlags(store),
  ]);
  const client = JSON.parse(out.trim().split('\n').at(-1));
  if (!client.client_id || !client.client_secret) throw new Error(`clients create answered ${out}`);
  return client;
}

/**
 * Starts a listening child (`assay serve` or the floor server) on a free loopback port and waits
 * for its "serving" line. `BENCH_CPU_PROF=DIR` writes a CPU profile of every server there. `env`
 * adds variables to the child's environment (an undefined value removes one).
 */
export async function startServer(
  kind,
  store,
  { readyPattern, timeoutMs = 30_000, env: extraEnv = {} } = {},
) {
  const port = await freePort();
  let args;
  const env = { ...process.env, LOG_LEVEL: 'warn' };
  for (const [name, value] of Object.entries(extraEnv)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  if (kind === 'assay') {
    args = [...profile, MAIN, 'serve', ...storeFlags(store), '--port', String(port), '--host', '127.0.0.1'];
    env.ASSAY_PUBLIC_URL = `http://127.0.0.1:${port}`;
  } else {
    args = [
      ...profile,
      path.join(ROOT, 'bench/floor-server.mjs'),
      ...storeFlags(store),
      '--port',
      String(port),
    ];
  }
  const child = track(spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  const pattern = readyPattern ?? (kind === 'assay' ? /Assay is serving/ : /floor server listening/);
  try {
    await withTimeout(
      new Promise((resolve, reject) => {
        const onData = (chunk) => {
          output += chunk;
          if (pattern.test(output)) resolve();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', (chunk) => {
          output += chunk;
        });
        child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}): ${output.trim()}`)));
      }),
      timeoutMs,
      `${kind} server start`,
    );
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  // Keep draining the pipes so that a chatty child never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return { child, port, pid: child.pid, stop: () => stopChild(child) };
}

// ---------------------------------------------------------------------------------------------
// HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One request; answers status, body (Buffer) and the time to the last byte in ms. */
export function request(port, { method = 'GET', path: url, headers = {}, body, timeoutMs = 60_000 }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const start = process.hrtime.bigint();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: payload ? { ...headers, 'content-length': payload.length } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export function json(response, what) {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new Error(
      `${what}: HTTP ${response.status}, not JSON: ${response.body.toString('utf8').slice(0, 200)}`,
    );
  }
}

/**
 * A caller of the API at `port` with a bearer token: `api(method, url, body?, what?)` answers
 * `{ answer, ms, bytes }` (the parsed envelope, the time to the last byte, the body's length) and
 * throws, naming `what`, on anything but HTTP 200 with status OK.
 */
export function apiOf(port, token) {
  return async (method, url, body, what = `${method} ${url}`) => {
    const response = await request(port, {
      method,
      path: `/api/v1${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = json(response, what);
    if (response.status !== 200 || answer.status !== 'OK') {
      throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    }
    return { answer, ms: response.ms, bytes: response.body.length };
  };
}

/** CPU time (user + system) a process has used, in ms; CLK_TCK is 100 on Linux. */
export function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time the whole machine has been busy, in ms (every core). */
export function machineBusyMs() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks;
  return (user + nice + system + irq + softirq + steal) * 10;
}

/** CPU time this process (the bench) has used, in ms. */
export function benchCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
/** The same caller, answering the parsed envelope alone. */
export function apiAnswersOf(port, token) {
  const api = apiOf(port, token);
  return async (...args) => (await api(...args)).answer;
}

export function tokenBody(client, scope = 'members groups') {
  return new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.client_id,
    client_secret: client.client_secret,
    scope,
  }).toString();
}

export async function accessToken(port, client, scope = 'members groups') {
  const response = await request(port, {
    method: 'POST',
    path: '/api/v1/auth/access_token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenBody(client, scope),
  });
  const answer = json(response, 'access_token');
  const token = answer?.data?.access_token;
  if (response.status !== 200 || !token)
    throw new Error(`access_token: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return token;
}

export function closeAgent() {
  agent.destroy();
}

// ---------------------------------------------------------------------------------------------
// Memory: the VmRSS of a process, sampled every ~5 ms from a worker thread so that the main
// thread (busy receiving the answer) cannot delay the samples.

export function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const flag = new Int32Array(workerData.shared);
let peak = 0;
let samples = 0;
for (;;) {
  try {
    const match = /VmRSS:\\s+(\\d+) kB/.exec(readFileSync('/proc/' + workerData.pid + '/status', 'utf8'));
    if (match) {
      peak = Math.max(peak, Number(match[1]) * 1024);
      samples++;
    }
  } catch {}
  if (Atomics.load(flag, 0) === 1) break;
  Atomics.wait(flag, 0, 0, workerData.everyMs);
}
parentPort.postMessage({ peak, samples });
`;

/** Starts sampling; `stop()` answers `{ peak, samples }` in bytes. */
export function sampleRss(pid, everyMs = 5) {
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);
  const worker = new Worker(SAMPLER, { eval: true, workerData: { pid, shared, everyMs } });
  const result = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const ready = new Promise((resolve) => worker.once('online', resolve));
  return {
    ready,
    async stop() {
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      const answer = await withTimeout(result, 5000, 'rss sampler');
      await worker.terminate();
      return answer;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding: bulk inserts straight into the members table

const CREATED = '2026-11-22T11:46:36+00:00';
export const memberId = (i) => `B${String(i).padStart(9, '0')}`;

export function memberRow(i) {
  return [
    memberId(i),
    i % 3 === 0 ? 'Dr.' : '',
    `Firstname${i}`,
    i % 4 === 0 ? 'M.' : '',
    `Lastname${i}`,
    `member${i}@bench.example.com`,
    `member${i}@bench.example.com`, // email_key: the address folded (already lower case)
    '+41 44 555 01 23',
    'Example Industries Ltd',
    'Senior Product Engineer',
    'active',
    i % 2 === 0 ? 'senior' : null,
    i % 50 === 0 ? 1 : 0,
    null,
    '{}',
    CREATED,
  ];
}

const COLUMNS =
  'id, title, firstname, middlename, lastname, email, email_key, phone, company, jobtitle, status, level, testuser, group_id, extra, created';

export function seedSqlite(dataDir, count) {
  const db = new Database(path.join(dataDir, 'assay.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    const insert = db.prepare(`insert into members (${COLUMNS}) values (${Array(16).fill('?').join(', ')})`);
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(memberRow(i));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

export async function seedPostgres(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const batch = 1000;
    for (let start = 0; start < count; start += batch) {
      const values = [];
      const tuples = [];
      for (let i = start; i < Math.min(count, start + batch); i++) {
        const row = memberRow(i);
        const base = values.length;
        tuples.push(`(${row.map((_, k) => `$${base + k + 1}`).join(', ')})`);
        values.push(...row);
      }
      await client.query(`insert into members (${COLUMNS}) values ${tuples.join(', ')}`, values);
    }
    await client.query('commit');
    await client.query('analyze members');
  } finally {
    await client.end();
  }
}

/** A fresh instance: a temp data dir (SQLite) or a fresh PostgreSQL database, set up, seeded. */
export async function prepareInstance(ctx, engine, members, label) {
  const dataDir = tempDir(label);
  const store = engine === 'postgres' ? { dataDir, databaseUrl: await ctx.pg.fresh() } : { dataDir };
  const client = await setupInstance(store);
  if (members > 0) {
    if (engine === 'postgres') await seedPostgres(store.databaseUrl, members);
    else seedSqlite(dataDir, members);
  }
  return { store, client, dispose: () => removeDir(dataDir) };
}

/** Runs a scenario's measurement on SQLite, then on PostgreSQL when it is reachable. */
export async function onEachEngine(ctx, measure) {
  const rows = await measure(ctx, 'sqlite');
  if (ctx.pg) rows.push(...(await measure(ctx, 'postgres')));
  return rows;
}
