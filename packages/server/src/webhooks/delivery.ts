import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import type { DeliveryLog } from '../mail/delivery.js';
import { messageIdDomain } from '../mail/outbox.service.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import { VERSION } from '../version.js';
import {
  type AttemptOutcome,
  claimDue,
  claimLost,
  dueSubscriptions,
  recordOutcomes,
  subscriptionsOf,
} from './outbox.repository.js';
import { signatureHeader } from './signing.js';
import { guardedLookup, hostOf, isRefusedAddress, type TargetPolicy, urlProblem } from './ssrf.js';
import type { MessageRow, SubscriptionRow } from './webhooks.table.js';

export interface WebhookDeliveryOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  policy: TargetPolicy;
  /** The moment it is, for due times, retries and the 3-day rule (tests move it by hand). */
  clock?: () => Date;
  /**
   * The moment a message is signed at (`webhook-timestamp`): the real time, which receivers
   * check against their own clock.
   */
  signingClock?: () => Date;
  log?: DeliveryLog;
  /** Messages on the wire at once, over every subscription (default 100). */
  batchSize?: number;
  /**
   * Messages of one subscription on the wire at once (default 25): a receiver that hangs holds
   * this many of the worker's places at most, never the others'. One at a time while it fails.
   */
  perSubscription?: number;
  /** The wait after failed attempt number `attempt` (1 for the first). */
  backoffMs?: (attempt: number) => number;
  /**
   * How long a subscription whose receiver did not answer is held back, given how long it has
   * been failing (default: as long again, from 10 s to 1 h, so the waits double).
   */
  holdMs?: (failingForMs: number) => number;
  /** How long messages are retried after they were queued (default 24 h). */
  retryForMs?: number;
  /** How long a receiver has to answer (default 15 s). */
  timeoutMs?: number;
  /** How long a claimed message is this worker's before another may take it over (default 5 min). */
  leaseMs?: number;
  /** The pause when nothing is due (default 1 s); `notify()` ends it early. */
  pollMs?: number;
  /** How long `stop()` lets messages on the wire finish before it takes them back (default 5 s). */
  stopGraceMs?: number;
  /** `MAIL_FROM`: its domain names the Message-ID of the mail telling an owner of a disabled subscription. */
  mailFrom?: string;
  /** Called with the subscriptions disabled for failing 3 days in a row, after the commit (their owners' mail is queued). */
  onDisabled?: (subscriptionIds: string[]) => void;
}

/** 10 s tripling each attempt, at most 4 h, spread ±20% so that retries do not come back together. */
export function defaultWebhookBackoffMs(attempt: number): number {
  const base = Math.min(10_000 * 3 ** (attempt - 1), 4 * 3600_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** A receiver that stopped answering waits as long as it has been failing: 10 s, then doubling, at most 1 h. */
export function defaultWebhookHoldMs(failingForMs: number): number {
  return Math.min(Math.max(10_000, failingForMs), 3600_000);
}

/** How long the first outcome waits for others to share its transaction, while messages are on the wire. */
const GATHER_MS = 2;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The `webhook-id` header of a message: stable across its attempts. */
export const webhookId = (messageId: string) => `msg_${messageId}`;

/** The secrets a subscription signs with now: its own, and the one before a rotation for 24 hours. */
export function signingSecrets(subscription: SubscriptionRow, now: string): string[] {
  const secrets = [subscription.secret];
  if (subscription.previous_secret && subscription.previous_until && subscription.previous_until > now)
    secrets.push(subscription.previous_secret);
  return secrets;
}

interface Answer {
  status: number | null;
  error: string | null;
}

/**
 * Delivers the webhook outbox: any number of workers, in any number of processes, may run on one
 * database, each claiming its own messages under a lease. At least once: a worker that dies between
 * the receiver's answer and recording it leaves the message to be sent again once its lease ends,
 * under the same `webhook-id`, which receivers use to drop the copy.
 *
 * Each message is delivered on its own: the worker keeps up to `batchSize` on the wire, at most
 * `perSubscription` of one subscription, records each outcome as it comes (outcomes that come
 * while the last ones are being written go in the next transaction) and claims more as places
 * free up. So a slow or hung receiver delays only its own messages, and one that does not answer
 * is held back as a whole (`hold_until`) rather than tried message after message.
 */
export class WebhookDelivery {
  private readonly clock: () => Date;
  private readonly signingClock: () => Date;
  private readonly settings: Required<
    Pick<
      WebhookDeliveryOptions,
      | 'batchSize'
      | 'perSubscription'
      | 'backoffMs'
      | 'holdMs'
      | 'retryForMs'
      | 'timeoutMs'
      | 'leaseMs'
      | 'pollMs'
      | 'stopGraceMs'
    >
  >;
  private readonly owner = randomId();
  private readonly agents: { http: http.Agent; https: https.Agent };
  private loop: Promise<void> | undefined;
  private stopping = false;
  private notified = false;
  private readonly sleepers = new Set<() => void>();
  /** Messages claimed and not yet recorded, by subscription. */
  private readonly claimed = new Map<string, number>();
  private claimedCount = 0;
  /** Every message this worker claimed: what `runOnce` answers. */
  private claimedTotal = 0;
  private readonly deliveries = new Set<Promise<void>>();
  private readonly requests = new Set<http.ClientRequest>();
  /** Outcomes waiting for the next write. */
  private readonly outcomes: AttemptOutcome[] = [];
  private writing: Promise<void> | undefined;
  /** How many outcomes the transaction under way writes. */
  private beingWritten = 0;
  /** The wait for more outcomes to join the first (`write`). */
  private gathering: NodeJS.Timeout | undefined;
  /** When lost messages were last looked for (the real time). */
  private lostCheckedAt = 0;
  private turn = 0;

  constructor(private readonly options: WebhookDeliveryOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.signingClock = options.signingClock ?? (() => new Date());
    this.settings = {
      batchSize: options.batchSize ?? 100,
      perSubscription: options.perSubscription ?? 25,
      backoffMs: options.backoffMs ?? defaultWebhookBackoffMs,
      holdMs: options.holdMs ?? defaultWebhookHoldMs,
      retryForMs: options.retryForMs ?? 24 * 3600_000,
      timeoutMs: options.timeoutMs ?? 15_000,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      pollMs: options.pollMs ?? 1000,
      stopGraceMs: options.stopGraceMs ?? 5000,
    };
    const lookup = guardedLookup(options.policy) as unknown as net.LookupFunction;
    const agentOptions = { keepAlive: true, maxSockets: 50, lookup };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  }

  /** Delivers until `stop()`: claims while places are free and messages due, else pauses. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run();
  }

  /** Events were queued: look now rather than at the end of the pause. */
  notify(): void {
    this.notified = true;
    for (const wake of this.sleepers) wake();
  }

  /**
   * Stops claiming, lets what is on the wire finish for `stopGraceMs`, then takes the rest back:
   * those messages are queued again as they were (no attempt counted), to be sent by the next
   * worker; the receiver may have had them (at least once).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.notify();
    await this.loop;
    this.loop = undefined;
    if (this.deliveries.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.settings.stopGraceMs);
      });
      await Promise.race([Promise.all(this.deliveries), grace]);
      clearTimeout(timer);
      for (const request of this.requests) request.destroy(new Error('the worker stopped'));
    }
    await this.settle();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let room = true;
      try {
        room = await this.fill(Date.now() - this.lostCheckedAt >= this.settings.pollMs);
      } catch (error) {
        this.options.log?.error({ err: error }, 'webhook delivery: claiming messages failed');
      }
      // Places free and nothing more due (or the claim failed): wait for a place, an event or the poll.
      if (room) await this.pause();
      else await this.pause(true);
    }
  }

  /** Waits for `notify()`, a recorded outcome, or (unless `untilFreed`) the poll interval. */
  private async pause(untilFreed = false): Promise<void> {
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
      const timer = setTimeout(wake, untilFreed ? 2 ** 31 - 1 : this.settings.pollMs);
      this.sleepers.add(wake);
    });
    this.notified = false;
  }

  /**
   * Delivers what is due now and waits until every outcome is recorded: the worker's loop in
   * one step, for the scheduler's tests and the command line. Answers how many messages it claimed.
   */
  async runOnce(): Promise<number> {
    const before = this.claimedTotal;
    await this.fill(true);
    await this.settle();
    return this.claimedTotal - before;
  }

  /** Waits until nothing is on the wire and every outcome is written. */
  private async settle(): Promise<void> {
    while (this.deliveries.size > 0 || this.writing || this.outcomes.length > 0) {
      await Promise.all(this.deliveries);
      this.flush();
      await this.writing;
    }
  }

  /**
   * Claims messages for the free places: lost ones first (when asked: the loop looks once a poll
   * interval, since leases are minutes long), then,
   * subscription by subscription (a different one first each time), as many due ones as each may
   * have on the wire. Answers false when every place is taken (so the loop waits for one), true
   * when places are left because nothing more is due.
   */
  private async fill(lostToo: boolean): Promise<boolean> {
    const { db, dialect } = this.options;
    const { batchSize, perSubscription, leaseMs } = this.settings;
    const free = () => batchSize - this.claimedCount;
    if (free() <= 0) return false;
    const now = this.clock();
    const base = {
      now: formatDate(now),
      leaseUntil: formatDate(new Date(now.getTime() + leaseMs)),
      owner: this.owner,
    };
    if (lostToo) {
      this.lostCheckedAt = Date.now();
      const lost = await claimLost(db, dialect, { ...base, limit: free() });
      if (lost.length > 0) {
        // Unread (the database went away): they wait for this lease to end, and are taken again.
        const ids = [...new Set(lost.map((row) => row.subscription_id))];
        const subscriptions = await subscriptionsOf(db, ids);
        this.launch(lost, new Map(subscriptions.map((row) => [row.id, row])), base.leaseUntil);
      }
    }
    const due = await dueSubscriptions(db, base.now);
    const first = due.length === 0 ? 0 : this.turn++ % due.length;
    for (const subscription of [...due.slice(first), ...due.slice(0, first)]) {
      if (free() <= 0) break;
      const cap = subscription.failing_since !== null ? 1 : perSubscription;
      const busy = this.claimed.get(subscription.id) ?? 0;
      const limit = Math.min(free(), cap - busy);
      // Claims of a few rather than one by one: a subscription with messages on the wire gets
      // more once half its share is free.
      if (limit <= 0 || (busy > 0 && limit < cap / 2)) continue;
      const rows = await claimDue(db, dialect, { ...base, limit, subscriptionId: subscription.id });
      this.launch(rows, new Map([[subscription.id, subscription]]), base.leaseUntil);
    }
    return free() > 0;
  }

  private count(subscriptionId: string, by: number): void {
    const left = (this.claimed.get(subscriptionId) ?? 0) + by;
    if (left > 0) this.claimed.set(subscriptionId, left);
    else this.claimed.delete(subscriptionId);
    this.claimedCount += by;
    if (by > 0) this.claimedTotal += by;
  }

  /** Puts each claimed message on the wire on its own; its outcome is recorded when it comes. */
  private launch(rows: MessageRow[], subscriptions: Map<string, SubscriptionRow>, leaseUntil: string): void {
    for (const row of rows) {
      this.count(row.subscription_id, 1);
      const delivery = this.deliver(row, subscriptions.get(row.subscription_id), leaseUntil).then(
        (outcome) => {
          this.outcomes.push(outcome);
          this.write();
        },
      );
      this.deliveries.add(delivery);
      void delivery.finally(() => this.deliveries.delete(delivery));
    }
  }

  /**
   * Writes the outcomes that came, one transaction at a time; each written one frees its place.
   * While messages are still on the wire, the first outcome waits `GATHER_MS` for others to join
   * it: one transaction for many outcomes (a commit per outcome cost more than the delivery).
   */
  private write(): void {
    if (this.writing || this.outcomes.length === 0) return;
    const unanswered = this.claimedCount - this.beingWritten - this.outcomes.length;
    if (unanswered > 0 && !this.stopping) {
      this.gathering ??= setTimeout(() => {
        this.gathering = undefined;
        this.flush();
      }, GATHER_MS);
      return;
    }
    this.flush();
  }

  private flush(): void {
    if (this.writing || this.outcomes.length === 0) return;
    clearTimeout(this.gathering);
    this.gathering = undefined;
    const batch = this.outcomes.splice(0);
    this.beingWritten = batch.length;
    this.writing = (async () => {
      try {
        await this.record(batch);
      } catch (error) {
        // Not recorded: those messages are sent again once their lease runs out (at least once).
        this.options.log?.error({ err: error }, 'webhook delivery: outcomes could not be recorded');
      } finally {
        for (const outcome of batch) this.count(outcome.subscriptionId, -1);
        this.beingWritten = 0;
      }
    })().finally(() => {
      this.writing = undefined;
      this.notify();
      this.write();
    });
  }

  private async record(outcomes: AttemptOutcome[]): Promise<void> {
    const after = this.clock();
    const { recorded, disabled } = await recordOutcomes(this.options.db, outcomes, {
      dialect: this.options.dialect,
      owner: this.owner,
      now: formatDate(after),
      nowMs: after.getTime(),
      messageIdDomain: messageIdDomain(this.options.mailFrom ?? 'assay@localhost'),
      holdMs: this.settings.holdMs,
    });
    const counted = outcomes.filter((outcome) => outcome.kind !== 'released').length;
    if (recorded < counted) {
      this.options.log?.warn(
        { lost: counted - recorded },
        'webhook delivery: leases ran out before the outcome was recorded; another worker took those messages',
      );
    }
    if (disabled.length > 0) {
      this.options.log?.warn(
        { subscriptions: disabled },
        'webhook delivery: disabled after failing for 3 days',
      );
      this.options.onDisabled?.(disabled);
    }
  }

  private async deliver(
    row: MessageRow,
    subscription: SubscriptionRow | undefined,
    leaseUntil: string,
  ): Promise<AttemptOutcome> {
    const base = { id: row.id, subscriptionId: row.subscription_id, attempt: row.attempts, leaseUntil };
    if (subscription?.enabled !== 1 || subscription === undefined) {
      const error = 'subscription disabled';
      return { ...base, kind: 'failed', httpStatus: null, error, unreachable: false, durationMs: 0 };
    }
    const started = performance.now();
    const answer = await this.send(row, subscription);
    const durationMs = performance.now() - started;
    const unreachable = answer.status === null;
    if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
      return { ...base, kind: 'delivered', httpStatus: answer.status, error: null, unreachable, durationMs };
    }
    // Cut off by stop(): the receiver may or may not have it; it goes back in line, uncounted.
    if (this.stopping && unreachable) {
      return { ...base, kind: 'released', httpStatus: null, error: answer.error, unreachable, durationMs };
    }
    const error = answer.error ?? null;
    const nowMs = this.clock().getTime();
    const endMs = Date.parse(row.created) + this.settings.retryForMs;
    if (nowMs >= endMs)
      return { ...base, kind: 'failed', httpStatus: answer.status, error, unreachable, durationMs };
    const next = Math.min(nowMs + this.settings.backoffMs(row.attempts), endMs);
    return {
      ...base,
      kind: 'retry',
      httpStatus: answer.status,
      error,
      unreachable,
      durationMs,
      nextAttemptAt: formatDate(new Date(next)),
    };
  }

  /** One POST of the message, signed now; the receiver's status, or why there was none. */
  private send(row: MessageRow, subscription: SubscriptionRow): Promise<Answer> {
    const policy = this.options.policy;
    const problem = urlProblem(subscription.url, policy);
    if (problem) return Promise.resolve({ status: null, error: problem });
    const url = new URL(subscription.url);
    const host = hostOf(url);
    // A literal address is never looked up: it is checked here.
    if (!policy.allowPrivate && net.isIP(host) !== 0 && isRefusedAddress(host)) {
      return Promise.resolve({
        status: null,
        error: `refused: ${host} is a loopback, private or link-local address`,
      });
    }
    const id = webhookId(row.id);
    const timestamp = Math.floor(this.signingClock().getTime() / 1000);
    const body = Buffer.from(row.payload, 'utf8');
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': `Assay-Webhooks/${VERSION}`,
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(
        signingSecrets(subscription, formatDate(this.clock())),
        id,
        timestamp,
        row.payload,
      ),
    };
    const secure = url.protocol === 'https:';
    return new Promise<Answer>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let request: http.ClientRequest | undefined;
      const finish = (answer: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (request) this.requests.delete(request);
        resolve(answer);
      };
      const makeRequest = () =>
        (secure ? https : http).request(
          url,
          { method: 'POST', headers, agent: secure ? this.agents.https : this.agents.http },
          (response) => {
            const status = response.statusCode ?? null;
            // The body is not needed, only drained so the connection can be used again.
            response.on('error', () => finish({ status, error: null }));
            response.on('end', () => finish({ status, error: null }));
            response.resume();
          },
        );
      let sent: http.ClientRequest;
      try {
        sent = makeRequest();
      } catch (error) {
        // A URL node refuses to request (it was checked at create): an attempt failed, not a crash.
        return finish({ status: null, error: messageOf(error) });
      }
      request = sent;
      this.requests.add(sent);
      timer = setTimeout(() => {
        sent.destroy(new Error(`no answer in ${this.settings.timeoutMs / 1000} s`));
      }, this.settings.timeoutMs);
      sent.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code && error.code !== 'EREFUSEDADDRESS' ? ` (${error.code})` : '';
        finish({ status: null, error: `${messageOf(error)}${code}` });
      });
      sent.end(body);
    });
  }
}
