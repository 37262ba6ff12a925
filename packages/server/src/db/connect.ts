import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  type Dialect as KyselyDialect,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { type Database, type Db, outageDetails } from './database.js';
import { PostgresFreshness, sqliteFreshness } from './freshness.js';
import { OneTransactionDialect } from './one-transaction.js';
import { registerFastReads } from './prepared.js';
import { SqliteServerDialect } from './sqlite-dialect.js';

// Counts and sums come back from PostgreSQL as strings unless told otherwise.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** Where the database layer reports what it survives (a lost connection); the server passes its logger. */
export interface DatabaseLog {
  warn(obj: object, msg?: string): void;
}

/**
 * Opens PostgreSQL when a URL is given, else the embedded SQLite file in the data folder.
 * `oneTransaction`: everything done through it is one transaction, visible only after `commit()`
 * (see OneTransactionDialect); closing without it undoes it all.
 */
export function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  log?: DatabaseLog;
  oneTransaction?: boolean;
}): Db {
  const wrap = (dialect: KyselyDialect) =>
    options.oneTransaction ? new OneTransactionDialect(dialect) : dialect;
  const commitOf = (dialect: KyselyDialect) =>
    dialect instanceof OneTransactionDialect ? () => dialect.commit() : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // A server that is down or restarting fails a request within this, instead of queueing it.
      connectionTimeoutMillis: 10_000,
    });
    let log = options.log;
    const lost = (error: Error) => log?.warn({ err: outageDetails(error) }, 'database connection lost');
    // A connection that dies must never take the process down. pg-pool listens on idle clients only
    // (and re-emits on the pool); a client checked out, between two statements of a transaction or
    // while a cursor waits on a slow reader, emits `error` with nobody listening, which Node turns into
    // an uncaught exception. Every client gets a listener of its own for its whole life: the statement
    // it carried fails on its own, and pg-pool drops a client that is no longer usable when released.
    pool.on('connect', (client) => client.on('error', lost));
    pool.on('error', lost);
    const writes = { count: 0 };
    const dialect = wrap(new PostgresDialect({ pool: countingWrites(pool, writes), cursor: Cursor }));
    const kysely = new Kysely<Database>({ dialect });
    // The fast reads take a pooled connection of their own: never inside one transaction.
    if (!options.oneTransaction)
      registerFastReads(kysely, {
        prepare: (sql) => {
          // A name that only this exact text can have: pg refuses one name for two texts.
          const name = `assay_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
          return (parameters) =>
            pool.query({ name, text: sql, values: parameters as unknown[] }).then((result) => result.rows);
        },
      });
    const freshness = new PostgresFreshness(options.databaseUrl, () => writes.count);
    return {
      kysely,
      dialect: 'postgres',
      freshness,
      commit: commitOf(dialect),
      attachLog: (next) => {
        log = next;
      },
      close: async () => {
        await freshness.close();
        await kysely.destroy();
      },
    };
  }
  const databasePath = path.join(options.dataDir, 'assay.sqlite');
  const notices = makePrivate(options.dataDir, databasePath);
  const file = new SqliteDatabase(databasePath);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  // A deleted row's bytes are overwritten with zeros, not left in free pages: an erased person
  // (members/erasure.service.ts) must not stay readable in the file.
  file.pragma('secure_delete = ON');
  // Short: SQLite's busy handler sleeps on the thread. A write that finds another process holding
  // the lock waits for it asynchronously instead (SqliteServerDialect).
  file.pragma('busy_timeout = 20');
  const server = new SqliteServerDialect(file);
  const dialect = wrap(server);
  const kysely = new Kysely<Database>({ dialect });
  registerFastReads(kysely, {
    prepare: (sql) => (parameters) => server.readNow(sql, parameters),
  });
  const freshness = sqliteFreshness(file, databasePath, () => server.writes.count);
  return {
    kysely,
    dialect: 'sqlite',
    freshness,
    commit: commitOf(dialect),
    attachLog: (log) => {
      for (const notice of notices.splice(0))
        log.warn({ path: notice.path, mode: notice.was }, notice.message);
    },
    close: async () => {
      freshness.close();
      await kysely.destroy();
    },
  };
}

/**
 * The pool Kysely draws from, counting this process's own writes: a connection that carried any
 * statement other than a plain SELECT counts one when it is released, which is after its
 * transaction committed or rolled back. A cache read while the write was under way is then
 * stale by the time the writer's caller goes on, and the changed count says so at once, without
 * waiting for the database's notification (PostgresFreshness).
 */
function countingWrites(pool: pg.Pool, writes: { count: number }): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrote = false;
      const counted = {
        // A statement is text with its parameters, or a cursor (Kysely's `stream()`: pg-cursor).
        query: (statement: string | pg.Submittable, parameters?: ReadonlyArray<unknown>) => {
          if (typeof statement !== 'string') return client.query(statement);
          if (!/^\s*select\b/i.test(statement)) wrote = true;
          return client.query(statement, parameters as unknown[]);
        },
        release: () => {
          if (wrote) writes.count++;
          client.release();
        },
      };
      return counted as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

/** A permission made private at start-up, for the log. */
interface PrivacyNotice {
  path: string;
  was: string;
  message: string;
}

/**
 * The data folder holds the signing key, every participation token and all personal data: only the
 * instance's own user may enter it (0700) or read the database (0600, and SQLite gives its `-wal`
 * and `-shm` files the database file's mode). A folder or file made by an older version, or by a
 * loose umask, is tightened here and reported.
 */
function makePrivate(dataDir: string, databasePath: string): PrivacyNotice[] {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(databasePath, 'a', 0o600));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`ASSAY_DATA_DIR (--data): cannot create the data folder ${dataDir} (${code})`);
  }
  const notices: PrivacyNotice[] = [];
  const tighten = (target: string, mode: number, what: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(target);
    } catch (error) {
      // The `-wal` and `-shm` files exist only while a connection has the database open.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if ((stat.mode & 0o777 & ~mode) === 0) return;
    const was = (stat.mode & 0o777).toString(8).padStart(4, '0');
    try {
      fs.chmodSync(target, mode);
    } catch {
      // Reported, not thrown: the instance still starts, and the operator reads why.
      notices.push({
        path: target,
        was,
        message: `${what} is readable by others (${was}) and could not be changed`,
      });
      return;
    }
    notices.push({
      path: target,
      was,
      message: `${what} was readable by others (${was}): made ${mode.toString(8).padStart(4, '0')}`,
    });
  };
  tighten(dataDir, 0o700, 'the data folder');
  for (const suffix of ['', '-wal', '-shm']) tighten(`${databasePath}${suffix}`, 0o600, 'the database file');
  return notices;
}
