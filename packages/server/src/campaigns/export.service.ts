import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import type { CampaignExportQuery } from '@assay/schema';
import { BusinessError, notFound } from '../domain/errors.js';
import { findReportSheets, parseReportObject, type ReportSheetRow } from '../reports/reports.repository.js';
import { reportVerbatims } from '../reports/reports.service.js';
import { CSV_BOM, type CsvValue, csvLine } from '../util/csv-write.js';
import { workbookCell } from '../util/spreadsheet-cell.js';
import type { Variant } from '../variants/variant.types.js';
import { countCampaignMembers, parseMemberExtra, parseResults } from './campaign-members.repository.js';
import { findCampaign } from './campaigns.repository.js';
import type { CampaignDeps } from './campaigns.service.js';
import type { CampaignRow } from './campaigns.table.js';
import { type ExportMemberRow, streamExportMembers } from './export.repository.js';

/*
 * GET /campaigns/{id}/export, `assay export campaign` and the console's download: one row per
 * campaign member with its report's scores, and the reports' free-text answers, as CSV or as an
 * Excel workbook. Written while it is read, a batch of members at a time (the keyset batches or the
 * PostgreSQL cursor of GET /campaigns/{id}/members), never held whole.
 */

/** A cell of the file: text, a number, or empty. */
type Cell = CsvValue;

/** The columns every member row starts with, before the variant's scores. */
export const MEMBER_COLUMNS = [
  'memberid',
  'firstname',
  'middlename',
  'lastname',
  'email',
  'groupname',
  'role',
  'status',
  'dateinvited',
  'countreminded',
  'datestarted',
  'datecompleted',
  'reportid',
] as const;

/** The columns of the verbatims (the CSV's second part, the workbook's second sheet). */
export const VERBATIM_COLUMNS = ['memberid', 'reportid', 'code', 'question', 'answer'] as const;

/** The score columns of a variant: `<code>_score` (0-100) of each dimension, then of each facet. */
export const scoreColumns = (variant: Variant | undefined): string[] =>
  variant ? variant.scoring.targets.map((target) => target.scoreKey) : [];

export interface CampaignExport {
  /** A name of letters, digits, `-` and `.` only: safe in a header and on any file system. */
  filename: string;
  contentType: string;
  /** Member rows the export reads (twice the members for a workbook: one pass per sheet). */
  total: number;
  /** The file, written as it is read; destroying it ends the reading and releases the database. */
  body: Readable;
}

export const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * The export of a campaign: 404 for an unknown campaign; `part` is the CSV's (an Excel file holds
 * both parts as sheets). `progress` is told the member rows read so far.
 */
export async function exportCampaign(
  deps: Pick<CampaignDeps, 'db' | 'variants'>,
  campaignId: string,
  request: CampaignExportQuery,
  progress?: (done: number) => void,
): Promise<CampaignExport> {
  const campaign = await findCampaign(deps.db, campaignId);
  if (!campaign) throw notFound('campaign');
  if (request.format === 'xlsx' && request.part !== undefined)
    throw new BusinessError('part: only with format csv (the Excel file holds both parts, as two sheets)');
  const variant = deps.variants.get(campaign.variant);
  const members = await countCampaignMembers(deps.db, campaignId);
  let done = 0;
  const counted = (rows: number) => {
    done += rows;
    progress?.(done);
  };
  const sheets = {
    members: () => ({
      name: 'Members',
      header: [...MEMBER_COLUMNS, ...scoreColumns(variant)],
      rows: memberRows(deps, campaignId, variant, EXPORT_BATCH[request.format], counted),
    }),
    verbatims: () => ({
      name: 'Verbatims',
      header: [...VERBATIM_COLUMNS],
      rows: verbatimRows(deps, campaignId, variant, EXPORT_BATCH[request.format], counted),
    }),
  };
  if (request.format === 'xlsx') {
    return {
      filename: filenameOf(campaign, 'xlsx'),
      contentType: CONTENT_TYPES.xlsx,
      total: members * 2,
      body: workbookStream([sheets.members, sheets.verbatims]),
    };
  }
  const part = request.part ?? 'members';
  return {
    filename: filenameOf(campaign, part === 'members' ? 'csv' : 'verbatims.csv'),
    contentType: CONTENT_TYPES.csv,
    total: members,
    body: csvStream(sheets[part]()),
  };
}

/** `campaign-<name in ASCII letters and digits>-<id>.<ending>`, which needs no quoting or encoding. */
export function filenameOf(campaign: Pick<CampaignRow, 'id' | 'name'>, ending: string): string {
  const slug = campaign.name
    .normalize('NFKD')
    // The accents come apart from their letters (é is e and an accent): the letters stay.
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
    .toLowerCase();
  return `campaign-${slug === '' ? '' : `${slug}-`}${campaign.id}.${ending}`;
}

/** What a row of the export needs of a campaign member, in the API's own values. */
interface ExportMember {
  memberid: string;
  firstname: string;
  middlename: string;
  lastname: string;
  email: string;
  groupname: string;
  role: string;
  status: string;
  dateinvited: string | null;
  countreminded: number | null;
  datestarted: string | null;
  datecompleted: string | null;
  reportid: string | undefined;
  /** The report `reportid` names, when there is one. */
  report: ReportSheetRow | undefined;
}

/**
 * A list row as GET /campaigns/{id}/members answers its fields (`toCampaignMemberListItem`: the
 * group's name or '', `extra.role`, `results.reportid`), decoding only the two JSON columns an
 * export reads (the tests compare it with the API's answer field by field), with the report the
 * query joined when it is the one `results` names, else the one looked up by id.
 */
function exportMember(
  row: ExportMemberRow,
  reportid: string | undefined,
  looked: Map<string, ReportSheetRow>,
): ExportMember {
  const role = parseMemberExtra(row.extra)?.role;
  return {
    memberid: row.memberid,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    email: row.email,
    groupname: row.groupname ?? '',
    role: typeof role === 'string' ? role : '',
    status: row.status,
    dateinvited: row.dateinvited,
    countreminded: row.countreminded === null ? null : Number(row.countreminded),
    datestarted: row.datestarted,
    datecompleted: row.datecompleted,
    reportid,
    report:
      reportid === undefined
        ? undefined
        : row.sheetid === reportid
          ? ({
              id: row.sheetid,
              type: row.sheettype,
              language: row.sheetlanguage,
              processed: row.processed,
            } as ReportSheetRow)
          : looked.get(reportid),
  };
}

/** The report id a member's `results` names, as the API reads it. */
function namedReportId(row: ExportMemberRow): string | undefined {
  const named = parseResults(row.results)?.reportid;
  return typeof named === 'string' ? named : undefined;
}

/**
 * Members a batch of the export reads: fewer than a list's (1,000 to 4,000), and fewer still for a
 * workbook. The batch read ahead, and the rows of a batch not yet written, live while the rows
 * before them are written; a workbook makes so much garbage a row (a few dozen cell objects and
 * their XML) that they outlive two of V8's young-generation collections and are moved to its old
 * space, which is only swept once it has grown. Measured on PostgreSQL with 100,000 members
 * (`npm run bench -- --only export`), a workbook's cold export grew the server by 91-145 MB with
 * batches of 250 and by 29-40 MB with batches of 50, at the same speed; a CSV's rows are cheap to
 * write, and its larger batches save round trips.
 */
const EXPORT_BATCH = { csv: { first: 250, largest: 250 }, xlsx: { first: 50, largest: 50 } } as const;

/**
 * The campaign's members, a batch at a time (the keyset batches or cursor of GET
 * /campaigns/{id}/members), each member with its report, read by the same query: on PostgreSQL a
 * second query a batch would hold the batch across one more round trip, long enough for V8 to move
 * it to its old space. A report the join did not find (deleted, or named in a way the database
 * reads otherwise) is looked up by id. Each batch is taken a member at a time (see `taken`). A
 * turn of the event loop between batches lets other requests in.
 */
async function* memberBatches(
  deps: Pick<CampaignDeps, 'db'>,
  campaignId: string,
  sizes: { first: number; largest: number },
  counted: (rows: number) => void,
): AsyncGenerator<Iterable<ExportMember>> {
  for await (const rows of streamExportMembers(deps.db, campaignId, sizes)) {
    const reportids = rows.map(namedReportId);
    const unjoined = reportids.filter((id, i): id is string => id !== undefined && rows[i]?.sheetid !== id);
    const looked =
      unjoined.length > 0 ? await findReportSheets(deps.db, unjoined) : new Map<string, ReportSheetRow>();
    yield taken(rows, (row, i) => exportMember(row, reportids[i], looked));
    counted(rows.length);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A batch's items made one at a time, each row of the database let go (its slot emptied) once
 * made: the batch is the very array the reading holds, so a row's strings are garbage as soon as
 * its line is written, instead of living until the whole batch has been.
 */
function* taken<T, U>(batch: (T | undefined)[], make: (item: T, index: number) => U): Generator<U> {
  for (let i = 0; i < batch.length; i++) {
    const item = batch[i] as T;
    batch[i] = undefined;
    yield make(item, i);
  }
}

function memberRow(member: ExportMember, scores: string[]): Cell[] {
  const processed = member.report ? parseReportObject(member.report.processed) : {};
  return [
    member.memberid,
    member.firstname,
    member.middlename,
    member.lastname,
    member.email,
    member.groupname,
    member.role,
    member.status,
    member.dateinvited,
    member.countreminded,
    member.datestarted,
    member.datecompleted,
    member.reportid ?? '',
    ...scores.map((key) => {
      const score = processed[key];
      return typeof score === 'number' ? score : null;
    }),
  ];
}

/** A batch of a sheet's rows, each made as it is taken. */
type Rows = Iterable<Cell[]>;

async function* memberRows(
  deps: Pick<CampaignDeps, 'db'>,
  campaignId: string,
  variant: Variant | undefined,
  sizes: { first: number; largest: number },
  counted: (rows: number) => void,
): AsyncGenerator<Rows> {
  const scores = scoreColumns(variant);
  for await (const members of memberBatches(deps, campaignId, sizes, counted))
    yield (function* () {
      for (const member of members) yield memberRow(member, scores);
    })();
}

async function* verbatimRows(
  deps: Pick<CampaignDeps, 'db'>,
  campaignId: string,
  variant: Variant | undefined,
  sizes: { first: number; largest: number },
  counted: (rows: number) => void,
): AsyncGenerator<Rows> {
  for await (const members of memberBatches(deps, campaignId, sizes, counted))
    yield (function* () {
      for (const member of members) {
        const report = member.report;
        if (!report || !variant || report.type !== 'personal') continue;
        for (const verbatim of reportVerbatims(variant, report))
          yield [member.memberid, verbatim.reportid, verbatim.code, verbatim.question, verbatim.answer];
      }
    })();
}

interface Sheet {
  name: string;
  header: string[];
  rows: AsyncGenerator<Rows>;
}

/**
 * A CSV file: the BOM and the header, then a chunk of lines per batch, each asked for only when
 * the reader has taken the one before (the stream's back-pressure). Destroying the stream (a client
 * gone) returns the generators, which ends the batches and closes a PostgreSQL cursor.
 */
function csvStream(sheet: Sheet): Readable {
  async function* chunks() {
    yield CSV_BOM + csvLine(sheet.header);
    for await (const rows of sheet.rows) {
      let text = '';
      for (const row of rows) text += csvLine(row);
      if (text !== '') yield text;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

let excelJs: typeof import('exceljs') | undefined;

/**
 * exceljs (with its zip, csv and promise libraries, some 400 ms of CPU to load), required at the
 * first workbook export rather than when the process starts: every `assay` command and every start
 * of the server loaded it, most of them to write no workbook.
 */
function loadExcelJs(): typeof import('exceljs') {
  excelJs ??= createRequire(import.meta.url)('exceljs') as typeof import('exceljs');
  return excelJs;
}

/**
 * An Excel workbook written with exceljs's streaming writer, one sheet after the other (a sheet is
 * one entry of the zip, so the second is read in a second pass rather than held). Its text cells
 * take CSV's rule (`workbookCell`: a text that could start a formula gets a leading `'`). Each row is
 * committed as it is written; when the reader lags (the stream wants draining) the next batch
 * waits, so at most a batch or so is held. A reader gone ends the passes.
 */
function workbookStream(sheets: (() => Sheet)[]): Readable {
  const out = new PassThrough();
  const workbook = new (loadExcelJs().stream.xlsx.WorkbookWriter)({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  let gone = false;
  out.once('close', () => {
    gone = true;
  });
  const drained = () =>
    Promise.race([once(out, 'drain'), once(out, 'close')]).then(
      () => {},
      () => {},
    );
  const write = async () => {
    for (const make of sheets) {
      const sheet = make();
      const worksheet = workbook.addWorksheet(sheet.name);
      worksheet.addRow(sheet.header.map(workbookCell)).commit();
      for await (const rows of sheet.rows) {
        for (const row of rows) worksheet.addRow(row.map(workbookCell)).commit();
        while (out.writableNeedDrain && !gone) await drained();
        // exceljs hands a sheet's rows to the zip's compressor without back-pressure: wait while
        // more than a few batches are queued there (when the compressor shows it).
        await compressorCaughtUp(worksheet, () => gone);
        if (gone) return;
      }
      worksheet.commit();
    }
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/** Bytes a sheet may have queued for compression before its writer waits. */
const COMPRESSOR_QUEUE = 1024 * 1024;

/**
 * Waits while an exceljs worksheet holds more than COMPRESSOR_QUEUE bytes not yet compressed: in
 * its own buffers (`stream.buffers`, 64 KiB each, while the zip has not started on the sheet) or in
 * the compressor's queue (`stream.pipes`, a readable-stream PassThrough whose queue is
 * `_writableState.length`). exceljs does not expose them; where they are not there (another
 * exceljs), this waits for nothing.
 */
async function compressorCaughtUp(worksheet: unknown, gone: () => boolean): Promise<void> {
  const stream = (worksheet as { stream?: { pipes?: unknown[]; buffers?: unknown[]; bufSize?: number } })
    .stream;
  const queued = () => {
    const sink = stream?.pipes?.[0] as
      | { writableLength?: number; _writableState?: { length?: number } }
      | undefined;
    const piped = sink?.writableLength ?? sink?._writableState?.length ?? 0;
    return piped + (stream?.buffers?.length ?? 0) * (stream?.bufSize ?? 65536);
  };
  while (!gone() && queued() > COMPRESSOR_QUEUE) await new Promise((resolve) => setTimeout(resolve, 5));
}
