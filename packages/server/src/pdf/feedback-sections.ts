import { type BarChart, type ChartColumns, chartColumns, measureChart } from './bar-chart.js';
import {
  DEVELOPMENT_BELOW,
  type FeedbackDimension,
  type FeedbackModel,
  GAP_ALIGNED_BELOW,
  GAP_LARGE_FROM,
  MIN_GROUP_RESPONSES,
  STRENGTH_FROM,
} from './feedback-model.js';
import { BOLD, REGULAR } from './fonts.js';
import { keepOrContinue } from './group-sections.js';
import {
  artifact,
  CONTENT_WIDTH,
  drawTable,
  type Flow,
  INK,
  MUTED,
  PAGE,
  STYLES,
  type TableCell,
} from './layout.js';
import { drawBandLegend, drawCoverPage, figure } from './personal-sections.js';
import { numberFormat } from './report-model.js';

type Struct = PDFKit.PDFStructureElement;

/** "Self" stands apart from the raters' bars: a dark grey that keeps 3:1 against the band zones. */
const SELF_COLOR = '#4b5563';

export interface FeedbackContext {
  readonly flow: Flow;
  readonly root: Struct;
  readonly model: FeedbackModel;
  readonly color: string;
  readonly columns: ChartColumns;
}

export function feedbackContext(
  flow: Flow,
  root: Struct,
  model: FeedbackModel,
  color: string,
): FeedbackContext {
  const charts = model.dimensions.map((d) => dimensionChart(model, d, color));
  return { flow, root, model, color, columns: chartColumns(flow.doc, charts, CONTENT_WIDTH) };
}

function dimensionChart(model: FeedbackModel, dimension: FeedbackDimension, color: string): BarChart {
  return {
    rows: dimension.rows,
    bands: model.bands,
    color,
    size: 'facets',
    rowColors: [SELF_COLOR],
  };
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}

/** The first page: whose feedback this is, on what, when, how many raters, and the confidentiality rule. */
export function drawFeedbackCover({ flow, root, model, color }: FeedbackContext): void {
  const { labels, group } = model;
  drawCoverPage(flow, root, color, {
    agencyName: model.agencyName,
    instanceName: model.instanceName,
    title: model.title,
    name: model.subjectName,
    facts: [
      [labels.instrument, model.variantName],
      [group.date, model.dateText],
      [model.respondentsLabel, String(model.raters)],
      [labels.language, labels.languageName],
      [labels.preparedBy, model.agencyName],
      [labels.reportId, model.reportId],
    ],
    description: model.variantDescription,
    notes: [fill(group.feedbackConfidential, { min: String(MIN_GROUP_RESPONSES) })],
  });
}

/** How to read the report, the bands, and who responded per rater group (left-out groups marked). */
export function drawFeedbackIntroduction({ flow, root, model }: FeedbackContext): void {
  const { doc } = flow;
  const { labels, group } = model;
  const intro = doc.struct('Sect');
  root.add(intro);
  flow.block(intro, 'H2', labels.howToRead, STYLES.h2, 8);
  flow.block(intro, 'P', group.feedbackIntro, STYLES.body, 14);
  flow.block(intro, 'H3', labels.scoreBands, STYLES.h3, 6);
  drawBandLegend(flow, intro, model.bands);
  intro.end();

  const section = doc.struct('Sect');
  root.add(section);
  flow.space(18);
  flow.keep(flow.heightOf(group.participation, STYLES.h2) + 10 + 22 * (model.participation.length + 1));
  flow.block(section, 'H2', group.participation, STYLES.h2, 10);
  const leftOut = fill(group.leftOut, { min: String(MIN_GROUP_RESPONSES) });
  drawTable(
    flow,
    section,
    [
      { header: group.raterGroup, width: 190 },
      { header: group.responses, width: 90, align: 'right' },
      { header: group.inReport, width: CONTENT_WIDTH - 280 },
    ],
    model.participation.map((g) => [
      { text: g.label, bold: g.code === 'self' },
      { text: String(g.n) },
      {
        text: g.shown ? group.included : g.suppressed ? leftOut : group.noResponses,
        color: g.shown ? INK : MUTED,
      },
    ]),
    { size: 10, padding: 4, rules: true },
  );
  flow.y += 10;
  if (model.suppressed.length > 0) {
    const groups = model.suppressed.map((g) => g.label).join(', ');
    flow.block(
      section,
      'P',
      fill(group.suppressedNote, { groups, min: String(MIN_GROUP_RESPONSES) }),
      STYLES.body,
      6,
    );
  }
  flow.block(section, 'P', group.exemptNote, STYLES.lead, 6);
  section.end();
}

/** Per dimension a small chart: Self, each shown rater group, all others. */
export function drawFeedbackOverview(context: FeedbackContext): void {
  const { flow, root, model } = context;
  const { doc } = flow;
  const section = doc.struct('Sect');
  root.add(section);
  flow.block(section, 'H2', model.dimensionsHeading, STYLES.h2, 8);
  flow.block(section, 'P', model.group.feedbackOverview, STYLES.body, 6);
  if (model.shownGroups.length === 0) flow.block(section, 'P', model.group.noOthers, STYLES.body, 6);
  for (const dimension of model.dimensions) {
    const chart = dimensionChart(model, dimension, context.color);
    const geometry = measureChart(doc, chart, CONTENT_WIDTH, context.columns);
    flow.space(12);
    flow.keep(flow.heightOf(dimension.name, STYLES.h3) + 2 + geometry.height);
    flow.block(section, 'H3', dimension.name, STYLES.h3, 2);
    figure(flow, section, chart, geometry, `${model.labels.chartAlt}, ${dimension.name}`);
  }
  section.end();
}

/** Self minus all others per dimension, with a neutral reading of each gap. */
export function drawGaps({ flow, root, model }: FeedbackContext): void {
  if (model.shownGroups.length === 0) return;
  const { doc } = flow;
  const { group } = model;
  const format = numberFormat(model.labels.locale, 0);
  const intro = fill(group.gapsIntro, {
    aligned: format.format(GAP_ALIGNED_BELOW),
    large: format.format(GAP_LARGE_FROM),
  });
  const section = doc.struct('Sect');
  root.add(section);
  flow.space(24);
  // The heading, its explanation and the whole table together (one row per dimension).
  flow.keep(
    flow.heightOf(group.gapsHeading, STYLES.h2) +
      8 +
      flow.heightOf(intro, STYLES.body) +
      10 +
      26 * (model.dimensions.length + 1),
  );
  flow.block(section, 'H2', group.gapsHeading, STYLES.h2, 8);
  flow.block(section, 'P', intro, STYLES.body, 10);
  const rows: TableCell[][] = model.dimensions.map((d) => [
    { text: d.name },
    { text: d.self?.scoreText ?? '–' },
    { text: d.others.row.scoreText },
    { text: d.gap?.text ?? '–', bold: true },
    { text: d.gap?.label ?? '', color: d.gap?.kind === 'aligned' ? MUTED : INK },
  ]);
  const selfLabel = model.dimensions[0]?.self?.name ?? '';
  const gapWidth = 60;
  const numberWidth = 62;
  const readingWidth = 150;
  drawTable(
    flow,
    section,
    [
      {
        header: group.dimension,
        width: CONTENT_WIDTH - 2 * numberWidth - gapWidth - readingWidth,
        wrap: true,
      },
      { header: selfLabel, width: numberWidth, align: 'right' },
      { header: model.allOthersLabel, width: numberWidth, align: 'right' },
      { header: group.gap, width: gapWidth, align: 'right' },
      { header: group.reading, width: readingWidth },
    ],
    rows,
    { size: 9.5, padding: 4, rules: true, wrapHeader: true },
  );
  section.end();
}

/** The dimensions all others rate highest and lowest, by fixed thresholds. */
export function drawStrengths({ flow, root, model }: FeedbackContext): void {
  if (model.shownGroups.length === 0) return;
  const { doc } = flow;
  const { group } = model;
  const format = numberFormat(model.labels.locale, 0);
  const lists: [string, string, readonly FeedbackDimension[], string][] = [
    [
      group.strengths,
      fill(group.strengthsIntro, { min: format.format(STRENGTH_FROM) }),
      model.strengths,
      group.noStrengths,
    ],
    [
      group.development,
      fill(group.developmentIntro, { max: format.format(DEVELOPMENT_BELOW) }),
      model.development,
      group.noDevelopment,
    ],
  ];
  for (const [heading, intro, dimensions, none] of lists) {
    const section = doc.struct('Sect');
    root.add(section);
    flow.space(22);
    flow.keep(
      flow.heightOf(heading, STYLES.h2) +
        8 +
        flow.heightOf(intro, STYLES.body) +
        8 +
        20 * Math.max(1, dimensions.length),
    );
    flow.block(section, 'H2', heading, STYLES.h2, 8);
    flow.block(section, 'P', intro, STYLES.body, 8);
    if (dimensions.length === 0) {
      flow.block(section, 'P', none, STYLES.lead, 4);
    } else {
      const list = doc.struct('L');
      section.add(list);
      for (const d of dimensions) {
        const y = flow.y;
        list.add(
          doc.struct('LI', {}, [
            doc.struct('LBody', {}, () => {
              doc.font(BOLD).fontSize(STYLES.body.size).fillColor(INK);
              doc.text(`${d.others.row.scoreText} `, PAGE.left + 12, y, { continued: true });
              doc.font(REGULAR).text(` ${d.name} `, { continued: true });
              doc.fillColor(MUTED).text(` (${d.others.row.bandLabel}) `);
            }),
          ]),
        );
        flow.y = y + 20;
      }
      list.end();
    }
    section.end();
  }
}

/** Per statement: n, mean and the answers per scale point for each shown group and all others. */
export function drawItems({ flow, root, model }: FeedbackContext): void {
  if (model.items.length === 0) return;
  const { doc } = flow;
  const { group } = model;
  const section = doc.struct('Sect');
  root.add(section);
  flow.space(24);
  flow.keep(
    flow.heightOf(group.itemsHeading, STYLES.h2) + 8 + flow.heightOf(group.itemsIntro, STYLES.body) + 150,
  );
  flow.block(section, 'H2', group.itemsHeading, STYLES.h2, 8);
  flow.block(section, 'P', group.itemsIntro, STYLES.body, 8);
  if (model.scaleLegend.length > 0) {
    const legend = `${group.answerScale}${group.colon}${model.scaleLegend.map((p) => `${p.point} = ${p.label}`).join(' · ')}`;
    flow.block(section, 'P', legend, STYLES.small, 14);
  }
  const size = 8.5;
  const padding = 2.5;
  const rowHeight = size * 1.37 + 2 * padding;
  for (const item of model.items) {
    const points = item.points;
    const question = item.reverse ? `${item.question} (${group.reverseKeyed})` : item.question;
    const questionStyle = { ...STYLES.h3, size: 10 };
    const tableHeight = rowHeight * (item.rows.length + 1) + 4;
    flow.keep(flow.heightOf(question, questionStyle) + 4 + tableHeight + 10);
    flow.block(section, 'H3', question, questionStyle, 4);
    const pointWidth = Math.min(44, (CONTENT_WIDTH - 150 - 40 - 50) / Math.max(1, points.length));
    const labelWidth = CONTENT_WIDTH - 40 - 50 - pointWidth * points.length;
    const rows: TableCell[][] = item.rows.map((row) => {
      const max = Math.max(1, row.n);
      return [
        { text: row.label, bold: row.group === 'self' || row.group === 'others' },
        { text: String(row.n) },
        { text: row.meanText, bold: true },
        ...row.counts.map(
          (count): TableCell => ({
            text: String(count),
            color: count === 0 ? MUTED : INK,
            // The share of the group's answers, as a tint: the number says it, the tint helps to scan.
            fill: count === 0 ? undefined : tint(count / max),
          }),
        ),
      ];
    });
    drawTable(
      flow,
      section,
      [
        { header: group.raterGroup, width: labelWidth },
        { header: group.n, width: 40, align: 'right' },
        { header: group.mean, width: 50, align: 'right' },
        ...points.map((p) => ({ header: String(p), width: pointWidth, align: 'center' as const })),
      ],
      rows,
      { size, padding, rules: true },
    );
    flow.y += 12;
  }
  section.end();
}

function tint(share: number): string {
  // From a faint to a medium blue-grey; dark ink stays readable on every step.
  const light = [238, 242, 246];
  const dark = [166, 186, 206];
  const mix = light.map((c, i) => Math.round(c + ((dark[i] as number) - c) * Math.min(1, share)));
  return `#${mix.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Written comments per question and rater group (only shown groups), shuffled, without names. */
export function drawFeedbackComments({ flow, root, model }: FeedbackContext): void {
  if (model.comments.length === 0) return;
  const { doc } = flow;
  const section = doc.struct('Sect');
  root.add(section);
  flow.space(24);
  flow.keep(120);
  flow.block(section, 'H2', model.commentsHeading, STYLES.h2, 8);
  flow.block(section, 'P', model.group.commentsIntro, STYLES.lead, 12);
  const indent = 12;
  for (const block of model.comments) {
    flow.keep(flow.heightOf(block.question, STYLES.h3) + 6 + 60);
    flow.block(section, 'H3', block.question, STYLES.h3, 6);
    const continued = `${block.question} (${model.group.continued})`;
    for (const g of block.groups) {
      keepOrContinue(
        flow,
        16 + Math.min(flow.heightOf(g.answers[0] ?? '', STYLES.body, CONTENT_WIDTH - indent), 44),
        continued,
      );
      flow.block(section, 'P', g.label, { ...STYLES.strong, size: 10, color: MUTED }, 4);
      for (const answer of g.answers) {
        keepOrContinue(
          flow,
          Math.min(flow.heightOf(answer, STYLES.body, CONTENT_WIDTH - indent), 44),
          `${continued} · ${g.label}`,
        );
        const top = flow.y;
        flow.block(section, 'P', answer, STYLES.body, 0, CONTENT_WIDTH - indent, indent);
        const bottom = flow.y;
        if (bottom > top)
          artifact(doc, () => doc.rect(PAGE.left, top + 2, 2, bottom - top - 2).fill('#c7ced6'));
        flow.y += 7;
      }
      flow.y += 4;
    }
    flow.y += 8;
  }
  section.end();
}
