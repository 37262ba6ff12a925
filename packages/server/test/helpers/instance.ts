import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cliActor } from '../../src/audit/actor.js';
import { bootstrapInstance, createApiKey, type IssuedClient } from '../../src/auth/auth.service.js';
import { generateSigningKey } from '../../src/auth/tokens.js';
import { type Config, loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db, Dialect } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { adminQuery, type MigratedTemplates } from './templates.js';

export const ALL_SCOPES = 'members groups campaigns reports settings samples webhooks audit';
const postgresUrl = process.env.TEST_DATABASE_URL;

/** The engines every API test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const dialects: Dialect[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * A fresh database of the given engine: a temp SQLite file, or a new PostgreSQL database. Empty,
 * or with `migrated`, a copy of the run's migrated template (helpers/templates.ts) when there is
 * one for that server, else migrated here.
 */
export async function freshDatabase(
  dialect: Dialect,
  /** The PostgreSQL server to make the database on (TEST_DATABASE_URL's by default). */
  serverUrl = postgresUrl,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<{ db: Db; dataDir: string; url?: string; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-test-'));
  const templates = migrated ? providedTemplates() : undefined;
  let db: Db;
  let url: URL | undefined;
  let name: string | undefined;
  if (dialect === 'sqlite') {
    if (templates) fs.copyFileSync(templates.sqliteFile, path.join(dataDir, 'assay.sqlite'));
    db = openDatabase({ dataDir });
  } else {
    if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
    name = `assay_t_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const template = templates?.postgres?.serverUrl === serverUrl ? templates.postgres.name : undefined;
    await adminQuery(serverUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
    url = new URL(serverUrl);
    url.pathname = `/${name}`;
    db = openDatabase({ databaseUrl: url.toString(), dataDir });
  }
  // A copy is already migrated: this only confirms it (and migrates where there was no template).
  if (migrated) await migrateToLatest(db.kysely);
  return {
    db,
    dataDir,
    url: url?.toString(),
    drop: async () => {
      if (serverUrl && name) await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The run's templates, when the global setup made them (not when a helper runs outside vitest). */
function providedTemplates(): MigratedTemplates | undefined {
  try {
    return inject('migratedTemplates');
  } catch {
    return undefined;
  }
}

export interface Response {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert their exact shape.
  json: any;
}

/** A running instance on a real database, with an admin client holding every scope. */
export interface Instance {
  dialect: Dialect;
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** The PostgreSQL database's URL (undefined on SQLite, whose file is in `config.dataDir`). */
  databaseUrl?: string;
  client: IssuedClient;
  /** A bearer token for the given scopes (every scope by default), made through the token endpoint. */
  token(scopes?: string): Promise<string>;
  /** A bearer token of another client (a user's integration), made through the token endpoint. */
  clientToken(client: IssuedClient, scopes: string): Promise<string>;
  /** An API call under /api/v1 with a bearer token for every scope unless `auth` says otherwise. */
  call(
    method: string,
    url: string,
    options?: { body?: unknown; auth?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  inject(options: InjectOptions): Promise<Response>;
  apiKey(scopes?: string): Promise<string>;
  /** Another connection to the same database, as another server process or the CLI would open. */
  otherProcess(options?: { oneTransaction?: boolean }): Db;
  close(): Promise<void>;
}

/** A fresh database with the schema in place, for tests below the HTTP layer; `close` drops it. */
export async function migratedDatabase(dialect: Dialect): Promise<{ db: Db; close(): Promise<void> }> {
  const fresh = await freshDatabase(dialect, postgresUrl, { migrated: true });
  return {
    db: fresh.db,
    close: async () => {
      await fresh.db.close();
      await fresh.drop();
    },
  };
}

export async function startInstance(
  dialect: Dialect,
  options: {
    keys?: boolean;
    env?: NodeJS.ProcessEnv;
    /** The instance's clock (real time by default). */
    clock?: () => Date;
    /** Run the scheduler and the mail worker (off by default: tests drive them by hand). */
    background?: boolean;
    /** Where the log goes (set LOG_LEVEL in `env` too: tests are silent by default). */
    logStream?: { write(line: string): void };
    /** The PostgreSQL server to use (TEST_DATABASE_URL's by default). */
    postgresServerUrl?: string;
  } = {},
): Promise<Instance> {
  const fresh = await freshDatabase(dialect, options.postgresServerUrl ?? postgresUrl, { migrated: true });
  if (options.keys !== false) await generateSigningKey(fresh.db.kysely);
  const boot = await bootstrapInstance(fresh.db.kysely, 'admin@example.test', cliActor());
  if (!boot) throw new Error('bootstrap did not run');
  const config = loadConfig({ LOG_LEVEL: 'silent', ASSAY_DATA_DIR: fresh.dataDir, ...options.env });
  const app = await buildApp({
    config,
    database: fresh.db,
    clock: options.clock,
    background: options.background ?? false,
    logStream: options.logStream,
  });
  await app.ready();
  const tokens = new Map<string, string>();

  const inject = async (injectOptions: InjectOptions): Promise<Response> => {
    const response = await app.inject(injectOptions);
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { statusCode: response.statusCode, headers: response.headers, body: response.body, json };
  };

  const instance: Instance = {
    dialect,
    app,
    db: fresh.db,
    config,
    databaseUrl: fresh.url,
    client: boot.client,
    async token(scopes = ALL_SCOPES) {
      const cached = tokens.get(scopes);
      if (cached) return cached;
      const token = await instance.clientToken(boot.client, scopes);
      tokens.set(scopes, token);
      return token;
    },
    async clientToken(client, scopes) {
      const response = await inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
          scope: scopes,
        }).toString(),
      });
      if (response.statusCode !== 200) throw new Error(`token: ${response.body}`);
      return response.json.data.access_token;
    },
    async call(method, url, { body, auth, headers = {} } = {}) {
      const authorization = auth === undefined ? `Bearer ${await instance.token()}` : auth;
      const all: Record<string, string> = { ...headers };
      if (authorization !== null) all.authorization = authorization;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        all['content-type'] ??= 'application/json';
      }
      return inject({ method: method as 'GET', url: `/api/v1${url}`, headers: all, payload });
    },
    inject,
    async apiKey(scopes = ALL_SCOPES) {
      const admin = await fresh.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const scopeList = scopes.split(' ') as never;
      return (await createApiKey(fresh.db.kysely, { userId: admin.id, scopes: scopeList }, cliActor()))
        .apikey;
    },
    otherProcess(options = {}) {
      return openDatabase({ databaseUrl: fresh.url, dataDir: fresh.dataDir, ...options });
    },
    async close() {
      await app.close();
      await fresh.db.close();
      await fresh.drop();
    },
  };
  return instance;
}

/** A unique e-mail address for a test's own data. */
export function email(prefix = 'm'): string {
  return `${prefix}.${Math.random().toString(36).slice(2, 10)}@example.test`;
}

/** The wire form of dates. */
export const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

/**
 * Runs `request` while another connection to the instance's database (another process) holds
 * `rival` (SQL) uncommitted, waits until the request's statement is blocked by the rival's lock
 * (PostgreSQL's `pg_blocking_pids`), then commits the rival. So the request read before the rival
 * committed and wrote after: the race happened, every time, and the answer shows how it was met. A
 * request that finishes without ever waiting on the rival fails the test, since it proves nothing.
 */
export async function whileRivalCommits<T>(
  instance: Instance,
  rival: string,
  request: () => Promise<T>,
): Promise<T> {
  const other = instance.otherProcess();
  try {
    return await other.kysely.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      const own = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
      const rivalPid = own.rows[0]?.pid;
      await sql.raw(rival).execute(connection);
      let finished = false;
      const pending = request().finally(() => {
        finished = true;
      });
      pending.catch(() => {});
      const deadline = Date.now() + 15_000;
      for (;;) {
        const blocked = await sql<{ pid: number }>`
          select pid from pg_stat_activity where ${rivalPid}::int = any(pg_blocking_pids(pid))`.execute(
          instance.db.kysely,
        );
        if (blocked.rows.length > 0) break;
        if (finished) throw new Error(`the request never waited on the rival, so no race happened: ${rival}`);
        if (Date.now() > deadline) throw new Error(`the request did not reach the rival's lock: ${rival}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await sql`commit`.execute(connection);
      return pending;
    });
  } finally {
    await other.close();
  }
}

/**
 * A member of a new campaign (leadership360 unless `campaign` says otherwise, open since 2026),
 * ready to open its questionnaire: the ids and the participation token.
 */
export async function participant(
  instance: Instance,
  campaign: Record<string, unknown> = {},
): Promise<{ campaignid: string; memberid: string; token: string }> {
  const made = await instance.call('POST', '/campaigns', {
    body: { name: 'Participant', variant: 'leadership360', start: '2026-01-01T09:00:00+00:00', ...campaign },
  });
  if (made.json.status !== 'OK') throw new Error(`campaign: ${made.body}`);
  const campaignid = made.json.data.campaignid as string;
  const member = await instance.call('POST', '/members', {
    body: { email: email('participant'), firstname: 'Pat', lastname: 'Participant' },
  });
  const memberid = member.json.data.memberid as string;
  await instance.call('POST', `/campaigns/${campaignid}/members/${memberid}`);
  const { token } = await instance.db.kysely
    .selectFrom('campaign_members')
    .select('token')
    .where('campaign_id', '=', campaignid)
    .where('member_id', '=', memberid)
    .executeTakeFirstOrThrow();
  return { campaignid, memberid, token };
}

/** Makes the instance listen on a free loopback port; answers its base URL. */
export async function listen(instance: Instance): Promise<string> {
  await instance.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = instance.app.server.address() as import('node:net').AddressInfo;
  return `http://127.0.0.1:${port}`;
}
