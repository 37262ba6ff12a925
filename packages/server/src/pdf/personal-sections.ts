import {
  type BarChart,
  type ChartColumns,
  type ChartGeometry,
  chartAlt,
  chartColumns,
  drawChart,
  measureChart,
} from './bar-chart.js';
import { BOLD, REGULAR } from './fonts.js';
import { artifact, CONTENT_WIDTH, type Flow, MUTED, PAGE, RULE, STYLES } from './layout.js';
import type { Comment, DimensionSection, PersonalReportModel } from './report-model.js';

type Struct = PDFKit.PDFStructureElement;

const SCORE_SIZE = 11;
/** Noto Sans's ascender as a fraction of the type size: lines up texts of different sizes. */
const ASCENT = 1.069;

/** What every section draws with: the cursor, the structure root, the texts and the charts' columns. */
export interface ReportContext {
  readonly flow: Flow;
  readonly root: Struct;
  readonly model: PersonalReportModel;
  readonly color: string;
  readonly columns: ChartColumns;
}

export function reportContext(
  flow: Flow,
  root: Struct,
  model: PersonalReportModel,
  color: string,
): ReportContext {
  const charts = [
    overviewChart(model, color),
    ...model.dimensions.flatMap((d) => facetChart(model, d, color) ?? []),
  ];
  return { flow, root, model, color, columns: chartColumns(flow.doc, charts, CONTENT_WIDTH) };
}

function overviewChart(model: PersonalReportModel, color: string): BarChart {
  return {
    rows: model.dimensions.map((dimension) => dimension.row),
    bands: model.bands,
    color,
    size: 'overview',
    axisLabel: model.scoreLabel,
  };
}

function facetChart(
  model: PersonalReportModel,
  dimension: DimensionSection,
  color: string,
): BarChart | undefined {
  if (dimension.facets.length === 0) return undefined;
  return { rows: dimension.facets, bands: model.bands, color, size: 'facets' };
}

/** The first page: whose report this is, on what, when, by whom. */
export function drawCover({ flow, root, model, color }: ReportContext): void {
  const { doc } = flow;
  const section = doc.struct('Sect');
  root.add(section);
  artifact(doc, () => doc.rect(0, 0, PAGE.width, 10).fill(color));

  flow.block(section, 'P', model.agencyName, { ...STYLES.strong, size: 12 });
  if (model.instanceName !== '' && model.instanceName !== model.agencyName) {
    flow.block(section, 'P', model.instanceName, STYLES.small);
  }
  flow.y = 210;
  flow.block(section, 'H1', model.title, STYLES.title, 14);
  flow.block(section, 'P', model.fullName, STYLES.name, 18);
  const ruleY = flow.y;
  artifact(doc, () => doc.rect(PAGE.left, ruleY, 56, 3).fill(color));
  flow.y += 30;

  const { labels } = model;
  const facts: [string, string][] = [
    [labels.instrument, model.variantName],
    [labels.completed, model.dateText],
    [labels.language, labels.languageName],
    [labels.preparedBy, model.agencyName],
    [labels.reportId, model.reportId],
  ];
  for (const [label, value] of facts) {
    if (value !== '') fact(flow, section, label, value);
  }
  flow.y += 22;
  flow.block(section, 'P', model.variantDescription, STYLES.lead);
  section.end();
}

/** A label and its value side by side, read as one sentence ("Completed 22 November 2026"). */
function fact(flow: Flow, parent: Struct, label: string, value: string): void {
  const { doc } = flow;
  const labelWidth = 150;
  const valueWidth = CONTENT_WIDTH - labelWidth;
  const y = flow.y;
  const height = Math.max(
    flow.heightOf(label, STYLES.small, labelWidth - 10),
    flow.heightOf(value, STYLES.body, valueWidth),
  );
  parent.add(
    doc.struct('P', {}, () => {
      doc.font(REGULAR).fontSize(STYLES.small.size).fillColor(MUTED);
      // Baselines line up: the smaller label starts a little lower than the value.
      doc.text(`${label} `, PAGE.left, y + 2, { width: labelWidth - 10, lineGap: STYLES.small.lineGap });
      doc.font(REGULAR).fontSize(STYLES.body.size).fillColor(STYLES.body.color);
      doc.text(`${value} `, PAGE.left + labelWidth, y, { width: valueWidth, lineGap: STYLES.body.lineGap });
    }),
  );
  flow.y = y + height + 6;
}

/** How to read the report, the score bands, and the overview chart of every dimension. */
export function drawIntroduction(context: ReportContext): void {
  const { flow, root, model } = context;
  const { doc } = flow;
  const intro = doc.struct('Sect');
  root.add(intro);
  flow.block(intro, 'H2', model.labels.howToRead, STYLES.h2, 8);
  flow.block(intro, 'P', model.intro, STYLES.body, 14);
  flow.block(intro, 'H3', model.labels.scoreBands, STYLES.h3, 6);
  const list = doc.struct('L');
  intro.add(list);
  model.bands.forEach((band, i) => {
    const y = flow.y;
    artifact(doc, () =>
      doc
        .rect(PAGE.left, y + 2, 22, 10)
        .fill(i % 2 === 0 ? '#edf0f3' : '#dce2e8')
        .rect(PAGE.left, y + 2, 22, 10)
        .lineWidth(0.5)
        .stroke('#b6c0ca'),
    );
    list.add(
      doc.struct('LI', {}, [
        doc.struct('LBody', {}, () => {
          doc.font(BOLD).fontSize(STYLES.body.size).fillColor(STYLES.body.color);
          doc.text(`${band.label} `, PAGE.left + 32, y, { continued: true });
          doc.font(REGULAR).fillColor(MUTED).text(` ${band.range} `);
        }),
      ]),
    );
    flow.y = y + 18;
  });
  list.end();
  intro.end();

  const overview = doc.struct('Sect');
  root.add(overview);
  const chart = overviewChart(model, context.color);
  const geometry = measureChart(doc, chart, CONTENT_WIDTH, context.columns);
  flow.space(18);
  flow.keep(flow.heightOf(model.dimensionsHeading, STYLES.h2) + 10 + geometry.height);
  flow.block(overview, 'H2', model.dimensionsHeading, STYLES.h2, 10);
  figure(flow, overview, chart, geometry, model.labels.chartAlt);
  overview.end();
}

/** One section per dimension: what it is, the score and its band, what that band means, its facets. */
export function drawDimension(context: ReportContext, dimension: DimensionSection): void {
  const { flow, root, model } = context;
  const { doc } = flow;
  const { row } = dimension;
  const chart = facetChart(model, dimension, context.color);
  const geometry = chart === undefined ? undefined : measureChart(doc, chart, CONTENT_WIDTH, context.columns);
  // The score sits at the right of the heading row, where a reader scanning the pages finds it.
  // Without answers there is no number to label: the row just says so.
  const scoreLabel = row.score === undefined ? '' : `${model.scoreLabel}: `;
  const scoreText = row.score === undefined ? row.bandLabel : `${row.scoreText} · ${row.bandLabel}`;
  doc.font(REGULAR).fontSize(SCORE_SIZE);
  const labelWidth = doc.widthOfString(scoreLabel);
  const scoreWidth = labelWidth + doc.font(BOLD).widthOfString(`${scoreText} `);
  const headingWidth = CONTENT_WIDTH - scoreWidth - 16;
  const head =
    flow.heightOf(row.name, STYLES.h2, headingWidth) +
    4 +
    flow.heightOf(dimension.description, STYLES.lead) +
    8;
  const text =
    dimension.interpretation === '' ? 0 : flow.heightOf(dimension.interpretation, STYLES.body) + 10;
  const facets =
    geometry === undefined ? 0 : flow.heightOf(model.facetsHeading, STYLES.h3) + 4 + geometry.height;
  const whole = head + text + facets + 24;
  // The whole section on one page when it can be; otherwise at least its heading with some text.
  flow.keep(whole <= flow.bottom - PAGE.top ? whole : head + 60);

  const section = doc.struct('Sect');
  root.add(section);
  if (!flow.atTop) {
    flow.y += 8;
    const y = flow.y;
    artifact(doc, () =>
      doc
        .moveTo(PAGE.left, y)
        .lineTo(PAGE.left + CONTENT_WIDTH, y)
        .lineWidth(0.75)
        .stroke(RULE),
    );
    flow.y += 16;
  }
  const top = flow.y;
  flow.block(section, 'H2', row.name, STYLES.h2, 4, headingWidth);
  const afterHeading = flow.y;
  section.add(
    doc.struct('P', {}, () => {
      // On the heading's first baseline: the larger heading starts higher.
      const y = top + (STYLES.h2.size - SCORE_SIZE) * ASCENT;
      doc.font(REGULAR).fontSize(SCORE_SIZE).fillColor(MUTED);
      if (scoreLabel !== '')
        doc.text(scoreLabel, PAGE.left + CONTENT_WIDTH - scoreWidth, y, { lineBreak: false });
      doc.font(BOLD).fillColor(STYLES.strong.color);
      doc.text(`${scoreText} `, PAGE.left + CONTENT_WIDTH - scoreWidth + labelWidth, y, { lineBreak: false });
    }),
  );
  flow.y = afterHeading;
  flow.block(section, 'P', dimension.description, STYLES.lead, 8);
  if (dimension.interpretation !== '') flow.block(section, 'P', dimension.interpretation, STYLES.body, 10);
  if (chart !== undefined && geometry !== undefined) {
    flow.keep(flow.heightOf(model.facetsHeading, STYLES.h3) + 4 + geometry.height);
    flow.block(section, 'H3', model.facetsHeading, STYLES.h3, 4);
    figure(flow, section, chart, geometry, model.labels.chartAlt);
  }
  section.end();
}

function figure(
  flow: Flow,
  parent: Struct,
  chart: BarChart,
  geometry: ChartGeometry,
  altIntro: string,
): void {
  const y = flow.y;
  parent.add(
    flow.doc.struct('Figure', { alt: chartAlt(chart, altIntro) }, () =>
      drawChart(flow.doc, chart, geometry, PAGE.left, y),
    ),
  );
  flow.y = y + geometry.height;
}

/** The member's own free-text answers, each under its question, as written. */
export function drawComments({ flow, root, model }: ReportContext): void {
  if (model.comments.length === 0) return;
  const { doc } = flow;
  const first = model.comments[0] as Comment;
  flow.space(28);
  flow.keep(
    flow.heightOf(model.commentsHeading, STYLES.h2) + 10 + commentStart(flow, first.question, first.answer),
  );
  const section = doc.struct('Sect');
  root.add(section);
  flow.block(section, 'H2', model.commentsHeading, STYLES.h2, 10);
  for (const { question, answer } of model.comments) {
    // The question and the first lines of the answer stay together; a long answer may run on.
    flow.keep(commentStart(flow, question, answer));
    if (question !== '') flow.block(section, 'H3', question, STYLES.h3, 4);
    flow.block(section, 'P', answer, STYLES.body, 14);
  }
  section.end();
}

function commentStart(flow: Flow, question: string, answer: string): number {
  const lines = STYLES.body.size * 1.4 * 3;
  return (
    (question === '' ? 0 : flow.heightOf(question, STYLES.h3) + 4) +
    Math.min(flow.heightOf(answer, STYLES.body), lines)
  );
}
