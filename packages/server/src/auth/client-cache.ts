import type { Kysely } from 'kysely';
import type { Database, Freshness } from '../db/database.js';
import { findClientVersion } from './auth.repository.js';

type ClientVersion = Awaited<ReturnType<typeof findClientVersion>>;

/**
 * The client row every bearer call checks its token against, cached in the process. The cache is
 * dropped whenever the database says something may have changed (see db/freshness.ts) and bypassed
 * while it cannot say, so a changed client ends its tokens at once in every process.
 */
export class ClientVersionCache {
  private stamp: string | undefined;
  private readonly rows = new Map<string, ClientVersion>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly freshness: Freshness,
  ) {}

  /** The client's row when the cache may be used and holds it; undefined means ask `get`. */
  cached(clientId: string): ClientVersion {
    const stamp = this.freshness.stamp();
    return stamp !== undefined && stamp === this.stamp ? this.rows.get(clientId) : undefined;
  }

  async get(clientId: string): Promise<ClientVersion> {
    const stamp = this.freshness.stamp();
    if (stamp === undefined) return findClientVersion(this.db, clientId);
    if (stamp !== this.stamp) {
      this.rows.clear();
      this.stamp = stamp;
    }
    if (this.rows.has(clientId)) return this.rows.get(clientId);
    const row = await findClientVersion(this.db, clientId);
    // Kept only if nothing changed while it was read.
    if (this.freshness.stamp() === stamp) {
      if (this.rows.size >= 10_000) this.rows.clear();
      this.rows.set(clientId, row);
    }
    return row;
  }
}
