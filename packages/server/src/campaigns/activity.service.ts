import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { activityFacts } from './activity.repository.js';

/** The most entries a campaign's timeline shows. */
export const ACTIVITY_LIMIT = 20;

/** One thing that happened to a campaign (or will: its end date). */
export type ActivityEntry =
  | { kind: 'created'; at: string; by?: string }
  | { kind: 'members-added'; at: string; count: number }
  | { kind: 'mails-queued'; at: string; stage: string; count: number }
  | { kind: 'closed'; at: string }
  | { kind: 'ends'; at: string; past: boolean };

const LIFE_ORDER: Readonly<Record<ActivityEntry['kind'], number>> = {
  created: 0,
  'members-added': 1,
  'mails-queued': 2,
  closed: 3,
  ends: 4,
};

/**
 * A campaign's activity, newest first, at most ACTIVITY_LIMIT entries, from what the tables already
 * keep: its creation and creator, members added per day, mails queued per stage and day (the outbox
 * does not say who asked for them), the closing notification and the end date. The caller has
 * checked access to the campaign (the campaign page reads it through `getCampaign` first).
 */
export async function campaignActivity(
  db: Kysely<Database>,
  campaignId: string,
  now: Date,
): Promise<ActivityEntry[]> {
  const facts = await activityFacts(db, campaignId, ACTIVITY_LIMIT);
  if (!facts) return [];
  const by = facts.creator
    ? [facts.creator.firstname, facts.creator.lastname].filter(Boolean).join(' ') || facts.creator.email
    : undefined;
  const entries: ActivityEntry[] = [
    by === undefined ? { kind: 'created', at: facts.created } : { kind: 'created', at: facts.created, by },
    ...facts.added.map((a) => ({ kind: 'members-added' as const, at: a.at, count: a.count })),
    ...facts.queued.map((q) => ({ kind: 'mails-queued' as const, at: q.at, stage: q.stage, count: q.count })),
  ];
  if (facts.closedNotified) entries.push({ kind: 'closed', at: facts.closedNotified });
  if (facts.endAt)
    entries.push({ kind: 'ends', at: facts.endAt, past: Date.parse(facts.endAt) <= now.getTime() });
  // Moments are stored to the second: within one, things happen in the order of a campaign's life.
  const time = (entry: ActivityEntry) => Date.parse(entry.at) || 0;
  return entries
    .sort((a, b) => time(b) - time(a) || LIFE_ORDER[b.kind] - LIFE_ORDER[a.kind])
    .slice(0, ACTIVITY_LIMIT);
}
