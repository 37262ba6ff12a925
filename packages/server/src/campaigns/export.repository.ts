import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { cursorOf, keysetBatches } from '../db/keyset-batches.js';
import { preparedPerDb } from '../db/prepared.js';

/**
 * A row of the campaign export: the member columns a row of the file shows, and the report its
 * `results` names, joined in the same query (null when there is none).
 */
export interface ExportMemberRow {
  memberid: string;
  firstname: string;
  middlename: string;
  lastname: string;
  email: string;
  groupname: string | null;
  extra: string | null;
  status: string;
  dateinvited: string | null;
  countreminded: number | string | null;
  datestarted: string | null;
  datecompleted: string | null;
  results: string;
  /** The joined report's id, type, language and scored sheet. */
  sheetid: string | null;
  sheettype: string | null;
  sheetlanguage: string | null;
  processed: string | null;
}

/**
 * The report id a member's `results` names, as the database reads it for the join. PostgreSQL
 * matches the text `JSON.stringify` writes (a cast to json would fail the whole export on one
 * unreadable row); SQLite reads valid JSON only. The caller still takes the id from its own parse
 * of `results` and uses the joined report only when the ids agree, so a row the database read
 * otherwise is looked up by itself, never shown with another report.
 */
const namedReport = (db: Kysely<Database>) =>
  db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<string>`substring(cm.results from '"reportid":"([0-9A-Za-z]+)"')`
    : sql<string>`case when json_valid(cm.results) then json_extract(cm.results, '$.reportid') end`;

function exportQuery(db: Kysely<Database>, campaignId: string) {
  return db
    .selectFrom('campaign_members as cm')
    .innerJoin('members as m', 'm.id', 'cm.member_id')
    .leftJoin('groups as g', 'g.id', 'm.group_id')
    .leftJoin('reports as r', (join) => join.on('r.id', '=', namedReport(db)))
    .select([
      'cm.member_id as memberid',
      'cm.firstname',
      'cm.middlename',
      'cm.lastname',
      'cm.email',
      'g.name as groupname',
      'cm.extra',
      'cm.status',
      'cm.dateinvited',
      'cm.countreminded',
      'cm.datestarted',
      'cm.datecompleted',
      'cm.results',
      'r.id as sheetid',
      'r.type as sheettype',
      'r.language as sheetlanguage',
      'r.processed',
    ])
    .where('cm.campaign_id', '=', campaignId);
}

// Compiled once; on PostgreSQL a named statement, planned once per connection.
const exportBatch = preparedPerDb(3, (db, campaignId: string, after: string, limit: number) =>
  exportQuery(db, campaignId).where('cm.member_id', '>', after).orderBy('cm.member_id').limit(limit),
);

/**
 * A campaign's members with their reports, a batch at a time in the order of their member ids: the
 * keyset batches of `streamCampaignMembers`, or on PostgreSQL its cursor, each batch one query.
 */
export function streamExportMembers(
  db: Kysely<Database>,
  campaignId: string,
  sizes: { first: number; largest: number },
): AsyncGenerator<ExportMemberRow[]> {
  const batch = exportBatch(db);
  // No member id is empty: the first batch starts after ''.
  return keysetBatches(
    (after: string | undefined, limit) => batch(campaignId, after ?? '', limit) as Promise<ExportMemberRow[]>,
    (row) => row.memberid,
    sizes,
    cursorOf(db, () => exportQuery(db, campaignId).orderBy('cm.member_id'), sizes.largest),
  );
}
