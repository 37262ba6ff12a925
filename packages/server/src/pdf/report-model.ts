import { parseDate } from '../util/dates.js';
import { bandOf, verbatims } from '../variants/scoring.js';
import type { Band, Language, Variant } from '../variants/variant.types.js';
import { labelsFor, type ReportLabels } from './labels.js';
import type { PersonalReportInput } from './report-input.js';

/** One bar of a chart: a dimension or a facet with its score, if it has one. */
export interface ScoreRow {
  readonly name: string;
  /** 0-100, or undefined when the sheet has no score for it (no answers). */
  readonly score: number | undefined;
  readonly band: string | undefined;
  /** "54.2" or "54,2": the number printed beside the bar. */
  readonly scoreText: string;
  /** `band.<band>` ("Average"), or the "no answers" label. */
  readonly bandLabel: string;
}

export interface DimensionSection {
  readonly row: ScoreRow;
  readonly description: string;
  /** `dimension.<code>.band.<band>`; empty without a score. */
  readonly interpretation: string;
  readonly facets: readonly ScoreRow[];
}

/** A free-text answer of the member, under the question that asked for it. */
export interface Comment {
  readonly question: string;
  readonly answer: string;
}

export interface BandLegend {
  readonly code: string;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  /** "0–39.9": the scores that fall in it (scores have one decimal; a boundary belongs to the band above). */
  readonly range: string;
}

/** Everything the layout prints, in the report's language; built without touching the PDF. */
export interface PersonalReportModel {
  readonly labels: ReportLabels;
  readonly title: string;
  readonly fullName: string;
  readonly dateText: string;
  readonly variantName: string;
  readonly variantDescription: string;
  readonly agencyName: string;
  readonly agencyFooter: string;
  readonly instanceName: string;
  readonly reportId: string;
  readonly intro: string;
  readonly dimensionsHeading: string;
  readonly facetsHeading: string;
  readonly scoreLabel: string;
  readonly footer: string;
  readonly bands: readonly BandLegend[];
  readonly dimensions: readonly DimensionSection[];
  readonly commentsHeading: string;
  readonly comments: readonly Comment[];
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function buildReportModel(input: PersonalReportInput): PersonalReportModel {
  const { variant, language, processed } = input;
  const texts = variant.texts[language];
  if (texts === undefined) {
    throw new Error(`variant "${variant.alias}" has no ${language} texts`);
  }
  // The loader guarantees every key in every language; the key itself is a visible fallback.
  const text = (key: string): string => texts[key] ?? key;
  const labels = labelsFor(language);
  const format = numberFormat(labels.locale, 1);
  const bandCodes = new Set(variant.bands.map((band) => band.code));

  const row = (code: string, nameKey: string): ScoreRow => {
    const score = scoreOf(processed[`${code}_score`]);
    if (score === undefined) {
      return { name: text(nameKey), score, band: undefined, scoreText: '–', bandLabel: labels.noScore };
    }
    const stored = processed[`${code}_band`];
    // The stored band is authoritative (bands may have been adjusted since); recompute only if unknown.
    const band = typeof stored === 'string' && bandCodes.has(stored) ? stored : bandOf(variant.bands, score);
    return {
      name: text(nameKey),
      score,
      band,
      scoreText: format.format(score),
      bandLabel: text(`band.${band}`),
    };
  };

  return {
    labels,
    title: text('report.personal.title'),
    fullName: fullName(input.member),
    dateText: formatDay(input.date, labels.locale),
    variantName: text('variant.name'),
    variantDescription: text('variant.description'),
    agencyName: clean(input.agency.name),
    agencyFooter: footerLine(input.agency.footer),
    instanceName: clean(input.instanceName ?? ''),
    reportId: clean(input.reportId),
    intro: text('report.personal.intro'),
    dimensionsHeading: text('report.dimensions.heading'),
    facetsHeading: text('report.facets.heading'),
    scoreLabel: text('report.score.label'),
    footer: text('report.footer'),
    bands: variant.bands.map((band, i) =>
      legend(band, i === variant.bands.length - 1, text, numberFormat(labels.locale, 0)),
    ),
    dimensions: variant.dimensions.map((dimension) => {
      const dimensionRow = row(dimension.code, `dimension.${dimension.code}.name`);
      return {
        row: dimensionRow,
        description: text(`dimension.${dimension.code}.description`),
        interpretation:
          dimensionRow.band === undefined
            ? ''
            : text(`dimension.${dimension.code}.band.${dimensionRow.band}`),
        facets: dimension.facets.map((facet) => row(facet, `facet.${facet}.name`)),
      };
    }),
    commentsHeading: text('report.verbatims.heading'),
    comments: verbatims(variant, processed).map(({ code, answer }) => ({
      question: variant.questions.find((question) => question.code === code)?.texts[language] ?? '',
      answer: answer.normalize('NFC'),
    })),
  };
}

/** "Dr. Zoë van Ørsted": the parts that are present, in the order a letter would address them. */
export function fullName(member: PersonalReportInput['member']): string {
  return [member.title, member.firstname, member.middlename, member.lastname]
    .map(clean)
    .filter((part) => part !== '')
    .join(' ');
}

/** The day of a wire date written out ("22 November 2026" style); the text as given if it is not one. */
export function formatDay(wire: string, locale: string): string {
  const date = parseDate(wire);
  if (date === undefined) return clean(wire);
  let format = dateFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}

/**
 * The variant's texts in `language` as a lookup that falls back to the key itself (visible, never
 * blank); throws when the variant has no texts in that language.
 */
export function variantText(variant: Variant, language: Language): (key: string) => string {
  const texts = variant.texts[language];
  if (texts === undefined) {
    throw new Error(`variant "${variant.alias}" has no ${language} texts`);
  }
  return (key: string): string => texts[key] ?? key;
}

/** The legend of the variant's bands ("Low 0–39.9"), in the language of `text` and `locale`. */
export function bandLegends(variant: Variant, text: (key: string) => string, locale: string): BandLegend[] {
  return variant.bands.map((band, i) =>
    legend(band, i === variant.bands.length - 1, text, numberFormat(locale, 0)),
  );
}

export function legend(
  band: Band,
  last: boolean,
  text: (key: string) => string,
  format: Intl.NumberFormat,
): BandLegend {
  const upper = last ? band.max : Math.max(band.min, band.max - 0.1);
  return {
    code: band.code,
    label: text(`band.${band.code}`),
    min: band.min,
    max: band.max,
    range: `${format.format(band.min)}–${format.format(upper)}`,
  };
}

/** A stored score as a number clamped to 0-100, or undefined when there is none. */
export function scoreOf(value: number | string | undefined): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  return Math.min(100, Math.max(0, n));
}

// NFC so that a name typed with combining accents lays out (and extracts) like the composed one;
// runs of white space, including line breaks from a form, become one space.
export function clean(value: string): string {
  return value.normalize('NFC').replace(/\s+/g, ' ').trim();
}

// The agency's footer may hold an address over a few lines: in a page footer it reads better, and
// takes less room, as one line with its parts separated.
export function footerLine(value: string): string {
  return value
    .split(/\r?\n/)
    .map(clean)
    .filter((line) => line !== '')
    .join(' · ');
}

/**
 * Scores always with one decimal, as scoring rounds them (a column of "50.0" and "41.7" reads
 * evenly); band limits with as few as needed ("0–39.9", "60–100").
 */
export function numberFormat(locale: string, minimumFractionDigits: 0 | 1): Intl.NumberFormat {
  const key = `${locale} ${minimumFractionDigits}`;
  let format = numberFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits: 1 });
    numberFormats.set(key, format);
  }
  return format;
}
