import type { Kysely } from 'kysely';
import { DEFAULT_BRAND_COLOR } from '../auth/user-rules.js';
import type { Database } from '../db/database.js';
import { notFound } from '../domain/errors.js';
import type { GroupReportSheet } from '../pdf/group-input.js';

import { renderGroupReport } from '../pdf/group-report.js';

import { renderPersonalReport } from '../pdf/personal-report.js';
import type { ReportAgency, ReportMember } from '../pdf/report-input.js';
import { isLanguage, type Language } from '../variants/variant.types.js';
import { type GroupReportType, idList, roleOf } from './group.service.js';
import type { ReportDeps } from './personal.service.js';
import type { ReportDetailRow } from './reports.repository.js';
import * as repo from './reports.repository.js';

/** The colour of a report whose owner has none. */
export const DEFAULT_COLOR = DEFAULT_BRAND_COLOR;

export interface RenderedReport {
  readonly pdf: Buffer;
  /** A file name safe in any header: `bigfive-personal-Garcia-AbCdEf1234.pdf`. */
  readonly filename: string;
}

const processedOf = (text: string) => repo.parseReportObject(text) as Record<string, number | string>;

const memberOf = (row: {
  title: string | null;
  firstname: string | null;
  middlename: string | null;
  lastname: string | null;
}): ReportMember => ({
  title: row.title ?? '',
  firstname: row.firstname ?? '',
  middlename: row.middlename ?? '',
  lastname: row.lastname ?? '',
});

/**
 * Whose agency brands a report: the owner (creator) of the report's campaign, else the user who
 * made the report; the instance's defaults when neither has set one.
 */
async function agencyOf(db: Kysely<Database>, row: ReportDetailRow): Promise<ReportAgency> {
  let userId = row.created_by;
  if (row.campaign_id !== null) userId = (await repo.findCampaignCreator(db, row.campaign_id)) ?? userId;
  const user = userId ? await repo.findAgency(db, userId) : undefined;
  return {
    name: user?.agencyname ?? '',
    footer: user?.agencyfooter ?? '',
    color: user?.color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(user.color) ? user.color : DEFAULT_COLOR,
  };
}

// Letters that Unicode does not decompose into a base letter and a mark.
const FOLDED: Readonly<Record<string, string>> = {
  Ø: 'O',
  ø: 'o',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  ß: 'ss',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Þ: 'Th',
  þ: 'th',
};

/** A file name of letters, digits, `-` and `_` only: accents folded, the rest dropped. */
export function safeFileName(parts: readonly string[]): string {
  const cleaned = parts
    .map((part) =>
      part
        .replace(/[ØøÆæŒœßŁłĐđÞþ]/g, (letter) => FOLDED[letter] ?? '')
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter((part) => part !== '');
  return `${cleaned.join('-').slice(0, 120) || 'report'}.pdf`;
}

/** Renders a report's PDF from its stored data (nothing cached: a recalc or a rename shows at once). */
export async function renderReport(deps: ReportDeps, id: string): Promise<RenderedReport> {
  const row = await repo.findReportDetail(deps.db, id);
  if (!row) throw notFound('report');
  const variant = deps.variants.get(row.variant);
  // A report of a variant that is no longer installed cannot be drawn; it is as good as gone.
  if (!variant) throw notFound('report');
  const language: Language =
    isLanguage(row.language) && variant.languages.includes(row.language)
      ? row.language
      : variant.defaultLanguage;
  const agency = await agencyOf(deps.db, row);
  if (row.type === 'personal') {
    const pdf = await renderPersonalReport({
      variant,
      language,
      member: memberOf(row),
      date: row.date,
      reportId: row.id,
      processed: processedOf(row.processed),
      agency,
    });
    return { pdf, filename: safeFileName([variant.alias, row.lastname ?? '', row.firstname ?? '', row.id]) };
  }
  const { sheets, master } = await sheetsOf(deps.db, row.id);
  const pdf = await renderGroupReport({
    type: row.type as GroupReportType,
    variant,
    language,
    name: row.name ?? '',
    date: row.date,
    reportId: row.id,
    agency,
    sheets,
    ...(master ? { master } : {}),
    excludedVerbatims: new Set(
      idList(repo.parseReportObject(row.config).excludedVerbatims, 'excludedVerbatims'),
    ),
  });
  return { pdf, filename: safeFileName([variant.alias, row.type, row.name ?? '', row.id]) };
}

/** The personal reports of a group report, with their subjects, in the order selected. */
async function sheetsOf(db: Kysely<Database>, reportId: string) {
  const rows = await repo.findSheetSources(db, reportId);
  let master: GroupReportSheet | undefined;
  const sheets: GroupReportSheet[] = [];
  for (const source of rows) {
    const role = roleOf(source);
    const sheet: GroupReportSheet = {
      reportId: source.id,
      member: memberOf(source),
      date: source.date,
      processed: processedOf(source.processed),
      ...(role === undefined ? {} : { role }),
    };
    if (source.position < 0) master = sheet;
    else sheets.push(sheet);
  }
  return { sheets, master };
}
