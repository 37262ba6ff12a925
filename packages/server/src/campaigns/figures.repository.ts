import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** When each member who sent the questionnaire started and sent it (both known). */
export async function completionMoments(
  db: Kysely<Database>,
  campaignId: string,
): Promise<{ datestarted: string; datecompleted: string }[]> {
  const rows = await db
    .selectFrom('campaign_members')
    .select(['datestarted', 'datecompleted'])
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'completed')
    .where('datestarted', 'is not', null)
    .where('datecompleted', 'is not', null)
    .execute();
  return rows as { datestarted: string; datecompleted: string }[];
}

/** The answers saved so far by each member who started and has not sent (JSON text, as stored). */
export async function unfinishedAnswers(db: Kysely<Database>, campaignId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('campaign_members')
    .select('answers')
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'started')
    .execute();
  return rows.map((row) => row.answers);
}
