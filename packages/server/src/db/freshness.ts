import fs from 'node:fs';
import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { Freshness } from './database.js';

/** The channel the migration's trigger notifies on every change of a cached table. */
export const CHANGES_CHANNEL = 'assay_changes';

/** The first copy of the WAL-index header: 48 bytes at the start of the `-shm` file. */
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * How long one look at the database is reused on SQLite. Under load a server reads the same
 * header for every request; within this window they share one read, so a commit of another
 * process is seen by every request that arrives more than this long after it.
 */
export const SQLITE_STAMP_REUSE_MS = 1;

/**
 * SQLite: every commit, by any process, rewrites the header of the WAL index (the `-shm` file
 * beside the database: its change counter, last frame and checksums; see "WAL-Index Format" in
 * SQLite's file-format document). Reading those 48 bytes is one `pread`, where `PRAGMA
 * data_version` opens a read transaction (two lock calls and a stat); one read serves every
 * request within `reuseMs`. This process's own writes are counted by the connection and always
 * change the stamp at once. The `-shm` file lives as long as the server holds its connection
 * open; if it cannot be read, the pragma answers instead, and if that fails too, the stamp is
 * unknown.
 */
export function sqliteFreshness(
  file: SqliteDatabase.Database,
  databasePath: string,
  ownWrites: () => number,
  { reuseMs = SQLITE_STAMP_REUSE_MS }: { reuseMs?: number } = {},
): Freshness {
  const dataVersion = file.prepare('PRAGMA data_version').pluck();
  const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let shm: number | undefined;
  try {
    shm = fs.openSync(`${databasePath}-shm`, 'r');
  } catch {
    shm = undefined;
  }
  const fromPragma = () => {
    try {
      return `v${dataVersion.get()}`;
    } catch {
      return undefined;
    }
  };
  const look = () => {
    if (shm === undefined) return fromPragma();
    try {
      if (fs.readSync(shm, header, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES)
        return fromPragma();
      return header.toString('latin1');
    } catch {
      return fromPragma();
    }
  };
  let last: string | undefined;
  let lastAt = Number.NEGATIVE_INFINITY;
  return {
    stamp() {
      const now = performance.now();
      if (now - lastAt >= reuseMs) {
        last = look();
        lastAt = last === undefined ? Number.NEGATIVE_INFINITY : now;
      }
      return last === undefined ? undefined : `${last}:${ownWrites()}`;
    },
    close() {
      if (shm !== undefined) fs.closeSync(shm);
      shm = undefined;
    },
  };
}

/**
 * PostgreSQL: a connection of its own LISTENs on the changes channel and counts notifications.
 * Until it listens, and whenever it has lost its connection, the stamp is unknown; it reconnects
 * on its own. It starts on first use, so short-lived commands never open it. A notification
 * arrives some time after its commit; this process's own writes are counted by its pool
 * (`ownWrites`) and change the stamp as soon as they are committed.
 */
export class PostgresFreshness implements Freshness {
  private client: pg.Client | undefined;
  private listening = false;
  private changes = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly ownWrites: () => number,
  ) {}

  stamp(): string | undefined {
    if (!this.client && !this.closed) void this.connect();
    return this.listening ? `${this.changes}:${this.ownWrites()}` : undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      client.removeAllListeners();
      void client.end().catch(() => {});
      if (!this.closed) this.retry = setTimeout(() => void this.connect(), 1000).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => {
      this.changes++;
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (this.client !== client) return;
      // Whatever happened while nobody listened is unknown: start from a new count.
      this.changes++;
      this.listening = true;
    } catch {
      lost();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}
