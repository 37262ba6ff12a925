import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/**
 * Databases with every migration in place, made once per run by the global setup: each test's fresh
 * database is a copy (a file copy on SQLite, `create database ... template` on PostgreSQL) instead
 * of some sixty migrations run again, hundreds of times a run. The migrations themselves are still
 * run from empty by the tests about them (test/db/migrations.test.ts) and by every template.
 */
export interface MigratedTemplates {
  /** A migrated SQLite file, closed, to copy as a data folder's `assay.sqlite`. */
  sqliteFile: string;
  /** The PostgreSQL server the template lives on, and the template's name (no connection on it). */
  postgres?: { serverUrl: string; name: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    migratedTemplates: MigratedTemplates;
  }
}

export async function makeTemplates(
  postgresUrl: string | undefined,
): Promise<{ templates: MigratedTemplates; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-template-'));
  const sqlite = openDatabase({ dataDir: dir });
  await migrateToLatest(sqlite.kysely);
  await sqlite.close();
  const templates: MigratedTemplates = { sqliteFile: path.join(dir, 'assay.sqlite') };
  let name: string | undefined;
  if (postgresUrl) {
    name = `assay_template_${process.pid}_${Date.now()}`;
    await adminQuery(postgresUrl, `create database ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const db = openDatabase({ databaseUrl: url.toString(), dataDir: dir });
    await migrateToLatest(db.kysely);
    await db.close();
    templates.postgres = { serverUrl: postgresUrl, name };
  }
  return {
    templates,
    drop: async () => {
      if (postgresUrl && name) await adminQuery(postgresUrl, `drop database if exists ${name} with (force)`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One statement on the server's maintenance connection (databases are made and dropped there). */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
