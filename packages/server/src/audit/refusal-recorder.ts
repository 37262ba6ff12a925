import type { Kysely } from 'kysely';
import { type Database, isDatabaseUnavailable, outageDetails } from '../db/database.js';
import type { Actor } from './actor.js';
import { insertAuditRows, type NewAuditRow } from './audit.repository.js';
import { auditRow, type Change } from './audit.service.js';

/**
 * Refused changes kept in memory while the database is away; more are counted and dropped. At most
 * the bulk insert's chunk (audit.repository.ts), so that what is kept is written in one statement,
 * all or nothing, and a retry never doubles a part of it.
 */
export const REFUSALS_KEPT = 1000;
export const REFUSALS_RETRY_MS = 2000;
/** How long closing waits for a last write of the kept refusals before it gives them up. */
export const REFUSALS_CLOSE_WAIT_MS = 2000;

/** Where the recorder reports an outage (once when it starts, once when it ends) and other failures. */
export interface RefusalLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What a failure said, without its stack: an outage is expected, and its stack says nothing more. */
/**
 * Writes the audit entries of refused changes, which are recorded after their answer and outside any
 * transaction (http/audit-refusals.ts), so that a database outage neither floods the log nor loses
 * them while the process lives. Entries are written in the order they came, all that are waiting in
 * one statement, one statement at a time. When the database is unavailable (`isDatabaseUnavailable`)
 * they stay in memory, each with the time of its refusal, up to `kept` of them (more are counted and
 * dropped), and are tried again at the next refusal or `retryMs` after the last attempt, whichever
 * comes first. The log gets one `warn` line when an outage starts and one when what was kept is
 * written, with the count written and the count dropped. Any other failure is a bug: logged as an
 * error with its stack, and the entries it concerned are not kept (they would fail again). What is
 * kept lives in this process only: a crash loses it. Nothing here ever throws.
 */
export class RefusalRecorder {
  /** Waiting to be written, oldest first; a write under way holds the first of them. */
  private readonly pending: NewAuditRow[] = [];
  private writing: Promise<void> | undefined;
  /** False once an attempt met an unavailable database: then only the timer or a refusal tries again. */
  private answering = true;
  private timer: NodeJS.Timeout | undefined;
  /**
   * The outage under way: since when (the first refusal kept), whether its start is logged, how many
   * entries were written late and how many dropped.
   */
  private outage: { since: string; logged: boolean; recorded: number; dropped: number } | undefined;
  /** Closing: no more retries on a timer. */
  private closed = false;
  /** Closed: whatever a write still under way meets, nothing more is logged. */
  private finished = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: RefusalLog,
    private readonly limits: { kept: number; retryMs: number; closeWaitMs: number } = {
      kept: REFUSALS_KEPT,
      retryMs: REFUSALS_RETRY_MS,
      closeWaitMs: REFUSALS_CLOSE_WAIT_MS,
    },
  ) {}

  /**
   * Records a refused change made at `at` (the refusal's time, kept whenever it is written). The
   * entry is taken at once; the write follows, after the ones before it.
   */
  record(actor: Actor, change: Change, at: string): void {
    if (this.pending.length >= this.limits.kept) {
      // Only a database that does not answer lets this many pile up: that is an outage, failed or not.
      this.outage ??= { since: at, logged: false, recorded: 0, dropped: 0 };
      this.outage.dropped++;
      return;
    }
    this.pending.push(auditRow(actor, change, at));
    this.write();
  }

  /**
   * Stops retrying and makes one last attempt to write what is kept, waiting for it at most
   * `closeWaitMs` (a connection attempt to a database that is away may take longer); says in the
   * log how many entries are lost. Call it before the database is closed; it never throws.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    let giveUp: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      giveUp = setTimeout(resolve, this.limits.closeWaitMs);
    });
    // The write under way, then one more for what it did not carry.
    const last = (async () => {
      await this.writing;
      if (this.write()) await this.writing;
    })();
    await Promise.race([last, waited]);
    clearTimeout(giveUp);
    const dropped = this.outage?.dropped ?? 0;
    if (this.pending.length > 0 || dropped > 0) {
      this.log.warn(
        { lost: this.pending.length, dropped, since: this.outage?.since },
        'shutting down: refused changes kept while the audit log was unavailable are lost',
      );
    }
    // A write still under way ends on its own, and logs nothing more.
    this.finished = true;
  }

  /** Starts a write of everything waiting unless one is under way; answers whether it started one. */
  private write(): boolean {
    // Once closing has ended, nothing more is written (the database may be closed by then).
    if (this.writing || this.pending.length === 0 || this.finished) return false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending.slice();
    this.writing = insertAuditRows(this.db, rows)
      .then(
        () => this.written(rows.length),
        (error: unknown) => this.failed(error, rows.length),
      )
      .catch(() => {
        // A logger that throws must not become an unhandled rejection.
      })
      .finally(() => {
        this.writing = undefined;
        // What came while the statement was on its way goes next, unless the database is away.
        if (this.answering && !this.closed) this.write();
      });
    return true;
  }

  private written(count: number): void {
    this.answering = true;
    this.pending.splice(0, count);
    if (!this.outage || this.finished) return;
    this.outage.recorded += count;
    // Entries that came during the write belong to the outage too: its end is when none is left.
    if (this.pending.length > 0) return;
    const { since, recorded, dropped } = this.outage;
    this.outage = undefined;
    this.log.warn(
      { recorded, dropped, since },
      dropped > 0
        ? `audit log available again: the refused changes kept meanwhile are recorded, ${dropped} more were dropped (over ${this.limits.kept} kept)`
        : 'audit log available again: the refused changes kept meanwhile are recorded',
    );
  }

  private failed(error: unknown, count: number): void {
    if (this.finished) return;
    if (!isDatabaseUnavailable(error)) {
      // The database answered: the rest may go on.
      this.answering = true;
      this.pending.splice(0, count);
      this.log.error({ err: error, lost: count }, 'a refused change could not be recorded in the audit log');
      return;
    }
    this.answering = false;
    this.outage ??= { since: this.pending[0]?.at ?? '', logged: false, recorded: 0, dropped: 0 };
    if (!this.outage.logged) {
      this.outage.logged = true;
      this.log.warn(
        { err: outageDetails(error), kept: this.pending.length },
        'audit log unavailable: refused changes are kept in memory until it answers',
      );
    }
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, this.limits.retryMs);
    this.timer.unref();
  }
}
