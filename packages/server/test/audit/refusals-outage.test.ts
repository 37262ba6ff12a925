import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anonymousActor } from '../../src/audit/actor.js';
import { listAuditRows } from '../../src/audit/audit.repository.js';
import { RefusalRecorder } from '../../src/audit/refusal-recorder.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { formatDate } from '../../src/util/dates.js';
import { dialects, freshDatabase, type Instance, startInstance } from '../helpers/instance.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

// A refused API write is recorded after its answer, outside any transaction (http/audit-refusals.ts,
// audit/refusal-recorder.ts). While the database is away its entry waits in memory with the time of
// the refusal; the log says so once, at `warn`, and once more with the count when the entries are in.

const postgresUrl = process.env.TEST_DATABASE_URL;
const OUTAGE = 'audit log unavailable: refused changes are kept in memory until it answers';
const RECOVERED = /^audit log available again: the refused changes kept meanwhile are recorded/;
const NOT_RECORDED = 'a refused change could not be recorded in the audit log';
const LOST = 'shutting down: refused changes kept while the audit log was unavailable are lost';

/**
 * How long a wait for an event may last before the test fails: a bound for a stuck test, not a
 * measure (SQLite answers busy only after its 15 s lock wait).
 */
const EVENT = { timeout: 60_000 };

type Line = Record<string, unknown> & { level: number; msg: string; err?: Record<string, unknown> };

/** The lines a logger writes (pino's JSON lines), parsed. */
function logLines() {
  const lines: Line[] = [];
  return {
    lines,
    stream: {
      write(chunk: string) {
        for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      },
    },
    /** A logger in the shape the recorder takes, writing here in pino's shape. */
    log: {
      warn: (fields: object, msg?: string) => lines.push({ level: 40, msg: String(msg), ...fields }),
      error: (fields: object, msg?: string) => lines.push({ level: 50, msg: String(msg), ...fields }),
    },
    with: (msg: string | RegExp) =>
      lines.filter((line) => (typeof msg === 'string' ? line.msg === msg : msg.test(line.msg))),
  };
}

/** The refusal entries of the member ids given, oldest first, as [id, at]. */
async function refusalsOf(db: Db, ids: readonly string[]): Promise<[string | null, string][]> {
  const rows = await listAuditRows(db.kysely, { limit: 10_000, resourceType: 'member' });
  return rows
    .filter((row) => row.resource_id !== null && ids.includes(row.resource_id))
    .reverse()
    .map((row) => [row.resource_id, row.at]);
}

/**
 * A refused write that needs no database to be refused: no credentials, so 401 at once. Its entry is
 * taken in the route's onResponse hook, which runs as the answer ends, before the answer reaches the
 * test: once this returns, the recorder holds the entry.
 */
async function refuse(instance: Instance, id: string): Promise<void> {
  const response = await instance.call('PATCH', `/members/${id}`, { auth: null, body: { firstname: 'Eve' } });
  expect(response.statusCode).toBe(401);
}

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);

describe.skipIf(!postgresUrl)('refused API writes while PostgreSQL is away (postgres)', () => {
  let proxy: TcpProxy;
  let instance: Instance;
  const logged = logLines();
  // The instance's clock: each refusal's time is set by the test, and moved on before the database
  // is back, so an entry written with its retry's time would show.
  let now = new Date('2026-03-01T10:00:00Z');

  beforeAll(async () => {
    const server = new URL(postgresUrl as string);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    instance = await startInstance('postgres', {
      postgresServerUrl: proxy.via(postgresUrl as string),
      clock: () => now,
      env: { LOG_LEVEL: 'info' },
      logStream: logged.stream,
    });
  });
  afterEach(() => proxy.restore().catch(() => {}));
  afterAll(async () => {
    await proxy.restore().catch(() => {});
    await instance.close();
    await proxy.close();
  });

  it('logs the outage once at warn, keeps the refusals, and records them with their own times when it is back', async () => {
    const before = ids('OUTAGEA', 1);
    await refuse(instance, before[0] as string);
    await expect
      .poll(() => refusalsOf(instance.db, before), EVENT)
      .toEqual([[before[0], '2026-03-01T10:00:00+00:00']]);

    await proxy.cut();
    const during = ids('OUTAGEB', 5);
    const times: string[] = [];
    for (const [i, id] of during.entries()) {
      now = new Date(Date.UTC(2026, 2, 1, 10, 1, i));
      times.push(formatDate(now));
      await refuse(instance, id);
    }
    await expect.poll(() => logged.with(OUTAGE).length, EVENT).toBe(1);
    now = new Date('2026-03-02T00:00:00Z');
    await proxy.restore();

    await expect.poll(() => logged.with(RECOVERED).length, EVENT).toBe(1);
    expect(await refusalsOf(instance.db, during)).toEqual(during.map((id, i) => [id, times[i]]));
    const [outage] = logged.with(OUTAGE);
    // What failed, in one line: pino shows a plain object's missing stack as ''.
    expect(outage).toMatchObject({
      level: 40,
      kept: expect.any(Number),
      err: { message: expect.any(String) },
    });
    expect(outage?.err?.stack).toBeFalsy();
    expect(logged.with(RECOVERED)[0]).toMatchObject({
      level: 40,
      recorded: 5,
      dropped: 0,
      since: '2026-03-01T10:01:00+00:00',
    });
    // Nothing logged as an error: the connection pool's own `database connection lost` is a warn too.
    expect(logged.lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(logged.with(NOT_RECORDED)).toEqual([]);

    // Once it is over, a refusal is recorded at once again, and a next outage is logged again.
    const after = ids('OUTAGEC', 1);
    await refuse(instance, after[0] as string);
    await expect
      .poll(() => refusalsOf(instance.db, after), EVENT)
      .toEqual([[after[0], '2026-03-02T00:00:00+00:00']]);
    await proxy.cut();
    await refuse(instance, 'OUTAGED1');
    await expect.poll(() => logged.with(OUTAGE).length, EVENT).toBe(2);
    await proxy.restore();
    await expect.poll(() => logged.with(RECOVERED).length, EVENT).toBe(2);
    expect(logged.with(RECOVERED)[1]).toMatchObject({ recorded: 1, dropped: 0 });
  });
});

for (const dialect of dialects) {
  describe(`a refusal the database refuses for another reason (${dialect})`, () => {
    let instance: Instance;
    const logged = logLines();
    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { LOG_LEVEL: 'info' }, logStream: logged.stream });
    });
    afterAll(() => instance.close());

    it('is an error with its stack, not kept, and the next refusal is recorded', async () => {
      await sql`alter table audit_log rename to audit_log_away`.execute(instance.db.kysely);
      try {
        await refuse(instance, 'BROKEN1');
        await expect.poll(() => logged.with(NOT_RECORDED).length, EVENT).toBe(1);
      } finally {
        await sql`alter table audit_log_away rename to audit_log`.execute(instance.db.kysely);
      }
      await refuse(instance, 'BROKEN2');
      await expect.poll(() => refusalsOf(instance.db, ['BROKEN2']), EVENT).toHaveLength(1);
      expect(await refusalsOf(instance.db, ['BROKEN1'])).toEqual([]);
      const [failure] = logged.with(NOT_RECORDED);
      expect(failure).toMatchObject({ level: 50, lost: 1 });
      expect(failure?.err?.stack).toEqual(expect.any(String));
      expect(logged.with(OUTAGE)).toEqual([]);
    });
  });
}

describe('refused API writes while another process holds SQLite locked (sqlite)', () => {
  let instance: Instance;
  const logged = logLines();
  let now = new Date('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    instance = await startInstance('sqlite', {
      clock: () => now,
      env: { LOG_LEVEL: 'info' },
      logStream: logged.stream,
    });
  });
  afterAll(() => instance.close());

  // A write waits 15 s for the lock (SQLITE_LOCK_WAIT_MS) before SQLite answers busy: this is slow.
  it('logs one warn line, keeps the refusals and records them with their own times once the lock is released', async () => {
    const other = new SqliteDatabase(path.join(instance.config.dataDir, 'assay.sqlite'));
    const during = ids('LOCKED', 3);
    const times: string[] = [];
    try {
      other.exec('begin immediate');
      for (const [i, id] of during.entries()) {
        now = new Date(Date.UTC(2026, 2, 1, 10, 1, i));
        times.push(formatDate(now));
        await refuse(instance, id);
      }
      await expect.poll(() => logged.with(OUTAGE).length, EVENT).toBe(1);
      now = new Date('2026-03-02T00:00:00Z');
      other.exec('commit');
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
    await expect.poll(() => logged.with(RECOVERED).length, EVENT).toBe(1);
    expect(await refusalsOf(instance.db, during)).toEqual(during.map((id, i) => [id, times[i]]));
    expect(logged.with(OUTAGE)[0]).toMatchObject({ level: 40, err: { code: 'SQLITE_BUSY' } });
    expect(logged.with(OUTAGE)[0]?.err?.stack).toBeFalsy();
    expect(logged.with(RECOVERED)[0]).toMatchObject({ recorded: 3, dropped: 0 });
    expect(logged.lines.filter((line) => line.level >= 50)).toEqual([]);
  }, 120_000);
});

describe.skipIf(!postgresUrl)('the refusals kept, their bound and shutdown (postgres)', () => {
  let proxy: TcpProxy;
  let db: Db;
  let url: string;
  let drop: () => Promise<void>;
  const actor = anonymousActor('127.0.0.1', 'api');
  const change = (id: string) => ({
    resource: 'member' as const,
    id,
    action: 'patch',
    outcome: 'denied' as const,
  });
  const at = (i: number) => formatDate(new Date(Date.UTC(2026, 2, 1, 10, 0, i)));

  beforeAll(async () => {
    const server = new URL(postgresUrl as string);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const fresh = await freshDatabase('postgres', proxy.via(postgresUrl as string), { migrated: true });
    db = fresh.db;
    url = fresh.url as string;
    drop = fresh.drop;
  });
  afterEach(() => proxy.restore().catch(() => {}));
  afterAll(async () => {
    await proxy.restore().catch(() => {});
    await db.close();
    await drop();
    await proxy.close();
  });

  it('keeps the first ones up to its bound, and says how many more it dropped when it records them', async () => {
    const logged = logLines();
    const recorder = new RefusalRecorder(db.kysely, logged.log, {
      kept: 2,
      retryMs: 20,
      closeWaitMs: 60_000,
    });
    try {
      await proxy.cut();
      const all = ids('BOUND', 5);
      for (const [i, id] of all.entries()) recorder.record(actor, change(id), at(i));
      await expect.poll(() => logged.with(OUTAGE).length, EVENT).toBe(1);
      await proxy.restore();
      await expect.poll(() => logged.with(RECOVERED).length, EVENT).toBe(1);
      expect(await refusalsOf(db, all)).toEqual([
        ['BOUND1', at(0)],
        ['BOUND2', at(1)],
      ]);
      expect(logged.with(RECOVERED)[0]).toMatchObject({ level: 40, recorded: 2, dropped: 3 });
      expect(logged.with(RECOVERED)[0]?.msg).toContain('3 more were dropped (over 2 kept)');
      expect(logged.lines).toHaveLength(2);
    } finally {
      await recorder.close();
    }
  });

  it('writes what it kept when it closes while the database answers', async () => {
    const logged = logLines();
    // No retry on a timer in this test's time: only closing writes them.
    const recorder = new RefusalRecorder(db.kysely, logged.log, {
      kept: 10,
      retryMs: 3_600_000,
      closeWaitMs: 3_600_000,
    });
    await proxy.cut();
    recorder.record(actor, change('CLOSE1'), at(0));
    recorder.record(actor, change('CLOSE2'), at(1));
    await expect.poll(() => logged.with(OUTAGE).length, EVENT).toBe(1);
    await proxy.restore();
    await recorder.close();
    expect(await refusalsOf(db, ['CLOSE1', 'CLOSE2'])).toEqual([
      ['CLOSE1', at(0)],
      ['CLOSE2', at(1)],
    ]);
    expect(logged.with(RECOVERED)[0]).toMatchObject({ recorded: 2, dropped: 0 });
    expect(logged.with(LOST)).toEqual([]);
  });

  it('closes without hanging while the database is away, and says what is lost', async () => {
    const logged = logLines();
    const recorder = new RefusalRecorder(db.kysely, logged.log, {
      kept: 10,
      retryMs: 3_600_000,
      closeWaitMs: 3_600_000,
    });
    await proxy.cut();
    recorder.record(actor, change('LOST1'), at(0));
    recorder.record(actor, change('LOST2'), at(1));
    await expect.poll(() => logged.with(OUTAGE).length, EVENT).toBe(1);
    // The database refuses connections: the last attempt fails at once, and closing ends.
    await recorder.close();
    expect(logged.with(LOST)).toEqual([expect.objectContaining({ level: 40, lost: 2, dropped: 0 })]);
    await proxy.restore();
    expect(await refusalsOf(db, ['LOST1', 'LOST2'])).toEqual([]);
  });

  it('closes without waiting for a database that never answers, past its bound', async () => {
    const logged = logLines();
    // A process that has not connected yet: its first write opens a connection.
    const own = openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
    const recorder = new RefusalRecorder(own.kysely, logged.log, {
      kept: 10,
      retryMs: 3_600_000,
      closeWaitMs: 100,
    });
    try {
      // Connections are taken and never answered: the write waits for the pool's 10 s connection
      // timeout, and closing ends before it, at its own bound.
      proxy.stall();
      recorder.record(actor, change('STALLED1'), at(0));
      // The write's connection is held by the proxy before the recorder closes (on a busy machine
      // it could otherwise come after the restore below, and go through).
      await proxy.stalledConnection();
      await recorder.close();
      expect(logged.lines).toEqual([expect.objectContaining({ msg: LOST, level: 40, lost: 1, dropped: 0 })]);
      // The write still under way fails once the connection ends, and logs nothing more.
      await proxy.restore();
      expect(await refusalsOf(db, ['STALLED1'])).toEqual([]);
      expect(logged.lines).toHaveLength(1);
    } finally {
      await proxy.restore();
      await own.close();
    }
  });
});
