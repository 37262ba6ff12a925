import { BOLD, REGULAR } from './fonts.js';
import { INK, MUTED } from './layout.js';
import type { BandLegend, ScoreRow } from './report-model.js';

/** Horizontal bars on one fixed 0-100 scale, band zones shaded behind them, numbers beside them. */
export interface BarChart {
  readonly rows: readonly ScoreRow[];
  readonly bands: readonly BandLegend[];
  readonly color: string;
  readonly size: 'overview' | 'facets';
  /** A caption under the scale ("Score (0-100)"); none for the smaller facet charts. */
  readonly axisLabel?: string;
  /** A colour per row (by index) instead of `color`, e.g. to set "Self" apart in a 360. */
  readonly rowColors?: readonly (string | undefined)[];
}

const SIZES = {
  overview: { text: 10, bar: 14, row: 26, zone: 8, tick: 7.5 },
  facets: { text: 9, bar: 8, row: 16, zone: 7.5, tick: 7 },
} as const;

// Neighbouring zones alternate, so each zone reads as an area without relying on hue; the bars in
// the agency colour stay the strongest mark. White gaps separate the zones.
export const ZONE_FILLS = ['#edf0f3', '#dce2e8'];
const GAP = 10;
const BAND_GAP = 5;

/** The name and number columns: shared by every chart of a report so that their scales line up. */
export interface ChartColumns {
  readonly labelWidth: number;
  /** The scores, right-aligned so that their decimals line up; the band names follow. */
  readonly numberWidth: number;
  readonly valueWidth: number;
}

export interface ChartGeometry {
  readonly labelWidth: number;
  readonly barX: number;
  readonly barWidth: number;
  readonly valueX: number;
  readonly numberWidth: number;
  readonly headerHeight: number;
  readonly rowHeights: readonly number[];
  readonly height: number;
}

/** Columns wide enough for every row of every chart given, each at its own type size. */
export function chartColumns(
  doc: PDFKit.PDFDocument,
  charts: readonly BarChart[],
  width: number,
): ChartColumns {
  let label = 0;
  let number = 0;
  let band = 0;
  for (const chart of charts) {
    const size = SIZES[chart.size].text;
    for (const row of chart.rows) {
      doc.font(REGULAR).fontSize(size);
      label = Math.max(label, doc.widthOfString(`${row.name} `));
      band = Math.max(band, doc.widthOfString(row.bandLabel));
      number = Math.max(number, doc.font(BOLD).widthOfString(row.scoreText));
    }
  }
  return {
    // Long names wrap inside their column rather than squeezing the scale.
    labelWidth: Math.min(Math.ceil(label) + GAP, Math.round(width * 0.36)),
    numberWidth: Math.ceil(number),
    valueWidth: Math.ceil(number + BAND_GAP + band) + GAP,
  };
}

export function measureChart(
  doc: PDFKit.PDFDocument,
  chart: BarChart,
  width: number,
  columns: ChartColumns,
): ChartGeometry {
  const size = SIZES[chart.size];
  const { labelWidth, valueWidth } = columns;
  doc.font(REGULAR).fontSize(size.text);
  const rowHeights = chart.rows.map((row) =>
    Math.max(size.row, doc.heightOfString(`${row.name} `, { width: labelWidth - GAP }) + 8),
  );
  const barWidth = width - labelWidth - valueWidth;
  const headerHeight = size.zone + 8;
  const axisHeight = size.tick + 8 + (chart.axisLabel === undefined ? 0 : size.tick + 6);
  const rows = rowHeights.reduce((sum, h) => sum + h, 0);
  return {
    labelWidth,
    barX: labelWidth,
    barWidth,
    valueX: labelWidth + barWidth + GAP,
    numberWidth: columns.numberWidth,
    headerHeight,
    rowHeights,
    height: headerHeight + rows + axisHeight,
  };
}

/** Draws the chart with its top-left corner at (x, y); the caller tags it as a Figure with `chartAlt`. */
export function drawChart(
  doc: PDFKit.PDFDocument,
  chart: BarChart,
  g: ChartGeometry,
  x: number,
  y: number,
): void {
  const size = SIZES[chart.size];
  const scaleX = (score: number): number => x + g.barX + (score / 100) * g.barWidth;
  const rowsTop = y + g.headerHeight;
  const rowsHeight = g.rowHeights.reduce((sum, h) => sum + h, 0);

  chart.bands.forEach((band, i) => {
    const left = scaleX(band.min);
    const right = scaleX(band.max);
    doc
      .rect(left + (i > 0 ? 0.75 : 0), rowsTop, right - left - (i > 0 ? 0.75 : 0), rowsHeight)
      .fill(ZONE_FILLS[i % 2] as string);
    // The zone's name above it: the shading is explained in words, not by colour alone.
    doc
      .font(REGULAR)
      .fontSize(fitSize(doc, band.label, right - left - 4, size.zone))
      .fillColor(MUTED);
    doc.text(`${band.label} `, left, y, { width: right - left, align: 'center', lineBreak: false });
  });

  let top = rowsTop;
  chart.rows.forEach((row, i) => {
    const height = g.rowHeights[i] as number;
    const middle = top + height / 2;
    doc.font(REGULAR).fontSize(size.text).fillColor(INK);
    // Measured and drawn with the trailing space that separates it from the number when extracted.
    const nameHeight = doc.heightOfString(`${row.name} `, { width: g.labelWidth - GAP });
    doc.text(`${row.name} `, x, middle - nameHeight / 2, { width: g.labelWidth - GAP });
    if (row.score !== undefined) {
      // A hairline at zero so that a score of 0 is still visibly a bar of length zero, not a gap.
      const length = Math.max(1, (row.score / 100) * g.barWidth);
      doc.rect(x + g.barX, middle - size.bar / 2, length, size.bar).fill(chart.rowColors?.[i] ?? chart.color);
    }
    drawValue(doc, row, x + g.valueX, g.numberWidth, middle, size.text);
    top += height;
  });

  const ticks = [...new Set(chart.bands.flatMap((band) => [band.min, band.max]))];
  doc.font(REGULAR).fontSize(size.tick).fillColor(MUTED);
  const tickY = rowsTop + rowsHeight + 3;
  for (const tick of ticks) {
    const label = String(tick);
    const w = doc.widthOfString(label);
    const at = Math.min(Math.max(scaleX(tick) - w / 2, x + g.barX), x + g.barX + g.barWidth - w);
    doc.text(label, at, tickY, { lineBreak: false });
  }
  if (chart.axisLabel !== undefined) {
    doc.text(chart.axisLabel, x + g.barX, tickY + size.tick + 5, {
      width: g.barWidth,
      align: 'center',
      lineBreak: false,
    });
  }
}

/** The chart in words, for the Figure's alternative text: "Name: 54.2 (Average); ...". */
export function chartAlt(chart: BarChart, intro: string): string {
  const rows = chart.rows.map((row) => `${row.name}: ${row.scoreText} (${row.bandLabel})`);
  return `${intro}. ${rows.join('; ')}.`;
}

function drawValue(
  doc: PDFKit.PDFDocument,
  row: ScoreRow,
  x: number,
  numberWidth: number,
  middle: number,
  size: number,
): void {
  doc.font(BOLD).fontSize(size).fillColor(INK);
  const top = middle - doc.currentLineHeight() / 2;
  const number = doc.widthOfString(row.scoreText);
  doc.text(`${row.scoreText} `, x + numberWidth - number, top, { lineBreak: false });
  doc.font(REGULAR).fillColor(MUTED);
  doc.text(`${row.bandLabel} `, x + numberWidth + BAND_GAP, top, { lineBreak: false });
}

/** The largest size up to `max` at which `text` fits `width` (band zones can be narrow). */
export function fitSize(doc: PDFKit.PDFDocument, text: string, width: number, max: number): number {
  doc.font(REGULAR).fontSize(max);
  const natural = doc.widthOfString(text);
  return natural <= width ? max : Math.max(5, (max * width) / natural);
}
