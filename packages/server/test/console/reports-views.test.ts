import type { ReportData } from '@assay/schema';
import { describe, expect, it } from 'vitest';
import { reportsStrings } from '../../src/console/reports-strings.js';
import type { Viewer } from '../../src/console/views/console-view.js';
import {
  barChart,
  reportDeleteView,
  reportLanguageView,
  reportListHref,
  reportListView,
  reportView,
  scoreRows,
} from '../../src/console/views/reports.view.js';
import type { ReportPageRow } from '../../src/reports/reports.repository.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { LANGUAGES } from '../../src/variants/variant.types.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read the models loosely; the assertions check them.
type Model = Record<string, any>;

const variants = loadVariants([builtinVariantsDir()]);
const viewer = (language: Viewer['language'] = 'enUS'): Viewer => ({
  language,
  csrf: 'token',
  path: '/console/reports',
  user: { firstname: 'Ada', lastname: 'Admin', email: 'admin@example.test', role: 'admin' },
});

const row = (seq: number, fields: Partial<ReportPageRow> = {}): ReportPageRow => ({
  seq,
  reportid: `R${String(seq).padStart(9, '0')}`,
  date: '2026-03-01T10:00:00+00:00',
  name: null,
  campaignid: 'Camp123456',
  campaignname: 'Spring <b>',
  type: 'personal',
  variant: 'leadership360',
  language: 'nlNL',
  config: '[]',
  lastopened: null,
  status: 'active',
  tags: '[]',
  testcase: 0,
  memberid: 'Member1234',
  title: null,
  firstname: 'Ada',
  middlename: null,
  lastname: 'Lovelace',
  email: 'ada@example.test',
  memberstatus: 'active',
  ...fields,
});

const data = (fields: Partial<ReportData> = {}): ReportData =>
  ({
    reportid: 'Rep1234567',
    type: 'personal',
    name: null,
    variant: 'leadership360',
    language: 'enUS',
    memberid: 'Member1234',
    firstname: 'Ada',
    middlename: null,
    lastname: 'Lovelace',
    title: null,
    testcase: '0',
    groupid: null,
    groupname: null,
    accesstoken: 'tok',
    campaignid: null,
    config: [],
    status: 'active',
    tags: [],
    token: 'tok',
    thedate: '2026-03-01T10:00:00+00:00',
    alias: null,
    raw: '{}',
    processed: '{}',
    extra: '{}',
    ...fields,
  }) as ReportData;

describe('the report views', () => {
  it('keeps the filters in every page address and leaves out the empty ones', () => {
    expect(reportListHref({})).toBe('/console/reports');
    expect(reportListHref({ variant: 'bigfive', q: 'ada', type: '' }, { after: 12 })).toBe(
      '/console/reports?variant=bigfive&q=ada&after=12',
    );
    expect(reportListHref({ campaign: 'C1' }, { before: 3 })).toBe('/console/reports?campaign=C1&before=3');
  });

  it('lists a page with its subject, campaign filter link and paging', () => {
    const view = reportListView(viewer(), {
      query: { variant: 'leadership360' },
      page: {
        rows: [row(5), row(4, { memberid: null, firstname: null, lastname: null, name: 'Team' })],
        next: 4,
      },
      variants: variants.list(),
    });
    const model = view.model as Model;
    expect(view.template).toBe('console/reports');
    expect(model.nav.find((n: { current: boolean }) => n.current).href).toBe('/console/reports');
    expect(model.rows[0].subject).toBe('Ada Lovelace');
    expect(model.rows[0].language).toBe('Nederlands');
    expect(model.rows[0].campaignHref).toBe('/console/reports?variant=leadership360&campaign=Camp123456');
    expect(model.rows[1].subject).toBe('Team');
    expect(model.caption).toBe('Reports matching the filters, newest first');
    expect(model.variants.find((v: { selected: boolean }) => v.selected).value).toBe('leadership360');
    expect(model.pagination).toEqual({
      previous: undefined,
      next: '/console/reports?variant=leadership360&after=4',
    });
    expect(model.empty).toBeUndefined();
  });

  it('says whether there are no reports at all or none that match', () => {
    const empty = (query: Record<string, string>) =>
      (reportListView(viewer(), { query, page: { rows: [] }, variants: [] }).model as Model).empty;
    expect(empty({})).toBe('There are no reports yet.');
    expect(empty({ q: 'x' })).toBe('No reports match these filters.');
  });

  it('reads the scores of dimensions and facets, in the variant order, with their bands', () => {
    const variant = variants.get('leadership360');
    const dimension = variant?.dimensions[0];
    if (!variant || !dimension) throw new Error('no leadership360');
    const processed = {
      [`${dimension.code}_score`]: 62.5,
      [`${dimension.code}_band`]: variant.bands[0]?.code,
    };
    const rows = scoreRows(variant, processed, 'enUS');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.score).toBe(62.5);
    expect(rows[0]?.name).not.toBe(dimension.code);
    expect(scoreRows(undefined, processed, 'enUS')).toEqual([]);
    expect(scoreRows(variant, { [`${dimension.code}_score`]: 'n/a' }, 'enUS')).toEqual([]);
  });

  it('draws a bar per score, its width the score of the whole, clamped', () => {
    const chart = barChart([
      { code: 'a', name: 'A', facet: false, score: 50, band: '' },
      { code: 'b', name: 'B', facet: true, score: 140, band: '' },
    ]);
    expect(chart.rows.map((bar) => bar.width)).toEqual([150, 300]);
    expect(chart.rows.map((bar) => bar.score)).toEqual(['50', '140']);
    expect(chart.rows[1]?.y).toBe(58);
    expect(chart.rows[1]?.scoreX).toBe(304);
    expect(chart.height).toBe(80);
  });

  it("shows a report's summary, the PDF links, the participant's link and an error", () => {
    const view = reportView(viewer(), {
      data: data(),
      processed: {},
      variant: variants.get('leadership360'),
      campaignName: 'Spring',
      lastOpened: null,
      link: 'https://q.example.test/r/tok',
      error: 'report: gone',
    });
    const model = view.model as Model;
    expect(model.title).toBe('Report Rep1234567');
    expect(model.summary.map((s: { key: string }) => s.key)).toEqual([
      'Member',
      'Campaign',
      'Date',
      'Variant',
      'Language',
      'Type',
      'PDF last opened',
    ]);
    expect(model.pdfHref).toBe('/console/reports/Rep1234567/pdf');
    expect(model.downloadHref).toBe('/console/reports/Rep1234567/pdf?download=1');
    expect(model.errors).toEqual([{ href: '#actions', text: 'report: gone' }]);
    expect(model.chart).toBeUndefined();
  });

  it("offers the variant's languages and puts the error next to the field", () => {
    const model = reportLanguageView(viewer('frFR'), {
      data: data(),
      variant: variants.get('leadership360'),
      chosen: 'deDE',
      error: 'language: must be one of enUS',
    }).model as Model;
    expect(model.options.map((o: { value: string }) => o.value)).toEqual(['enUS', 'nlNL', 'esES', 'frFR']);
    expect(model.options.some((o: { selected: boolean }) => o.selected)).toBe(false);
    expect(model.errors).toEqual([{ href: '#language', text: 'language: must be one of enUS' }]);
  });

  it('names the report and its subject on the delete confirmation', () => {
    const model = reportDeleteView(viewer(), { data: data() }).model as Model;
    expect(model.warning).toBe(
      'Report Rep1234567 about Ada Lovelace will be deleted. This cannot be undone.',
    );
    expect(model.action).toBe('/console/reports/Rep1234567/delete');
  });

  it('has every word in the four console languages', () => {
    const english = reportsStrings('enUS');
    for (const language of LANGUAGES.filter((l) => ['nlNL', 'esES', 'frFR'].includes(l))) {
      const words = reportsStrings(language);
      expect(Object.keys(words).sort()).toEqual(Object.keys(english).sort());
      expect(words.title).not.toBe(english.title);
    }
  });
});
