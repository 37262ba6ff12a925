import PDFDocument from 'pdfkit';
import { REGULAR, useReportFonts } from './fonts.js';
import { barColor, CONTENT_WIDTH, Flow, MUTED, PAGE, RULE } from './layout.js';
import {
  drawComments,
  drawCover,
  drawDimension,
  drawIntroduction,
  reportContext,
} from './personal-sections.js';
import type { PersonalReportInput } from './report-input.js';
import { buildReportModel, type PersonalReportModel } from './report-model.js';

export type { PersonalReportInput } from './report-input.js';

/**
 * Renders a member's personal report as a tagged PDF (headings, paragraphs and charts with
 * alternative text in reading order), every text in the report's language. Pure: it reads only its
 * input and the bundled font.
 */
export function renderPersonalReport(input: PersonalReportInput): Promise<Buffer> {
  const model = buildReportModel(input);
  const color = barColor(input.agency.color);
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    pdfVersion: '1.7',
    // No Helvetica: pdfkit would parse its metrics for every document, and the report uses Noto Sans
    // only. The first page is added once the fonts are registered.
    font: null as unknown as undefined,
    autoFirstPage: false,
    tagged: true,
    lang: model.labels.locale,
    displayTitle: true,
    // Footers name the page count, so pages stay open until the content is done.
    bufferPages: true,
    info: {
      Title: model.fullName === '' ? model.title : `${model.title} – ${model.fullName}`,
      Author: model.agencyName,
      Subject: model.variantName,
      Creator: model.instanceName === '' ? 'Assay' : `Assay (${model.instanceName})`,
    },
  });
  const done = collect(doc);
  useReportFonts(doc);
  doc.addPage();

  const flow = new Flow(doc);
  const root = doc.struct('Document');
  doc.addStructure(root);
  const context = reportContext(flow, root, model, color);
  drawCover(context);
  flow.newPage();
  drawIntroduction(context);
  flow.newPage();
  for (const dimension of model.dimensions) drawDimension(context, dimension);
  drawComments(context);
  root.end();
  drawFooters(doc, model);
  doc.end();
  return done;
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** The confidentiality note, the agency's footer and "Page n of N" on every page, as pagination artifacts. */
function drawFooters(doc: PDFKit.PDFDocument, model: PersonalReportModel): void {
  const { start, count } = doc.bufferedPageRange();
  const numberWidth = 90;
  const textWidth = CONTENT_WIDTH - numberWidth - 12;
  const top = PAGE.height - PAGE.bottom + 22;
  const note = [model.footer, model.agencyFooter].filter((text) => text !== '').join('\n');
  for (let i = 0; i < count; i++) {
    doc.switchToPage(start + i);
    // Text below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    doc.markContent('Artifact', { type: 'Pagination', attached: ['Bottom'] });
    doc
      .moveTo(PAGE.left, top - 8)
      .lineTo(PAGE.left + CONTENT_WIDTH, top - 8)
      .lineWidth(0.5)
      .stroke(RULE);
    doc.font(REGULAR).fontSize(7).fillColor(MUTED);
    doc.text(note, PAGE.left, top, { width: textWidth, lineGap: 1 });
    const page = model.labels.page.replace('{page}', String(i + 1)).replace('{pages}', String(count));
    doc.text(page, PAGE.left + CONTENT_WIDTH - numberWidth, top, { width: numberWidth, align: 'right' });
    doc.endMarkedContent();
  }
}
