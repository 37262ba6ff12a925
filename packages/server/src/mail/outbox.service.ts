import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange, recordChanges } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import type { VariantRegistry } from '../variants/variant.types.js';
import type { OutboxRow, OutboxStatus } from './mail.table.js';
import type { RenderedMail } from './mail.types.js';
import {
  countOutbox,
  failedMailsPerCampaign,
  findOutboxMail,
  listOutbox,
  type OutboxScope,
  parseMailParams,
  requeueAll,
  retryOutboxMail,
} from './outbox.repository.js';
import { renderMail } from './render.js';

export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['queued', 'sending', 'sent', 'failed', 'captured'];

/** A mail of the outbox as an operator sees it. */
export interface OutboxMail {
  id: string;
  status: OutboxStatus;
  stage: string;
  recipient: string;
  created: string;
  attempts: number;
  campaignid: string | null;
  memberid: string | null;
  messageid: string;
  language: string;
  template: string;
  nextattempt: string | null;
  sent: string | null;
  lastresponse: string | null;
}

function toOutboxMail(row: OutboxRow): OutboxMail {
  return {
    id: row.id,
    status: row.status,
    stage: row.stage,
    recipient: row.recipient,
    created: row.created,
    attempts: row.attempts,
    campaignid: row.campaign_id,
    memberid: row.member_id,
    messageid: row.message_id,
    language: row.language,
    template: row.template,
    nextattempt: row.status === 'queued' ? row.next_attempt_at : null,
    sent: row.sent_at,
    lastresponse: row.last_response,
  };
}

/** `MAIL_FROM` taken apart: its display name ('' when it is a bare address) and its address. */
export function mailFromParts(mailFrom: string): { name: string; address: string } {
  const match = /^\s*"?([^"<>]*?)"?\s*<([^<>]+)>\s*$/.exec(mailFrom);
  return match ? { name: match[1] ?? '', address: match[2] ?? '' } : { name: '', address: mailFrom.trim() };
}

/**
 * The From of a mail: always `MAIL_FROM`'s address (the one the instance may send from), under the
 * sender name the mail was queued with, that is the campaign owner's agency name when the user has
 * one (docs/campaigns.md, "Mail"), else `MAIL_FROM` as it is.
 */
export function fromHeader(
  mailFrom: string,
  sender: string | undefined,
): string | { name: string; address: string } {
  const { name, address } = mailFromParts(mailFrom);
  const wanted = (sender ?? '').replace(/\s+/g, ' ').trim();
  if (wanted === '' || wanted === name || wanted === address) return mailFrom;
  return { name: wanted, address };
}

/** The domain of the sender's address (`Name <a@b>` or `a@b`): the right side of every Message-ID. */
export function messageIdDomain(mailFrom: string): string {
  const { address } = mailFromParts(mailFrom);
  const at = address.lastIndexOf('@');
  return at === -1 ? 'localhost' : address.slice(at + 1);
}

export function isOutboxStatus(value: string): value is OutboxStatus {
  return (OUTBOX_STATUSES as readonly string[]).includes(value);
}

/** The newest mails first, of one campaign and in one status when asked. */
export async function listMails(
  db: Kysely<Database>,
  filter: OutboxScope & {
    status?: OutboxStatus;
    limit?: number;
    before?: { created: string; id: string };
  } = {},
): Promise<OutboxMail[]> {
  const rows = await listOutbox(db, { ...filter, limit: filter.limit ?? 100 });
  return rows.map(toOutboxMail);
}

/**
 * No such mail for the caller: it does not exist, or it is outside the caller's scope (the same
 * refusal, which tells nothing of mails one may not see). A business refusal for the command line.
 */
export class UnknownMail extends BusinessError {
  override name = 'UnknownMail';
  constructor(id: string) {
    super(`mail: no mail ${id}`);
  }
}

/**
 * One mail of the scope (any by default) with its text, rendered as it is (or would be) delivered;
 * a mail that cannot be rendered says why.
 */
export async function showMail(
  db: Kysely<Database>,
  id: string,
  options: { variants: VariantRegistry; mailFrom: string },
  scope: OutboxScope = {},
): Promise<{ mail: OutboxMail; from: string; rendered: RenderedMail | { error: string } }> {
  const row = await findOutboxMail(db, id, scope);
  if (!row) throw new UnknownMail(id);
  let rendered: RenderedMail | { error: string };
  try {
    rendered = renderMail(options.variants, parseMailParams(row.params));
  } catch (error) {
    rendered = { error: error instanceof Error ? error.message : String(error) };
  }
  return { mail: toOutboxMail(row), from: options.mailFrom, rendered };
}

/**
 * A failed or captured mail queued again, due now. A mail outside the scope (any by default) is
 * refused as unknown, and left as it is.
 */
export async function retryMail(
  db: Kysely<Database>,
  id: string,
  now: string,
  actor: Actor,
  scope: OutboxScope = {},
): Promise<void> {
  const retried = await db.transaction().execute(async (trx) => {
    if (!(await retryOutboxMail(trx, id, now, scope))) return false;
    await recordChange(trx, actor, { resource: 'mail', id, action: 'retry' });
    return true;
  });
  if (retried) return;
  const row = await findOutboxMail(db, id, scope);
  if (!row) throw new UnknownMail(id);
  throw new BusinessError(`mail: ${id} is ${row.status}; only a failed or captured mail can be retried`);
}

/** Every mail in a status (of one campaign, when given) queued again, one entry a mail; answers how many. */
async function requeueRecorded(
  db: Kysely<Database>,
  status: 'failed' | 'captured',
  now: string,
  actor: Actor,
  scope: OutboxScope,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = await requeueAll(trx, status, now, scope);
    await recordChanges(
      trx,
      actor,
      ids.map((id) => ({ resource: 'mail', id, action: 'retry' })),
    );
    return ids.length;
  });
}

/** Every failed mail in the scope (all, by default) queued again; answers how many. */
export async function retryFailed(
  db: Kysely<Database>,
  now: string,
  actor: Actor,
  scope: OutboxScope = {},
): Promise<number> {
  return requeueRecorded(db, 'failed', now, actor, scope);
}

/**
 * Every captured mail (kept while SMTP_URL was not set) queued for delivery, of one campaign or all;
 * answers how many. Refused while SMTP_URL is still not set: they would only be captured again.
 */
export async function sendCaptured(
  db: Kysely<Database>,
  now: string,
  options: OutboxScope & { smtpConfigured: boolean },
  actor: Actor,
): Promise<number> {
  if (!options.smtpConfigured) {
    throw new BusinessError('mail: SMTP_URL is not set, so captured mail would only be captured again');
  }
  return requeueRecorded(db, 'captured', now, actor, options);
}

/** How many mails there are in each status, in the scope (all, by default). */
export async function mailCounts(
  db: Kysely<Database>,
  scope: OutboxScope = {},
): Promise<Record<OutboxStatus, number>> {
  return countOutbox(db, scope);
}

/** The campaigns with failed mails, and how many each (the console's dashboard calls them out). */
export async function failedPerCampaign(db: Kysely<Database>): Promise<Map<string, number>> {
  return failedMailsPerCampaign(db);
}
