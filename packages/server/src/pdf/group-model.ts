import { bandOf, verbatims } from '../variants/scoring.js';
import type { Variant } from '../variants/variant.types.js';
import type { GroupReportInput, GroupReportSheet } from './group-input.js';
import { type GroupLabels, groupLabelsFor, labelsFor, type ReportLabels } from './labels.js';
import {
  type BandLegend,
  bandLegends,
  clean,
  footerLine,
  formatDay,
  fullName,
  numberFormat,
  type ScoreRow,
  scoreOf,
  variantText,
} from './report-model.js';

/** A member's score on one dimension, for the named list under its distribution. */
export interface MemberScore {
  readonly name: string;
  readonly score: number;
  readonly scoreText: string;
  readonly band: string;
}

export interface BandCount {
  readonly code: string;
  readonly label: string;
  readonly count: number;
  /** "30%" (or "30 %"), the share of the members with a score. */
  readonly percentText: string;
}

/** The spread of the group's scores on one dimension; empty (`n` 0) without any score. */
export interface DimensionStats {
  /** How many members have a score on it. */
  readonly n: number;
  readonly mean: number | undefined;
  readonly median: number | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
  /** The sample standard deviation; undefined under two scores. */
  readonly sd: number | undefined;
  readonly meanText: string;
  readonly medianText: string;
  /** "12.5–87.5". */
  readonly rangeText: string;
  readonly sdText: string;
  readonly bandCounts: readonly BandCount[];
  /** Every score, ascending: what the distribution chart plots. */
  readonly scores: readonly number[];
  /** Tight under 10 points of standard deviation, wide from 20 (from three scores on). */
  readonly spread: 'tight' | 'moderate' | 'wide' | undefined;
}

export interface GroupDimension {
  readonly code: string;
  /** The group mean as a chart row: name, mean, band of the mean. */
  readonly row: ScoreRow;
  readonly description: string;
  readonly stats: DimensionStats;
  /** Every member with a score, highest first (ties by name); empty in the anonymous report. */
  readonly members: readonly MemberScore[];
  /** The group mean per facet. */
  readonly facets: readonly ScoreRow[];
}

/** The free-text answers to one question; `name` is empty in the anonymous report. */
export interface VerbatimBlock {
  readonly code: string;
  readonly question: string;
  readonly answers: readonly { readonly answer: string; readonly name: string }[];
}

/** Everything a group, anonymous group, condensed or complete report prints; no PDF involved. */
export interface GroupReportModel {
  readonly type: GroupReportInput['type'];
  /** No member's name anywhere: text, tables, alternative texts and metadata. */
  readonly anonymous: boolean;
  readonly labels: ReportLabels;
  readonly group: GroupLabels;
  readonly title: string;
  /** The report's own name, as given; may be empty. */
  readonly reportName: string;
  readonly dateText: string;
  readonly variantName: string;
  readonly variantDescription: string;
  readonly agencyName: string;
  readonly agencyFooter: string;
  readonly instanceName: string;
  readonly reportId: string;
  readonly respondents: number;
  readonly respondentsLabel: string;
  readonly intro: string;
  readonly dimensionsHeading: string;
  readonly facetsHeading: string;
  readonly scoreLabel: string;
  readonly footer: string;
  readonly bands: readonly BandLegend[];
  /** Per dimension its statistics; empty for `condensed`, whose table buildCondensedModel makes. */
  readonly dimensions: readonly GroupDimension[];
  readonly commentsHeading: string;
  /** Empty for `condensed`. */
  readonly verbatims: readonly VerbatimBlock[];
}

/** One cell of the condensed table: the score and its band's letter. */
export interface CondensedCell {
  readonly score: number | undefined;
  readonly band: string | undefined;
  /** "54.2", or "–" without a score. */
  readonly text: string;
  /** The band's letter ("A"); empty without a score. */
  readonly key: string;
}

export interface CondensedModel {
  readonly columns: readonly { readonly code: string; readonly name: string }[];
  /** One row per member, by name. */
  readonly rows: readonly { readonly name: string; readonly cells: readonly CondensedCell[] }[];
  readonly mean: readonly CondensedCell[];
  /** The band letters, in the variant's band order: "L = Low". */
  readonly bandKeys: readonly { readonly code: string; readonly key: string; readonly label: string }[];
}

/** A standard deviation under this many points (0-100) reads as a tight cluster. */
export const TIGHT_SPREAD_BELOW = 10;
/** A standard deviation from this many points (0-100) reads as a wide spread. */
export const WIDE_SPREAD_FROM = 20;

/** Which report types name no one. */
export function isAnonymous(type: GroupReportInput['type']): boolean {
  return type === 'groupanon';
}

export function buildGroupModel(input: GroupReportInput): GroupReportModel {
  const { variant, language, sheets } = input;
  const text = variantText(variant, language);
  const labels = labelsFor(language);
  const group = groupLabelsFor(language);
  const anonymous = isAnonymous(input.type);
  const format = numberFormat(labels.locale, 1);
  const percent = percentFormat(labels.locale);
  const names = anonymous || input.type === 'condensed' ? [] : sheets.map(memberName);

  // The condensed report prints its own table (buildCondensedModel) and none of the sections.
  const detailed = input.type !== 'condensed';
  const dimensions = (detailed ? variant.dimensions : []).map((dimension): GroupDimension => {
    const stats = statsOf(variant, sheets, dimension.code, format, percent, text);
    const name = text(`dimension.${dimension.code}.name`);
    const row = scoreRow(variant, name, stats.mean, format, text, labels);
    return {
      code: dimension.code,
      row,
      description: text(`dimension.${dimension.code}.description`),
      stats,
      members: anonymous ? [] : membersOf(sheets, names, dimension.code, format, variant, labels.locale),
      facets: dimension.facets.map((facet) =>
        scoreRow(variant, text(`facet.${facet}.name`), meanOf(sheets, facet), format, text, labels),
      ),
    };
  });

  const titleKey = `report.${input.type}.title`;
  return {
    type: input.type,
    anonymous,
    labels,
    group,
    title: text(titleKey),
    reportName: clean(input.name),
    dateText: formatDay(input.date, labels.locale),
    variantName: text('variant.name'),
    variantDescription: text('variant.description'),
    agencyName: clean(input.agency.name),
    agencyFooter: footerLine(input.agency.footer),
    instanceName: clean(input.instanceName ?? ''),
    reportId: clean(input.reportId),
    respondents: sheets.length,
    respondentsLabel: text('report.respondents.label'),
    intro: text(anonymous ? 'report.groupanon.intro' : 'report.group.intro'),
    dimensionsHeading: text('report.dimensions.heading'),
    facetsHeading: text('report.facets.heading'),
    scoreLabel: text('report.score.label'),
    footer: text('report.footer'),
    bands: bandLegends(variant, text, labels.locale),
    dimensions,
    commentsHeading: text('report.verbatims.heading'),
    verbatims: detailed ? verbatimBlocks(input, names, anonymous) : [],
  };
}

/** The members x dimensions table of the condensed report, rows by name. */
export function buildCondensedModel(input: GroupReportInput): CondensedModel {
  const { variant, language, sheets } = input;
  const text = variantText(variant, language);
  const { locale } = labelsFor(language);
  const format = numberFormat(locale, 1);
  const bandKeys = bandLetters(
    variant.bands.map((band) => ({ code: band.code, label: text(`band.${band.code}`) })),
  );
  const keyOf = new Map(bandKeys.map((band) => [band.code, band.key]));
  const cell = (score: number | undefined, band: string | undefined): CondensedCell => {
    if (score === undefined || band === undefined)
      return { score: undefined, band: undefined, text: '–', key: '' };
    return { score, band, text: format.format(score), key: keyOf.get(band) ?? '' };
  };
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const rows = sheets
    .map((sheet) => ({
      name: memberName(sheet),
      cells: variant.dimensions.map((d) => {
        const score = scoreOf(sheet.processed[`${d.code}_score`]);
        return cell(score, score === undefined ? undefined : sheetBand(variant, sheet, d.code, score));
      }),
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
  const mean = variant.dimensions.map((_, i) => {
    let sum = 0;
    let n = 0;
    for (const row of rows) {
      const score = row.cells[i]?.score;
      if (score !== undefined) {
        sum += score;
        n++;
      }
    }
    const score = n === 0 ? undefined : round1(sum / n);
    return cell(score, score === undefined ? undefined : bandOf(variant.bands, score));
  });
  return {
    columns: variant.dimensions.map((d) => ({ code: d.code, name: text(`dimension.${d.code}.name`) })),
    rows,
    mean,
    bandKeys,
  };
}

/**
 * The shortest distinct prefix of each band's name, upper case ("L", "A", "H"; "Ba", "Be" when two
 * start alike); a band whose name gives none gets its position.
 */
export function bandLetters(
  bands: readonly { readonly code: string; readonly label: string }[],
): { code: string; key: string; label: string }[] {
  const letters = bands.map((band) => [...band.label.normalize('NFC').replace(/\s+/g, '')]);
  const longest = Math.max(1, ...letters.map((l) => l.length));
  for (let length = 1; length <= longest; length++) {
    const keys = letters.map((l) => l.slice(0, length).join('').toLocaleUpperCase());
    if (keys.every((key) => key !== '') && new Set(keys).size === keys.length) {
      return bands.map((band, i) => ({ code: band.code, key: keys[i] as string, label: band.label }));
    }
  }
  return bands.map((band, i) => ({ code: band.code, key: String(i + 1), label: band.label }));
}

/** The member's name as printed; the report id stands in for a member without any name. */
export function memberName(sheet: GroupReportSheet): string {
  const name = fullName(sheet.member);
  return name === '' ? clean(sheet.reportId) : name;
}

/** A mean (or a single score) as a chart row, its band worked out from the value. */
export function scoreRow(
  variant: Variant,
  name: string,
  score: number | undefined,
  format: Intl.NumberFormat,
  text: (key: string) => string,
  labels: ReportLabels,
): ScoreRow {
  if (score === undefined) return { name, score, band: undefined, scoreText: '–', bandLabel: labels.noScore };
  const band = bandOf(variant.bands, score);
  return { name, score, band, scoreText: format.format(score), bandLabel: text(`band.${band}`) };
}

/** The sheet's stored band for `code` (authoritative, as in the personal report), or the score's. */
export function sheetBand(variant: Variant, sheet: GroupReportSheet, code: string, score: number): string {
  return storedBand(variant, sheet.processed[`${code}_band`], score);
}

function storedBand(variant: Variant, stored: number | string | undefined, score: number): string {
  if (typeof stored === 'string') {
    for (const band of variant.bands) if (band.code === stored) return stored;
  }
  return bandOf(variant.bands, score);
}

/** The mean score of the sheets that have one, to one decimal; undefined when none has. */
export function meanOf(sheets: readonly GroupReportSheet[], code: string): number | undefined {
  const key = `${code}_score`;
  let sum = 0;
  let n = 0;
  for (const sheet of sheets) {
    const score = scoreOf(sheet.processed[key]);
    if (score === undefined) continue;
    sum += score;
    n++;
  }
  return n === 0 ? undefined : round1(sum / n);
}

/** Rounded to one decimal, as scoring rounds scores (so a mean prints and compares as shown). */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function statsOf(
  variant: Variant,
  sheets: readonly GroupReportSheet[],
  code: string,
  format: Intl.NumberFormat,
  percent: Intl.NumberFormat,
  text: (key: string) => string,
): DimensionStats {
  const key = `${code}_score`;
  const bandKey = `${code}_band`;
  const scores: number[] = [];
  const counts = new Map(variant.bands.map((band) => [band.code, 0]));
  let sum = 0;
  for (const sheet of sheets) {
    const score = scoreOf(sheet.processed[key]);
    if (score === undefined) continue;
    scores.push(score);
    sum += score;
    const band = storedBand(variant, sheet.processed[bandKey], score);
    counts.set(band, (counts.get(band) ?? 0) + 1);
  }
  scores.sort((a, b) => a - b);
  const n = scores.length;
  const bandCounts = variant.bands.map((band) => {
    const count = counts.get(band.code) ?? 0;
    return {
      code: band.code,
      label: text(`band.${band.code}`),
      count,
      percentText: percent.format(n === 0 ? 0 : count / n),
    };
  });
  if (n === 0) {
    return {
      n,
      mean: undefined,
      median: undefined,
      min: undefined,
      max: undefined,
      sd: undefined,
      meanText: '–',
      medianText: '–',
      rangeText: '–',
      sdText: '–',
      bandCounts,
      scores,
      spread: undefined,
    };
  }
  const exactMean = sum / n;
  let squares = 0;
  for (const score of scores) squares += (score - exactMean) ** 2;
  const sd = n < 2 ? undefined : round1(Math.sqrt(squares / (n - 1)));
  const middle = n >> 1;
  const median =
    n % 2 === 1
      ? (scores[middle] as number)
      : round1(((scores[middle - 1] as number) + (scores[middle] as number)) / 2);
  const mean = round1(exactMean);
  const min = scores[0] as number;
  const max = scores[n - 1] as number;
  return {
    n,
    mean,
    median,
    min,
    max,
    sd,
    meanText: format.format(mean),
    medianText: format.format(median),
    rangeText: `${format.format(min)}–${format.format(max)}`,
    sdText: sd === undefined ? '–' : format.format(sd),
    bandCounts,
    scores,
    spread:
      sd === undefined || n < 3
        ? undefined
        : sd < TIGHT_SPREAD_BELOW
          ? 'tight'
          : sd >= WIDE_SPREAD_FROM
            ? 'wide'
            : 'moderate',
  };
}

function membersOf(
  sheets: readonly GroupReportSheet[],
  names: readonly string[],
  code: string,
  format: Intl.NumberFormat,
  variant: Variant,
  locale: string,
): MemberScore[] {
  const key = `${code}_score`;
  const bandKey = `${code}_band`;
  const members: MemberScore[] = [];
  sheets.forEach((sheet, i) => {
    const score = scoreOf(sheet.processed[key]);
    if (score === undefined) return;
    members.push({
      name: names[i] as string,
      score,
      scoreText: format.format(score),
      band: storedBand(variant, sheet.processed[bandKey], score),
    });
  });
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  return members.sort((a, b) => b.score - a.score || collator.compare(a.name, b.name));
}

/**
 * The free-text answers per question, in questionnaire order, minus the excluded ones: in selection
 * order with the writer's name, or (anonymous) shuffled, seeded by the report id, without names.
 */
function verbatimBlocks(
  input: GroupReportInput,
  names: readonly string[],
  anonymous: boolean,
): VerbatimBlock[] {
  const { variant, language, sheets } = input;
  const byCode = new Map<string, { answer: string; name: string }[]>();
  sheets.forEach((sheet, i) => {
    for (const { code, answer } of verbatims(variant, sheet.processed)) {
      if (isExcluded(input.excludedVerbatims, sheet.reportId, code)) continue;
      let list = byCode.get(code);
      if (list === undefined) {
        list = [];
        byCode.set(code, list);
      }
      list.push({ answer: answer.normalize('NFC'), name: anonymous ? '' : (names[i] as string) });
    }
  });
  const blocks: VerbatimBlock[] = [];
  for (const question of variant.questions) {
    const answers = byCode.get(question.code);
    if (answers === undefined) continue;
    blocks.push({
      code: question.code,
      question: question.texts[language] ?? '',
      answers: anonymous ? seededShuffle(answers, `${input.reportId}:${question.code}`) : answers,
    });
  }
  return blocks;
}

/** Whether `excludedVerbatims` leaves out this answer: by `<reportid>:<code>` or the whole report. */
export function isExcluded(excluded: ReadonlySet<string>, reportId: string, code: string): boolean {
  return excluded.has(reportId) || excluded.has(`${reportId}:${code}`);
}

/**
 * A copy of `items` in an order that looks random but is fixed by `seed` (Fisher-Yates driven by
 * mulberry32 over an FNV-1a hash of the seed): the same report prints the same order every time.
 */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  let state = hash >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const percentFormats = new Map<string, Intl.NumberFormat>();

function percentFormat(locale: string): Intl.NumberFormat {
  let format = percentFormats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    percentFormats.set(locale, format);
  }
  return format;
}
