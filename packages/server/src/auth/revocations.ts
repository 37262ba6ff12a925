import type { Kysely } from 'kysely';
import type { Database, Freshness } from '../db/database.js';
import { isTokenRevoked } from './revocations.repository.js';

/**
 * Whether a bearer token was revoked, cached in the process as ClientVersionCache caches clients:
 * dropped whenever the database says something may have changed (db/freshness.ts; on PostgreSQL
 * a revocation notifies), bypassed while it cannot say. So a revocation is seen at once by every
 * process, and an unchanged database costs no round trip.
 */
export class RevokedTokenCache {
  private stamp: string | undefined;
  private readonly known = new Map<string, boolean>();
  /** Tokens this process revoked, by jti, with their expiry: refused before any notice comes back. */
  private readonly revokedHere = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly freshness: Freshness,
  ) {}

  /** Whether the token is revoked when the cache may be used and knows; undefined means ask `isRevoked`. */
  cached(jti: string): boolean | undefined {
    if (this.revokedHere.has(jti)) return true;
    const stamp = this.freshness.stamp();
    return stamp !== undefined && stamp === this.stamp ? this.known.get(jti) : undefined;
  }

  async isRevoked(jti: string): Promise<boolean> {
    if (this.revokedHere.has(jti)) return true;
    const stamp = this.freshness.stamp();
    if (stamp === undefined) return isTokenRevoked(this.db, jti);
    if (stamp !== this.stamp) {
      this.known.clear();
      this.stamp = stamp;
    }
    const known = this.known.get(jti);
    if (known !== undefined) return known;
    const revoked = await isTokenRevoked(this.db, jti);
    // Kept only if nothing changed while it was read.
    if (this.freshness.stamp() === stamp) {
      if (this.known.size >= 10_000) this.known.clear();
      this.known.set(jti, revoked);
    }
    return revoked;
  }

  /**
   * Called once this process has recorded a revocation: its next call with the token is refused
   * even before the database's notice of the change arrives (PostgreSQL's comes a moment later).
   */
  revokedNow(jti: string, expiresAt: number): void {
    if (this.revokedHere.size >= 10_000) {
      const now = Date.now() / 1000;
      for (const [id, exp] of this.revokedHere) if (exp <= now) this.revokedHere.delete(id);
    }
    this.revokedHere.set(jti, expiresAt);
  }
}
