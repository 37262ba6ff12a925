import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { queueEvents } from '../webhooks/events.js';

/** A mail about to be recorded as failed: what its `mail.failed` event tells (never the address). */
export interface FailedMail {
  id: string;
  stage: string;
  campaign_id: string | null;
  member_id: string | null;
}

/** Of the mails given, those still `sending` under this lease: the ones the worker's record will change. */
export async function heldMails(
  trx: Transaction<Database>,
  mails: readonly { id: string }[],
  leaseUntil: string,
): Promise<FailedMail[]> {
  const rows: FailedMail[] = [];
  for (let start = 0; start < mails.length; start += 500) {
    rows.push(
      ...(await trx
        .selectFrom('mail_outbox')
        .select(['id', 'stage', 'campaign_id', 'member_id'])
        .where(
          'id',
          'in',
          mails.slice(start, start + 500).map((mail) => mail.id),
        )
        .where('status', '=', 'sending')
        .where('lease_until', '=', leaseUntil)
        .execute()),
    );
  }
  return rows;
}

/** `mail.failed` for each mail, in the transaction that records the failure. */
export async function queueMailFailed(trx: Transaction<Database>, mails: readonly FailedMail[], now: string) {
  await queueEvents(
    trx,
    'mail.failed',
    mails.map((mail) => ({
      mailid: mail.id,
      stage: mail.stage,
      campaignid: mail.campaign_id,
      memberid: mail.member_id,
    })),
    { now, orderKey: (data) => (data.memberid as string | null) ?? null },
  );
}
