import { type ChartColumns, fitSize, measureChart, ZONE_FILLS } from './bar-chart.js';
import { BOLD, REGULAR } from './fonts.js';
import type { CondensedModel, GroupDimension, GroupReportModel, MemberScore } from './group-model.js';
import {
  artifact,
  CONTENT_WIDTH,
  drawTable,
  type Flow,
  fitText,
  INK,
  MUTED,
  PAGE,
  STYLES,
  type TableCell,
  type TableColumn,
} from './layout.js';
import {
  drawBandLegend,
  drawCoverPage,
  facetChart,
  figure,
  overviewChart,
  scoreChartColumns,
  scoredHeading,
  sectionRule,
} from './personal-sections.js';
import type { BandLegend } from './report-model.js';

type Struct = PDFKit.PDFStructureElement;

/** What every group section draws with. */
export interface GroupContext {
  readonly flow: Flow;
  readonly root: Struct;
  readonly model: GroupReportModel;
  readonly color: string;
  readonly columns: ChartColumns;
}

export function groupContext(flow: Flow, root: Struct, model: GroupReportModel, color: string): GroupContext {
  return { flow, root, model, color, columns: scoreChartColumns(flow.doc, model, color) };
}

/** The first page: the report, its group, its date, the instrument, how many took part, by whom. */
export function drawGroupCover({ flow, root, model, color }: GroupContext): void {
  const { labels, group } = model;
  drawCoverPage(flow, root, color, {
    agencyName: model.agencyName,
    instanceName: model.instanceName,
    title: model.title,
    name: model.reportName === '' ? undefined : model.reportName,
    facts: [
      [labels.instrument, model.variantName],
      [group.date, model.dateText],
      [model.respondentsLabel, String(model.respondents)],
      [labels.language, labels.languageName],
      [labels.preparedBy, model.agencyName],
      [labels.reportId, model.reportId],
    ],
    description: model.variantDescription,
    notes: model.anonymous ? [group.anonymous] : [],
  });
}

/** How to read the report, the bands, and the group's mean per dimension. */
export function drawGroupIntroduction(context: GroupContext): void {
  const { flow, root, model } = context;
  const { doc } = flow;
  const intro = doc.struct('Sect');
  root.add(intro);
  flow.block(intro, 'H2', model.labels.howToRead, STYLES.h2, 8);
  flow.block(intro, 'P', model.intro, STYLES.body, 10);
  const howTo = model.anonymous ? model.group.howTo : `${model.group.howTo} ${model.group.howToNamed}`;
  flow.block(intro, 'P', howTo, STYLES.body, 14);
  flow.keep(flow.heightOf(model.labels.scoreBands, STYLES.h3) + 6 + 18 * model.bands.length);
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
  figure(flow, overview, chart, geometry, model.group.overviewAlt);
  overview.end();
}

const STATS_SIZE = 9.5;
const STATS_HEIGHT = 36;
const LIST_SIZE = 8.5;
const LIST_ROW = 13;
const LIST_COLUMNS = 3;
const LIST_GAP = 14;
const FIGURE_SPACE = '\u2007';
const EN_SPACE = '\u2002';

/**
 * One section per dimension: the group mean in the heading, what the dimension is, mean, median,
 * range and standard deviation, the distribution, the count per band, what the spread means, the
 * facets' group means, and last (named reports only) who is where, a list that may run on.
 */
export function drawGroupDimension(context: GroupContext, dimension: GroupDimension): void {
  const { flow, root, model } = context;
  const { doc } = flow;
  const { row, stats } = dimension;
  const { group } = model;
  const heading = scoredHeading(
    flow,
    row.name,
    row.score === undefined ? '' : `${group.mean}${group.colon}`,
    row.score === undefined ? row.bandLabel : `${row.scoreText} · ${row.bandLabel}`,
  );
  const distribution = stats.n === 0 ? undefined : measureDistribution(context, dimension);
  const bandsText = group.perBand.replace(
    '{bands}',
    stats.bandCounts.map((b) => `${b.label} ${b.count} (${b.percentText})`).join(' · '),
  );
  const spreadText =
    stats.spread === 'tight' ? group.spreadTight : stats.spread === 'wide' ? group.spreadWide : '';
  const head =
    flow.heightOf(row.name, STYLES.h2, heading.width) +
    4 +
    flow.heightOf(dimension.description, STYLES.lead) +
    8;
  const body =
    STATS_HEIGHT +
    (distribution === undefined
      ? 0
      : distribution.height +
        4 +
        flow.heightOf(distribution.note, STYLES.small) +
        4 +
        flow.heightOf(bandsText, STYLES.small) +
        8) +
    (spreadText === '' ? 0 : flow.heightOf(spreadText, STYLES.body) + 8);
  const chart = facetChart(model, dimension, context.color);
  const geometry = chart === undefined ? undefined : measureChart(doc, chart, CONTENT_WIDTH, context.columns);
  const facetTitle = group.facetMeans.replace('{heading}', model.facetsHeading);
  const facets = geometry === undefined ? 0 : 10 + flow.heightOf(facetTitle, STYLES.h3) + 4 + geometry.height;
  // The heading, the numbers, the distribution and the facets stay together when they fit a page
  // (at least the first three do); the member list comes last and may run on over pages.
  const whole = head + body + facets + 24;
  flow.keep(whole <= flow.bottom - PAGE.top ? whole : head + body + 24);

  const section = doc.struct('Sect');
  root.add(section);
  sectionRule(flow);
  heading.draw(section);
  const continued = `${row.name} (${group.continued})`;
  flow.block(section, 'P', dimension.description, STYLES.lead, 8);
  drawStats(flow, section, model, dimension);
  if (distribution !== undefined) {
    const y = flow.y;
    section.add(
      doc.struct('Figure', { alt: distributionAlt(model, dimension) }, () =>
        drawDistribution(context, dimension, distribution, y),
      ),
    );
    flow.y = y + distribution.height + 4;
    flow.block(section, 'P', distribution.note, STYLES.small, 4);
    flow.block(section, 'P', bandsText, STYLES.small, 8);
  }
  if (spreadText !== '') flow.block(section, 'P', spreadText, STYLES.body, 8);

  if (chart !== undefined && geometry !== undefined) {
    flow.space(10);
    keepOrContinue(flow, flow.heightOf(facetTitle, STYLES.h3) + 4 + geometry.height, continued);
    flow.block(section, 'H3', facetTitle, STYLES.h3, 4);
    figure(flow, section, chart, geometry, model.labels.chartAlt);
  }

  if (!model.anonymous && dimension.members.length > 0) {
    flow.space(14);
    keepOrContinue(flow, flow.heightOf(group.membersByScore, STYLES.h3) + 4 + 16 + LIST_ROW * 2, continued);
    flow.block(section, 'H3', group.membersByScore, STYLES.h3, 4);
    drawMembers(flow, section, model, dimension.members, `${row.name} · ${group.membersByScore}`);
  }
  flow.y += 6;
  section.end();
}

function statsParts(model: GroupReportModel, { stats }: GroupDimension): [string, string][] {
  const { group } = model;
  return [
    [group.mean, stats.meanText],
    [group.median, stats.medianText],
    [group.range, stats.rangeText],
    [group.sd, stats.sdText],
    [model.respondentsLabel, String(stats.n)],
  ];
}

/** Mean, median, range, standard deviation and n side by side: the label small above its value. */
function drawStats(flow: Flow, parent: Struct, model: GroupReportModel, dimension: GroupDimension): void {
  const { doc } = flow;
  const parts = statsParts(model, dimension);
  const width = CONTENT_WIDTH / parts.length;
  const y = flow.y;
  parts.forEach(([label, value], i) => {
    const x = PAGE.left + i * width;
    parent.add(
      doc.struct('P', {}, () => {
        doc.font(REGULAR).fontSize(8.5).fillColor(MUTED);
        doc.text(`${fitText(doc, label, width - 8)} `, x, y, { lineBreak: false });
        doc
          .font(BOLD)
          .fontSize(STATS_SIZE + 1.5)
          .fillColor(INK);
        doc.text(`${value} `, x, y + 12, { lineBreak: false });
      }),
    );
  });
  flow.y = y + STATS_HEIGHT;
}

interface DistributionGeometry {
  readonly mode: 'dots' | 'bars';
  readonly barX: number;
  readonly barWidth: number;
  readonly zoneHeight: number;
  readonly plotHeight: number;
  readonly height: number;
  /** Per bin: how many scores fall in it. */
  readonly bins: readonly number[];
  readonly binWidth: number;
  readonly dot: number;
  readonly note: string;
}

const DOT_BIN = 2.5;
const BAR_BIN = 5;
const MAX_DOT_STACK = 12;
const MAX_DOTS = 60;

function binsOf(scores: readonly number[], width: number): number[] {
  const bins = new Array<number>(Math.round(100 / width)).fill(0);
  for (const score of scores) {
    const i = Math.min(bins.length - 1, Math.floor(score / width));
    bins[i] = (bins[i] as number) + 1;
  }
  return bins;
}

/**
 * A dot plot (one dot per member, stacked in 2.5-point bins) while the stacks stay low; beyond
 * that a histogram of 5-point bins with its counts. The scale lines up with the bar charts'.
 */
function measureDistribution(context: GroupContext, dimension: GroupDimension): DistributionGeometry {
  const { columns, model } = context;
  const barX = columns.labelWidth;
  const barWidth = CONTENT_WIDTH - columns.labelWidth - columns.valueWidth;
  const zoneHeight = 16;
  const axis = 7.5 + 8;
  const dotBins = binsOf(dimension.stats.scores, DOT_BIN);
  const stack = Math.max(...dotBins);
  if (dimension.stats.n <= MAX_DOTS && stack <= MAX_DOT_STACK) {
    const binWidth = (barWidth * DOT_BIN) / 100;
    const dot = Math.min(7, binWidth - 1.5);
    const plotHeight = Math.max(24, stack * (dot + 1) + 8);
    return {
      mode: 'dots',
      barX,
      barWidth,
      zoneHeight,
      plotHeight,
      height: zoneHeight + plotHeight + axis,
      bins: dotBins,
      binWidth,
      dot,
      note: model.group.dotsNote,
    };
  }
  const plotHeight = 72;
  return {
    mode: 'bars',
    barX,
    barWidth,
    zoneHeight,
    plotHeight,
    height: zoneHeight + plotHeight + axis,
    bins: binsOf(dimension.stats.scores, BAR_BIN),
    binWidth: (barWidth * BAR_BIN) / 100,
    dot: 0,
    note: model.group.barsNote,
  };
}

function drawDistribution(
  context: GroupContext,
  dimension: GroupDimension,
  g: DistributionGeometry,
  y: number,
): void {
  const { flow, model, color } = context;
  const { doc } = flow;
  const x = PAGE.left;
  const scaleX = (score: number): number => x + g.barX + (score / 100) * g.barWidth;
  const top = y + g.zoneHeight;
  const bottom = top + g.plotHeight;
  drawZones(doc, model.bands, scaleX, y, top, g.plotHeight);

  doc.font(REGULAR).fontSize(9).fillColor(MUTED);
  const label = model.group.distribution;
  doc.text(`${fitText(doc, label, g.barX - 10)} `, x, top + g.plotHeight / 2 - 6, { lineBreak: false });

  if (g.mode === 'dots') {
    const radius = g.dot / 2;
    g.bins.forEach((count, i) => {
      const cx = x + g.barX + (i + 0.5) * g.binWidth;
      for (let k = 0; k < count; k++) doc.circle(cx, bottom - 4 - radius - k * (g.dot + 1), radius);
    });
    doc.fill(color);
  } else {
    const max = Math.max(1, ...g.bins);
    const room = g.plotHeight - 14;
    g.bins.forEach((count, i) => {
      if (count === 0) return;
      const h = Math.max(1, (count / max) * room);
      doc.rect(x + g.barX + i * g.binWidth + 1, bottom - h, g.binWidth - 2, h);
    });
    doc.fill(color);
    doc.font(REGULAR).fontSize(6.5).fillColor(INK);
    g.bins.forEach((count, i) => {
      if (count === 0) return;
      const h = Math.max(1, (count / max) * room);
      const text = String(count);
      const w = doc.widthOfString(text);
      doc.text(text, x + g.barX + (i + 0.5) * g.binWidth - w / 2, bottom - h - 9, { lineBreak: false });
    });
  }
  // The mean as a dark line across the plot.
  const mean = dimension.stats.mean;
  if (mean !== undefined) {
    const mx = scaleX(mean);
    doc
      .moveTo(mx, top + 2)
      .lineTo(mx, bottom)
      .lineWidth(1.5)
      .stroke(INK);
  }
  doc
    .moveTo(x + g.barX, bottom)
    .lineTo(x + g.barX + g.barWidth, bottom)
    .lineWidth(0.5)
    .stroke(MUTED);
  drawTicks(doc, model.bands, scaleX, x + g.barX, g.barWidth, bottom + 3);
}

/** The band zones shaded behind a plot, each named above it. */
function drawZones(
  doc: PDFKit.PDFDocument,
  bands: readonly BandLegend[],
  scaleX: (score: number) => number,
  labelY: number,
  top: number,
  height: number,
): void {
  bands.forEach((band, i) => {
    const left = scaleX(band.min);
    const right = scaleX(band.max);
    doc
      .rect(left + (i > 0 ? 0.75 : 0), top, right - left - (i > 0 ? 0.75 : 0), height)
      .fill(ZONE_FILLS[i % 2] as string);
    doc
      .font(REGULAR)
      .fontSize(fitSize(doc, band.label, right - left - 4, 8))
      .fillColor(MUTED);
    doc.text(`${band.label} `, left, labelY, { width: right - left, align: 'center', lineBreak: false });
  });
}

function drawTicks(
  doc: PDFKit.PDFDocument,
  bands: readonly BandLegend[],
  scaleX: (score: number) => number,
  left: number,
  width: number,
  y: number,
): void {
  const ticks = [...new Set(bands.flatMap((band) => [band.min, band.max]))];
  doc.font(REGULAR).fontSize(7.5).fillColor(MUTED);
  for (const tick of ticks) {
    const label = String(tick);
    const w = doc.widthOfString(label);
    const at = Math.min(Math.max(scaleX(tick) - w / 2, left), left + width - w);
    doc.text(label, at, y, { lineBreak: false });
  }
}

function distributionAlt(model: GroupReportModel, { row, stats }: GroupDimension): string {
  const { group } = model;
  const intro = group.distributionAlt.replace('{n}', String(stats.n));
  const bands = stats.bandCounts.map((b) => `${b.label}${group.colon}${b.count}`).join('; ');
  return `${intro}, ${row.name}. ${group.mean} ${stats.meanText}, ${group.median} ${stats.medianText}, ${group.range} ${stats.rangeText}. ${bands}.`;
}

/**
 * The members per band, highest band first, each band a list in up to three columns read top to
 * bottom, then left to right: the score, then the name. Long names are cut with an ellipsis.
 */
function drawMembers(
  flow: Flow,
  parent: Struct,
  model: GroupReportModel,
  members: readonly MemberScore[],
  context: string,
): void {
  const { doc } = flow;
  // Score and name in one text call (a list of a thousand members is thousands of calls): the score
  // is padded with figure spaces, as wide as a digit, so that the scores line up on the right. An
  // ordinary space follows the gap: pdfkit lays out and caches text per space-separated word, so
  // the name's words are shaped once for all dimensions rather than once per score they follow.
  doc.font(REGULAR).fontSize(LIST_SIZE);
  const digits = Math.max(...members.map((m) => m.scoreText.length));
  const entryOf = (member: MemberScore): string =>
    `${FIGURE_SPACE.repeat(digits - member.scoreText.length)}${member.scoreText}${EN_SPACE} ${member.name}`;
  // Three columns, fewer when a name would not fit one; only a name wider than the page is cut.
  const longest = Math.max(...members.map((m) => doc.widthOfString(entryOf(m))));
  const columnCount = Math.max(
    1,
    Math.min(LIST_COLUMNS, Math.floor((CONTENT_WIDTH + LIST_GAP) / (longest + 4 + LIST_GAP))),
  );
  const columnWidth = (CONTENT_WIDTH - LIST_GAP * (columnCount - 1)) / columnCount;
  const fit =
    longest <= columnWidth ? entryOf : (member: MemberScore) => fitText(doc, entryOf(member), columnWidth);
  const byBand = new Map<string, MemberScore[]>();
  for (const member of members) {
    let list = byBand.get(member.band);
    if (list === undefined) {
      list = [];
      byBand.set(member.band, list);
    }
    list.push(member);
  }
  for (const band of [...model.bands].reverse()) {
    const list = byBand.get(band.code);
    if (list === undefined) continue;
    const title = `${band.label} · ${list.length}`;
    flow.keep(16 + LIST_ROW * Math.min(2, list.length));
    const titleY = flow.y;
    parent.add(
      doc.struct('P', {}, () => {
        doc.font(BOLD).fontSize(9).fillColor(MUTED);
        doc.text(`${title} `, PAGE.left, titleY, { lineBreak: false });
      }),
    );
    flow.y = titleY + 15;
    const items = doc.struct('L');
    parent.add(items);
    let next = 0;
    while (next < list.length) {
      if (!flow.fits(LIST_ROW)) {
        flow.newPage();
        runningHeader(flow, `${context} · ${band.label} (${model.group.continued})`);
      }
      // Set per page: a new page's content starts from the defaults.
      doc.font(REGULAR).fontSize(LIST_SIZE).fillColor(INK);
      const rowsOnPage = Math.max(1, Math.floor((flow.bottom - flow.y) / LIST_ROW));
      const rows = Math.min(rowsOnPage, Math.ceil((list.length - next) / columnCount));
      const top = flow.y;
      for (let column = 0; column < columnCount && next < list.length; column++) {
        const x = PAGE.left + column * (columnWidth + LIST_GAP);
        for (let r = 0; r < rows && next < list.length; r++) {
          const member = list[next++] as MemberScore;
          const y = top + r * LIST_ROW;
          items.add(
            doc.struct('LI', {}, [
              doc.struct('LBody', {}, () => {
                doc.text(`${fit(member)} `, x, y, { lineBreak: false });
              }),
            ]),
          );
        }
      }
      flow.y = top + rows * LIST_ROW;
    }
    items.end();
    flow.y += 6;
  }
}

/**
 * Where a list or a series of comments runs on over a page: what it is, repeated at the top as an
 * artifact (a screen reader has read it already).
 */
export function runningHeader(flow: Flow, title: string): void {
  const { doc } = flow;
  const y = flow.y;
  artifact(doc, () => {
    doc.font(REGULAR).fontSize(8.5).fillColor(MUTED);
    doc.text(`${fitText(doc, title, CONTENT_WIDTH)} `, PAGE.left, y, { lineBreak: false });
  });
  flow.y = y + 16;
}

/** `flow.keep`, and the running header when that started a new page. */
export function keepOrContinue(flow: Flow, height: number, title: string): void {
  const before = flow.y;
  flow.keep(height);
  if (flow.atTop && before > PAGE.top) runningHeader(flow, title);
}

/** The free-text answers under their questions: with the writer's name, or anonymous and shuffled. */
export function drawVerbatims({ flow, root, model }: GroupContext): void {
  if (model.verbatims.length === 0) return;
  const { doc } = flow;
  const first = model.verbatims[0];
  const firstAnswer = first?.answers[0];
  flow.space(24);
  flow.keep(
    flow.heightOf(model.commentsHeading, STYLES.h2) +
      10 +
      (first === undefined || firstAnswer === undefined
        ? 0
        : answerStart(flow, first.question, firstAnswer.answer)),
  );
  const section = doc.struct('Sect');
  root.add(section);
  flow.block(section, 'H2', model.commentsHeading, STYLES.h2, 10);
  if (model.anonymous) flow.block(section, 'P', model.group.anonymous, STYLES.lead, 10);
  const indent = 12;
  for (const block of model.verbatims) {
    const [head] = block.answers;
    if (head === undefined) continue;
    flow.keep(answerStart(flow, block.question, head.answer));
    if (block.question !== '') flow.block(section, 'H3', block.question, STYLES.h3, 6);
    const continued = `${block.question} (${model.group.continued})`;
    for (const { answer, name } of block.answers) {
      keepOrContinue(
        flow,
        Math.min(flow.heightOf(answer, STYLES.body, CONTENT_WIDTH - indent), STYLES.body.size * 4.2) + 14,
        continued,
      );
      const top = flow.y;
      flow.block(section, 'P', answer, STYLES.body, name === '' ? 0 : 1, CONTENT_WIDTH - indent, indent);
      if (name !== '') flow.block(section, 'P', `– ${name}`, STYLES.small, 0, CONTENT_WIDTH - indent, indent);
      const bottom = flow.y;
      // A quiet bar beside each answer keeps answers apart without quotation marks.
      if (bottom > top) {
        artifact(doc, () => doc.rect(PAGE.left, top + 2, 2, bottom - top - 2).fill('#c7ced6'));
      }
      flow.y += 8;
    }
    flow.y += 6;
  }
  section.end();
}

function answerStart(flow: Flow, question: string, answer: string): number {
  return (
    (question === '' ? 0 : flow.heightOf(question, STYLES.h3) + 6) +
    Math.min(flow.heightOf(answer, STYLES.body), STYLES.body.size * 4.2) +
    16
  );
}

/** Fills that tell the bands apart in the condensed table (the letter says it too). */
const BAND_FILLS = ['#f3f5f7', '#e3e8ed', '#ccd5de', '#b4c0cc'];

/**
 * The condensed report's table: one row per member, one column per dimension, each cell the score
 * with its band's letter (and a fill per band, never the only cue), the group mean at the foot.
 * The type shrinks with the number of members so that up to about 40 members fit one page with the
 * title and the legend; a larger group runs on over more pages, the header repeated on each.
 */
export function drawCondensedTable(
  flow: Flow,
  parent: Struct,
  model: GroupReportModel,
  condensed: CondensedModel,
): void {
  const { doc } = flow;
  const rowsCount = condensed.rows.length + 1;
  const room = flow.bottom - flow.y - 70;
  const size = Math.max(6.5, Math.min(10, (room / rowsCount - 4) / 1.37));
  const padding = Math.max(1.5, Math.min(3, (room / rowsCount - size * 1.37) / 2));

  const dims = condensed.columns.length;
  doc.font(REGULAR).fontSize(size);
  const longestName = Math.max(
    doc.widthOfString(model.group.groupMean),
    ...condensed.rows.map((row) => doc.widthOfString(row.name)),
  );
  doc.font(BOLD);
  const widestKey = Math.max(...condensed.bandKeys.map((band) => doc.widthOfString(band.key)));
  const scoreNeed = doc.widthOfString('100.0 ') + widestKey + 12;
  // Headers wrap, in a smaller type when a word would not fit (down to 6.5 points before the name
  // column gives way, then to 6); a word too long even then is shortened ("Conscientious…").
  doc.fontSize(10);
  const longestWord = Math.max(
    ...condensed.columns.flatMap((c) => c.name.split(/\s+/).map((word) => doc.widthOfString(word))),
  );
  const cellNeed = Math.max(scoreNeed, (longestWord * 6.5) / 10 + 9);
  // The names take what they need up to 40% of the width; a longer name wraps.
  const nameWidth = Math.max(
    Math.min(longestName + 12, CONTENT_WIDTH * 0.4, CONTENT_WIDTH - dims * cellNeed),
    Math.min(90, longestName + 12),
  );
  const cellWidth = (CONTENT_WIDTH - nameWidth) / Math.max(1, dims);
  const headerSize = Math.max(6, Math.min(size - 1, (10 * (cellWidth - 9)) / Math.max(1, longestWord)));
  doc.fontSize(headerSize);
  const header = (name: string): string =>
    name
      .split(/\s+/)
      .map((word) => fitText(doc, word, cellWidth - 8))
      .join(' ');
  const columns: TableColumn[] = [
    { header: model.group.name, width: nameWidth, wrap: true },
    ...condensed.columns.map((c) => ({ header: header(c.name), width: cellWidth, align: 'center' as const })),
  ];
  const fillOf = new Map(
    condensed.bandKeys.map((band, i) => [
      band.code,
      BAND_FILLS[Math.min(i, BAND_FILLS.length - 1)] as string,
    ]),
  );
  const cell = (c: CondensedModel['mean'][number], bold = false): TableCell => ({
    text: c.key === '' ? c.text : `${c.text} ${c.key}`,
    bold,
    fill: c.band === undefined ? undefined : fillOf.get(c.band),
  });
  const rows: TableCell[][] = condensed.rows.map((row) => [
    { text: row.name },
    ...row.cells.map((c) => cell(c)),
  ]);
  rows.push([{ text: model.group.groupMean, bold: true }, ...condensed.mean.map((c) => cell(c, true))]);
  drawTable(flow, parent, columns, rows, { size, headerSize, padding, rules: true, wrapHeader: true });
}
