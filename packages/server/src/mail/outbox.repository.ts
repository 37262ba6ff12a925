import { type ExpressionBuilder, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { randomId } from '../util/ids.js';
import type { MailOutboxTable, NewOutboxRow, OutboxRow, OutboxStatus } from './mail.table.js';
import { type OutboxParams, PLATFORM_STAGES } from './mail.types.js';

/** A mail to put in the outbox. */
export interface QueuedMail<P extends OutboxParams = OutboxParams> {
  /** `<campaign member or recipient>:<stage>:<sequence>`: a second mail with the same key is dropped. */
  dedupeKey: string;
  campaignId: string | null;
  memberId: string | null;
  stage: P['stage'];
  sequence: number;
  recipient: string;
  params: P;
}

// 15 columns a row: 500 rows stay far below SQLite's 32,766 and PostgreSQL's 65,535 parameters.
const INSERT_CHUNK = 500;

/**
 * Puts mails in the outbox, due now; a mail whose dedupe key is already there is skipped. Answers
 * the ids of the rows inserted. Give it the caller's transaction, so the mails exist exactly when
 * the change that causes them does.
 */
export async function queueMails(
  db: Kysely<Database> | Transaction<Database>,
  mails: readonly QueuedMail[],
  options: { now: string; messageIdDomain: string },
): Promise<string[]> {
  const seen = new Set<string>();
  const rows: NewOutboxRow[] = [];
  for (const mail of mails) {
    if (seen.has(mail.dedupeKey)) continue;
    seen.add(mail.dedupeKey);
    const id = randomId();
    rows.push({
      id,
      dedupe_key: mail.dedupeKey,
      campaign_id: mail.campaignId,
      member_id: mail.memberId,
      stage: mail.stage,
      sequence: mail.sequence,
      recipient: mail.recipient,
      language: mail.params.language,
      template: mail.params.template,
      params: mailParamsText(mail.params),
      message_id: `<${id}@${options.messageIdDomain}>`,
      status: 'queued',
      attempts: 0,
      next_attempt_at: options.now,
      created: options.now,
    });
  }
  const inserted: string[] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const result = await db
      .insertInto('mail_outbox')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
      .returning('id')
      .execute();
    for (const row of result) inserted.push(row.id);
  }
  return inserted;
}

/**
 * Takes up to `limit` due mails for this worker: ones a worker took and then lost (its lease ran
 * out), then queued ones whose time has come, oldest first. Each becomes `sending` until
 * `leaseUntil`, one attempt more. On PostgreSQL, rows another process is claiming at the same moment
 * are skipped, never shared; SQLite has one writer.
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: Dialect,
  options: { now: string; leaseUntil: string; limit: number; owner?: string },
): Promise<OutboxRow[]> {
  // Two statements rather than one with OR: each walks the (status, next_attempt_at) index and stops
  // at `limit` rows, where the OR made both engines gather and sort every due row for each batch.
  const lost = await claim(db, dialect, options, 'lost', options.limit);
  if (lost.length >= options.limit) return lost;
  return [...lost, ...(await claim(db, dialect, options, 'due', options.limit - lost.length))];
}

async function claim(
  db: Kysely<Database>,
  dialect: Dialect,
  options: { now: string; leaseUntil: string; owner?: string },
  which: 'lost' | 'due',
  limit: number,
): Promise<OutboxRow[]> {
  let rows =
    which === 'lost'
      ? db
          .selectFrom('mail_outbox')
          .select('id')
          .where('status', '=', 'sending')
          .where('lease_until', '<', options.now)
          .orderBy('lease_until')
      : db
          .selectFrom('mail_outbox')
          .select('id')
          .where('status', '=', 'queued')
          .where('next_attempt_at', '<=', options.now)
          .orderBy('next_attempt_at');
  rows = rows.limit(limit);
  if (dialect === 'postgres') rows = rows.forUpdate().skipLocked();
  return db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: 'sending',
      lease_until: options.leaseUntil,
      lease_owner: options.owner ?? null,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', rows)
    .returningAll()
    .execute();
}

/**
 * The mails `owner` holds under a lease but does not know of: it claimed them, and the database's
 * answer was lost with the connection. Nobody else may take them before the lease runs out, so the
 * owner takes them back at once, under a new lease, leaving out the ones it still has in hand
 * (`holding`). Their attempt was counted when they were claimed.
 */
export async function reclaimOwn(
  db: Kysely<Database>,
  options: { owner: string; leaseUntil: string; holding: readonly string[]; limit: number },
): Promise<OutboxRow[]> {
  let mine = db
    .selectFrom('mail_outbox')
    .select('id')
    .where('status', '=', 'sending')
    .where('lease_owner', '=', options.owner)
    .limit(options.limit);
  if (options.holding.length > 0) mine = mine.where('id', 'not in', options.holding);
  return db
    .updateTable('mail_outbox')
    .set({ lease_until: options.leaseUntil })
    .where('id', 'in', mine)
    .where('lease_owner', '=', options.owner)
    .returningAll()
    .execute();
}

/** What became of one claimed mail: the server's answer, and for a retry when to try again. */
export interface Settled {
  id: string;
  response: string;
  nextAttemptAt?: string;
}

/**
 * The rows as a table `v(id, response, next_at)` from one JSON parameter: the statement's text is
 * the same however many rows a batch holds, so it is prepared once and never nears a parameter limit.
 */
function settledRows(dialect: Dialect, rows: readonly Settled[]) {
  const json = JSON.stringify(rows.map((row) => [row.id, row.response, row.nextAttemptAt ?? null]));
  const source: RawBuilder<unknown> =
    dialect === 'postgres' ? sql`json_array_elements(${json}::json)` : sql`json_each(${json})`;
  return sql<{
    id: string;
    response: string;
    next_at: string | null;
  }>`(select value->>0 as id, value->>1 as response, value->>2 as next_at from ${source})`.as('v');
}

/**
 * A column SQLite must not look up by index here: it would walk every `sending` row through the status
 * index and scan the JSON rows for each (30 times slower at 200 rows in flight), where a unary plus
 * leaves it one primary-key lookup per JSON row.
 */
function unindexed(dialect: Dialect, column: 'mail_outbox.status' | 'mail_outbox.lease_until') {
  return dialect === 'sqlite' ? sql<string>`+${sql.ref(column)}` : sql.ref<string>(column);
}

type OutboxSet = { [K in keyof MailOutboxTable]?: MailOutboxTable[K] | RawBuilder<MailOutboxTable[K]> };

/**
 * Records the outcome of claimed mails, all in one statement. Only rows still `sending` under this
 * worker's lease change: a lease is later than any before it on the same row, so a row another worker
 * took over once this lease ran out is left to that worker. Answers the number of rows changed.
 */
async function settle(
  db: Kysely<Database>,
  dialect: Dialect,
  leaseUntil: string,
  rows: readonly Settled[],
  set: (v: { response: RawBuilder<string>; nextAt: RawBuilder<string> }) => OutboxSet,
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .updateTable('mail_outbox')
    .from(settledRows(dialect, rows))
    .set(set({ response: sql<string>`v.response`, nextAt: sql<string>`v.next_at` }))
    .whereRef('mail_outbox.id', '=', 'v.id')
    .where(unindexed(dialect, 'mail_outbox.status'), '=', 'sending')
    .where(unindexed(dialect, 'mail_outbox.lease_until'), '=', leaseUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Delivered: the server accepted the mails (its answers, one a mail). */
export function markSent(
  db: Kysely<Database>,
  dialect: Dialect,
  rows: readonly Settled[],
  options: { leaseUntil: string; now: string },
): Promise<number> {
  return settle(db, dialect, options.leaseUntil, rows, ({ response }) => ({
    status: 'sent',
    sent_at: options.now,
    last_response: response,
    lease_until: null,
    lease_owner: null,
  }));
}

/** Not delivered this time: queued again for each row's `nextAttemptAt`. */
export function markRetry(
  db: Kysely<Database>,
  dialect: Dialect,
  rows: readonly (Settled & { nextAttemptAt: string })[],
  options: { leaseUntil: string },
): Promise<number> {
  return settle(db, dialect, options.leaseUntil, rows, ({ response, nextAt }) => ({
    status: 'queued',
    next_attempt_at: nextAt,
    last_response: response,
    lease_until: null,
    lease_owner: null,
  }));
}

/** Given up: refused for good, out of attempts, or not renderable. */
export function markFailed(
  db: Kysely<Database>,
  dialect: Dialect,
  rows: readonly Settled[],
  options: { leaseUntil: string },
): Promise<number> {
  return settle(db, dialect, options.leaseUntil, rows, ({ response }) => ({
    status: 'failed',
    last_response: response,
    lease_until: null,
    lease_owner: null,
  }));
}

/** Kept in the outbox, not sent: the instance has no SMTP server. */
export function markCaptured(
  db: Kysely<Database>,
  dialect: Dialect,
  ids: readonly string[],
  options: { leaseUntil: string },
): Promise<number> {
  const rows = ids.map((id) => ({ id, response: 'captured: no SMTP_URL set' }));
  return settle(db, dialect, options.leaseUntil, rows, ({ response }) => ({
    status: 'captured',
    last_response: response,
    lease_until: null,
    lease_owner: null,
  }));
}

/**
 * The mails a listing, a count or a bulk retry covers: one campaign's or all, and the platform's
 * own (an invitation to become a user, whose link sets a password) unless `platform` is false,
 * as it is for anyone but an admin in the console.
 */
export interface OutboxScope {
  campaignId?: string;
  platform?: boolean;
}

function inScope(eb: ExpressionBuilder<Database, 'mail_outbox'>, scope: OutboxScope) {
  const conditions = [];
  if (scope.campaignId !== undefined) conditions.push(eb('campaign_id', '=', scope.campaignId));
  if (scope.platform === false) conditions.push(eb('stage', 'not in', [...PLATFORM_STAGES]));
  return eb.and(conditions);
}

export interface OutboxFilter extends OutboxScope {
  status?: OutboxStatus;
  limit: number;
  /** Only mails older than this one (newest first: the next page). */
  before?: { created: string; id: string };
}

/** The newest mails first. */
export async function listOutbox(db: Kysely<Database>, filter: OutboxFilter): Promise<OutboxRow[]> {
  let query = db
    .selectFrom('mail_outbox')
    .selectAll()
    .where((eb) => inScope(eb, filter));
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const before = filter.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('created', '<', before.created),
        eb.and([eb('created', '=', before.created), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('created', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** One mail, when it is in the scope (any mail by default). */
export async function findOutboxMail(
  db: Kysely<Database>,
  id: string,
  scope: OutboxScope = {},
): Promise<OutboxRow | undefined> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => inScope(eb, scope))
    .executeTakeFirst();
}

const RETRYABLE: OutboxStatus[] = ['failed', 'captured'];

/**
 * A failed or captured mail in the scope queued again, due now, with its attempts counted afresh;
 * false otherwise.
 */
export async function retryOutboxMail(
  db: Kysely<Database>,
  id: string,
  now: string,
  scope: OutboxScope = {},
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ status: 'queued', attempts: 0, next_attempt_at: now, lease_until: null, lease_owner: null })
    .where('id', '=', id)
    .where('status', 'in', RETRYABLE)
    .where((eb) => inScope(eb, scope))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Every mail in a status (failed, captured) queued again, due now; answers their ids (the audit
 * log records one entry a mail).
 */
export async function requeueAll(
  db: Kysely<Database>,
  status: 'failed' | 'captured',
  now: string,
  scope: OutboxScope = {},
): Promise<string[]> {
  const rows = await db
    .updateTable('mail_outbox')
    .set({ status: 'queued', attempts: 0, next_attempt_at: now, lease_until: null, lease_owner: null })
    .where('status', '=', status)
    .where((eb) => inScope(eb, scope))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** How many mails there are in each status (of one campaign, when given). */
export async function countOutbox(
  db: Kysely<Database>,
  scope: OutboxScope = {},
): Promise<Record<OutboxStatus, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
    .where((eb) => inScope(eb, scope))
    .groupBy('status')
    .execute();
  const counts: Record<OutboxStatus, number> = { queued: 0, sending: 0, sent: 0, failed: 0, captured: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/**
 * The `params` column's codec: what the mail is rendered from, written by `queueMails` as JSON.
 * Throws on text that is not JSON: the callers answer that mail as not renderable.
 */
export const parseMailParams = (text: string): OutboxParams => JSON.parse(text) as OutboxParams;
export const mailParamsText = (params: OutboxParams): string => JSON.stringify(params);

/** How many failed mails each campaign has (only campaigns with any). */
export async function failedMailsPerCampaign(db: Kysely<Database>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select((eb) => ['campaign_id', eb.fn.countAll<number>().as('count')])
    .where('status', '=', 'failed')
    .where('campaign_id', 'is not', null)
    .groupBy('campaign_id')
    .execute();
  return new Map(rows.map((row) => [row.campaign_id as string, Number(row.count)]));
}

/** What a mail's delivery ends in: nothing more happens to it unless someone retries it. */
const SETTLED_MAIL: readonly OutboxStatus[] = ['sent', 'failed', 'captured'];

/**
 * Deletes up to `limit` mails whose delivery ended (sent, failed or captured) and that were queued
 * before `cutoff`, the oldest first; answers how many went. A queued or sending mail is never
 * touched, however old. Run it in the transaction that records the removal.
 */
export async function pruneSettledMails(
  db: Kysely<Database> | Transaction<Database>,
  cutoff: string,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('mail_outbox')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', 'in', SETTLED_MAIL)
        .where('created', '<', cutoff)
        .orderBy('created')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
