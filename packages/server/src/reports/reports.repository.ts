import { type Kysely, PostgresAdapter, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { isJsonObject, jsonObjectColumn, parseJsonColumn } from '../db/json-columns.js';
import { batchSizes, cursorOf, keysetBatches } from '../db/keyset-batches.js';
import { preparedPerDb } from '../db/prepared.js';
import { caseFold } from '../util/text.js';
import type { NewReportRow, ReportRow } from './reports.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A row of the Report list shape, the columns named as on the wire (config and tags still JSON text). */
export interface ReportListRow {
  reportid: string;
  date: string;
  name: string | null;
  campaignid: string | null;
  type: string;
  variant: string;
  language: string;
  config: string;
  lastopened: string | null;
  status: string;
  tags: string;
  testcase: number;
  memberid: string | null;
  title: string | null;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
  email: string | null;
  memberstatus: string | null;
}

/** A MemberReport row: the list row plus the row number, token, group and campaign. */
export interface MemberReportRow extends ReportListRow {
  id: number | string;
  token: string;
  groupid: string | null;
  campaignalias: string | null;
  campaignname: string | null;
}

/** Everything one report's detail calls show: the row, its subject, group and campaign. */
export interface ReportDetailRow extends ReportRow {
  title: string | null;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
  email: string | null;
  memberstatus: string | null;
  groupid: string | null;
  groupname: string | null;
  campaignname: string | null;
  campaignalias: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: the joined query's row type is what the select says.
type ReportQuery = SelectQueryBuilder<any, any, ReportListRow>;

function listQuery(db: Db) {
  return db
    .selectFrom('reports as r')
    .leftJoin('members as m', 'm.id', 'r.member_id')
    .select([
      'r.id as reportid',
      'r.date',
      'r.name',
      'r.campaign_id as campaignid',
      'r.type',
      'r.variant',
      'r.language',
      'r.config',
      'r.lastopened',
      'r.status',
      'r.tags',
      'r.testcase',
      'r.member_id as memberid',
      'm.title',
      'm.firstname',
      'm.middlename',
      'm.lastname',
      'm.email',
      'm.status as memberstatus',
    ]);
}

/** Which reports a list holds. */
export type ReportFilter =
  | { readonly all: true }
  | { readonly campaignId: string }
  | { readonly groupId: string; readonly variant?: string }
  | { readonly usedBy: string };

function filtered(db: Db, filter: ReportFilter): ReportQuery {
  const query = listQuery(db);
  if ('campaignId' in filter) return query.where('r.campaign_id', '=', filter.campaignId);
  if ('groupId' in filter) {
    const inGroup = query.where('m.group_id', '=', filter.groupId);
    return filter.variant === undefined ? inGroup : inGroup.where('r.variant', '=', filter.variant);
  }
  if ('usedBy' in filter) {
    return query
      .where(
        'r.id',
        'in',
        db.selectFrom('report_sources').select('report_id').where('source_id', '=', filter.usedBy),
      )
      .orderBy('r.seq');
  }
  return query;
}

/**
 * The reports of a list, a batch of rows at a time, in the order they were made (`seq`). Keyset
 * batches (`keysetBatches`): nothing of the database is held between them while a slow client
 * takes the answer; none is ever sent twice, and one made or deleted while the list is sent may or
 * may not be in it.
 */
export function streamReports(db: Kysely<Database>, filter: ReportFilter): AsyncGenerator<ReportListRow[]> {
  // `seq` starts at 1: the first batch starts after 0.
  const batch = (after: number, limit: number): Promise<ReportListRow[]> => {
    if ('campaignId' in filter) return byCampaign(db)(filter.campaignId, after, limit);
    if ('groupId' in filter) {
      return filter.variant === undefined
        ? byGroup(db)(filter.groupId, after, limit)
        : byGroupVariant(db)(filter.groupId, filter.variant, after, limit);
    }
    if ('usedBy' in filter) return byUser(db)(filter.usedBy, after, limit);
    return everyReport(db)(after, limit);
  };
  return keysetBatches(
    (after: number | undefined, limit) => batch(after ?? 0, limit),
    (row) => Number((row as ReportListRow & { seq: number | string }).seq),
    batchSizes(db),
    cursorOf(db, () => filtered(db, filter).select('r.seq as seq').orderBy('r.seq')),
  );
}

/** One batch of a list: the rows of `filter` after `seq`, in its order, with `seq` (the key). */
const listBatch = (db: Kysely<Database>, filter: ReportFilter, after: number, limit: number) =>
  filtered(db, filter).select('r.seq as seq').where('r.seq', '>', after).orderBy('r.seq').limit(limit);

// Compiled once each; on PostgreSQL named statements, planned once per connection.
const everyReport = preparedPerDb(2, (db, after: number, limit: number) =>
  listBatch(db, { all: true }, after, limit),
);
const byCampaign = preparedPerDb(3, (db, campaignId: string, after: number, limit: number) =>
  listBatch(db, { campaignId }, after, limit),
);
const byGroup = preparedPerDb(3, (db, groupId: string, after: number, limit: number) =>
  listBatch(db, { groupId }, after, limit),
);
const byGroupVariant = preparedPerDb(
  4,
  (db, groupId: string, variant: string, after: number, limit: number) =>
    listBatch(db, { groupId, variant }, after, limit),
);
const byUser = preparedPerDb(3, (db, usedBy: string, after: number, limit: number) =>
  listBatch(db, { usedBy }, after, limit),
);

/** A member's reports (as subject), optionally of one campaign, in the MemberReport shape. */
export async function memberReports(
  db: Kysely<Database>,
  memberId: string,
  campaignId?: string,
): Promise<MemberReportRow[]> {
  let query = listQuery(db)
    .leftJoin('campaigns as c', 'c.id', 'r.campaign_id')
    .select([
      'r.seq as id',
      'r.token',
      'm.group_id as groupid',
      'c.alias as campaignalias',
      'c.name as campaignname',
    ])
    .where('r.member_id', '=', memberId);
  if (campaignId !== undefined) query = query.where('r.campaign_id', '=', campaignId);
  return (await query.orderBy('r.seq').execute()) as MemberReportRow[];
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findReports(db: Db, ids: readonly string[]): Promise<Map<string, ReportRow>> {
  const found = new Map<string, ReportRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('reports')
      .selectAll()
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** One report with its subject, the subject's group and the campaign (for short, data and the PDF). */
export async function findReportDetail(db: Db, id: string): Promise<ReportDetailRow | undefined> {
  return (await db
    .selectFrom('reports as r')
    .leftJoin('members as m', 'm.id', 'r.member_id')
    .leftJoin('groups as g', 'g.id', 'm.group_id')
    .leftJoin('campaigns as c', 'c.id', 'r.campaign_id')
    .selectAll('r')
    .select([
      'm.title',
      'm.firstname',
      'm.middlename',
      'm.lastname',
      'm.email',
      'm.status as memberstatus',
      'm.group_id as groupid',
      'g.name as groupname',
      'c.name as campaignname',
      'c.alias as campaignalias',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst()) as ReportDetailRow | undefined;
}

/** The list row of one report (after a create or a change). */
export async function findReportListRow(db: Db, id: string): Promise<ReportListRow | undefined> {
  return (await listQuery(db).where('r.id', '=', id).executeTakeFirst()) as ReportListRow | undefined;
}

/** The list rows of these reports, in the order given; unknown ids left out. */
export async function findReportListRows(db: Db, ids: readonly string[]): Promise<ReportListRow[]> {
  const found = new Map<string, ReportListRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = (await listQuery(db)
      .where('r.id', 'in', ids.slice(i, i + 500))
      .execute()) as ReportListRow[];
    for (const row of rows) found.set(row.reportid, row);
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

export async function insertReports(db: Db, rows: NewReportRow[]): Promise<void> {
  // 20 columns a row: 200 rows stay below every engine's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('reports')
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

export async function insertSources(
  db: Db,
  reportId: string,
  sources: readonly { id: string; position: number }[],
): Promise<void> {
  const rows = sources.map((source) => ({
    report_id: reportId,
    source_id: source.id,
    position: source.position,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('report_sources')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** Why each left-out free-text answer of a group report is left out. */
export async function insertVerbatimReasons(
  db: Db,
  reportId: string,
  reasons: readonly { entry: string; reason: string }[],
): Promise<void> {
  const rows = reasons.map((row) => ({ report_id: reportId, entry: row.entry, reason: row.reason }));
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('report_verbatim_reasons')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** A group report's left-out free-text answers with their reasons, by entry. */
export async function verbatimReasonsOf(
  db: Db,
  reportId: string,
): Promise<{ entry: string; reason: string }[]> {
  return db
    .selectFrom('report_verbatim_reasons')
    .select(['entry', 'reason'])
    .where('report_id', '=', reportId)
    .orderBy('entry')
    .execute();
}

/** The personal reports a group report is made of, in their place (`-1`: the 360 master first). */
export async function sourcesOf(db: Db, reportId: string): Promise<{ id: string; position: number }[]> {
  return db
    .selectFrom('report_sources')
    .select(['source_id as id', 'position'])
    .where('report_id', '=', reportId)
    .orderBy('position')
    .execute();
}

/** The group reports that use this report, oldest first. */
export async function usersOf(db: Db, sourceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('report_sources as s')
    .innerJoin('reports as r', 'r.id', 's.report_id')
    .select('r.id')
    .where('s.source_id', '=', sourceId)
    .orderBy('r.seq')
    .execute();
  return rows.map((row) => row.id);
}

export async function updateReport(
  db: Db,
  id: string,
  change: Partial<
    Pick<ReportRow, 'name' | 'language' | 'config' | 'tags' | 'testcase' | 'processed' | 'lastopened'>
  >,
): Promise<boolean> {
  const result = await db.updateTable('reports').set(change).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteReport(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('reports').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Locks a report's row until the transaction ends (PostgreSQL; SQLite writes one at a time anyway). */
export async function lockReport(trx: Transaction<Database>, id: string): Promise<boolean> {
  const query = trx.selectFrom('reports').select('id').where('id', '=', id);
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  return (await (postgres ? query.forUpdate() : query).executeTakeFirst()) !== undefined;
}

/** Report counts by variant and type, over every report or over a group's direct members. */
export async function countReports(
  db: Kysely<Database>,
  groupId?: string,
): Promise<{ variant: string; type: string; n: number | string }[]> {
  let query = db
    .selectFrom('reports as r')
    .select(['r.variant', 'r.type', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['r.variant', 'r.type']);
  if (groupId !== undefined) {
    query = query.where(
      'r.member_id',
      'in',
      db.selectFrom('members').select('id').where('group_id', '=', groupId),
    );
  }
  return query.execute();
}

/** Campaigns, members and groups whose names (or alias, or e-mail) contain the term, case ignored. */
export async function search(db: Kysely<Database>, term: string) {
  const pattern = `%${caseFold(term).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  const [campaigns, members, groups] = await Promise.all([
    db
      .selectFrom('campaigns')
      .select(['id as campaignid', 'alias', 'name', 'variant'])
      .where((eb) => eb.or([like('name'), like('alias')]))
      .orderBy('name')
      .execute(),
    db
      .selectFrom('members')
      .select(['id as memberid', 'firstname', 'middlename', 'lastname', 'email'])
      .where((eb) =>
        eb.or([
          like('firstname'),
          like('lastname'),
          like('email_key'),
          sql<boolean>`lower(firstname || ' ' || lastname) like ${pattern} escape '\\'`,
        ]),
      )
      .orderBy('lastname')
      .orderBy('firstname')
      .execute(),
    db
      .selectFrom('groups')
      .select(['id as groupid', 'alias', 'name'])
      .where((eb) => eb.or([like('name'), like('alias')]))
      .orderBy('name')
      .execute(),
  ]);
  return { campaigns, members, groups };
}

/** Whether a member, campaign or group with this id exists (the entity a report path names). */
export async function entityExists(
  db: Db,
  table: 'members' | 'campaigns' | 'groups',
  id: string,
): Promise<boolean> {
  return (await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The agency of a user, for a report's branding. */
export async function findAgency(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['agencyname', 'agencyfooter', 'color'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The owner (creator) of a campaign, if the campaign is still there. */
export async function findCampaignCreator(db: Db, campaignId: string): Promise<string | null | undefined> {
  const campaign = await db
    .selectFrom('campaigns')
    .select('creator')
    .where('id', '=', campaignId)
    .executeTakeFirst();
  return campaign?.creator;
}

/** A campaign as a report refers to it: its variant, language and owner. */
export async function findReportCampaign(db: Db, id: string) {
  return db
    .selectFrom('campaigns')
    .select(['id', 'variant', 'language', 'creator'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The personal reports of a group report with their subjects, in the order selected. */
export async function findSheetSources(db: Db, reportId: string) {
  return db
    .selectFrom('report_sources as s')
    .innerJoin('reports as r', 'r.id', 's.source_id')
    .leftJoin('members as m', 'm.id', 'r.member_id')
    .select([
      's.position',
      'r.id',
      'r.date',
      'r.processed',
      'r.config',
      'm.title',
      'm.firstname',
      'm.middlename',
      'm.lastname',
    ])
    .where('s.report_id', '=', reportId)
    .orderBy('s.position')
    .execute();
}

/** A member a report can be about, and whether it is a test user. */
export interface ReportSubject {
  id: string;
  testuser: boolean;
}

/** Members by id and by e-mail key (500 a query). */
export async function findReportSubjects(db: Db, ids: readonly string[], emailKeys: readonly string[]) {
  const byId = new Map<string, ReportSubject>();
  const byEmail = new Map<string, ReportSubject>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('members')
      .select(['id', 'testuser'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) byId.set(row.id, { id: row.id, testuser: Boolean(row.testuser) });
  }
  for (let i = 0; i < emailKeys.length; i += 500) {
    const rows = await db
      .selectFrom('members')
      .select(['id', 'testuser', 'email_key'])
      .where('email_key', 'in', emailKeys.slice(i, i + 500))
      .execute();
    for (const row of rows) byEmail.set(row.email_key, { id: row.id, testuser: Boolean(row.testuser) });
  }
  return { byId, byEmail };
}

/**
 * The selected reports, locked against deletion until the transaction ends (PostgreSQL
 * `FOR SHARE`; SQLite's one writer needs no lock).
 */
export async function lockSourceReports(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<Map<string, ReportRow>> {
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  const found = new Map<string, ReportRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const query = trx
      .selectFrom('reports')
      .selectAll()
      .where('id', 'in', ids.slice(i, i + 500));
    for (const row of await (postgres ? query.forShare() : query).execute()) found.set(row.id, row);
  }
  return found;
}

/** A campaign's id and variant, for a report listed under it. */
export async function findCampaignVariant(db: Db, id: string) {
  return db.selectFrom('campaigns').select(['id', 'variant']).where('id', '=', id).executeTakeFirst();
}

/** A campaign's stored config text, for `minparticipants`. */
export async function findCampaignConfig(db: Db, id: string): Promise<string | undefined> {
  return (await db.selectFrom('campaigns').select('config').where('id', '=', id).executeTakeFirst())?.config;
}

/** Whether a member exists. */
export async function memberExists(db: Db, id: string): Promise<boolean> {
  return entityExists(db, 'members', id);
}

// The JSON columns of `reports`, read and written only through these codecs.

/** `raw`, `processed`, `config` as an object; `{}` when unreadable or not an object. */
export function parseReportObject(text: string): Record<string, unknown> {
  const value = parseJsonColumn(text);
  return isJsonObject(value) ? value : {};
}

/** The text of an object column (`raw`, `processed`, `config`, `extra`). */
export const reportObjectText = (value: object): string => JSON.stringify(value);

/** `config` as the wire shows it: `[]` when empty, unreadable or not an object. */
export const parseReportConfig = (text: string): Record<string, unknown> | [] => jsonObjectColumn(text);

/** `tags`: the strings of the stored list; none when empty or unreadable. */
export function parseTags(text: string): string[] {
  if (text === '[]' || text === '') return [];
  const value = parseJsonColumn(text);
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : [];
}

export const tagsText = (tags: readonly unknown[]): string => JSON.stringify(tags);

/**
 * `config` and `tags` read through a small cache: a list of 100,000 personal reports holds a
 * handful of distinct configs and tags, so each distinct text is parsed once per list, not once per
 * row.
 */
export class ReportColumnCache {
  private readonly configs = new Map<string, Record<string, unknown> | []>();
  private readonly tagLists = new Map<string, string[]>();

  config(text: string): Record<string, unknown> | [] {
    let value = this.configs.get(text);
    if (value === undefined) {
      value = parseReportConfig(text);
      if (this.configs.size < 1000) this.configs.set(text, value);
    }
    return value;
  }

  tags(text: string): string[] {
    let value = this.tagLists.get(text);
    if (value === undefined) {
      value = parseTags(text);
      if (this.tagLists.size < 1000) this.tagLists.set(text, value);
    }
    return value;
  }
}

/** What the console's report list asks for: filters, a name prefix (case-folded), a keyset on `seq`. */
export interface ReportPageQuery {
  readonly variant?: string;
  readonly type?: string;
  readonly campaignId?: string;
  /** Wire-form moments: reports dated on or after `from` and before `to`. */
  readonly from?: string;
  readonly to?: string;
  /** A case-folded prefix of the subject's first or last name. */
  readonly name?: string;
  /** Older than this `seq` (the next page), or newer than it (the previous page). */
  readonly after?: number;
  readonly before?: number;
  readonly limit: number;
}

/** A row of the console's report list: the list shape plus `seq` (the keyset) and the campaign's name. */
export interface ReportPageRow extends ReportListRow {
  seq: number | string;
  campaignname: string | null;
}

/**
 * A page of reports, newest first (`seq` descending, the primary key: no sort, no count). A name
 * prefix is looked up through the byte-order indexes on the members' lower-cased names.
 */
export async function reportPage(db: Kysely<Database>, input: ReportPageQuery): Promise<ReportPageRow[]> {
  const backwards = input.before !== undefined;
  let query = listQuery(db)
    .leftJoin('campaigns as c', 'c.id', 'r.campaign_id')
    .select(['r.seq as seq', 'c.name as campaignname']);
  if (input.variant !== undefined) query = query.where('r.variant', '=', input.variant);
  if (input.type !== undefined) query = query.where('r.type', '=', input.type);
  if (input.campaignId !== undefined) query = query.where('r.campaign_id', '=', input.campaignId);
  if (input.from !== undefined) query = query.where('r.date', '>=', input.from);
  if (input.to !== undefined) query = query.where('r.date', '<', input.to);
  if (input.name) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const bytes = postgres ? sql` collate "C"` : sql``;
    const start = input.name;
    const end = `${input.name}\u{10FFFF}`;
    const prefix = (column: 'firstname' | 'lastname') =>
      sql<boolean>`lower(${sql.ref(`s.${column}`)})${bytes} >= ${start} and lower(${sql.ref(`s.${column}`)})${bytes} < ${end}`;
    const matches = db
      .selectFrom('members as s')
      .select('s.id')
      .where(prefix('lastname'))
      .union(db.selectFrom('members as s').select('s.id').where(prefix('firstname')));
    query = query.where('r.member_id', 'in', matches);
  }
  if (input.after !== undefined) query = query.where('r.seq', '<', input.after);
  if (backwards) query = query.where('r.seq', '>', input.before as number);
  const rows = (await query
    .orderBy('r.seq', backwards ? 'asc' : 'desc')
    .limit(input.limit)
    .execute()) as ReportPageRow[];
  return backwards ? rows.reverse() : rows;
}

/** A report's scored sheet and what reads it: what an export needs, without the answers or config. */
export type ReportSheetRow = Pick<ReportRow, 'id' | 'type' | 'language' | 'processed'>;

/** The scored sheets of these reports, by id (500 ids a query). */
export async function findReportSheets(db: Db, ids: readonly string[]): Promise<Map<string, ReportSheetRow>> {
  const found = new Map<string, ReportSheetRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('reports')
      .select(['id', 'type', 'language', 'processed'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}
