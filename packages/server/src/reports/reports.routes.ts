import {
  ListQuery,
  MemberReport,
  OkEmpty,
  Report,
  ReportCounts,
  ReportCreate,
  ReportData,
  ReportImport,
  ReportImportResult,
  ReportPatch,
  ReportSearchResult,
  ReportShort,
  Sample,
  SummaryDefinition,
  SummaryRequest,
  SummaryResult,
  Verbatim,
} from '@assay/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { BusinessError, forbidden, notFound } from '../domain/errors.js';
import { actorOf } from '../http/actor.js';
import { ok } from '../http/envelope.js';
import { sendPdf } from '../http/pdf-reply.js';
import {
  type ApiInstance,
  idParams,
  requireEmptyBody,
  responses,
  sendOkArray,
} from '../http/route-schema.js';
import { utf8Body } from '../util/text.js';
import { createGroupReport } from './group.service.js';
import {
  importReports,
  importRowsFromCsv,
  importRowsFromJson,
  REPORT_IMPORT_BODY_LIMIT,
  variantOf,
} from './personal.service.js';
import { renderReport } from './report-pdf.js';
import type { ReportListRow } from './reports.repository.js';
import * as reports from './reports.service.js';
import { reportMapper } from './reports.wire.js';
import { listSamples, renderSample } from './samples.js';

const tags = ['reports'];
const reportParams = idParams('reportid');
const caller = (request: FastifyRequest) => ({ userId: request.principal.userId });

const VariantParams = Type.Object({ variant: Type.String({ maxLength: 64 }) });
const pdfResponse = {
  200: {
    description: 'The report as a PDF',
    content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
  },
};

/** A Report list streamed as it is read. */
export function sendReports(reply: FastifyReply, batches: AsyncIterable<ReportListRow[]>) {
  return sendOkArray(reply, batches, reportMapper());
}

export async function reportRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/reports',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Every report',
        querystring: ListQuery,
        response: responses(Type.Array(Report)),
      },
    },
    async (_request, reply) => sendReports(reply, reports.allReports(deps)),
  );

  app.post(
    '/reports',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Make a group, groupanon, condensed or complete report (a 360 with selectedReportsMaster)',
        body: ReportCreate,
        response: responses(Report),
      },
    },
    async (request) =>
      ok(await createGroupReport(deps, caller(request), request.body ?? {}, actorOf(request))),
  );

  app.get(
    '/reports/counts',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Count strings by variant and report type',
        response: responses(ReportCounts),
      },
    },
    async () => ok(await reports.counts(deps)),
  );

  app.get(
    '/reports/search/:term',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Campaigns, members and groups whose name (or alias, or e-mail) contains the term',
        params: Type.Object({ term: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: responses(ReportSearchResult),
      },
    },
    async (request) => ok(await reports.search(deps, request.params.term)),
  );

  app.get(
    '/reports/filtered/:variant/:entitytype/:entityid',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary:
          "A variant's reports about a group's direct members (entitytype group; campaign and member are 403)",
        params: Type.Object({
          variant: Type.String({ maxLength: 64 }),
          entitytype: Type.String({ maxLength: 32 }),
          entityid: Type.String({ maxLength: 64 }),
        }),
        response: responses(Type.Array(Report)),
      },
    },
    async (request, reply) => {
      const { variant, entitytype, entityid } = request.params;
      // As the interface records: these answer 403 even with the reports scope.
      if (entitytype === 'campaign' || entitytype === 'member') {
        throw forbidden(
          `reports filtered by ${entitytype} are not available; use /${entitytype}s/{id}/reports`,
        );
      }
      if (entitytype !== 'group') throw notFound('entity type');
      variantOf(deps, variant);
      if (!/^[0-9A-Za-z]{10}$/.test(entityid)) throw notFound('group');
      return sendReports(reply, await reports.groupReports(deps, entityid, variant));
    },
  );

  app.get(
    '/reports/verbatims',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'The free-text answers of the reports in ?reports=<id>,<id>',
        querystring: Type.Object({
          reports: Type.Optional(Type.String({ description: 'comma-separated report ids' })),
        }),
        response: responses(Type.Array(Verbatim)),
      },
    },
    async (request) => ok(await reports.verbatims(deps, request.query.reports)),
  );

  app.get(
    '/reports/summary/:variant',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'The summary definition of a variant (what POST /reports/summary computes); ?language=',
        params: VariantParams,
        querystring: Type.Object({ language: Type.Optional(Type.String()) }),
        response: responses(SummaryDefinition),
      },
    },
    async (request) =>
      ok(reports.summaryDefinition(variantOf(deps, request.params.variant), request.query.language)),
  );

  app.post(
    '/reports/summary',
    {
      config: { guard: 'reports', changesNothing: true },
      schema: {
        tags,
        summary:
          'Statistics per dimension and per question (n, mean, sd, distribution) over personal reports',
        body: SummaryRequest,
        response: responses(SummaryResult),
      },
    },
    async (request) => ok(await reports.summary(deps, request.body ?? {})),
  );

  await app.register(async (scope: ApiInstance) => {
    scope.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'buffer' }, (request, body, done) => {
      const text = utf8Body(body as Buffer, request.headers['content-type']);
      if (text === undefined)
        return done(new BusinessError('body: must be UTF-8 (save the CSV as UTF-8)'), undefined);
      done(null, text);
    });
    scope.post(
      '/reports/import/:variant',
      {
        config: { guard: 'reports' },
        bodyLimit: REPORT_IMPORT_BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Answers of existing members become personal reports (JSON rows, or CSV: memberid or email, then question codes)',
          params: VariantParams,
          body: {
            content: {
              'application/json': { schema: ReportImport },
              'text/csv': {
                schema: Type.String({
                  description:
                    'A header row (memberid or email, campaignid, language, date, role, question codes), then a row per report',
                }),
              },
            },
          },
          response: responses(ReportImportResult),
        },
        // JSON and CSV bodies are told apart by the handler, so both reach it unvalidated.
        validatorCompiler: () => (value) => ({ value }),
      },
      async (request) => {
        const variant = variantOf(deps, request.params.variant);
        const rows =
          typeof request.body === 'string'
            ? importRowsFromCsv(variant, request.body)
            : importRowsFromJson(request.body);
        return ok(await importReports(deps, caller(request), variant, rows, actorOf(request)));
      },
    );
  });

  app.get(
    '/reports/:reportid',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'The report as a PDF (not JSON); a GET sets lastopened',
        params: reportParams,
        response: pdfResponse,
      },
    },
    async (request, reply) => {
      const id = request.params.reportid;
      const rendered = await renderReport(deps, id);
      // HEAD (which Fastify answers with this handler) looks without opening.
      if (request.method === 'GET') await reports.markOpened(deps, id);
      return sendPdf(reply, rendered);
    },
  );

  app.get(
    '/reports/:reportid/short',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'One report (short shape)',
        params: reportParams,
        response: responses(ReportShort),
      },
    },
    async (request) => ok(await reports.getShort(deps, request.params.reportid)),
  );

  app.get(
    '/reports/:reportid/data',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'One report with its answers (raw, processed, extra as JSON-encoded strings)',
        params: reportParams,
        response: responses(ReportData),
      },
    },
    async (request) => ok(await reports.getData(deps, request.params.reportid)),
  );

  app.get(
    '/reports/:reportid/usage',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'The group reports this report feeds',
        params: reportParams,
        response: responses(Type.Array(Report)),
      },
    },
    async (request, reply) => sendReports(reply, await reports.usage(deps, request.params.reportid)),
  );

  app.patch(
    '/reports/:reportid',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Change name (group reports), language, tags or testcase',
        params: reportParams,
        body: ReportPatch,
        response: responses(Report),
      },
    },
    async (request) =>
      ok(await reports.patchReport(deps, request.params.reportid, request.body ?? {}, actorOf(request))),
  );

  app.delete(
    '/reports/:reportid',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Delete a report (not while a group report uses it)',
        params: reportParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      await reports.deleteReport(deps, request.params.reportid, actorOf(request));
      return ok('');
    },
  );

  app.post(
    '/reports/:reportid/recalc',
    {
      config: { guard: 'reports' },
      schema: {
        tags,
        summary: 'Score the report again with the current definition',
        params: reportParams,
        response: { 200: OkEmpty },
      },
    },
    async (request) => {
      requireEmptyBody(request.body);
      await reports.recalc(deps, request.params.reportid, actorOf(request));
      return ok('');
    },
  );
}

/** The samples family: one sample per variant and language, made now from synthetic answers. */
export async function sampleRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/samples',
    {
      config: { guard: 'samples' },
      schema: {
        tags: ['samples'],
        summary: 'A sample personal report per variant and language, with the address of its PDF',
        querystring: ListQuery,
        response: responses(Type.Array(Sample)),
      },
    },
    async () => ok(listSamples(deps.variants, deps.config.publicUrl)),
  );
  app.get(
    '/samples/:variant/:language',
    {
      config: { guard: 'samples' },
      schema: {
        tags: ['samples'],
        summary: 'A sample report as a PDF',
        params: Type.Object({
          variant: Type.String({ maxLength: 64 }),
          language: Type.String({ maxLength: 8 }),
        }),
        response: pdfResponse,
      },
    },
    async (request, reply) => {
      const { variant, language } = request.params;
      return sendPdf(reply, await renderSample(deps.variants, variant, language));
    },
  );
}

/** The paths of other families that list reports (each guarded by its own family's scope). */
export async function reportListRoutes(app: ApiInstance, deps: AppContext) {
  const campaignParams = idParams('campaignid');
  const membershipParams = idParams('campaignid', 'memberid');
  const memberParams = idParams('memberid');
  const groupParams = idParams('groupid');

  app.get(
    '/campaigns/:campaignid/reports',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags: ['campaigns'],
        summary: "The campaign's reports",
        params: campaignParams,
        querystring: ListQuery,
        response: responses(Type.Array(Report)),
      },
    },
    async (request, reply) =>
      sendReports(reply, await reports.campaignReports(deps, request.params.campaignid)),
  );

  app.get(
    '/campaigns/:campaignid/members/:memberid/reports',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags: ['campaigns'],
        summary: "A member's reports in this campaign (MemberReport shape)",
        params: membershipParams,
        querystring: ListQuery,
        response: responses(Type.Array(MemberReport)),
      },
    },
    async (request) => {
      const { campaignid, memberid } = request.params;
      return ok(await reports.memberReports(deps, memberid, campaignid));
    },
  );

  app.get(
    '/members/:memberid/reports',
    {
      config: { guard: 'members' },
      schema: {
        tags: ['members'],
        summary: "The member's reports (MemberReport: id a numeric string, tags JSON-encoded)",
        params: memberParams,
        querystring: ListQuery,
        response: responses(Type.Array(MemberReport)),
      },
    },
    async (request) => ok(await reports.memberReports(deps, request.params.memberid)),
  );

  app.get(
    '/groups/:groupid/reports',
    {
      config: { guard: 'groups' },
      schema: {
        tags: ['groups'],
        summary: "The reports about the group's direct members",
        params: groupParams,
        querystring: ListQuery,
        response: responses(Type.Array(Report)),
      },
    },
    async (request, reply) => sendReports(reply, await reports.groupReports(deps, request.params.groupid)),
  );

  app.get(
    '/groups/:groupid/reports/counts',
    {
      config: { guard: 'groups' },
      schema: {
        tags: ['groups'],
        summary: "Count strings by variant and type over the group's direct members' reports",
        params: groupParams,
        response: responses(ReportCounts),
      },
    },
    async (request) => ok(await reports.counts(deps, request.params.groupid)),
  );
}
