import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Freshness } from '../../src/db/database.js';
import { sqliteFreshness } from '../../src/db/freshness.js';
import { freshDatabase } from '../helpers/instance.js';

// The server's own connection, opened as db/connect.ts opens it, and a stamp read from it.
// Every stamp looks at the database again (reuseMs 0), unless the test is about reuse.
function openServerSide(databasePath: string) {
  const file = new SqliteDatabase(databasePath);
  file.pragma('journal_mode = WAL');
  let writes = 0;
  const freshness = sqliteFreshness(file, databasePath, () => writes, { reuseMs: 0 });
  return { file, freshness, countWrite: () => writes++ };
}

// Another process committing, as `assay clients update` does.
function commitFromAnotherProcess(databasePath: string, value: number) {
  execFileSync(process.execPath, [
    '-e',
    `const db = new (require('better-sqlite3'))(process.argv[1]);
     db.prepare('insert into t (n) values (?)').run(Number(process.argv[2]));
     db.close();`,
    databasePath,
    String(value),
  ]);
}

describe('SQLite freshness stamps', () => {
  let dir: string;
  let databasePath: string;
  let server: ReturnType<typeof openServerSide>;
  let other: SqliteDatabase.Database;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-freshness-'));
    databasePath = path.join(dir, 'assay.sqlite');
    server = openServerSide(databasePath);
    server.file.exec('create table t (n integer)');
    other = new SqliteDatabase(databasePath);
  });
  afterEach(() => {
    other.close();
    server.freshness.close();
    server.file.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const insertOther = (n: number) => other.prepare('insert into t (n) values (?)').run(n);

  it('stays the same while nothing is written, so that caches are used', () => {
    const stamp = server.freshness.stamp();
    expect(stamp).toBeDefined();
    other.prepare('select count(*) from t').get();
    expect(server.freshness.stamp()).toBe(stamp);
  });

  it('changes with every commit of another process', () => {
    for (let i = 0; i < 3; i++) {
      const before = server.freshness.stamp();
      commitFromAnotherProcess(databasePath, i);
      expect(server.freshness.stamp()).not.toBe(before);
    }
  });

  it('changes with every commit of another connection, back to back and across a WAL reset', () => {
    const seen = new Set<string | undefined>([server.freshness.stamp()]);
    for (let i = 0; i < 200; i++) {
      insertOther(i);
      if (i % 50 === 25) other.pragma('wal_checkpoint(TRUNCATE)');
      const stamp = server.freshness.stamp();
      expect(seen.has(stamp)).toBe(false);
      seen.add(stamp);
    }
  });

  it("counts the server's own writes", () => {
    const before = server.freshness.stamp();
    server.countWrite();
    expect(server.freshness.stamp()).not.toBe(before);
  });

  it('falls back to PRAGMA data_version when the WAL index cannot be read', () => {
    const fallback: Freshness = sqliteFreshness(server.file, path.join(dir, 'missing', 'x'), () => 0, {
      reuseMs: 0,
    });
    try {
      const before = fallback.stamp();
      expect(before).toBeDefined();
      expect(fallback.stamp()).toBe(before);
      insertOther(1);
      expect(fallback.stamp()).not.toBe(before);
    } finally {
      fallback.close();
    }
  });

  it('shares one look within the reuse window, but never hides its own writes', async () => {
    let writes = 0;
    const shared = sqliteFreshness(server.file, databasePath, () => writes, { reuseMs: 50 });
    try {
      const before = shared.stamp();
      insertOther(1);
      expect(shared.stamp()).toBe(before);
      writes++;
      expect(shared.stamp()).not.toBe(before);
      const afterOwn = shared.stamp();
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(shared.stamp()).not.toBe(afterOwn);
    } finally {
      shared.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL freshness stamps', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeEach(async () => {
    fresh = await freshDatabase('postgres');
    await sql`create table t (n integer)`.execute(fresh.db.kysely);
    // The stamp is unknown until the listening connection is up.
    await vi.waitFor(() => expect(fresh.db.freshness.stamp()).toBeDefined(), { timeout: 20_000 });
  });
  afterEach(async () => {
    await fresh.db.close();
    await fresh.drop();
  });

  it("changes as soon as the process's own write is committed, before any notification could arrive", async () => {
    const { kysely, freshness } = fresh.db;
    const before = freshness.stamp();
    await sql`select n from t`.execute(kysely);
    expect(freshness.stamp()).toBe(before);
    // No trigger notifies on this table: only the pool's own count can change the stamp.
    await kysely.transaction().execute(async (trx) => {
      await sql`insert into t (n) values (1)`.execute(trx);
    });
    const afterTransaction = freshness.stamp();
    expect(afterTransaction).not.toBe(before);
    await sql`update t set n = 2`.execute(kysely);
    expect(freshness.stamp()).not.toBe(afterTransaction);
  });
});
