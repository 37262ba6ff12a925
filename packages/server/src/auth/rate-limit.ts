import type { Kysely } from 'kysely';
import { type Database, type Dialect, isDatabaseUnavailable } from '../db/database.js';
import * as failures from './guess-failures.repository.js';

/** Which limit an attempt counts against: each has its own budget per key. */
export type LimitKind = 'credentials' | 'sign-in' | 'signup' | 'raters' | 'registration';

/** How a guess went: refused for `wait` seconds, or what the secret opened (`undefined`: nothing). */
export type Guess<T> = { wait: number } | { wait?: undefined; found: T | undefined };

interface Shared {
  readonly db: Kysely<Database>;
  readonly kind: LimitKind;
}

/** The window every limit counts in: a minute. */
const LIMIT_WINDOW_MS = 60_000;

/**
 * Counts attempts per key (the caller's address) in a sliding window (a minute, on the app's
 * clock). Two uses:
 *
 * - guessing (`retryAfter` before the check, `fail` after a failed one): secrets, API keys and
 *   passwords, where honest callers, who do not fail, are never limited;
 * - actions that cost something whether they "fail" or not (`take`): sign-ups and nominations,
 *   each of which may make a member and send mail.
 *
 * On SQLite (one server process per data folder) the counts live in this process's memory. On
 * PostgreSQL, where several processes may serve one database, they are shared through the
 * `guess_failures` table (`share`), one row per counted attempt:
 *
 * - `retryAfter` reads the table only for a key this process has seen fail within the window, so
 *   a caller that has not failed here, the honest case, costs no database round trip, as before.
 *   A process that has never seen a key fail lets that key's first attempt through unchecked, and
 *   writes it when it fails: across P processes a key gets at most P - 1 guesses more than the
 *   limit in a window.
 * - `fail` writes the failure before the answer goes out.
 * - `take` writes the attempt, then counts: exact across processes (the attempts committed first
 *   win), at two round trips, on routes that write much more anyway.
 */
export class FailureLimiter {
  /** This process's view: the moments of a key's recent attempts (its own, and those read back). */
  private readonly failures = new Map<string, number[]>();
  private shared: Shared | undefined;
  private sweptAt = Number.NEGATIVE_INFINITY;

  /**
   * `clock` is the app's (AppContext's): the window runs on it, so that a test that counts attempts
   * in a window sets the time and holds however slowly the machine answers.
   */
  constructor(
    private readonly limit: number,
    private readonly clock: () => Date,
    private readonly windowMs = LIMIT_WINDOW_MS,
  ) {}

  private now(): number {
    return this.clock().getTime();
  }

  /**
   * Counts in the database on PostgreSQL, as `kind`, so that every process on the database shares
   * the budget; on SQLite the counts stay in memory. Returns the limiter.
   */
  share(db: Kysely<Database>, dialect: Dialect, kind: LimitKind): this {
    const counts = failures.sharedCounts(db, dialect);
    this.shared = counts ? { db: counts, kind } : undefined;
    return this;
  }

  /** Seconds to wait before trying again, or 0 when the key may try now. */
  async retryAfter(key: string): Promise<number> {
    const recent = this.recent(key);
    // Nothing failed here lately: go on without asking anyone (the honest caller's way).
    if (recent.length === 0) return 0;
    if (this.shared && recent.length < this.limit) {
      const counted = await this.read(this.shared, key, this.limit);
      if (counted) {
        this.failures.set(
          key,
          counted.map((row) => row.at),
        );
        return this.wait(counted.map((row) => row.at));
      }
    }
    return this.wait(recent);
  }

  /**
   * One guess at a secret by `key`: at the limit it is refused (the seconds to wait) and `check` is
   * not even called, so the secret is not looked up; otherwise what `check` found, its `undefined`
   * (the secret opens nothing) counted as a failure.
   */
  async guess<T>(key: string, check: () => Promise<T | undefined>): Promise<Guess<T>> {
    const wait = await this.retryAfter(key);
    if (wait > 0) return { wait };
    const found = await check();
    if (found === undefined) await this.fail(key);
    return { found };
  }

  /** Counts a failed attempt; on PostgreSQL it is written before this resolves. */
  async fail(key: string): Promise<void> {
    const at = this.now();
    this.remember(key, at);
    if (this.shared) await this.record(this.shared, key, at);
  }

  /**
   * Counts an attempt if the key may make one: 0 when it was counted and may go on, else the
   * seconds to wait (and it is not counted). The check and the count are one step, so a burst of
   * requests is held at the limit.
   */
  async take(key: string): Promise<number> {
    const refused = this.wait(this.recent(key));
    if (refused > 0) return refused;
    const at = this.now();
    // Counted here before anything is awaited: a burst at this process stops at the limit.
    this.remember(key, at);
    const shared = this.shared;
    if (!shared) return 0;
    const id = await this.record(shared, key, at);
    if (id === undefined) return 0;
    const counted = await this.read(shared, key, this.limit + 1);
    if (!counted || counted.length <= this.limit) {
      if (counted)
        this.failures.set(
          key,
          counted.map((row) => row.at),
        );
      return 0;
    }
    // Other processes took the budget first: this attempt is refused, and not counted.
    const others = counted.filter((row) => row.id !== id).map((row) => row.at);
    this.failures.set(key, others);
    try {
      await failures.deleteFailure(shared.db, id);
    } catch (error) {
      // The database went away meanwhile: left counted, the key waits a little longer.
      if (!isDatabaseUnavailable(error)) throw error;
    }
    return this.wait(others);
  }

  private remember(key: string, at: number): void {
    const recent = this.recent(key);
    recent.push(at);
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.sweep();
  }

  /** Writes an attempt (and, once a window, drops the kind's rows that left it); its id, or undefined. */
  private async record(shared: Shared, key: string, at: number): Promise<number | undefined> {
    try {
      const id = await failures.insertFailure(shared.db, { kind: shared.kind, key, at });
      if (at - this.sweptAt >= this.windowMs) {
        this.sweptAt = at;
        await failures.sweepFailures(shared.db, shared.kind, at - this.windowMs);
      }
      return id;
    } catch (error) {
      // The database is unreachable: this process still counts the attempt.
      if (!isDatabaseUnavailable(error)) throw error;
      return undefined;
    }
  }

  /** The key's latest `count` attempts in the window, oldest first; undefined when they cannot be read. */
  private async read(shared: Shared, key: string, count: number) {
    try {
      return await failures.recentFailures(shared.db, {
        kind: shared.kind,
        key,
        since: this.now() - this.windowMs,
        count,
      });
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return undefined;
    }
  }

  /** Until the oldest of the last `limit` attempts leaves the window; 0 below the limit. */
  private wait(recent: number[]): number {
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] ?? 0;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }

  private sweep(): void {
    for (const key of this.failures.keys()) {
      if (this.recent(key).length === 0) this.failures.delete(key);
    }
  }
}
