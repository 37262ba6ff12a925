import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database, Db } from './database.js';
import { PostgresFreshness, sqliteFreshness } from './freshness.js';
import { registerFastReads } from './prepared.js';
import { SqliteServerDialect } from './sqlite-dialect.js';

// Counts and sums come back from PostgreSQL as strings unless told otherwise.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** Opens PostgreSQL when a URL is given, else the embedded SQLite file in the data folder. */
export function openDatabase(options: { databaseUrl?: string; dataDir: string; poolSize?: number }): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client that loses its connection must not take the process down.
    pool.on('error', () => {});
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
    registerFastReads(kysely, {
      prepare: (sql) => {
        // A name that only this exact text can have: pg refuses one name for two texts.
        const name = `assay_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
        return (parameters) =>
          pool.query({ name, text: sql, values: parameters as unknown[] }).then((result) => result.rows);
      },
    });
    const freshness = new PostgresFreshness(options.databaseUrl);
    return {
      kysely,
      dialect: 'postgres',
      freshness,
      close: async () => {
        await freshness.close();
        await kysely.destroy();
      },
    };
  }
  try {
    fs.mkdirSync(options.dataDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`ASSAY_DATA_DIR (--data): cannot create the data folder ${options.dataDir} (${code})`);
  }
  const databasePath = path.join(options.dataDir, 'assay.sqlite');
  const file = new SqliteDatabase(databasePath);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const dialect = new SqliteServerDialect(file);
  const kysely = new Kysely<Database>({ dialect });
  registerFastReads(kysely, {
    prepare: (sql) => (parameters) => dialect.readNow(sql, parameters),
  });
  const freshness = sqliteFreshness(file, databasePath, () => dialect.writes.count);
  return {
    kysely,
    dialect: 'sqlite',
    freshness,
    close: async () => {
      freshness.close();
      await kysely.destroy();
    },
  };
}
