import type { Kysely } from 'kysely';
import { cliActor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import {
  isOutboxStatus,
  listMails,
  OUTBOX_STATUSES,
  type OutboxMail,
  retryFailed,
  retryMail,
  sendCaptured,
  showMail,
} from '../mail/outbox.service.js';
import { nowText } from '../util/dates.js';
import type { VariantRegistry } from '../variants/variant.types.js';

/** `assay mail ...`: each answers what the CLI prints. */

export async function mailList(
  db: Kysely<Database>,
  options: { campaign?: string; status?: string; limit?: string },
): Promise<OutboxMail[]> {
  const { status, limit } = options;
  if (status !== undefined && !isOutboxStatus(status)) {
    throw new BusinessError(`status: must be one of ${OUTBOX_STATUSES.join(', ')}, got "${status}"`);
  }
  if (limit !== undefined && !/^[1-9]\d{0,6}$/.test(limit)) {
    throw new BusinessError(`limit: must be a whole number from 1 to 9999999, got "${limit}"`);
  }
  return listMails(db, {
    campaignId: options.campaign,
    status,
    limit: limit === undefined ? undefined : Number(limit),
  });
}

/** One line a mail: id, status, stage, recipient, created, attempts. */
export function mailListLines(mails: readonly OutboxMail[]): string[] {
  if (mails.length === 0) return ['no mails'];
  return mails.map(
    (mail) =>
      `${mail.id}  ${mail.status.padEnd(8)}  ${mail.stage}  ${mail.recipient}  ${mail.created}  attempts ${mail.attempts}`,
  );
}

/** The headers of one mail, its state, then its text part. */
export async function mailShow(
  db: Kysely<Database>,
  id: string,
  options: { variants: VariantRegistry; mailFrom: string },
): Promise<string[]> {
  const { mail, from, rendered } = await showMail(db, id, options);
  const lines = [
    `Message-ID: ${mail.messageid}`,
    `From: ${from}`,
    `To: ${mail.recipient}`,
    `Subject: ${'error' in rendered ? '(not rendered)' : rendered.subject}`,
    `Created: ${mail.created}`,
  ];
  if (mail.sent) lines.push(`Sent: ${mail.sent}`);
  lines.push(`Status: ${mail.status} (attempts: ${mail.attempts})`);
  if (mail.nextattempt) lines.push(`Next attempt: ${mail.nextattempt}`);
  lines.push(`Last response: ${mail.lastresponse ?? '-'}`);
  lines.push(`Stage: ${mail.stage}  Template: ${mail.template}  Language: ${mail.language}`);
  if (mail.campaignid) lines.push(`Campaign: ${mail.campaignid}`);
  lines.push('');
  if ('error' in rendered) lines.push(`This mail cannot be rendered: ${rendered.error}`);
  else lines.push(...rendered.text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'));
  return lines;
}

/** `mail retry ID`: that mail queued again. */
export async function mailRetry(db: Kysely<Database>, id: string, clock?: () => Date): Promise<string> {
  await retryMail(db, id, nowText(clock), cliActor());
  return `mail ${id} queued again`;
}

/** `mail retry --captured`: every captured mail queued for delivery, once SMTP_URL is set. */
export async function mailRetryCaptured(
  db: Kysely<Database>,
  smtpConfigured: boolean,
  clock?: () => Date,
): Promise<string> {
  const count = await sendCaptured(db, nowText(clock), { smtpConfigured }, cliActor());
  return `${count} captured mail${count === 1 ? '' : 's'} queued for delivery`;
}

/** `mail retry --failed`: every failed mail queued again. */
export async function mailRetryFailed(db: Kysely<Database>, clock?: () => Date): Promise<string> {
  const count = await retryFailed(db, nowText(clock), cliActor());
  return `${count} failed mail${count === 1 ? '' : 's'} queued again`;
}
