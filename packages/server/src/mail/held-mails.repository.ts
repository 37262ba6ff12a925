import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { FailedMail } from './mail-events.js';

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
