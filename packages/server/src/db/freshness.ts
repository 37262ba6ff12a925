import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { Freshness } from './database.js';

/** The channel the migration's trigger notifies on every change of a cached table. */
export const CHANGES_CHANNEL = 'assay_changes';

/**
 * SQLite: `PRAGMA data_version` changes when another connection (another process) commits; this
 * process's own writes are counted by the connection. While a streamed read holds the connection
 * the pragma cannot run, and the stamp is unknown.
 */
export function sqliteFreshness(file: SqliteDatabase.Database, ownWrites: () => number): Freshness {
  const dataVersion = file.prepare('PRAGMA data_version').pluck();
  return {
    stamp() {
      try {
        return `${dataVersion.get()}:${ownWrites()}`;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * PostgreSQL: a connection of its own LISTENs on the changes channel and counts notifications.
 * Until it listens, and whenever it has lost its connection, the stamp is unknown; it reconnects
 * on its own. It starts on first use, so short-lived commands never open it.
 */
export class PostgresFreshness implements Freshness {
  private client: pg.Client | undefined;
  private listening = false;
  private changes = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly connectionString: string) {}

  stamp(): string | undefined {
    if (!this.client && !this.closed) void this.connect();
    return this.listening ? String(this.changes) : undefined;
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
