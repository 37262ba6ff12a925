import type { ReportData } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import type { ReportListPage } from '../../reports/reports.service.js';
import { REPORT_TYPES, type Variant } from '../../variants/variant.types.js';
import { consoleDate, consoleDateTime } from '../format.js';
import { groupReportStrings } from '../group-report-strings.js';
import { reportImportStrings } from '../report-import-strings.js';
import { type ReportsStrings, reportsStrings } from '../reports-strings.js';
import { consoleStrings } from '../strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { memberName } from './members.view.js';

/** The list's filters as they stand in its address. */
export interface ReportListQuery {
  readonly variant?: string;
  readonly type?: string;
  readonly campaign?: string;
  readonly from?: string;
  readonly to?: string;
  readonly q?: string;
}

/** The address of a page of the list: the filters, and where to page from. */
export function reportListHref(query: ReportListQuery, at?: { after?: number; before?: number }): string {
  const search = new URLSearchParams();
  for (const key of ['variant', 'type', 'campaign', 'from', 'to', 'q'] as const) {
    const value = query[key];
    if (value) search.set(key, value);
  }
  if (at?.after !== undefined) search.set('after', String(at.after));
  if (at?.before !== undefined) search.set('before', String(at.before));
  const text = search.toString();
  return text ? `/console/reports?${text}` : '/console/reports';
}

const variantName = (variant: Variant | undefined, alias: string, viewer: Viewer) =>
  variant?.texts[viewer.language]?.['variant.name'] ??
  variant?.texts[variant.defaultLanguage]?.['variant.name'] ??
  alias;

const languageName = (viewer: Viewer, language: string) =>
  (consoleStrings(viewer.language).languageNames as Readonly<Record<string, string>>)[language] ?? language;

const subjectOf = (row: {
  title?: string | null;
  firstname: string | null;
  middlename?: string | null;
  lastname: string | null;
  name?: string | null;
}) =>
  row.firstname !== null || row.lastname !== null
    ? memberName({ ...row, firstname: row.firstname ?? '', lastname: row.lastname ?? '' })
    : (row.name ?? '');

/**
 * The report list: filters as a GET form (variant, type, from and to dates, name prefix; the
 * campaign as a link from a row), a page of 50 reports newest first, Previous and Next.
 */
export function reportListView(
  viewer: Viewer,
  input: {
    query: ReportListQuery;
    page: ReportListPage;
    variants: readonly Variant[];
    campaignName?: string;
    notice?: string;
  },
): ConsoleView {
  const r = reportsStrings(viewer.language);
  const { query, page } = input;
  const filtered = Object.values(query).some((value) => value);
  const byAlias = new Map(input.variants.map((variant) => [variant.alias, variant]));
  const rows = page.rows.map((row) => ({
    href: `/console/reports/${row.reportid}`,
    subject: subjectOf(row) || r.noSubject,
    date: consoleDate(viewer.language, row.date),
    variant: variantName(byAlias.get(row.variant), row.variant, viewer),
    type: r.types[row.type] ?? row.type,
    language: languageName(viewer, row.language),
    campaign: row.campaignname ?? undefined,
    campaignHref: row.campaignid ? reportListHref({ ...query, campaign: row.campaignid }) : undefined,
  }));
  const { previous, next } = page;
  return {
    template: 'console/reports',
    model: {
      ...chrome(viewer, 'reports'),
      r,
      title: r.title,
      importLink: reportImportStrings(viewer.language).importLink,
      makeGroupReport: groupReportStrings(viewer.language).make,
      notice: input.notice,
      variants: input.variants.map((variant) => ({
        value: variant.alias,
        text: variantName(variant, variant.alias, viewer),
        selected: variant.alias === query.variant,
      })),
      types: REPORT_TYPES.map((type) => ({
        value: type,
        text: r.types[type],
        selected: type === query.type,
      })),
      from: query.from ?? '',
      to: query.to ?? '',
      q: query.q ?? '',
      campaign: query.campaign,
      campaignName: query.campaign ? (input.campaignName ?? query.campaign) : undefined,
      campaignClear: query.campaign ? reportListHref({ ...query, campaign: undefined }) : undefined,
      filtered,
      caption: filtered ? r.filteredCaption : r.caption,
      rows,
      empty: rows.length === 0 && previous === undefined ? (filtered ? r.noMatches : r.noReports) : undefined,
      pagination:
        previous !== undefined || next !== undefined
          ? {
              previous: previous !== undefined ? reportListHref(query, { before: previous }) : undefined,
              next: next !== undefined ? reportListHref(query, { after: next }) : undefined,
            }
          : undefined,
    },
  };
}

/** A row of the scores table: a dimension or one of its facets, its score (0 to 100) and band. */
export interface ScoreRow {
  readonly code: string;
  readonly name: string;
  readonly facet: boolean;
  readonly score: number;
  readonly band: string;
}

/** The scores of a personal report's processed data, per dimension then its facets, in the variant's order. */
export function scoreRows(
  variant: Variant | undefined,
  processed: Readonly<Record<string, unknown>>,
  language: Viewer['language'],
): ScoreRow[] {
  if (!variant) return [];
  const texts = variant.texts[language] ?? variant.texts[variant.defaultLanguage] ?? {};
  const rows: ScoreRow[] = [];
  const add = (code: string, key: string, facet: boolean) => {
    const score = Number(processed[`${code}_score`]);
    if (
      processed[`${code}_score`] === undefined ||
      processed[`${code}_score`] === '' ||
      !Number.isFinite(score)
    )
      return;
    const band = processed[`${code}_band`];
    rows.push({
      code,
      name: texts[key] ?? code,
      facet,
      score,
      band: typeof band === 'string' ? (texts[`band.${band}`] ?? band) : '',
    });
  };
  for (const dimension of variant.dimensions) {
    add(dimension.code, `dimension.${dimension.code}.name`, false);
    for (const facet of dimension.facets) add(facet, `facet.${facet}.name`, true);
  }
  return rows;
}

/**
 * The chart's geometry: a row per score, its name above a bar whose width is the score (0 to 100)
 * of the bars' width, the score written after the bar.
 */
export function barChart(rows: readonly ScoreRow[]) {
  const bars = 300;
  const row = 40;
  return {
    width: bars + 40,
    bars,
    height: Math.max(rows.length * row, row),
    rows: rows.map((score, index) => {
      const width = Math.round((Math.min(100, Math.max(0, score.score)) / 100) * bars * 10) / 10;
      return {
        name: score.name,
        score: String(Math.round(score.score)),
        labelY: index * row + 13,
        y: index * row + 18,
        width,
        height: 14,
        scoreX: width + 4,
        scoreY: index * row + 30,
        facet: score.facet,
      };
    }),
  };
}

export interface ReportPageInput {
  readonly data: ReportData;
  readonly processed: Readonly<Record<string, unknown>>;
  readonly variant: Variant | undefined;
  readonly campaignName: string | null;
  readonly lastOpened: string | null;
  /** The participant's report link (`/r/<token>`), absolute. */
  readonly link: string;
  readonly notice?: string;
  readonly error?: string;
  /** A group report's left-out free-text answers, each with the reason the console was given. */
  readonly leftOut?: readonly { readonly entry: string; readonly reason: string }[];
}

const summaryRows = (viewer: Viewer, r: ReportsStrings, input: ReportPageInput) => {
  const { data } = input;
  const subject = subjectOf(data);
  return [
    { key: r.member, value: subject || r.noSubject, bdi: true },
    ...(input.campaignName ? [{ key: r.campaign, value: input.campaignName, bdi: true }] : []),
    { key: r.date, value: consoleDateTime(viewer.language, data.thedate) },
    { key: r.variant, value: variantName(input.variant, data.variant, viewer) },
    { key: r.language, value: languageName(viewer, data.language) },
    { key: r.type, value: r.types[data.type] ?? data.type },
    {
      key: r.lastOpened,
      value: input.lastOpened ? consoleDateTime(viewer.language, input.lastOpened) : r.never,
    },
  ];
};

/** A group report's left-out answers, each named by its report and question, with its reason. */
function leftOutRows(viewer: Viewer, rows: readonly { entry: string; reason: string }[]) {
  if (rows.length === 0) return undefined;
  const g = groupReportStrings(viewer.language);
  return {
    title: g.leftOutTitle,
    rows: rows.map(({ entry, reason }) => {
      const [report = '', code] = entry.split(':');
      return {
        key: code === undefined ? fill(g.leftOutReport, { report }) : fill(g.leftOutAnswer, { report, code }),
        value: reason,
      };
    }),
  };
}

/** A report's page: who, when, what; its scores as a table and a chart; the PDF; the actions. */
export function reportView(viewer: Viewer, input: ReportPageInput): ConsoleView {
  const r = reportsStrings(viewer.language);
  const id = input.data.reportid;
  const scores =
    input.data.type === 'personal' ? scoreRows(input.variant, input.processed, viewer.language) : [];
  const base = `/console/reports/${id}`;
  return {
    template: 'console/report',
    model: {
      ...chrome(viewer, 'reports'),
      r,
      title: fill(r.reportTitle, { id }),
      notice: input.notice,
      errors: input.error ? [{ href: '#actions', text: input.error }] : undefined,
      summary: summaryRows(viewer, r, input),
      scores: scores.map((row) => ({ ...row, score: String(Math.round(row.score)) })),
      chart: scores.length > 0 ? barChart(scores) : undefined,
      variantGone: input.variant === undefined ? r.variantGone : undefined,
      leftOut: leftOutRows(viewer, input.leftOut ?? []),
      pdfHref: `${base}/pdf`,
      downloadHref: `${base}/pdf?download=1`,
      link: input.link,
      recalcAction: `${base}/recalc`,
      languageHref: `${base}/language`,
      deleteHref: `${base}/delete`,
      back: '/console/reports',
    },
  };
}

/** The language form: the variant's languages, the report's chosen; an error from the service. */
export function reportLanguageView(
  viewer: Viewer,
  input: { data: ReportData; variant: Variant | undefined; chosen?: string; error?: string },
): ConsoleView {
  const r = reportsStrings(viewer.language);
  const id = input.data.reportid;
  const chosen = input.chosen ?? input.data.language;
  const languages = input.variant?.languages ?? [];
  return {
    template: 'console/report-language',
    model: {
      ...chrome(viewer, 'reports'),
      r,
      title: fill(r.languageTitle, { id }),
      errors: input.error ? [{ href: '#language', text: input.error }] : undefined,
      error: input.error,
      action: `/console/reports/${id}/language`,
      back: `/console/reports/${id}`,
      options: languages.map((language) => ({
        value: language,
        text: languageName(viewer, language),
        selected: language === chosen,
      })),
    },
  };
}

/** The delete confirmation page; an error (a group report uses it) from the service. */
export function reportDeleteView(viewer: Viewer, input: { data: ReportData; error?: string }): ConsoleView {
  const r = reportsStrings(viewer.language);
  const id = input.data.reportid;
  return {
    template: 'console/report-delete',
    model: {
      ...chrome(viewer, 'reports'),
      r,
      title: fill(r.deleteTitle, { id }),
      errors: input.error ? [{ href: '#delete', text: input.error }] : undefined,
      warning: fill(r.deleteWarning, { id, name: subjectOf(input.data) || r.noSubject }),
      action: `/console/reports/${id}/delete`,
      back: `/console/reports/${id}`,
    },
  };
}
