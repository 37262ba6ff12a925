import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { dialects, migratedDatabase } from '../helpers/instance.js';

// A pooled PostgreSQL connection that dies while idle makes the pool emit `error`. It must neither
// take the process down nor vanish unseen: the database layer logs it where the app logs.
describe.skipIf(!dialects.includes('postgres'))('pool errors (postgres)', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await migratedDatabase('postgres'));
  });
  afterAll(() => close());

  it('logs an idle connection the server ended, and answers again on a new one', async () => {
    const warned: { fields: object; message: string }[] = [];
    db.attachLog({ warn: (fields, message) => warned.push({ fields, message: String(message) }) });
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely);
    const pid = rows[0]?.pid;

    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await expect
      .poll(() => warned.map((entry) => entry.message), { timeout: 20_000 })
      .toContain('database connection lost');
    expect(warned[0]?.fields).toMatchObject({ err: { code: '57P01' } });
    expect((await sql<{ one: number }>`select 1 as one`.execute(db.kysely)).rows).toEqual([{ one: 1 }]);
  });
});
