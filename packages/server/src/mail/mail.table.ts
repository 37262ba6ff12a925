import type { Insertable, Selectable, Updateable } from 'kysely';

export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'captured';

/** One mail: written in the transaction of the change that causes it, then delivered by a worker. */
export interface MailOutboxTable {
  id: string;
  /** `<campaign member or recipient>:<stage>:<sequence>`: unique, so no path queues a second copy. */
  dedupe_key: string;
  campaign_id: string | null;
  member_id: string | null;
  stage: string;
  sequence: number;
  recipient: string;
  language: string;
  /** The template id the mail is rendered with. */
  template: string;
  /** JSON of MailParams: what the template is rendered with. */
  params: string;
  /** Stable across retries: `<id>@<host of the sender>`. */
  message_id: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  /** The delivery worker that holds the lease (its random id), while the mail is `sending`. */
  lease_owner: string | null;
  /** The SMTP server's last answer (or the error). */
  last_response: string | null;
  created: string;
  sent_at: string | null;
}
export type OutboxRow = Selectable<MailOutboxTable>;
export type NewOutboxRow = Insertable<MailOutboxTable>;
export type OutboxUpdate = Updateable<MailOutboxTable>;
