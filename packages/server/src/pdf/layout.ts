import { createRequire } from 'node:module';
import { contrastWithWhite } from '../auth/branding.js';
import { BOLD, REGULAR, useReportFonts } from './fonts.js';

/** A4 in points, with room at the bottom for the footer every page carries. */
export const PAGE = { width: 595.28, height: 841.89, left: 56, right: 56, top: 56, bottom: 84 } as const;
export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;

/** Where a cover puts its marks (personal-sections.ts draws it; the console's preview draws it as SVG). */
export const COVER = {
  /** The agency colour's band across the top of the page. */
  band: 10,
  agencySize: 12,
  /** The top of the title. */
  titleTop: 210,
  titleAfter: 14,
  nameAfter: 18,
  /** The short rule in the agency colour under the name. */
  rule: { width: 56, height: 3, after: 30 },
  factLabelWidth: 150,
} as const;

/** Where every page's footer goes: a rule, the footer lines on the left, the page number on the right. */
export const FOOTER = {
  top: PAGE.height - PAGE.bottom + 22,
  ruleAbove: 8,
  size: 7,
  numberWidth: 90,
  gap: 12,
} as const;

export const INK = '#1f2328';
export const MUTED = '#59636e';
export const RULE = '#d0d7de';

export interface TextStyle {
  readonly font: typeof REGULAR | typeof BOLD;
  readonly size: number;
  readonly color: string;
  readonly lineGap: number;
}

export const STYLES = {
  title: { font: BOLD, size: 26, color: INK, lineGap: 2 },
  name: { font: REGULAR, size: 18, color: INK, lineGap: 2 },
  h2: { font: BOLD, size: 16, color: INK, lineGap: 1 },
  h3: { font: BOLD, size: 11.5, color: INK, lineGap: 1 },
  body: { font: REGULAR, size: 10.5, color: INK, lineGap: 3 },
  lead: { font: REGULAR, size: 10, color: MUTED, lineGap: 2.5 },
  strong: { font: BOLD, size: 11, color: INK, lineGap: 2 },
  small: { font: REGULAR, size: 8.5, color: MUTED, lineGap: 1.5 },
} as const satisfies Record<string, TextStyle>;

/**
 * A top-to-bottom cursor over the pages. Blocks are measured before they are drawn so that a page
 * break never falls between a heading and its text, or through a chart.
 */
export class Flow {
  y: number = PAGE.top;

  constructor(readonly doc: PDFKit.PDFDocument) {}

  get bottom(): number {
    return PAGE.height - PAGE.bottom;
  }

  get atTop(): boolean {
    return this.y <= PAGE.top;
  }

  /** Whether `height` more points fit on the page, from the cursor down. */
  fits(height: number): boolean {
    return this.y + height <= this.bottom;
  }

  newPage(): void {
    this.doc.addPage();
    this.y = PAGE.top;
  }

  /** Starts a new page unless `height` fits below the cursor (or the page is still empty). */
  keep(height: number): void {
    if (!this.fits(height) && !this.atTop) this.newPage();
  }

  space(points: number): void {
    // White space at the top of a page only pushes content down for nothing.
    if (!this.atTop) this.y += points;
  }

  heightOf(text: string, style: TextStyle, width = CONTENT_WIDTH): number {
    applyStyle(this.doc, style);
    // With the trailing space `block` draws, which can itself take a line when the text just fits.
    return this.doc.heightOfString(`${text} `, { width, lineGap: style.lineGap });
  }

  /**
   * Draws a text block at the cursor, tagged as `tag` (H1, P, ...) under `parent`, and moves the
   * cursor below it. The trailing space keeps words of consecutive blocks apart when the text is
   * extracted or read aloud, as pdfkit's accessibility notes ask. A block taller than the rest of
   * the page (a long comment) continues on the next page, and so does the cursor. `indent` moves
   * the block right (with `width` reduced by the caller).
   */
  block(
    parent: PDFKit.PDFStructureElement,
    tag: string,
    text: string,
    style: TextStyle,
    after = 0,
    width = CONTENT_WIDTH,
    indent = 0,
  ): void {
    const y = this.y;
    parent.add(
      this.doc.struct(tag, {}, () => {
        applyStyle(this.doc, style);
        this.doc.text(`${text} `, PAGE.left + indent, y, { width, lineGap: style.lineGap });
      }),
    );
    this.y = this.doc.y + after;
  }
}

export function applyStyle(doc: PDFKit.PDFDocument, style: TextStyle): void {
  doc.font(style.font).fontSize(style.size).fillColor(style.color);
}

/** Draws decoration that is not content (rules, shading) so that assistive technology skips it. */
export function artifact(doc: PDFKit.PDFDocument, draw: () => void): void {
  doc.markContent('Artifact', { type: 'Layout' });
  draw();
  doc.endMarkedContent();
}

const FALLBACK_COLOR = '#1f5f8b';

/**
 * The agency colour as bars can use it: a valid hex colour, darkened until it reaches 3:1 against
 * white (the WCAG contrast for graphics), so that a pale brand colour still shows on the page and
 * on the shaded band zones.
 */
export function barColor(color: string): string {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) return FALLBACK_COLOR;
  let hex = match[1] as string;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  let rgb = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  for (let i = 0; i < 20 && contrastWithWhite(rgb) < 3; i++) rgb = rgb.map((c) => Math.floor(c * 0.9));
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** What the document information dictionary says, besides the language. */
export interface DocumentInfo {
  readonly Title: string;
  readonly Author: string;
  readonly Subject: string;
  readonly Creator: string;
}

let pdfKit: typeof import('pdfkit') | undefined;

/**
 * pdfkit (with fontkit, some 300 ms of CPU to load), required when the first report is drawn
 * rather than when the process starts: every `assay` command and every start of the server loaded
 * it, most of them to draw nothing.
 */
function loadPdfKit(): typeof import('pdfkit') {
  pdfKit ??= createRequire(import.meta.url)('pdfkit') as typeof import('pdfkit');
  return pdfKit;
}

/**
 * A new A4 report document as the personal report makes it: tagged PDF 1.7 in `locale`, its title
 * shown in the viewer, pages kept open for the footers, Noto Sans only (the caller registers the
 * fonts and adds the first page).
 */
export function createReportDocument(locale: string, info: DocumentInfo): PDFKit.PDFDocument {
  const PDFDocument = loadPdfKit();
  return new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    pdfVersion: '1.7',
    font: null as unknown as undefined,
    autoFirstPage: false,
    tagged: true,
    lang: locale,
    displayTitle: true,
    bufferPages: true,
    info: { ...info },
  });
}

/** The tool's name in a report's metadata, with the instance's where it has one. */
export function creatorOf(instanceName: string): string {
  return instanceName === '' ? 'Assay' : `Assay (${instanceName})`;
}

/** A report being drawn: its document, the flow of its pages, its structure's root. */
export interface OpenReport {
  readonly doc: PDFKit.PDFDocument;
  readonly flow: Flow;
  readonly root: PDFKit.PDFStructureElement;
  /** Closes the structure, draws every page's footer and ends the document: its bytes. */
  finish(footers: FooterTexts): Promise<Buffer>;
}

/**
 * Every report's set-up, in one place: the document (`createReportDocument`), its fonts, its first
 * page, the flow and the tagged structure's root; `finish` closes them in the same order each time.
 */
export function openReport(locale: string, info: DocumentInfo): OpenReport {
  const doc = createReportDocument(locale, info);
  const bytes = collectPdf(doc);
  useReportFonts(doc);
  doc.addPage();
  const flow = new Flow(doc);
  const root = doc.struct('Document');
  doc.addStructure(root);
  return {
    doc,
    flow,
    root,
    finish: (footers) => {
      root.end();
      drawPageFooters(doc, footers);
      doc.end();
      return bytes;
    },
  };
}

/** The document's bytes once `doc.end()` has been called. */
export function collectPdf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** The texts of every page's footer. */
export interface FooterTexts {
  /** The confidentiality note. */
  readonly footer: string;
  readonly agencyFooter: string;
  /** "Page {page} of {pages}". */
  readonly page: string;
}

/** The note, the agency's footer and "Page n of N" on every page, as pagination artifacts. */
export function drawPageFooters(doc: PDFKit.PDFDocument, texts: FooterTexts): void {
  const { start, count } = doc.bufferedPageRange();
  const numberWidth = FOOTER.numberWidth;
  const textWidth = CONTENT_WIDTH - numberWidth - FOOTER.gap;
  const top = FOOTER.top;
  const note = [texts.footer, texts.agencyFooter].filter((text) => text !== '').join('\n');
  for (let i = 0; i < count; i++) {
    doc.switchToPage(start + i);
    // Text below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    doc.markContent('Artifact', { type: 'Pagination', attached: ['Bottom'] });
    doc
      .moveTo(PAGE.left, top - FOOTER.ruleAbove)
      .lineTo(PAGE.left + CONTENT_WIDTH, top - FOOTER.ruleAbove)
      .lineWidth(0.5)
      .stroke(RULE);
    doc.font(REGULAR).fontSize(FOOTER.size).fillColor(MUTED);
    doc.text(note, PAGE.left, top, { width: textWidth, lineGap: 1 });
    const page = texts.page.replace('{page}', String(i + 1)).replace('{pages}', String(count));
    doc.text(page, PAGE.left + CONTENT_WIDTH - numberWidth, top, { width: numberWidth, align: 'right' });
    doc.endMarkedContent();
  }
}

/** `text` cut with an ellipsis to fit `width` in the current font (a long name in a narrow cell). */
export function fitText(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (doc.widthOfString(`${chars.slice(0, mid).join('').trimEnd()}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('').trimEnd()}…`;
}

export interface TableColumn {
  readonly header: string;
  readonly width: number;
  readonly align?: 'left' | 'right' | 'center';
  /** Long cells wrap over more lines and the row grows; otherwise they are cut to one line. */
  readonly wrap?: boolean;
}

export interface TableCell {
  readonly text: string;
  readonly bold?: boolean;
  readonly color?: string;
  /** The cell's background, drawn as an artifact. */
  readonly fill?: string;
}

export interface TableOptions {
  /** Type size of the cells. */
  readonly size: number;
  /** Type size of the header; a point under `size` unless given. */
  readonly headerSize?: number;
  /** Space above and below a cell's text. */
  readonly padding?: number;
  /** Lines between the rows. */
  readonly rules?: boolean;
  /** Wrap the header cells instead of cutting them. */
  readonly wrapHeader?: boolean;
}

const CELL_PAD = 4;

/**
 * A tagged table (Table > TR > TH | TD) at the cursor. A row that does not fit starts a new page,
 * where the header is drawn again as an artifact (it is tagged once). Cells are single lines unless
 * their column wraps; numbers are placed by measuring, not by pdfkit's line wrapper, which keeps a
 * table of thousands of cells fast.
 */
export function drawTable(
  flow: Flow,
  parent: PDFKit.PDFStructureElement,
  columns: readonly TableColumn[],
  rows: readonly (readonly TableCell[])[],
  options: TableOptions,
): void {
  const { doc } = flow;
  const padding = options.padding ?? 3;
  const headerSize = options.headerSize ?? Math.max(6, options.size - 1);
  const xs: number[] = [];
  let x = PAGE.left;
  for (const column of columns) {
    xs.push(x);
    x += column.width;
  }
  const right = x;
  doc.font(BOLD).fontSize(headerSize);
  const headerLine = doc.currentLineHeight(true);
  const headerHeight =
    Math.max(
      ...columns.map((c) =>
        options.wrapHeader
          ? doc.heightOfString(c.header, { width: Math.max(1, c.width - 2 * CELL_PAD) })
          : headerLine,
      ),
    ) +
    2 * padding;
  doc.font(REGULAR).fontSize(options.size);
  const line = doc.currentLineHeight(true);

  const table = doc.struct('Table');
  parent.add(table);

  const cellText = (
    column: TableColumn,
    cell: Pick<TableCell, 'text' | 'bold' | 'color'>,
    cx: number,
    top: number,
    size: number,
    wrap: boolean,
  ): void => {
    doc
      .font(cell.bold ? BOLD : REGULAR)
      .fontSize(size)
      .fillColor(cell.color ?? INK);
    const inner = Math.max(1, column.width - 2 * CELL_PAD);
    let fitted = cell.text;
    let width = doc.widthOfString(fitted);
    if (wrap && width > inner) {
      doc.text(`${cell.text} `, cx + CELL_PAD, top, {
        width: inner,
        align: column.align ?? 'left',
        lineGap: 0,
      });
      return;
    }
    if (width > inner) {
      fitted = fitText(doc, cell.text, inner);
      width = doc.widthOfString(fitted);
    }
    const align = column.align ?? 'left';
    const at =
      align === 'right'
        ? cx + column.width - CELL_PAD - width
        : align === 'center'
          ? cx + (column.width - width) / 2
          : cx + CELL_PAD;
    doc.text(`${fitted} `, at, top, { lineBreak: false });
  };

  const header = (tagged: boolean): void => {
    const top = flow.y;
    const drawCells = (): void => {
      doc.rect(PAGE.left, top, right - PAGE.left, headerHeight).fill('#eef1f4');
    };
    artifact(doc, drawCells);
    const drawText = (column: TableColumn, i: number): void =>
      cellText(
        column,
        { text: column.header, bold: true, color: MUTED },
        xs[i] as number,
        top + padding,
        headerSize,
        options.wrapHeader === true,
      );
    if (tagged) {
      const tr = doc.struct('TR');
      table.add(tr);
      columns.forEach((column, i) => {
        tr.add(doc.struct('TH', {}, () => drawText(column, i)));
      });
      tr.end();
    } else {
      artifact(doc, () => columns.forEach(drawText));
    }
    flow.y = top + headerHeight;
  };

  if (!flow.fits(headerHeight + line + 2 * padding)) flow.newPage();
  header(true);
  for (const row of rows) {
    let height = line + 2 * padding;
    row.forEach((cell, i) => {
      const column = columns[i];
      if (column?.wrap) {
        // Only a cell wider than its column is measured line by line.
        const inner = Math.max(1, column.width - 2 * CELL_PAD);
        doc.font(cell.bold ? BOLD : REGULAR).fontSize(options.size);
        if (doc.widthOfString(cell.text) > inner) {
          const h = doc.heightOfString(`${cell.text} `, { width: inner, lineGap: 0 });
          height = Math.max(height, h + 2 * padding);
        }
      }
    });
    if (!flow.fits(height)) {
      flow.newPage();
      header(false);
    }
    const top = flow.y;
    const fills = row.some((cell) => cell.fill !== undefined);
    if (fills || options.rules) {
      artifact(doc, () => {
        row.forEach((cell, i) => {
          if (cell.fill !== undefined) {
            doc
              .rect((xs[i] as number) + 0.5, top + 0.5, (columns[i]?.width ?? 0) - 1, height - 1)
              .fill(cell.fill);
          }
        });
        if (options.rules) {
          doc
            .moveTo(PAGE.left, top + height)
            .lineTo(right, top + height)
            .lineWidth(0.4)
            .stroke(RULE);
        }
      });
    }
    const tr = doc.struct('TR');
    table.add(tr);
    row.forEach((cell, i) => {
      const column = columns[i];
      if (column === undefined) return;
      tr.add(
        doc.struct('TD', {}, () =>
          cellText(column, cell, xs[i] as number, top + padding, options.size, column.wrap === true),
        ),
      );
    });
    tr.end();
    flow.y = top + height;
  }
  table.end();
}
