import type { Kysely } from 'kysely';
import { createTransport } from 'nodemailer';
import type { Database, Dialect } from '../db/database.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import type { VariantRegistry } from '../variants/variant.types.js';
import { heldMails } from './held-mails.repository.js';
import type { OutboxRow } from './mail.table.js';
import type { OutboxParams } from './mail.types.js';
import { queueMailFailed } from './mail-events.js';
import {
  claimDue,
  markCaptured,
  markFailed,
  markRetry,
  markSent,
  parseMailParams,
  reclaimOwn,
  type Settled,
} from './outbox.repository.js';
import { fromHeader } from './outbox.service.js';
import { renderMail } from './render.js';

/** The part of a pino logger the worker uses. */
export interface DeliveryLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailDeliveryOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  variants: VariantRegistry;
  /** Without it mails are not sent: they stay in the outbox as `captured`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  clock?: () => Date;
  log?: DeliveryLog;
  /** Mails claimed at a time (default 100). */
  batchSize?: number;
  /** Attempts before a mail the server keeps deferring is failed (default 8). */
  maxAttempts?: number;
  /** The wait after failed attempt number `attempt` (1 for the first). */
  backoffMs?: (attempt: number) => number;
  /** How long a claimed mail is this worker's before another may take it over (default 5 min). */
  leaseMs?: number;
  /** The pause when nothing is due (default 1 s); `notify()` ends it early. */
  pollMs?: number;
  /** Connection, greeting and socket inactivity timeouts of the SMTP client (default 30 s). */
  smtpTimeoutMs?: number;
  /** How long `stop()` lets deliveries in flight finish before cutting their connections (default 2 s). */
  stopGraceMs?: number;
}

/** 30 s doubling each attempt, at most 6 h, spread ±10% so that deferred mails do not return together. */
export function defaultBackoffMs(attempt: number): number {
  const base = Math.min(30_000 * 2 ** (attempt - 1), 6 * 3600_000);
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

const POOL_CONNECTIONS = 5;
// Two batches in flight: while one waits on the database (claim, outcomes), the other keeps every
// SMTP connection busy.
const LANES = 2;

type Outcome = Settled & { kind: 'sent' | 'retry' | 'failed' };
/** What nodemailer adds to an error: the server's reply and its code, or its own code (ETIMEDOUT). */
type SmtpError = { responseCode?: number; response?: string; code?: string };

function makePool(smtpUrl: string, timeoutMs: number) {
  return createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: POOL_CONNECTIONS,
    maxMessages: 10_000,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
}
type Pool = ReturnType<typeof makePool>;

/** True when `work` settles within `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([work.then(() => true as const), late]);
  clearTimeout(timer);
  return settled;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Delivers the outbox over SMTP. Any number of workers, in any number of processes, may run on one
 * database: each claims its own rows under a lease. Delivery is at least once: a worker that dies
 * between the server's answer and recording it leaves the row to be sent again once its lease ends,
 * under the same Message-ID, which receivers can use to drop the copy.
 */
export class MailDelivery {
  private readonly clock: () => Date;
  private readonly settings: Required<
    Pick<
      MailDeliveryOptions,
      'batchSize' | 'maxAttempts' | 'backoffMs' | 'leaseMs' | 'pollMs' | 'smtpTimeoutMs' | 'stopGraceMs'
    >
  >;
  private pool: Pool | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  /** Set when `stop()` cut deliveries short: their mails are not at fault and go back as they were. */
  private interrupted = false;
  private notified = false;
  private readonly sleepers = new Set<() => void>();
  private readonly batches = new Set<Promise<number>>();
  /** This worker's name on the leases it takes. */
  private readonly owner = randomId();
  /** The mails this worker has claimed and not yet recorded. */
  private readonly holding = new Set<string>();
  /**
   * Set when a claim or a record failed (the database went away): the database may hold mails under
   * this worker's lease that it does not know of. The next claim takes them back first.
   */
  private mayHoldUnknown = false;
  /** Claims run one at a time, so that taking back unknown mails never takes a lane's fresh claim. */
  private claiming: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: MailDeliveryOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.settings = {
      batchSize: options.batchSize ?? 100,
      maxAttempts: options.maxAttempts ?? 8,
      backoffMs: options.backoffMs ?? defaultBackoffMs,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      pollMs: options.pollMs ?? 1000,
      smtpTimeoutMs: options.smtpTimeoutMs ?? 30_000,
      stopGraceMs: options.stopGraceMs ?? 2000,
    };
  }

  /** Delivers until `stop()`: batch after batch while mails are due, then a pause. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.interrupted = false;
    this.loop = Promise.all(Array.from({ length: LANES }, () => this.lane())).then(() => undefined);
  }

  /** Mail was queued: look now rather than at the end of the pause. */
  notify(): void {
    this.notified = true;
    for (const wake of this.sleepers) wake();
  }

  /** Claims one batch and delivers it; answers how many mails it claimed. */
  async runOnce(): Promise<number> {
    const batch = this.deliverBatch();
    this.batches.add(batch);
    try {
      return await batch;
    } finally {
      this.batches.delete(batch);
    }
  }

  /** Ends the loop, lets the batches in flight finish (or cuts them short after the grace), closes SMTP. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    const settled = Promise.allSettled([this.loop, ...this.batches]);
    if (!(await within(settled, this.settings.stopGraceMs))) {
      // A server that stalls would hold the batch until the socket timeout: cut its connections, so
      // its mails fail now and go back to the queue.
      this.interrupted = true;
      this.pool?.close({ force: true });
    }
    await settled;
    this.pool?.close();
    this.pool = undefined;
    this.loop = undefined;
    this.interrupted = false;
  }

  private async lane(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (error) {
        // The database may be away for a moment: the loop outlives it.
        this.options.log?.error({ err: error }, 'mail delivery: a batch failed');
      }
      if (claimed === 0) await this.pause();
    }
  }

  private async pause(): Promise<void> {
    if (this.notified || this.stopping) {
      this.notified = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.settings.pollMs);
      this.sleepers.add(wake);
    });
    this.notified = false;
  }

  private async deliverBatch(): Promise<number> {
    const { db, dialect } = this.options;
    const now = this.clock();
    const leaseUntil = formatDate(new Date(now.getTime() + this.settings.leaseMs));
    const rows = await this.claim(now, leaseUntil);
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    try {
      if (!this.options.smtpUrl) {
        await markCaptured(db, dialect, ids, { leaseUntil });
        return rows.length;
      }
      const recorder = new OutcomeRecorder(this.options, leaseUntil, this.clock, () => this.stopping);
      const pool = this.smtpPool(this.options.smtpUrl);
      await Promise.all(rows.map(async (row) => recorder.add(await this.deliver(pool, row))));
      await recorder.done();
      return rows.length;
    } catch (error) {
      // Not sent (captured mails are never sent): take them back at the next claim.
      this.mayHoldUnknown = true;
      throw error;
    } finally {
      for (const id of ids) this.holding.delete(id);
    }
  }

  /** The next batch, under this worker's lease: first any mails a lost answer left it holding. */
  private claim(now: Date, leaseUntil: string): Promise<OutboxRow[]> {
    const { db, dialect } = this.options;
    const limit = this.settings.batchSize;
    const claimed = this.claiming.then(async () => {
      try {
        let rows: OutboxRow[] = [];
        if (this.mayHoldUnknown) {
          rows = await reclaimOwn(db, { owner: this.owner, leaseUntil, holding: [...this.holding], limit });
          this.mayHoldUnknown = false;
          if (rows.length > 0)
            this.options.log?.info(
              { mails: rows.length },
              'mail delivery: took back mails a lost connection left',
            );
        }
        if (rows.length === 0)
          rows = await claimDue(db, dialect, { now: formatDate(now), leaseUntil, limit, owner: this.owner });
        for (const row of rows) this.holding.add(row.id);
        return rows;
      } catch (error) {
        // The claim may have been written with its answer lost.
        this.mayHoldUnknown = true;
        throw error;
      }
    });
    this.claiming = claimed.catch(() => undefined);
    return claimed;
  }

  private smtpPool(smtpUrl: string): Pool {
    if (!this.pool) {
      this.pool = makePool(smtpUrl, this.settings.smtpTimeoutMs);
      this.pool.on('error', (error) => this.options.log?.warn({ err: error }, 'mail delivery: SMTP error'));
    }
    return this.pool;
  }

  private async deliver(pool: Pool, row: OutboxRow): Promise<Outcome> {
    let mail: { subject: string; text: string; html: string };
    let params: OutboxParams;
    try {
      params = parseMailParams(row.params);
      mail = renderMail(this.options.variants, params);
    } catch (error) {
      return { kind: 'failed', id: row.id, response: `not rendered: ${messageOf(error)}` };
    }
    try {
      const info = await pool.sendMail({
        messageId: row.message_id,
        // A webhook's notice names no sender: the instance's name, as MAIL_FROM has it.
        from: fromHeader(this.options.mailFrom, 'sender' in params ? params.sender : undefined),
        to: row.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      return { kind: 'sent', id: row.id, response: info.response };
    } catch (error) {
      return this.afterError(row, error);
    }
  }

  private afterError(row: OutboxRow, error: unknown): Outcome {
    const { responseCode, response, code } = error as SmtpError;
    const answer = response || `${messageOf(error)}${code ? ` (${code})` : ''}`;
    const later = (ms: number) => formatDate(new Date(this.clock().getTime() + ms));
    const { id, attempts } = row;
    if (this.interrupted) {
      return { kind: 'retry', id, response: `interrupted by shutdown: ${answer}`, nextAttemptAt: later(0) };
    }
    // Only the mail's own commands can refuse it for good; a 5xx to the greeting or to AUTH says the
    // server or our account is wrong, which failing every mail in the queue would not mend.
    const ownCommand = code === 'EENVELOPE' || code === 'EMESSAGE';
    const permanent =
      ownCommand && (responseCode === undefined || (responseCode >= 500 && responseCode < 600));
    if (permanent || attempts >= this.settings.maxAttempts) return { kind: 'failed', id, response: answer };
    return { kind: 'retry', id, response: answer, nextAttemptAt: later(this.settings.backoffMs(attempts)) };
  }
}

// Outcomes are recorded in groups: at this many, or this long after the first one waiting. Alone,
// each would cost a statement of its own (10,000 statements for 10,000 mails on SQLite).
const RECORD_GROUP = 50;
const RECORD_DELAY_MS = 25;

/**
 * Writes outcomes soon after they come, in few statements: a group of them, or what arrived while
 * the previous write was on its way.
 */
class OutcomeRecorder {
  private pending: Outcome[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: MailDeliveryOptions,
    private readonly leaseUntil: string,
    private readonly clock: () => Date,
    private readonly stopping: () => boolean,
  ) {}

  add(outcome: Outcome): void {
    this.pending.push(outcome);
    this.schedule();
  }

  /** Resolves once every outcome added is written. */
  async done(): Promise<void> {
    while (this.writing || this.pending.length > 0) {
      if (!this.writing) this.flush();
      await this.writing;
    }
  }

  private schedule(): void {
    if (this.writing || this.pending.length === 0) return;
    if (this.pending.length >= RECORD_GROUP) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), RECORD_DELAY_MS);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.pending.length === 0) return;
    const outcomes = this.pending;
    this.pending = [];
    this.writing = this.writeUntilRecorded(outcomes)
      .catch((error: unknown) => {
        // The rows stay `sending`; once the lease ends a worker takes them again.
        this.options.log?.error({ err: error, mails: outcomes.length }, 'mail delivery: not recorded');
      })
      .finally(() => {
        this.writing = undefined;
        this.schedule();
      });
  }

  /**
   * Writes the outcomes, trying again while the database is away: the mails were delivered, and
   * sending them again because their outcome was lost would double them. Gives up once the lease has
   * run out (another worker may have them now) or the worker stops.
   */
  private async writeUntilRecorded(outcomes: Outcome[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.write(outcomes);
      } catch (error) {
        if (this.stopping() || formatDate(this.clock()) >= this.leaseUntil) throw error;
        if (attempt === 0)
          this.options.log?.warn(
            { err: error, mails: outcomes.length },
            'mail delivery: outcome not recorded yet, retrying',
          );
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, 2000)));
      }
    }
  }

  private async write(outcomes: Outcome[]): Promise<void> {
    const { db, dialect } = this.options;
    const lease = { leaseUntil: this.leaseUntil };
    const of = (kind: Outcome['kind']) => outcomes.filter((outcome) => outcome.kind === kind);
    const retry = of('retry') as (Settled & { nextAttemptAt: string })[];
    const failed = of('failed');
    const written =
      (await markSent(db, dialect, of('sent'), { ...lease, now: formatDate(this.clock()) })) +
      (await markRetry(db, dialect, retry, lease)) +
      (failed.length === 0
        ? 0
        : await db.transaction().execute(async (trx) => {
            // A failed mail is an event (`mail.failed`), queued with the failure it reports.
            const still = await heldMails(trx, failed, this.leaseUntil);
            const count = await markFailed(trx, dialect, failed, lease);
            await queueMailFailed(trx, still, formatDate(this.clock()));
            return count;
          }));
    if (written < outcomes.length) {
      this.options.log?.warn(
        { lost: outcomes.length - written },
        'mail delivery: leases ran out before the outcome was recorded; another worker took those mails',
      );
    }
  }
}
