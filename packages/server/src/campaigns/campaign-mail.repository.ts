import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { CampaignMemberRow } from './campaigns.table.js';

// The campaign members' side of invitations and reminders: who is eligible, and the conditional
// updates that make each mail happen once.

/** The fields a mail to a campaign member is made from. */
export type MailableMember = Pick<
  CampaignMemberRow,
  | 'id'
  | 'member_id'
  | 'token'
  | 'title'
  | 'firstname'
  | 'lastname'
  | 'email'
  | 'extra'
  | 'mailconfig'
  | 'countreminded'
>;
const MAILABLE = [
  'id',
  'member_id',
  'token',
  'title',
  'firstname',
  'lastname',
  'email',
  'extra',
  'mailconfig',
  'countreminded',
] as const;

/** Who would be invited now: members still `new`, optionally only some. */
export async function invitable(
  db: Kysely<Database>,
  campaignId: string,
  memberIds?: string[],
): Promise<MailableMember[]> {
  return selectMailable(db, campaignId, memberIds, (query) => query.where('status', '=', 'new'));
}

/** Who would be reminded now: members invited or started below `repeat` reminders. */
export async function remindable(
  db: Kysely<Database>,
  campaignId: string,
  repeat: number | null,
  memberIds?: string[],
): Promise<(MailableMember & { dateinvited: string | null; datereminded: string | null })[]> {
  return (await selectMailable(db, campaignId, memberIds, (query) => {
    const filtered = query.where('status', 'in', ['invited', 'started']);
    return (repeat === null ? filtered : filtered.where('countreminded', '<', repeat)).select([
      'dateinvited',
      'datereminded',
    ]);
  })) as (MailableMember & { dateinvited: string | null; datereminded: string | null })[];
}

type MailableQuery = ReturnType<typeof mailableBase>;
const mailableBase = (db: Kysely<Database>, campaignId: string) =>
  db.selectFrom('campaign_members').select(MAILABLE).where('campaign_id', '=', campaignId);

export async function selectMailable(
  db: Kysely<Database>,
  campaignId: string,
  memberIds: string[] | undefined,
  narrow: (query: MailableQuery) => MailableQuery,
): Promise<MailableMember[]> {
  if (memberIds === undefined) return narrow(mailableBase(db, campaignId)).execute();
  const rows: MailableMember[] = [];
  for (let i = 0; i < memberIds.length; i += 500) {
    const chunk = memberIds.slice(i, i + 500);
    rows.push(...(await narrow(mailableBase(db, campaignId).where('member_id', 'in', chunk)).execute()));
  }
  return rows;
}

/**
 * Marks the campaign's `new` members (or those of `memberIds`) invited and answers them, in one
 * statement per 500 ids (one for all). Run inside the transaction that queues their invitations:
 * a concurrent invite waits for these row locks on PostgreSQL, then finds them invited and mails
 * nobody twice.
 */
export async function markInvited(
  trx: Transaction<Database>,
  campaignId: string,
  now: string,
  memberIds?: string[],
): Promise<MailableMember[]> {
  const update = () =>
    trx
      .updateTable('campaign_members')
      .set({ status: 'invited', dateinvited: now })
      .where('campaign_id', '=', campaignId)
      .where('status', '=', 'new')
      .returning(MAILABLE);
  if (memberIds === undefined) return update().execute();
  const rows: MailableMember[] = [];
  for (let i = 0; i < memberIds.length; i += 500) {
    rows.push(
      ...(await update()
        .where('member_id', 'in', memberIds.slice(i, i + 500))
        .execute()),
    );
  }
  return rows;
}

/**
 * Counts a reminder for members whose count is still what was read, so two concurrent reminds
 * cannot both count (and mail) the same reminder. Answers the campaign-member ids that changed.
 */
export async function markReminded(
  trx: Transaction<Database>,
  members: { id: string; countreminded: number }[],
  now: string,
): Promise<Set<string>> {
  const changed = new Set<string>();
  const byCount = new Map<number, string[]>();
  for (const member of members) {
    const ids = byCount.get(member.countreminded) ?? [];
    ids.push(member.id);
    byCount.set(member.countreminded, ids);
  }
  for (const [count, ids] of byCount) {
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await trx
        .updateTable('campaign_members')
        .set({ datereminded: now, countreminded: sql`countreminded + 1` })
        .where('id', 'in', ids.slice(i, i + 500))
        .where('countreminded', '=', count)
        .where('status', 'in', ['invited', 'started'])
        .returning('id')
        .execute();
      for (const row of rows) changed.add(row.id);
    }
  }
  return changed;
}

/** The campaign's admins as mail recipients (members; an admin deleted since is left out). */
export async function findAdminRecipients(db: Kysely<Database>, adminIds: readonly string[]) {
  if (adminIds.length === 0) return [];
  return db
    .selectFrom('members')
    .select(['id', 'title', 'firstname', 'lastname', 'email'])
    .where('id', 'in', adminIds)
    .execute();
}

/** Marks the campaign's closing notified, once: true for the one caller that marked it. */
export async function markClosedNotified(
  trx: Transaction<Database>,
  campaignId: string,
  now: string,
): Promise<boolean> {
  const marked = await trx
    .updateTable('campaigns')
    .set({ closed_notified: now })
    .where('id', '=', campaignId)
    .where('closed_notified', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1;
}
