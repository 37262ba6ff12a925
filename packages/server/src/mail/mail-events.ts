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
