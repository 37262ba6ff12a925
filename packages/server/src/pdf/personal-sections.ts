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
import { artifact, CONTENT_WIDTH, COVER, type Flow, MUTED, PAGE, RULE, STYLES } from './layout.js';
import type { BandLegend, Comment, DimensionSection, PersonalReportModel, ScoreRow } from './report-model.js';

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
  return { flow, root, model, color, columns: scoreChartColumns(flow.doc, model, color) };
}

/** What the score charts of a report (personal or group) are made of. */
export interface ChartSource {
  readonly dimensions: readonly { readonly row: ScoreRow; readonly facets: readonly ScoreRow[] }[];
  readonly bands: readonly BandLegend[];
  readonly scoreLabel: string;
}

/** One label column for all of a report's charts, so their bars line up from page to page. */
export function scoreChartColumns(doc: PDFKit.PDFDocument, model: ChartSource, color: string): ChartColumns {
  const charts = [
    overviewChart(model, color),
    ...model.dimensions.flatMap((d) => facetChart(model, d, color) ?? []),
  ];
  return chartColumns(doc, charts, CONTENT_WIDTH);
}

/** Every dimension on one chart. */
export function overviewChart(model: ChartSource, color: string): BarChart {
  return {
    rows: model.dimensions.map((dimension) => dimension.row),
    bands: model.bands,
    color,
    size: 'overview',
    axisLabel: model.scoreLabel,
  };
}

/** A dimension's facets, when it has any. */
export function facetChart(
  model: Pick<ChartSource, 'bands'>,
  dimension: { readonly facets: readonly ScoreRow[] },
  color: string,
): BarChart | undefined {
  if (dimension.facets.length === 0) return undefined;
  return { rows: dimension.facets, bands: model.bands, color, size: 'facets' };
}

/** The first page: whose report this is, on what, when, by whom. */
export function drawCover({ flow, root, model, color }: ReportContext): void {
  const { labels } = model;
  drawCoverPage(flow, root, color, {
    agencyName: model.agencyName,
    instanceName: model.instanceName,
    title: model.title,
    name: model.fullName,
    facts: [
      [labels.instrument, model.variantName],
      [labels.completed, model.dateText],
      [labels.language, labels.languageName],
      [labels.preparedBy, model.agencyName],
      [labels.reportId, model.reportId],
    ],
    description: model.variantDescription,
  });
}

/** What a cover shows: the personal report's, or a group report's. */
export interface CoverContent {
  readonly agencyName: string;
  readonly instanceName: string;
  readonly title: string;
  /** The large line under the title (the member's or the report's name); none when undefined. */
  readonly name?: string;
  /** Label and value; a fact with an empty value is left out. */
  readonly facts: readonly (readonly [string, string])[];
  readonly description: string;
  /** Paragraphs after the description (a confidentiality note). */
  readonly notes?: readonly string[];
}

/** A cover page: agency, title, name, the facts as label and value, and the description. */
export function drawCoverPage(flow: Flow, root: Struct, color: string, cover: CoverContent): void {
  const { doc } = flow;
  const section = doc.struct('Sect');
  root.add(section);
  artifact(doc, () => doc.rect(0, 0, PAGE.width, COVER.band).fill(color));

  flow.block(section, 'P', cover.agencyName, { ...STYLES.strong, size: COVER.agencySize });
  if (cover.instanceName !== '' && cover.instanceName !== cover.agencyName) {
    flow.block(section, 'P', cover.instanceName, STYLES.small);
  }
  flow.y = COVER.titleTop;
  flow.block(section, 'H1', cover.title, STYLES.title, COVER.titleAfter);
  if (cover.name !== undefined) flow.block(section, 'P', cover.name, STYLES.name, COVER.nameAfter);
  const ruleY = flow.y;
  artifact(doc, () => doc.rect(PAGE.left, ruleY, COVER.rule.width, COVER.rule.height).fill(color));
  flow.y += COVER.rule.after;

  for (const [label, value] of cover.facts) {
    if (value !== '') fact(flow, section, label, value);
  }
  flow.y += 22;
  flow.block(section, 'P', cover.description, STYLES.lead);
  for (const note of cover.notes ?? []) {
    flow.y += 10;
    flow.block(section, 'P', note, STYLES.lead);
  }
  section.end();
}

/** A label and its value side by side, read as one sentence ("Completed 22 November 2026"). */
export function fact(flow: Flow, parent: Struct, label: string, value: string): void {
  const { doc } = flow;
  const labelWidth = COVER.factLabelWidth;
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
  drawBandLegend(flow, intro, model.bands);
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

/** The score bands as a list, each with a swatch of its chart zone, its name and its range. */
export function drawBandLegend(flow: Flow, parent: Struct, bands: readonly BandLegend[]): void {
  const { doc } = flow;
  const list = doc.struct('L');
  parent.add(list);
  bands.forEach((band, i) => {
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
}

/** One section per dimension: what it is, the score and its band, what that band means, its facets. */
export function drawDimension(context: ReportContext, dimension: DimensionSection): void {
  const { flow, root, model } = context;
  const { doc } = flow;
  const { row } = dimension;
  const chart = facetChart(model, dimension, context.color);
  const geometry = chart === undefined ? undefined : measureChart(doc, chart, CONTENT_WIDTH, context.columns);
  // Without answers there is no number to label: the row just says so.
  const heading = scoredHeading(
    flow,
    row.name,
    row.score === undefined ? '' : `${model.scoreLabel}: `,
    row.score === undefined ? row.bandLabel : `${row.scoreText} · ${row.bandLabel}`,
  );
  const head =
    flow.heightOf(row.name, STYLES.h2, heading.width) +
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
  sectionRule(flow);
  heading.draw(section);
  flow.block(section, 'P', dimension.description, STYLES.lead, 8);
  if (dimension.interpretation !== '') flow.block(section, 'P', dimension.interpretation, STYLES.body, 10);
  if (chart !== undefined && geometry !== undefined) {
    flow.keep(flow.heightOf(model.facetsHeading, STYLES.h3) + 4 + geometry.height);
    flow.block(section, 'H3', model.facetsHeading, STYLES.h3, 4);
    figure(flow, section, chart, geometry, model.labels.chartAlt);
  }
  section.end();
}

/** A rule between two sections on the same page, with room around it; nothing at the top of a page. */
export function sectionRule(flow: Flow): void {
  if (flow.atTop) return;
  const { doc } = flow;
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

/**
 * An H2 with a value at the right of its first line ("Score: 54.2 · Average"), where a reader
 * scanning the pages finds it. `width` is what the heading may take; `draw` tags both and leaves
 * the cursor under the heading.
 */
export function scoredHeading(
  flow: Flow,
  name: string,
  label: string,
  value: string,
): { readonly width: number; draw(section: Struct): void } {
  const { doc } = flow;
  doc.font(REGULAR).fontSize(SCORE_SIZE);
  const labelWidth = doc.widthOfString(label);
  const scoreWidth = labelWidth + doc.font(BOLD).widthOfString(`${value} `);
  const width = CONTENT_WIDTH - scoreWidth - 16;
  const draw = (section: Struct): void => {
    const top = flow.y;
    flow.block(section, 'H2', name, STYLES.h2, 4, width);
    const afterHeading = flow.y;
    section.add(
      doc.struct('P', {}, () => {
        // On the heading's first baseline: the larger heading starts higher.
        const y = top + (STYLES.h2.size - SCORE_SIZE) * ASCENT;
        doc.font(REGULAR).fontSize(SCORE_SIZE).fillColor(MUTED);
        if (label !== '') doc.text(label, PAGE.left + CONTENT_WIDTH - scoreWidth, y, { lineBreak: false });
        doc.font(BOLD).fillColor(STYLES.strong.color);
        doc.text(`${value} `, PAGE.left + CONTENT_WIDTH - scoreWidth + labelWidth, y, { lineBreak: false });
      }),
    );
    flow.y = afterHeading;
  };
  return { width, draw };
}

/** A chart at the cursor, tagged as a Figure whose alternative text lists every row. */
export function figure(
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
