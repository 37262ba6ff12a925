import type { Generated, Kysely } from 'kysely';
import type { AuditLogTable, AuditPruneTable } from '../audit/audit.table.js';
import type {
  ApiKeyTable,
  OAuthClientTable,
  OAuthCodeTable,
  OAuthRevokedTokenTable,
  SigningKeyTable,
  UserTable,
} from '../auth/auth.table.js';
import type {
  CampaignMemberTable,
  CampaignShareTable,
  CampaignTable,
  RetiredTokenTable,
} from '../campaigns/campaigns.table.js';
import type { ConsoleSessionTable, ConsoleSignInLinkTable } from '../console/console.table.js';
import type { ConsoleDraftTable } from '../console/drafts.table.js';
import type { ConsoleUploadTable } from '../console/uploads.table.js';
import type { GroupTable } from '../groups/groups.table.js';
import type { MailOutboxTable } from '../mail/mail.table.js';
import type { MemberTable } from '../members/members.table.js';
import type { ReportSourceTable, ReportTable, ReportVerbatimReasonTable } from '../reports/reports.table.js';
import type { CampaignRetentionTable } from '../retention/retention.table.js';
import type {
  WebhookAttemptTable,
  WebhookOutboxTable,
  WebhookSubscriptionTable,
} from '../webhooks/webhooks.table.js';

/** Every table of the schema, as Kysely sees it. */
export interface Database {
  users: UserTable;
  oauth_clients: OAuthClientTable;
  oauth_codes: OAuthCodeTable;
  oauth_revoked_tokens: OAuthRevokedTokenTable;
  api_keys: ApiKeyTable;
  signing_keys: SigningKeyTable;
  groups: GroupTable;
  members: MemberTable;
  campaigns: CampaignTable;
  campaign_shares: CampaignShareTable;
  campaign_members: CampaignMemberTable;
  mail_outbox: MailOutboxTable;
  reports: ReportTable;
  report_sources: ReportSourceTable;
  report_verbatim_reasons: ReportVerbatimReasonTable;
  retired_tokens: RetiredTokenTable;
  instance_facts: InstanceFactTable;
  guess_failures: GuessFailureTable;
  console_sessions: ConsoleSessionTable;
  console_sign_in_links: ConsoleSignInLinkTable;
  console_drafts: ConsoleDraftTable;
  console_uploads: ConsoleUploadTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_attempts: WebhookAttemptTable;
  audit_log: AuditLogTable;
  /** SQLite only: the cutoff the retention declares while it prunes the audit log. */
  audit_prune: AuditPruneTable;
  campaign_retention: CampaignRetentionTable;
}

/** An attempt counted by a guessing limit (auth/rate-limit.ts), on PostgreSQL only. */
export interface GuessFailureTable {
  id: Generated<number>;
  /** Which limit: `credentials`, `sign-in`, `signup`, `raters`. */
  kind: string;
  /** Whom it limits: the caller's address. */
  key: string;
  /** When, in milliseconds since the epoch. */
  at: number;
}

/** Facts about the instance itself (`initial_client`: when the first start's client was made). */
export interface InstanceFactTable {
  key: string;
  value: string;
}

export type Dialect = 'sqlite' | 'postgres';

/**
 * Lets a process cache rows safely: `stamp()` answers a value that changes whenever another process,
 * or this one, may have changed cached data, and undefined whenever it cannot tell (then nothing
 * cached may be used).
 */
export interface Freshness {
  stamp(): string | undefined;
  close(): void | Promise<void>;
}

/** An open database: the query builder, which engine is behind it, and how to close it. */
export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  readonly freshness: Freshness;
  /** Where to report what the connection survives (a lost PostgreSQL connection); the app attaches its logger. */
  attachLog(log: { warn(obj: object, msg?: string): void }): void;
  /** Only when opened as one transaction: makes everything done through it visible at once. */
  readonly commit?: () => Promise<void>;
  close(): Promise<void>;
}

/**
 * What a log line says of a database that went away: its message and code, never a stack (an
 * outage is expected, and a stack per failed statement floods the log).
 */
export function outageDetails(error: unknown): { message: unknown; code: unknown } {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  return { message, code };
}

/**
 * True when a statement failed because the database could not be reached or went away (a restart, a
 * terminated backend, a refused connection, SQLite still locked by another process after the busy
 * timeout): nothing about the request was wrong, and the same request may succeed in a moment.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // PostgreSQL: class 08 (connection exception), 57P01-57P03 (shut down, crash, cannot connect now).
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code))
      return true;
    if (code.startsWith('SQLITE_BUSY')) return true;
  }
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/.test(
      message,
    )
  );
}

/** A trivial read, for the health check: throws when the database does not answer. */
export async function ping(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('users').select('id').limit(1).execute();
}

/**
 * A row that points at a row another request has just deleted (or the reverse): the request lost
 * a race on PostgreSQL, where the checks before a write cannot lock what they read.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** `work`, or `answer` thrown when it fails at a foreign key: it lost a race with a delete. */
export async function orWhenRaced<T>(work: Promise<T>, answer: Error): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw isForeignKeyViolation(error) ? answer : error;
  }
}

/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
