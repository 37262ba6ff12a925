import {
  type AssayClient,
  type Datastructure,
  type MemberReport,
  parseReportData,
  type Report,
  type ReportCreate,
} from '@assay/client';
import { GROUP_REPORT_TYPES } from '@assay/schema';
import Type from 'typebox';
import { DateText, fullName, IdOf, isoDate, Nullable, page, paging, reportPdfUri } from '../shapes.js';
import { type ResourceLink, type Tool, ToolInputError, tool } from '../tool.js';

const ReportEntry = Type.Object({
  reportId: IdOf('the report'),
  type: Type.String({
    description: "`personal` (one member's answers) or a group type: group, groupanon, condensed, complete.",
  }),
  name: Nullable(Type.String(), 'The name of a group report; null for a personal one.'),
  variant: Type.String(),
  language: Type.String(),
  date: Nullable(DateText('When the report was made.')),
  campaignId: Nullable(IdOf('the campaign')),
  memberId: Nullable(IdOf('the member the report is about'), 'null for a group report.'),
  memberName: Nullable(Type.String()),
  pdfUri: Type.String({ description: 'The resource URI of the report as PDF (read it as an MCP resource).' }),
});

type ReportFields = Pick<
  Report,
  | 'reportid'
  | 'type'
  | 'name'
  | 'variant'
  | 'language'
  | 'date'
  | 'campaignid'
  | 'memberid'
  | 'firstname'
  | 'middlename'
  | 'lastname'
>;

function reportEntry(report: ReportFields) {
  return {
    reportId: report.reportid,
    type: report.type,
    name: report.name ?? null,
    variant: report.variant,
    language: report.language,
    date: isoDate(report.date),
    campaignId: report.campaignid ?? null,
    memberId: report.memberid ?? null,
    memberName: report.memberid ? fullName(report) : null,
    pdfUri: reportPdfUri(report.reportid),
  };
}

function pdfLink(report: {
  reportId: string;
  type: string;
  name: string | null;
  memberName: string | null;
}): ResourceLink {
  const about = report.name ?? report.memberName ?? report.reportId;
  return {
    uri: reportPdfUri(report.reportId),
    name: `report-${report.reportId}.pdf`,
    title: `${report.type} report: ${about}`,
    mimeType: 'application/pdf',
    description: 'The report as PDF.',
  };
}

/** Dimension (and facet) names by code, in a language; codes only when the structure is not readable. */
async function dimensionNames(client: AssayClient, variant: string, language: string) {
  const names = new Map<string, { name: string; parent: string | null }>();
  let structure: Datastructure;
  try {
    structure = await client.settings.datastructure(variant, { language });
  } catch {
    return names;
  }
  for (const dimension of structure.dimensions) {
    names.set(dimension.code, { name: dimension.name, parent: null });
    for (const facet of dimension.facets) names.set(facet.code, { name: facet.name, parent: dimension.code });
  }
  return names;
}

/** The variant of a report, for calls that need one alongside a selection of reports. */
async function variantOf(client: AssayClient, reportId: string): Promise<string> {
  return (await client.reports.short(reportId)).variant;
}

const Selection = Type.Array(IdOf('a report'), { minItems: 1, maxItems: 10_000 });

export const reportTools: Tool[] = [
  tool({
    name: 'listReports',
    title: 'List reports',
    description:
      "Lists reports. A personal report holds one member's answers and scores (made when the member " +
      'completes a questionnaire); group reports combine personal reports. Narrow with one of ' +
      "`memberId` (that member's reports), `campaignId` (the campaign's), or `groupId` (about the " +
      "group's direct members); `variant` and `type` filter further. Each report has a `pdfUri`.",
    input: Type.Object(
      {
        memberId: Type.Optional(IdOf('a member')),
        campaignId: Type.Optional(IdOf('a campaign')),
        groupId: Type.Optional(IdOf('a group')),
        variant: Type.Optional(Type.String()),
        type: Type.Optional(Type.String({ enum: ['personal', ...GROUP_REPORT_TYPES] })),
        ...paging(100, 10_000),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ total: Type.Integer(), offset: Type.Integer(), reports: Type.Array(ReportEntry) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['reports'],
    async run({ memberId, campaignId, groupId, variant, type, limit, offset }, { client }) {
      const sources = [memberId, campaignId, groupId].filter((id) => id !== undefined);
      if (sources.length > 1)
        throw new ToolInputError('Give at most one of memberId, campaignId and groupId.');
      const reports: (Report | MemberReport)[] = memberId
        ? await client.members.reports(memberId)
        : campaignId
          ? await client.campaigns.reports(campaignId)
          : groupId
            ? await client.groups.reports(groupId)
            : await client.reports.list();
      const kept = reports.filter(
        (report) => (!variant || report.variant === variant) && (!type || report.type === type),
      );
      const { total, items } = page(kept, limit, offset);
      return { structured: { total, offset: offset ?? 0, reports: items.map(reportEntry) } };
    },
  }),

  tool({
    name: 'getReport',
    title: 'Read a report',
    description:
      "Reads a report's content: for a personal report, the member's score per dimension and facet " +
      '(0-100, with its band: low, average, high ...) and every answer by question code; for a group ' +
      'report, which reports it combines. The PDF is linked as a resource (`pdfUri`).',
    input: Type.Object({ reportId: IdOf('the report') }, { additionalProperties: false }),
    output: Type.Object({
      report: ReportEntry,
      scores: Type.Array(
        Type.Object({
          code: Type.String(),
          name: Type.String(),
          parent: Nullable(Type.String(), 'For a facet, the code of its dimension.'),
          score: Nullable(Type.Number({ description: '0 to 100.' })),
          mean: Nullable(Type.Number({ description: 'The mean answer on the scale.' })),
          band: Nullable(Type.String()),
        }),
      ),
      answers: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]), {
        description: 'Answers by question code (see getQuestions for the texts).',
      }),
      sourceReportIds: Type.Array(IdOf('a report'), {
        description: 'For a group report: the reports it combines.',
      }),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['reports'],
    async run({ reportId }, { client }) {
      const data = await client.reports.data(reportId);
      const parsed = parseReportData(data);
      const processed = (parsed.processed ?? {}) as Record<string, unknown>;
      const names = await dimensionNames(client, data.variant, data.language);
      const codes = new Set<string>();
      for (const key of Object.keys(processed)) {
        const match = /^(.*)_(score|mean|band)$/.exec(key);
        if (match?.[1]) codes.add(match[1]);
      }
      const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
      const scores = [...codes].map((code) => ({
        code,
        name: names.get(code)?.name ?? code,
        parent: names.get(code)?.parent ?? null,
        score: number(processed[`${code}_score`]),
        mean: number(processed[`${code}_mean`]),
        band: typeof processed[`${code}_band`] === 'string' ? (processed[`${code}_band`] as string) : null,
      }));
      const selected = (data.config as Record<string, unknown>).selectedReports;
      const sourceReportIds =
        data.type === 'personal'
          ? []
          : (typeof selected === 'string' ? selected.split(',') : []).filter((id) => id);
      const report = reportEntry({ ...data, date: data.thedate });
      return {
        structured: {
          report,
          scores,
          answers: data.type === 'personal' ? ((parsed.raw ?? {}) as Record<string, number | string>) : {},
          sourceReportIds,
        },
        links: [pdfLink(report)],
      };
    },
  }),

  tool({
    name: 'getVerbatims',
    title: 'Read free-text answers',
    description:
      'Gives the free-text answers (comments) of the given reports, with the question each answers. Use ' +
      'it to read what people wrote, e.g. over all personal reports of a campaign.',
    input: Type.Object({ reportIds: Selection }, { additionalProperties: false }),
    output: Type.Object({
      verbatims: Type.Array(
        Type.Object({
          reportId: IdOf('the report'),
          code: Type.String(),
          question: Type.String(),
          answer: Type.String(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['reports'],
    async run({ reportIds }, { client }) {
      const verbatims = await client.reports.verbatims(reportIds);
      return {
        structured: {
          verbatims: verbatims.map((entry) => ({
            reportId: entry.reportid,
            code: entry.code,
            question: entry.question,
            answer: entry.answer,
          })),
        },
      };
    },
  }),

  tool({
    name: 'summarizeReports',
    title: 'Summarise personal reports',
    description:
      'Statistics over personal reports of one variant: for each dimension, facet and question the ' +
      'number of reports (n), the mean, the standard deviation and the distribution of answers or bands. ' +
      'Give the `reportIds` (e.g. the personal reports of a campaign from listReports); they must all ' +
      'be of one variant.',
    input: Type.Object(
      {
        reportIds: Selection,
        variant: Type.Optional(
          Type.String({ description: "The reports' variant; default that of the first report." }),
        ),
        language: Type.Optional(Type.String({ description: 'For the names; e.g. enUS.' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      variant: Type.String(),
      language: Type.String(),
      n: Type.Integer({ description: 'Reports summarised.' }),
      dimensions: Type.Array(
        Type.Object({
          code: Type.String(),
          name: Type.String(),
          parent: Nullable(Type.String()),
          n: Type.Integer(),
          mean: Nullable(Type.Number()),
          sd: Nullable(Type.Number()),
          distribution: Type.Record(Type.String(), Type.Integer()),
        }),
      ),
      questions: Type.Array(
        Type.Object({
          code: Type.String(),
          question: Type.String(),
          dimension: Nullable(Type.String()),
          n: Type.Integer(),
          mean: Nullable(Type.Number()),
          sd: Nullable(Type.Number()),
          distribution: Type.Record(Type.String(), Type.Integer()),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['reports'],
    async run({ reportIds, variant, language }, { client }) {
      const summary = await client.reports.summary({
        variant: variant ?? (await variantOf(client, reportIds[0] as string)),
        selectedReports: reportIds.join(','),
        ...(language ? { language } : {}),
      });
      return { structured: summary };
    },
  }),

  tool({
    name: 'createGroupReport',
    title: 'Create a group report',
    description:
      'Combines personal reports of one variant into a group report (a PDF): `group` shows every person ' +
      'by name beside the distribution, `groupanon` the same without any name, `condensed` an overview ' +
      'on few pages, `complete` the group report followed by each personal report. For a 360 feedback ' +
      "report (leadership360) give the subject's own report as `selfReportId` and the raters' reports " +
      'in `reportIds`.',
    input: Type.Object(
      {
        type: Type.String({ enum: [...GROUP_REPORT_TYPES] }),
        reportIds: Selection,
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        language: Type.Optional(Type.String({ description: 'Default: the language of the reports.' })),
        selfReportId: Type.Optional(IdOf("the subject's own report (360 only)")),
        campaignId: Type.Optional(IdOf('the campaign the report belongs to')),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ report: ReportEntry }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scopes: ['reports'],
    async run({ type, reportIds, name, language, selfReportId, campaignId }, { client }) {
      const body: ReportCreate = {
        reportType: type,
        variant: await variantOf(client, selfReportId ?? (reportIds[0] as string)),
        selectedReports: reportIds.join(','),
      };
      if (name) body.name = name;
      if (language) body.language = language;
      if (selfReportId) body.selectedReportsMaster = selfReportId;
      if (campaignId) body.campaignid = campaignId;
      const report = reportEntry(await client.reports.create(body));
      return { structured: { report }, links: [pdfLink(report)] };
    },
  }),
];
