import { barColor, creatorOf, openReport } from './layout.js';
import {
  drawComments,
  drawCover,
  drawDimension,
  drawIntroduction,
  reportContext,
} from './personal-sections.js';
import type { PersonalReportInput } from './report-input.js';
import { buildReportModel } from './report-model.js';

export type { PersonalReportInput } from './report-input.js';

/**
 * Renders a member's personal report as a tagged PDF (headings, paragraphs and charts with
 * alternative text in reading order), every text in the report's language. Pure: it reads only its
 * input and the bundled font.
 */
export function renderPersonalReport(input: PersonalReportInput): Promise<Buffer> {
  const model = buildReportModel(input);
  const color = barColor(input.agency.color);
  const { flow, root, finish } = openReport(model.labels.locale, {
    Title: model.fullName === '' ? model.title : `${model.title} – ${model.fullName}`,
    Author: model.agencyName,
    Subject: model.variantName,
    Creator: creatorOf(model.instanceName),
  });
  const context = reportContext(flow, root, model, color);
  drawCover(context);
  flow.newPage();
  drawIntroduction(context);
  flow.newPage();
  for (const dimension of model.dimensions) drawDimension(context, dimension);
  drawComments(context);
  return finish({ footer: model.footer, agencyFooter: model.agencyFooter, page: model.labels.page });
}
