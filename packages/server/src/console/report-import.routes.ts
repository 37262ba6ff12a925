import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { boundaryOf, type MultipartForm, parseMultipart } from '../http/multipart.js';
import { readBody } from '../http/read-body.js';
import type { ApiInstance } from '../http/route-schema.js';
import { MAX_IMPORT_ROWS, REPORT_IMPORT_BODY_LIMIT } from '../reports/personal.service.js';
import { utf8Body } from '../util/text.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { consoleActorOf, showConsole, viewerOf } from './console-kit.js';
import {
  checkReportUpload,
  confirmReportUpload,
  findReportUpload,
  formatOf,
  importedReportResult,
  reportUploadOptions,
  sampleCsv,
  storeReportUpload,
} from './report-import.service.js';
import { reportImportStrings } from './report-import-strings.js';
import { consoleMessage } from './views/console-view.js';
import {
  type ReportImportFormProblem,
  reportImportCheckView,
  reportImportDoneView,
  reportImportFormView,
} from './views/report-import.view.js';

/** A parsed upload form: its token where the CSRF check reads it, and the whole form. */
interface UploadBody {
  readonly csrf: string | undefined;
  readonly form: MultipartForm;
}

const uploadParams = { schema: { params: Type.Object({ uploadid: Type.String({ maxLength: 40 }) }) } };
const LIMITS = { megabytes: REPORT_IMPORT_BODY_LIMIT / (1024 * 1024), rows: MAX_IMPORT_ROWS };
const BASE = '/console/reports/import';

const sessionOf = (request: FastifyRequest) => request.operator?.session.id_hash ?? '';
const callerOf = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });

function uploadGone(request: FastifyRequest, reply: FastifyReply) {
  const viewer = viewerOf(request);
  const s = reportImportStrings(viewer.language);
  return showConsole(
    reply,
    404,
    consoleMessage(viewer, s.uploadGoneTitle, [s.uploadGoneBody], { href: BASE, text: s.title }),
  );
}

/**
 * Importing answers as reports (issue 21, item 3): upload a CSV or JSON file of
 * POST /reports/import/{variant} (or paste it), a check page that runs that import's rules writing
 * nothing, and the confirmation that runs the import itself, once.
 */
export async function reportImportPages(app: ApiInstance, deps: AppContext) {
  const { db, clock } = deps;
  const isUpload = (body: unknown): body is UploadBody =>
    typeof body === 'object' && body !== null && 'form' in body && typeof body.form === 'object';
  const form = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    input: { variant?: string; pasted?: string; problems?: ReportImportFormProblem[] } = {},
  ) =>
    showConsole(
      reply,
      status,
      reportImportFormView(viewerOf(request), { variants: deps.variants.list(), limits: LIMITS, ...input }),
    );

  // The upload form's body (as large as the API's import takes), in this scope only.
  app.addContentTypeParser(
    'multipart/form-data',
    async (request: FastifyRequest, payload: IncomingMessage) => {
      const boundary = boundaryOf(request.headers['content-type']);
      const bytes = await readBody(payload, request.headers['content-length'], REPORT_IMPORT_BODY_LIMIT);
      try {
        if (!boundary) throw new Error('no boundary');
        const parsed = parseMultipart(bytes, boundary);
        return { csrf: parsed.fields.csrf, form: parsed } satisfies UploadBody;
      } catch (error) {
        throw Object.assign(new Error(`not a form: ${(error as Error).message}`), { statusCode: 400 });
      }
    },
  );

  // A file over the limit: the form again, saying so (any other error goes to the console's page).
  app.setErrorHandler(async (error, request, reply) => {
    if ((error as { statusCode?: number }).statusCode !== 413) throw error;
    return form(request, reply, 413, { problems: ['size'] });
  });

  app.get('/reports/import', async (request, reply) => form(request, reply, 200));

  // A CSV of a questionnaire's columns (its header row), to fill in.
  app.get(
    '/reports/import/sample.csv',
    { schema: { querystring: Type.Object({ variant: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const lookup = lookupVariant(deps.variants, request.query.variant);
      if (!lookup.found) return reply.callNotFound();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${lookup.variant.alias}-answers.csv"`)
        .send(sampleCsv(lookup.variant));
    },
  );

  app.post('/reports/import', { bodyLimit: REPORT_IMPORT_BODY_LIMIT }, async (request, reply) => {
    const body: unknown = request.body;
    // Only the upload form's own body (multipart) is read here; any other is a form without a file.
    const fields: MultipartForm = isUpload(body) ? body.form : { fields: {}, files: {} };
    const file = fields.files.file;
    const pasted = fields.fields.pasted ?? '';
    const variant = fields.fields.variant ?? '';
    const chosen = file && (file.filename !== '' || file.bytes.length > 0);
    const text = chosen ? utf8Body(file.bytes, file.contentType) : pasted.trim() === '' ? '' : pasted;
    const problems: ReportImportFormProblem[] = [];
    if (!lookupVariant(deps.variants, variant).found) problems.push('variant');
    if (text === undefined) problems.push('utf8');
    else if (text === '') problems.push('file');
    if (problems.length > 0 || !text) return form(request, reply, 400, { variant, pasted, problems });
    const name = chosen ? file.filename : `answers.${formatOf(text)}`;
    const id = await storeReportUpload(db, clock(), sessionOf(request), { name, content: text, variant });
    return reply.redirect(`${BASE}/${id}`, 303);
  });

  app.get('/reports/import/:uploadid', uploadParams, async (request, reply) => {
    const id = request.params.uploadid;
    const found = await checkReportUpload(deps, id, sessionOf(request), callerOf(request));
    if (!found) return uploadGone(request, reply);
    if (found.upload.imported !== null) return reply.redirect(`${BASE}/${id}/done`, 303);
    const view = reportImportCheckView(viewerOf(request), {
      id,
      name: found.upload.name,
      alias: found.options.variant,
      variant: found.variant,
      problem: found.problem,
      rows: found.rows,
      check: found.check,
    });
    return showConsole(reply, 200, view);
  });

  app.post('/reports/import/:uploadid', uploadParams, async (request, reply) => {
    const id = request.params.uploadid;
    let result: Awaited<ReturnType<typeof confirmReportUpload>>;
    try {
      result = await confirmReportUpload(
        deps,
        id,
        sessionOf(request),
        callerOf(request),
        consoleActorOf(request),
      );
    } catch (error) {
      // The whole file refused now (its variant gone, a member deleted meanwhile): the check page says why.
      if (error instanceof BusinessError) return reply.redirect(`${BASE}/${id}`, 303);
      throw error;
    }
    if (!result) return uploadGone(request, reply);
    return reply.redirect(`${BASE}/${id}/done`, 303);
  });

  app.get('/reports/import/:uploadid/done', uploadParams, async (request, reply) => {
    const id = request.params.uploadid;
    const upload = await findReportUpload(db, clock(), id, sessionOf(request));
    if (!upload) return uploadGone(request, reply);
    const result = importedReportResult(upload);
    if (!result) return reply.redirect(`${BASE}/${id}`, 303);
    const alias = reportUploadOptions(upload).variant;
    return showConsole(reply, 200, reportImportDoneView(viewerOf(request), result, alias));
  });
}
