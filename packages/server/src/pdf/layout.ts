import { BOLD, REGULAR } from './fonts.js';

/** A4 in points, with room at the bottom for the footer every page carries. */
export const PAGE = { width: 595.28, height: 841.89, left: 56, right: 56, top: 56, bottom: 84 } as const;
export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;

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
   * the page (a long comment) continues on the next page, and so does the cursor.
   */
  block(
    parent: PDFKit.PDFStructureElement,
    tag: string,
    text: string,
    style: TextStyle,
    after = 0,
    width = CONTENT_WIDTH,
  ): void {
    const y = this.y;
    parent.add(
      this.doc.struct(tag, {}, () => {
        applyStyle(this.doc, style);
        this.doc.text(`${text} `, PAGE.left, y, { width, lineGap: style.lineGap });
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

function contrastWithWhite(rgb: number[]): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}
