import { buildFeedbackModel, isFeedback } from './feedback-model.js';
import {
  drawFeedbackComments,
  drawFeedbackCover,
  drawFeedbackIntroduction,
  drawFeedbackOverview,
  drawGaps,
  drawItems,
  drawStrengths,
  feedbackContext,
} from './feedback-sections.js';
import type { GroupReportInput, GroupReportSheet } from './group-input.js';
import { buildCondensedModel, buildGroupModel, type GroupReportModel, isExcluded } from './group-model.js';
import {
  drawCondensedTable,
  drawGroupCover,
  drawGroupDimension,
  drawGroupIntroduction,
  drawVerbatims,
  groupContext,
} from './group-sections.js';
import { barColor, creatorOf, type Flow, MUTED, openReport, STYLES } from './layout.js';
import { drawComments, drawDimension, drawIntroduction, reportContext } from './personal-sections.js';
import { buildReportModel } from './report-model.js';

export type { GroupReportInput, GroupReportSheet } from './group-input.js';

/**
 * Renders a group-type report as a tagged PDF in the report's language, like the personal report
 * (Noto Sans embedded, headings, charts with alternative text, footers on every page). Pure: it
 * reads only its input and the bundled font.
 *
 * - `group`: cover, how to read, the group means, then per dimension its statistics, distribution,
 *   the members by band and the facets' means; the comments with their writers' names.
 * - `group` with `master`: a 360 feedback report on the master's subject (see feedback-model.ts for
 *   the anonymity rule). Other types ignore `master`.
 * - `groupanon`: the group report without a single name (not in the text, the alternative texts or
 *   the metadata); comments shuffled and unattributed.
 * - `condensed`: a table of members x dimensions on one page for up to about 40 members; larger
 *   groups run on over more pages.
 * - `complete`: the group report, then each member's personal report from a new page.
 */
export function renderGroupReport(input: GroupReportInput): Promise<Buffer> {
  if (isFeedback(input)) return renderFeedback(input);
  const model = buildGroupModel(input);
  const color = barColor(input.agency.color);
  const { flow, root, finish } = openReport(model.labels.locale, {
    Title: model.reportName === '' ? model.title : `${model.title} – ${model.reportName}`,
    Author: model.agencyName,
    Subject: model.variantName,
    Creator: creatorOf(model.instanceName),
  });

  if (input.type === 'condensed') {
    drawCondensed(flow, root, model, input);
  } else {
    const context = groupContext(flow, root, model, color);
    drawGroupCover(context);
    flow.newPage();
    drawGroupIntroduction(context);
    flow.newPage();
    for (const dimension of model.dimensions) drawGroupDimension(context, dimension);
    drawVerbatims(context);
    if (input.type === 'complete') {
      for (const sheet of input.sheets) drawPersonalPart(flow, root, input, sheet, color);
    }
  }
  return finish({ footer: model.footer, agencyFooter: model.agencyFooter, page: model.labels.page });
}

/** The condensed report: a title block and the members x dimensions table, nothing else. */
function drawCondensed(
  flow: Flow,
  root: PDFKit.PDFStructureElement,
  model: GroupReportModel,
  input: GroupReportInput,
): void {
  const { doc } = flow;
  const { group } = model;
  const section = doc.struct('Sect');
  root.add(section);
  flow.block(section, 'H1', model.title, { ...STYLES.h2, size: 18 }, 4);
  const facts = [
    model.reportName,
    model.dateText,
    model.variantName,
    `${model.respondentsLabel}${group.colon}${model.respondents}`,
    model.agencyName,
  ].filter((part) => part !== '');
  flow.block(section, 'P', facts.join(' · '), STYLES.lead, 4);
  const condensed = buildCondensedModel(input);
  const legend = `${group.condensedNote} ${group.bandsKey}${group.colon}${condensed.bandKeys
    .map((band) => `${band.key} = ${band.label}`)
    .join(', ')}.`;
  flow.block(section, 'P', legend, { ...STYLES.small, color: MUTED }, 10);
  drawCondensedTable(flow, section, model, condensed);
  section.end();
}

/**
 * A member's personal report inside the complete report: from a new page, the member's name as
 * its heading, then the personal report's pages but its cover (the group cover says who made it).
 * Excluded comments stay out here too.
 */
function drawPersonalPart(
  flow: Flow,
  root: PDFKit.PDFStructureElement,
  input: GroupReportInput,
  sheet: GroupReportSheet,
  color: string,
): void {
  const { doc } = flow;
  let processed = sheet.processed;
  if (input.excludedVerbatims.size > 0) {
    const kept: Record<string, number | string> = { ...processed };
    for (const question of input.variant.questions) {
      if (question.type === 'text' && isExcluded(input.excludedVerbatims, sheet.reportId, question.code)) {
        delete kept[question.code];
      }
    }
    processed = kept;
  }
  const model = buildReportModel({
    variant: input.variant,
    language: input.language,
    member: sheet.member,
    date: sheet.date,
    reportId: sheet.reportId,
    processed,
    agency: input.agency,
    instanceName: input.instanceName,
  });
  flow.newPage();
  const part = doc.struct('Part');
  root.add(part);
  flow.block(part, 'H1', model.fullName === '' ? model.reportId : model.fullName, STYLES.title, 4);
  flow.block(part, 'P', `${model.title} · ${model.labels.completed} ${model.dateText}`, STYLES.lead, 18);
  const context = reportContext(flow, part, model, color);
  drawIntroduction(context);
  flow.newPage();
  for (const dimension of model.dimensions) drawDimension(context, dimension);
  drawComments(context);
  part.end();
}

/** The 360 feedback report on the master's subject. */
function renderFeedback(input: GroupReportInput & { master: GroupReportSheet }): Promise<Buffer> {
  const model = buildFeedbackModel(input);
  const color = barColor(input.agency.color);
  const { flow, root, finish } = openReport(model.labels.locale, {
    Title: model.subjectName === '' ? model.title : `${model.title} – ${model.subjectName}`,
    Author: model.agencyName,
    Subject: model.variantName,
    Creator: creatorOf(model.instanceName),
  });
  const context = feedbackContext(flow, root, model, color);
  drawFeedbackCover(context);
  flow.newPage();
  drawFeedbackIntroduction(context);
  flow.newPage();
  drawFeedbackOverview(context);
  drawGaps(context);
  drawStrengths(context);
  drawItems(context);
  drawFeedbackComments(context);
  return finish({ footer: model.footer, agencyFooter: model.agencyFooter, page: model.labels.page });
}
