import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';

/** What happened to a campaign, as the tables keep it: the raw facts of its activity timeline. */
export interface ActivityFacts {
  readonly created: string;
  /** The creating user's name, or undefined when no user is known (the API with a client, or gone). */
  readonly creator?: { readonly firstname: string; readonly lastname: string; readonly email: string };
  readonly closedNotified: string | null;
  readonly endAt: string | null;
  /** Members added, per UTC day: the first moment of the day and how many. */
  readonly added: readonly { at: string; count: number }[];
  /** Mails queued, per stage and UTC day. */
  readonly queued: readonly { at: string; stage: string; count: number }[];
}

// Stored moments are ISO 8601 text (varchar(32)): their first ten characters are the UTC day.
const day = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** The facts of a campaign's timeline, the newest `limit` groups of each kind; undefined when it is gone. */
export async function activityFacts(
  db: Kysely<Database>,
  campaignId: string,
  limit: number,
): Promise<ActivityFacts | undefined> {
  const campaign = await db
    .selectFrom('campaigns')
    .leftJoin('users', 'users.id', 'campaigns.creator')
    .select([
      'campaigns.created',
      'campaigns.closed_notified',
      'campaigns.end_at',
      'users.firstname',
      'users.lastname',
      'users.email',
    ])
    .where('campaigns.id', '=', campaignId)
    .executeTakeFirst();
  if (!campaign) return undefined;
  const [added, queued] = await Promise.all([
    db
      .selectFrom('campaign_members')
      .select([sql<string>`min(created)`.as('at'), sql<string | number>`count(*)`.as('count')])
      .where('campaign_id', '=', campaignId)
      .groupBy(day('created'))
      .orderBy(sql`min(created)`, 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('mail_outbox')
      .select(['stage', sql<string>`min(created)`.as('at'), sql<string | number>`count(*)`.as('count')])
      .where('campaign_id', '=', campaignId)
      .groupBy(['stage', day('created')])
      .orderBy(sql`min(created)`, 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    created: campaign.created,
    ...(campaign.email != null
      ? {
          creator: {
            firstname: campaign.firstname ?? '',
            lastname: campaign.lastname ?? '',
            email: campaign.email,
          },
        }
      : {}),
    closedNotified: campaign.closed_notified,
    endAt: campaign.end_at,
    added: added.map((row) => ({ at: row.at, count: Number(row.count) })),
    queued: queued.map((row) => ({ at: row.at, stage: row.stage, count: Number(row.count) })),
  };
}
