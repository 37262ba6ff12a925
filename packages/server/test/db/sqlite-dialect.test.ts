import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { prepared } from '../../src/db/prepared.js';
import { freshDatabase, migratedDatabase } from '../helpers/instance.js';

describe('the SQLite dialect', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await migratedDatabase('sqlite'));
    // 2,500 rows the reading tests stream; each test that writes makes a table of its own.
    await sql`create table numbers (n integer primary key)`.execute(db.kysely);
    await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 2500) insert into numbers select x from c`.execute(
      db.kysely,
    );
  });
  afterAll(() => close());

  it('runs concurrent transactions one at a time, in turn', async () => {
    await sql`create table counter (n integer not null)`.execute(db.kysely);
    await sql`insert into counter (n) values (0)`.execute(db.kysely);
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        db.kysely.transaction().execute(async (trx) => {
          const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
          await new Promise((resolve) => setImmediate(resolve));
          await sql`update counter set n = ${(rows[0]?.n ?? 0) + 1}`.execute(trx);
          order.push(i);
        }),
      ),
    );
    const { rows } = await sql<{ n: number }>`select n from counter`.execute(db.kysely);
    expect(rows[0]?.n).toBe(25);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('rolls a failed transaction back and keeps serving', async () => {
    await sql`create table kept (n integer not null)`.execute(db.kysely);
    await sql`insert into kept (n) values (25)`.execute(db.kysely);
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await sql`update kept set n = 1000`.execute(trx);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    const { rows } = await sql<{ n: number }>`select n from kept`.execute(db.kysely);
    expect(rows[0]?.n).toBe(25);
  });

  it('streams a large result in batches, every row once', async () => {
    let seen = 0;
    let sum = 0;
    // biome-ignore lint/suspicious/noExplicitAny: a table of this test only, outside the app's schema.
    const untyped = db.kysely as unknown as Kysely<any>;
    for await (const row of untyped.selectFrom('numbers').select('n').stream(1000)) {
      seen++;
      sum += row.n;
    }
    expect(seen).toBe(2500);
    expect(sum).toBe((2500 * 2501) / 2);
  });

  it('binds new arguments to a query compiled once', async () => {
    const find = prepared(db.kysely, 1, (id: string) =>
      db.kysely.selectFrom('users').select('id').where('id', '=', id),
    );
    expect(await find('nobody')).toEqual([]);
    const user = await createUser(
      db.kysely,
      { email: 'p@example.test', firstname: 'P', lastname: 'Q' },
      cliActor(),
    );
    expect(await find(user.id)).toEqual([{ id: user.id }]);
    expect(await find("x' or '1'='1")).toEqual([]);
  });

  it('answers a prepared read at once only while no transaction or stream holds the connection', async () => {
    const count = prepared(db.kysely, 0, () =>
      db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')),
    );
    const [{ n: before } = { n: -1 }] = await count();
    // Issued while a transaction has written and not yet ended: it must wait for the end, not
    // read the transaction's uncommitted row on the shared connection.
    let during: Promise<{ n: number }[]> | undefined;
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await createUser(
          trx,
          { email: 'rolled-back@example.test', firstname: 'R', lastname: 'B' },
          cliActor(),
        );
        during = count();
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await during)?.[0]?.n).toBe(before);
    // Issued while a stream is being read: it waits for the stream instead of failing.
    // biome-ignore lint/suspicious/noExplicitAny: a table of this test only, outside the app's schema.
    const untyped = db.kysely as unknown as Kysely<any>;
    let streamed = 0;
    let midStream: Promise<{ n: number }[]> | undefined;
    for await (const _ of untyped.selectFrom('numbers').select('n').stream(100)) {
      if (streamed++ === 150) midStream = count();
    }
    expect((await midStream)?.[0]?.n).toBe(before);
  });
});

describe('the SQLite dialect with another process on the same file', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let other: Db;
  beforeAll(async () => {
    fresh = await freshDatabase('sqlite');
    await sql`create table counter (n integer not null)`.execute(fresh.db.kysely);
    await sql`insert into counter (n) values (0)`.execute(fresh.db.kysely);
    // Another connection to the file: for SQLite's locks, as another process would be.
    other = openDatabase({ dataDir: fresh.dataDir });
  });
  afterAll(async () => {
    await other.close();
    await fresh.db.close();
    await fresh.drop();
  });

  /** The counter as it is now: each test counts from where the others left it. */
  const counter = async () =>
    (await sql<{ n: number }>`select n from counter`.execute(fresh.db.kysely)).rows[0]?.n ?? 0;

  it('takes the write lock when a transaction begins, so a commit elsewhere between its read and its write is no error', async () => {
    const before = await counter();
    let rivalDone: Promise<unknown> = Promise.resolve();
    await fresh.db.kysely.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
      // With a deferred `begin` the rival commits here and the update below fails at once with
      // SQLITE_BUSY_SNAPSHOT; with `begin immediate` the rival waits for this transaction.
      rivalDone = sql`update counter set n = n + 100`.execute(other.kysely);
      // The rival's first try runs in the microtasks of that call: after one turn of the event
      // loop it has committed (deferred) or met the lock and waits on a timer (immediate).
      await new Promise((resolve) => setImmediate(resolve));
      await sql`update counter set n = ${(rows[0]?.n ?? 0) + 1}`.execute(trx);
    });
    await rivalDone;
    expect(await counter()).toBe(before + 101);
  });

  it('waits for a lock held elsewhere without holding the event loop: reads are answered while the write waits', async () => {
    const before = await counter();
    // SQLite's own busy handler sleeps on the thread: the connection's is short, and a write that
    // still meets the lock waits on a timer instead (whenUnlocked).
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(fresh.db.kysely);
    expect(rows[0]?.timeout).toBeLessThan(100);
    const holder = new SqliteDatabase(path.join(fresh.dataDir, 'assay.sqlite'));
    const events: string[] = [];
    holder.exec('begin immediate');
    const write = sql`update counter set n = n + 1`.execute(fresh.db.kysely).then(() => {
      events.push('write done');
    });
    // The write meets the lock in the microtasks of that call; from the next turn on it waits.
    // The lock is let go only from this thread, after reads answered here: a write that waited
    // by holding the thread (SQLite's busy handler alone) would never see it go, and fail busy.
    for (let read = 0; read < 3; read++) {
      await new Promise((resolve) => setImmediate(resolve));
      await sql`select n from counter`.execute(other.kysely);
      events.push('read');
    }
    events.push('lock released');
    holder.exec('commit');
    holder.close();
    await write;
    expect(events).toEqual(['read', 'read', 'read', 'lock released', 'write done']);
    expect(await counter()).toBe(before + 1);
  });
});
