import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { sendPdf } from '../http/pdf-reply.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { fill } from '../pages/strings.js';
import { reportLink } from '../questionnaire/links.js';
import { verbatimReasons } from '../reports/group.service.js';
import { renderReport } from '../reports/report-pdf.js';
import * as reports from '../reports/reports.service.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import { groupReportStrings } from './group-report-strings.js';
import { reportsStrings } from './reports-strings.js';
import { reportDeleteView, reportLanguageView, reportListView, reportView } from './views/reports.view.js';

const ReportParams = Type.Object({ reportid: Type.String({ maxLength: 40 }) });
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (value: string | undefined) =>
  value && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : undefined;
const seq = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** Reports in the console: the list, a report's page, its PDF, recalc, language and deletion. */
export async function reportPages(app: ApiInstance, deps: AppContext) {
  const detail = async (request: FastifyRequest, id: string, extra?: { notice?: string; error?: string }) => {
    const found = await reports.reportDetail(deps, id);
    return reportView(viewerOf(request), {
      ...found,
      link: reportLink(deps, found.data.accesstoken),
      leftOut: found.data.type === 'personal' ? [] : await verbatimReasons(deps, id),
      ...extra,
    });
  };

  // The list page is one query and one view: `reportListPage` (reports.service.ts, over the
  // repository's `reportPage`: keyset on the primary key, no count) and `reportListView`
  // (views/reports.view.ts) rendered by `showConsole`; a benchmark's bare route can make the very
  // same calls. (A campaign filter's name comes from
  // the rows shown.)
  app.get(
    '/reports',
    {
      schema: {
        querystring: Type.Object({
          variant: Type.Optional(Type.String({ maxLength: 64 })),
          type: Type.Optional(Type.String({ maxLength: 16 })),
          campaign: Type.Optional(Type.String({ maxLength: 40 })),
          from: Type.Optional(Type.String({ maxLength: 32 })),
          to: Type.Optional(Type.String({ maxLength: 32 })),
          q: Type.Optional(Type.String({ maxLength: 100 })),
          after: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
          before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
          deleted: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{1,40}$' })),
        }),
      },
    },
    async (request, reply) => {
      const query = request.query;
      const filters = {
        variant: query.variant || undefined,
        type: query.type || undefined,
        campaign: query.campaign || undefined,
        from: day(query.from),
        to: day(query.to),
        q: query.q?.trim() || undefined,
      };
      const page = await reports.reportListPage(deps, {
        variant: filters.variant,
        type: filters.type,
        campaignId: filters.campaign,
        from: filters.from,
        to: filters.to,
        name: filters.q,
        after: seq(query.after),
        before: seq(query.before),
      });
      const viewer = viewerOf(request);
      const campaignName = filters.campaign
        ? (page.rows.find((row) => row.campaignid === filters.campaign)?.campaignname ?? undefined)
        : undefined;
      return showConsole(
        reply,
        200,
        reportListView(viewer, {
          query: filters,
          page,
          variants: deps.variants.list(),
          campaignName,
          notice: query.deleted
            ? fill(reportsStrings(viewer.language).deleted, { id: query.deleted })
            : undefined,
        }),
      );
    },
  );

  app.get(
    '/reports/:reportid',
    {
      schema: {
        params: ReportParams,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 16 })) }),
      },
    },
    async (request, reply) => {
      const r = reportsStrings(viewerOf(request).language);
      const done = request.query.done;
      const notice =
        done === 'recalc'
          ? r.recalculated
          : done === 'language'
            ? r.languageChanged
            : done === 'made'
              ? groupReportStrings(viewerOf(request).language).made
              : undefined;
      return showConsole(reply, 200, await detail(request, request.params.reportid, { notice }));
    },
  );

  // The PDF the API's GET /reports/{id} renders; `?download=1` as an attachment. Unlike that GET
  // it records nothing (`lastopened` is the participant's opening, and the API's, whose GET the
  // interface defines): a console page's GET changes nothing.
  app.get(
    '/reports/:reportid/pdf',
    {
      schema: {
        params: ReportParams,
        querystring: Type.Object({ download: Type.Optional(Type.String({ maxLength: 1 })) }),
      },
    },
    async (request, reply) => {
      const id = request.params.reportid;
      const rendered = await renderReport(deps, id);
      return sendPdf(reply, rendered, request.query.download === '1' ? 'attachment' : 'inline');
    },
  );

  app.post('/reports/:reportid/recalc', { schema: { params: ReportParams } }, async (request, reply) => {
    const id = request.params.reportid;
    try {
      await reports.recalc(deps, id, consoleActorOf(request));
    } catch (error) {
      return showConsole(reply, 400, await detail(request, id, { error: refusalOf(request, error) }));
    }
    return reply.redirect(`/console/reports/${encodeURIComponent(id)}?done=recalc`, 303);
  });

  app.get('/reports/:reportid/language', { schema: { params: ReportParams } }, async (request, reply) => {
    const found = await reports.reportDetail(deps, request.params.reportid);
    return showConsole(reply, 200, reportLanguageView(viewerOf(request), found));
  });

  app.post('/reports/:reportid/language', { schema: { params: ReportParams } }, async (request, reply) => {
    const id = request.params.reportid;
    const value = fieldsOf(request.body).language;
    const language = typeof value === 'string' ? value : '';
    try {
      // The API's PATCH /reports/{id} with `{ language }`.
      await reports.patchReport(deps, id, { language }, consoleActorOf(request));
    } catch (error) {
      const error_ = refusalOf(request, error);
      const found = await reports.reportDetail(deps, id);
      return showConsole(
        reply,
        400,
        reportLanguageView(viewerOf(request), { ...found, chosen: language, error: error_ }),
      );
    }
    return reply.redirect(`/console/reports/${encodeURIComponent(id)}?done=language`, 303);
  });

  app.get('/reports/:reportid/delete', { schema: { params: ReportParams } }, async (request, reply) => {
    const found = await reports.reportDetail(deps, request.params.reportid);
    return showConsole(reply, 200, reportDeleteView(viewerOf(request), found));
  });

  app.post('/reports/:reportid/delete', { schema: { params: ReportParams } }, async (request, reply) => {
    const id = request.params.reportid;
    try {
      await reports.deleteReport(deps, id, consoleActorOf(request));
    } catch (error) {
      const message = refusalOf(request, error);
      const found = await reports.reportDetail(deps, id);
      return showConsole(reply, 400, reportDeleteView(viewerOf(request), { ...found, error: message }));
    }
    return reply.redirect(`/console/reports?deleted=${encodeURIComponent(id)}`, 303);
  });
}
