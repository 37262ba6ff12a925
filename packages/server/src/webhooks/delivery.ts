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
import { type AttemptOutcome, claimMessages, recordOutcomes } from './outbox.repository.js';
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
  /** Messages claimed at a time (default 100), all sent at once. */
  batchSize?: number;
  /** The wait after failed attempt number `attempt` (1 for the first). */
  backoffMs?: (attempt: number) => number;
  /** How long messages are retried after they were queued (default 24 h). */
  retryForMs?: number;
  /** How long a receiver has to answer (default 15 s). */
  timeoutMs?: number;
  /** How long a claimed message is this worker's before another may take it over (default 5 min). */
  leaseMs?: number;
  /** The pause when nothing is due (default 1 s); `notify()` ends it early. */
  pollMs?: number;
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
 */
export class WebhookDelivery {
  private readonly clock: () => Date;
  private readonly signingClock: () => Date;
  private readonly settings: Required<
    Pick<
      WebhookDeliveryOptions,
      'batchSize' | 'backoffMs' | 'retryForMs' | 'timeoutMs' | 'leaseMs' | 'pollMs'
    >
  >;
  private readonly owner = randomId();
  private readonly agents: { http: http.Agent; https: https.Agent };
  private loop: Promise<void> | undefined;
  private stopping = false;
  private notified = false;
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly options: WebhookDeliveryOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.signingClock = options.signingClock ?? (() => new Date());
    this.settings = {
      batchSize: options.batchSize ?? 100,
      backoffMs: options.backoffMs ?? defaultWebhookBackoffMs,
      retryForMs: options.retryForMs ?? 24 * 3600_000,
      timeoutMs: options.timeoutMs ?? 15_000,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      pollMs: options.pollMs ?? 1000,
    };
    const lookup = guardedLookup(options.policy) as unknown as net.LookupFunction;
    const agentOptions = { keepAlive: true, maxSockets: 50, lookup };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  }

  /** Delivers until `stop()`: batch after batch while messages are due, then a pause. */
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

  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    await this.loop;
    this.loop = undefined;
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (error) {
        this.options.log?.error({ err: error }, 'webhook delivery: a batch failed');
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

  /** Claims one batch, sends it, records the outcomes; answers how many messages it claimed. */
  async runOnce(): Promise<number> {
    const { db, dialect } = this.options;
    const now = this.clock();
    const leaseUntil = formatDate(new Date(now.getTime() + this.settings.leaseMs));
    const rows = await claimMessages(db, dialect, {
      now: formatDate(now),
      leaseUntil,
      limit: this.settings.batchSize,
      owner: this.owner,
    });
    if (rows.length === 0) return 0;
    const subscriptionIds = [...new Set(rows.map((row) => row.subscription_id))];
    const subscriptions = new Map(
      (
        await db.selectFrom('webhook_subscriptions').selectAll().where('id', 'in', subscriptionIds).execute()
      ).map((row) => [row.id, row]),
    );
    const outcomes = await Promise.all(
      rows.map((row) => this.deliver(row, subscriptions.get(row.subscription_id))),
    );
    const after = this.clock();
    const { recorded, disabled } = await recordOutcomes(db, outcomes, {
      owner: this.owner,
      leaseUntil,
      now: formatDate(after),
      nowMs: after.getTime(),
      messageIdDomain: messageIdDomain(this.options.mailFrom ?? 'assay@localhost'),
    });
    if (recorded < outcomes.length) {
      this.options.log?.warn(
        { lost: outcomes.length - recorded },
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
    return rows.length;
  }

  private async deliver(row: MessageRow, found: SubscriptionRow | undefined): Promise<AttemptOutcome> {
    const base = { id: row.id, subscriptionId: row.subscription_id, attempt: row.attempts };
    const subscription = found;
    if (subscription?.enabled !== 1 || subscription === undefined) {
      return { ...base, kind: 'failed', httpStatus: null, error: 'subscription disabled', durationMs: 0 };
    }
    const started = performance.now();
    const answer = await this.send(row, subscription);
    const durationMs = performance.now() - started;
    if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
      return { ...base, kind: 'delivered', httpStatus: answer.status, error: null, durationMs };
    }
    const error = answer.error ?? null;
    const nowMs = this.clock().getTime();
    const endMs = Date.parse(row.created) + this.settings.retryForMs;
    if (nowMs >= endMs) return { ...base, kind: 'failed', httpStatus: answer.status, error, durationMs };
    const next = Math.min(nowMs + this.settings.backoffMs(row.attempts), endMs);
    return {
      ...base,
      kind: 'retry',
      httpStatus: answer.status,
      error,
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
      const finish = (answer: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
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
      let request: http.ClientRequest;
      try {
        request = makeRequest();
      } catch (error) {
        // A URL node refuses to request (it was checked at create): an attempt failed, not a crash.
        return finish({ status: null, error: messageOf(error) });
      }
      timer = setTimeout(() => {
        request.destroy(new Error(`no answer in ${this.settings.timeoutMs / 1000} s`));
      }, this.settings.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code && error.code !== 'EREFUSEDADDRESS' ? ` (${error.code})` : '';
        finish({ status: null, error: `${messageOf(error)}${code}` });
      });
      request.end(body);
    });
  }
}
