import { verbatims } from '../variants/scoring.js';
import type { Language, LikertQuestion, Variant } from '../variants/variant.types.js';
import type { GroupReportInput, GroupReportSheet } from './group-input.js';
import { isExcluded, memberName, round1, scoreRow, seededShuffle } from './group-model.js';
import {
  type FeedbackRole,
  type GroupLabels,
  groupLabelsFor,
  labelsFor,
  type ReportLabels,
} from './labels.js';
import {
  type BandLegend,
  bandLegends,
  clean,
  footerLine,
  formatDay,
  numberFormat,
  type ScoreRow,
  scoreOf,
  variantText,
} from './report-model.js';

/**
 * The anonymity minimum of a 360: a rater group other than those in `EXEMPT_GROUPS` with fewer
 * responses than this is left out of everything the report shows, the "all others" mean included.
 */
export const MIN_GROUP_RESPONSES = 3;
/** Shown from a single response: the subject, and the manager (whose answers raters are told can be recognised). */
export const EXEMPT_GROUPS: readonly string[] = ['self', 'manager'];
/** The group of raters whose role is unknown (or missing); under the same minimum as any other. */
export const OTHER_GROUP = 'other';
/** Self minus others under this many points (0-100; half a step on a five-point scale): aligned. */
export const GAP_ALIGNED_BELOW = 12.5;
/** From this many points (a full step on a five-point scale) a gap is large. */
export const GAP_LARGE_FROM = 25;
/** An "all others" mean from this (0-100; an average answer of 4 on 1-5) is a strength. */
export const STRENGTH_FROM = 75;
/** An "all others" mean below this (an average answer under 3 on 1-5) is a development area. */
export const DEVELOPMENT_BELOW = 50;

const FEEDBACK_ROLES: readonly FeedbackRole[] = ['self', 'manager', 'peer', 'directreport'];

export interface RaterGroup {
  /** `self`, a role (`manager`, `peer`, `directreport`, or another role of the variant) or `other`. */
  readonly code: string;
  readonly label: string;
  /** Responses received. */
  readonly n: number;
  /** Shown in the report: it has responses and meets the minimum or is exempt from it. */
  readonly shown: boolean;
  /** Has responses but too few: left out everywhere. */
  readonly suppressed: boolean;
}

export interface GroupScore {
  readonly group: string;
  /** The group's mean (one decimal) as a chart row named after the group. */
  readonly row: ScoreRow;
  /** How many raters of the group have a score on the dimension. */
  readonly n: number;
}

export type GapKind = 'aligned' | 'blindSpot' | 'hiddenStrength';

export interface Gap {
  /** Self minus all others, in points on the 0-100 scale (from the one-decimal scores). */
  readonly value: number;
  /** "+12.5", "−3.0". */
  readonly text: string;
  readonly kind: GapKind;
  readonly size: 'aligned' | 'moderate' | 'large';
  /** "Blind spot (large)", "Aligned". */
  readonly label: string;
}

export interface FeedbackDimension {
  readonly code: string;
  readonly name: string;
  readonly description: string;
  /** Self, then each shown rater group, then all others: the rows of the dimension's chart. */
  readonly rows: readonly ScoreRow[];
  readonly self: ScoreRow | undefined;
  readonly groups: readonly GroupScore[];
  /** The mean over every rater in a shown group (each rater counts once); never a suppressed one. */
  readonly others: GroupScore;
  readonly gap: Gap | undefined;
}

export interface ItemRow {
  readonly group: string;
  readonly label: string;
  readonly n: number;
  /** Mean answer as given (not reversed), one decimal place as text. */
  readonly mean: number | undefined;
  readonly meanText: string;
  /** Answers per scale point, in the order of `ItemDetail.points`. */
  readonly counts: readonly number[];
}

export interface ItemDetail {
  readonly code: string;
  readonly question: string;
  readonly reverse: boolean;
  readonly points: readonly number[];
  readonly rows: readonly ItemRow[];
}

export interface CommentGroup {
  readonly group: string;
  readonly label: string;
  readonly answers: readonly string[];
}

export interface CommentBlock {
  readonly code: string;
  readonly question: string;
  readonly groups: readonly CommentGroup[];
}

/** Everything a 360 feedback report prints, already stripped of every group below the minimum. */
export interface FeedbackModel {
  readonly labels: ReportLabels;
  readonly group: GroupLabels;
  readonly title: string;
  readonly subjectName: string;
  readonly reportName: string;
  readonly dateText: string;
  readonly variantName: string;
  readonly variantDescription: string;
  readonly agencyName: string;
  readonly agencyFooter: string;
  readonly instanceName: string;
  readonly reportId: string;
  /** Raters (every response other than the subject's own). */
  readonly raters: number;
  readonly respondentsLabel: string;
  readonly dimensionsHeading: string;
  readonly scoreLabel: string;
  readonly footer: string;
  readonly bands: readonly BandLegend[];
  /** Every rater group, for the participation table: self first, then the roles, then `other`. */
  readonly participation: readonly RaterGroup[];
  readonly suppressed: readonly RaterGroup[];
  /** The shown groups other than self, in participation order. */
  readonly shownGroups: readonly RaterGroup[];
  readonly allOthersLabel: string;
  readonly dimensions: readonly FeedbackDimension[];
  readonly strengths: readonly FeedbackDimension[];
  readonly development: readonly FeedbackDimension[];
  /** The answer scale's points and their labels, for the item detail's legend. */
  readonly scaleLegend: readonly { readonly point: number; readonly label: string }[];
  readonly items: readonly ItemDetail[];
  readonly commentsHeading: string;
  readonly comments: readonly CommentBlock[];
}

/** A 360 report: type `group` with the subject's own report as `master`. */
export function isFeedback(
  input: GroupReportInput,
): input is GroupReportInput & { master: GroupReportSheet } {
  return input.type === 'group' && input.master !== undefined;
}

/**
 * The rater group of a rater's role: a role of the variant or one of the 360 roles keeps its name;
 * no role, an unknown one, or `self` on someone else's sheet counts as `other`.
 */
export function raterGroupOf(variant: Variant, role: string | undefined): string {
  if (role === undefined) return OTHER_GROUP;
  const code = role.trim();
  if (code === '' || code === 'self' || code === OTHER_GROUP) return OTHER_GROUP;
  const known =
    variant.roles.some((r) => r.role === code) || (FEEDBACK_ROLES as readonly string[]).includes(code);
  return known ? code : OTHER_GROUP;
}

/**
 * The rater groups of a 360 in participation order (self, the variant's rater roles, other 360
 * roles that answered, other), each shown or left out by the anonymity minimum. The report and the
 * console's check before making one (group.service.ts `planGroupReport`) both read it from here.
 * `raters` counts the raters' reports per rater group (`raterGroupOf`); self is the master.
 */
export function raterParticipation(
  variant: Variant,
  language: Language,
  raters: ReadonlyMap<string, number>,
): RaterGroup[] {
  const group = groupLabelsFor(language);
  const texts = variant.texts[language] ?? {};
  const groupLabel = (code: string): string => {
    if (code === OTHER_GROUP) return group.other;
    const own = texts[`role.${code}`];
    if (own !== undefined && own !== '') return own;
    return (group.roles as Record<string, string>)[code] ?? code;
  };
  const order = ['self'];
  for (const role of variant.roles) if (role.role !== 'self') order.push(role.role);
  for (const role of FEEDBACK_ROLES) if (!order.includes(role) && raters.has(role)) order.push(role);
  if (raters.has(OTHER_GROUP)) order.push(OTHER_GROUP);
  return order.map((code) => {
    const n = code === 'self' ? 1 : (raters.get(code) ?? 0);
    const exempt = EXEMPT_GROUPS.includes(code);
    const enough = n > 0 && (exempt || n >= MIN_GROUP_RESPONSES);
    return { code, label: groupLabel(code), n, shown: enough, suppressed: n > 0 && !enough };
  });
}

export function buildFeedbackModel(input: GroupReportInput & { master: GroupReportSheet }): FeedbackModel {
  const { variant, language, master } = input;
  const text = variantText(variant, language);
  const labels = labelsFor(language);
  const group = groupLabelsFor(language);
  const format = numberFormat(labels.locale, 1);
  const texts = variant.texts[language] ?? {};

  // The subject's own report never counts as a rater, even when it was selected as one too.
  const raters = input.sheets.filter((sheet) => sheet.reportId !== master.reportId);
  const sheetsByGroup = new Map<string, GroupReportSheet[]>();
  for (const sheet of raters) {
    const code = raterGroupOf(variant, sheet.role);
    let list = sheetsByGroup.get(code);
    if (list === undefined) {
      list = [];
      sheetsByGroup.set(code, list);
    }
    list.push(sheet);
  }

  const participation = raterParticipation(
    variant,
    language,
    new Map([...sheetsByGroup].map(([code, sheets]) => [code, sheets.length])),
  );
  const selfLabel = participation[0]?.label ?? group.roles.self;
  const shownGroups = participation.filter((g) => g.shown && g.code !== 'self');
  // Only the sheets of shown groups are read from here on: a suppressed group cannot leak into any
  // mean, count, distribution or comment, and so cannot be recovered by subtraction either.
  const shownSheets = new Map(shownGroups.map((g) => [g.code, sheetsByGroup.get(g.code) ?? []]));
  const others = shownGroups.flatMap((g) => shownSheets.get(g.code) ?? []);

  const meanScore = (
    sheets: readonly GroupReportSheet[],
    code: string,
  ): { mean: number | undefined; n: number } => {
    let sum = 0;
    let n = 0;
    for (const sheet of sheets) {
      const score = scoreOf(sheet.processed[`${code}_score`]);
      if (score === undefined) continue;
      sum += score;
      n++;
    }
    return { mean: n === 0 ? undefined : round1(sum / n), n };
  };

  const allOthersLabel = group.allOthers;
  const dimensions = variant.dimensions.map((dimension): FeedbackDimension => {
    const { code } = dimension;
    const selfScore = scoreOf(master.processed[`${code}_score`]);
    const self = scoreRow(variant, selfLabel, selfScore, format, text, labels);
    const groups = shownGroups.map((g): GroupScore => {
      const { mean, n } = meanScore(shownSheets.get(g.code) ?? [], code);
      return { group: g.code, row: scoreRow(variant, g.label, mean, format, text, labels), n };
    });
    const all = meanScore(others, code);
    const othersScore: GroupScore = {
      group: 'others',
      row: scoreRow(variant, allOthersLabel, all.mean, format, text, labels),
      n: all.n,
    };
    return {
      code,
      name: text(`dimension.${code}.name`),
      description: text(`dimension.${code}.description`),
      rows: [self, ...groups.map((g) => g.row), ...(others.length > 0 ? [othersScore.row] : [])],
      self,
      groups,
      others: othersScore,
      gap:
        selfScore === undefined || all.mean === undefined
          ? undefined
          : gapOf(round1(selfScore - all.mean), group, labels.locale),
    };
  });

  const rated = dimensions.filter((d) => d.others.row.score !== undefined);
  const othersMean = (d: FeedbackDimension): number => d.others.row.score as number;
  const strengths = rated
    .filter((d) => othersMean(d) >= STRENGTH_FROM)
    .sort((a, b) => othersMean(b) - othersMean(a));
  const development = rated
    .filter((d) => othersMean(d) < DEVELOPMENT_BELOW)
    .sort((a, b) => othersMean(a) - othersMean(b));

  const itemGroups: { code: string; label: string; sheets: readonly GroupReportSheet[] }[] = [
    { code: 'self', label: selfLabel, sheets: [master] },
    ...shownGroups.map((g) => ({ code: g.code, label: g.label, sheets: shownSheets.get(g.code) ?? [] })),
    ...(others.length > 0 ? [{ code: 'others', label: allOthersLabel, sheets: others }] : []),
  ];
  const likerts = variant.questions.filter((q): q is LikertQuestion => q.type === 'likert');
  const items = likerts.map((question) => itemDetail(variant, question, language, itemGroups, format));
  const firstScale = likerts[0] === undefined ? undefined : variant.scales[likerts[0].scale];

  const commentGroups = itemGroups.filter((g) => g.code !== 'others');
  const comments: CommentBlock[] = [];
  for (const question of variant.questions) {
    if (question.type !== 'text') continue;
    const groups: CommentGroup[] = [];
    for (const g of commentGroups) {
      const answers: string[] = [];
      for (const sheet of g.sheets) {
        for (const { code, answer } of verbatims(variant, sheet.processed)) {
          if (code === question.code && !isExcluded(input.excludedVerbatims, sheet.reportId, code)) {
            answers.push(answer.normalize('NFC'));
          }
        }
      }
      if (answers.length > 0) {
        groups.push({
          group: g.code,
          label: g.label,
          answers: seededShuffle(answers, `${input.reportId}:${question.code}:${g.code}`),
        });
      }
    }
    if (groups.length > 0) {
      comments.push({ code: question.code, question: question.texts[language] ?? '', groups });
    }
  }

  return {
    labels,
    group,
    title: text('report.personal.title'),
    subjectName: memberName(master),
    reportName: clean(input.name),
    dateText: formatDay(input.date, labels.locale),
    variantName: text('variant.name'),
    variantDescription: text('variant.description'),
    agencyName: clean(input.agency.name),
    agencyFooter: footerLine(input.agency.footer),
    instanceName: clean(input.instanceName ?? ''),
    reportId: clean(input.reportId),
    raters: raters.length,
    respondentsLabel: text('report.respondents.label'),
    dimensionsHeading: text('report.dimensions.heading'),
    scoreLabel: text('report.score.label'),
    footer: text('report.footer'),
    bands: bandLegends(variant, text, labels.locale),
    participation,
    suppressed: participation.filter((g) => g.suppressed),
    shownGroups,
    allOthersLabel,
    dimensions,
    strengths,
    development,
    scaleLegend: (firstScale?.points ?? []).map((point) => ({
      point,
      label: texts[`scale.${firstScale?.code}.${point}`] ?? String(point),
    })),
    items,
    commentsHeading: text('report.verbatims.heading'),
    comments,
  };
}

function gapOf(value: number, labels: GroupLabels, locale: string): Gap {
  const size =
    Math.abs(value) < GAP_ALIGNED_BELOW
      ? 'aligned'
      : Math.abs(value) >= GAP_LARGE_FROM
        ? 'large'
        : 'moderate';
  const kind: GapKind = size === 'aligned' ? 'aligned' : value > 0 ? 'blindSpot' : 'hiddenStrength';
  const name =
    kind === 'aligned' ? labels.aligned : kind === 'blindSpot' ? labels.blindSpot : labels.hiddenStrength;
  const format = signedFormat(locale);
  return {
    value,
    // Intl writes "-3"; a real minus sign reads better and does not break from its number.
    text: format.format(value).replace('-', '\u2212'),
    kind,
    size,
    label: size === 'aligned' ? name : `${name} (${size === 'large' ? labels.large : labels.moderate})`,
  };
}

function itemDetail(
  variant: Variant,
  question: LikertQuestion,
  language: GroupReportInput['language'],
  groups: readonly { code: string; label: string; sheets: readonly GroupReportSheet[] }[],
  format: Intl.NumberFormat,
): ItemDetail {
  const scale = variant.scales[question.scale];
  const points = scale?.points ?? [];
  const reverse = question.dimension !== undefined && question.keyed === '-';
  const flip = (scale?.min ?? 0) + (scale?.max ?? 0);
  const rows = groups.map((g): ItemRow => {
    const counts = points.map(() => 0);
    let sum = 0;
    let n = 0;
    for (const sheet of g.sheets) {
      const stored = sheet.processed[question.code];
      if (typeof stored !== 'number') continue;
      // Stored with the keying applied: shown as the rater answered the statement.
      const answer = reverse ? flip - stored : stored;
      const index = points.indexOf(answer);
      if (index < 0) continue;
      (counts[index] as number)++;
      sum += answer;
      n++;
    }
    const mean = n === 0 ? undefined : Math.round((sum / n) * 10) / 10;
    return {
      group: g.code,
      label: g.label,
      n,
      mean,
      meanText: mean === undefined ? '–' : format.format(mean),
      counts,
    };
  });
  return { code: question.code, question: question.texts[language] ?? question.code, reverse, points, rows };
}

const signedFormats = new Map<string, Intl.NumberFormat>();

function signedFormat(locale: string): Intl.NumberFormat {
  let format = signedFormats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      signDisplay: 'exceptZero',
    });
    signedFormats.set(locale, format);
  }
  return format;
}
