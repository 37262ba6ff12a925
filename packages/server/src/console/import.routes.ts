import type { IncomingMessage } from 'node:http';
import { MemberImportQuery } from '@assay/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { listGroups } from '../groups/groups.service.js';
import { boundaryOf, type MultipartForm, parseMultipart } from '../http/multipart.js';
import { IMPORT_BODY_LIMIT, readBody } from '../http/read-body.js';
import { type ApiInstance, validated } from '../http/route-schema.js';
import { utf8Body } from '../util/text.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import {
  checkUpload,
  confirmUpload,
  csvRows,
  findUpload,
  importedResult,
  storeUpload,
} from './member-import.service.js';
import { membersStrings } from './members-strings.js';
import { consoleMessage } from './views/console-view.js';
import {
  type ImportFormProblem,
  importCheckView,
  importDoneView,
  importFormView,
  rowsToShow,
} from './views/import.view.js';

/** A parsed upload form: its token where the CSRF check reads it, and the whole form. */
interface UploadBody {
  readonly csrf: string | undefined;
  readonly form: MultipartForm;
}

const uploadParams = { schema: { params: Type.Object({ uploadid: Type.String({ maxLength: 40 }) }) } };

const sessionOf = (request: FastifyRequest) => request.operator?.session.id_hash ?? '';

function uploadGone(request: FastifyRequest, reply: FastifyReply) {
  const viewer = viewerOf(request);
  const m = membersStrings(viewer.language);
  return showConsole(
    reply,
    404,
    consoleMessage(viewer, m.uploadGoneTitle, [m.uploadGoneBody], {
      href: '/console/members/import',
      text: m.importTitle,
    }),
  );
}

/**
 * Importing members from a CSV file: upload (a file, or its rows pasted), a check page that runs
 * POST /members/import's code writing nothing, and the confirmation that runs it for real, once.
 */
export async function importPages(app: ApiInstance, deps: AppContext) {
  const { db, clock } = deps;
  const isUpload = (body: unknown): body is UploadBody =>
    typeof body === 'object' && body !== null && 'form' in body && typeof body.form === 'object';
  const caller = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });

  // The upload form's body (as large as the API's import takes), in this scope only.
  app.addContentTypeParser(
    'multipart/form-data',
    async (request: FastifyRequest, payload: IncomingMessage) => {
      const boundary = boundaryOf(request.headers['content-type']);
      const bytes = await readBody(payload, request.headers['content-length']);
      try {
        if (!boundary) throw new Error('no boundary');
        const form = parseMultipart(bytes, boundary);
        return { csrf: form.fields.csrf, form } satisfies UploadBody;
      } catch (error) {
        throw Object.assign(new Error(`not a form: ${(error as Error).message}`), { statusCode: 400 });
      }
    },
  );

  // A file over the limit: the form again, saying so (any other error goes to the console's page).
  app.setErrorHandler(async (error, request, reply) => {
    if ((error as { statusCode?: number }).statusCode !== 413) throw error;
    const groups = await listGroups(db, caller(request));
    return showConsole(reply, 413, importFormView(viewerOf(request), groups, { problem: { field: 'size' } }));
  });

  app.get('/members/import', async (request, reply) => {
    const groups = await listGroups(db, caller(request));
    return showConsole(reply, 200, importFormView(viewerOf(request), groups, {}));
  });

  app.post('/members/import', { bodyLimit: IMPORT_BODY_LIMIT }, async (request, reply) => {
    const body: unknown = request.body;
    // Only the upload form's own body (multipart) is read here; any other is a form without a file.
    const form: MultipartForm = isUpload(body) ? body.form : { fields: {}, files: {} };
    const file = form.files.file;
    const pasted = form.fields.pasted ?? '';
    const groupid = form.fields.groupid || undefined;
    const update = form.fields.update === '1';
    let problem: { field: ImportFormProblem; text?: string } | undefined;
    let options: MemberImportQuery | undefined;
    try {
      options = validated(MemberImportQuery, { groupid, update }, 'query');
    } catch (error) {
      problem = { field: 'groupid', text: refusalOf(request, error) };
    }
    const chosen = file && (file.filename !== '' || file.bytes.length > 0);
    const text = chosen ? utf8Body(file.bytes, file.contentType) : pasted.trim() === '' ? '' : pasted;
    if (text === undefined) problem ??= { field: 'utf8' };
    else if (text === '') problem ??= { field: 'file' };
    if (problem || !options || !text) {
      const groups = await listGroups(db, caller(request));
      const view = importFormView(viewerOf(request), groups, { groupid, update, pasted, problem });
      return showConsole(reply, 400, view);
    }
    const name = chosen ? file.filename : 'members.csv';
    const id = await storeUpload(db, clock(), sessionOf(request), { name, content: text, options });
    return reply.redirect(`/console/members/import/${id}`, 303);
  });

  app.get('/members/import/:uploadid', uploadParams, async (request, reply) => {
    const id = request.params.uploadid;
    const check = await checkUpload(db, clock(), id, sessionOf(request));
    if (!check) return uploadGone(request, reply);
    if (check.upload.imported !== null) return reply.redirect(`/console/members/import/${id}/done`, 303);
    const { names, rows } = csvRows(check.upload.content, rowsToShow(check.result));
    const view = importCheckView(viewerOf(request), {
      id,
      name: check.upload.name,
      problem: check.problem,
      result: check.result,
      names,
      rows,
    });
    return showConsole(reply, 200, view);
  });

  app.post('/members/import/:uploadid', uploadParams, async (request, reply) => {
    const id = request.params.uploadid;
    let result: Awaited<ReturnType<typeof confirmUpload>>;
    try {
      result = await confirmUpload(db, consoleActorOf(request), clock(), id, sessionOf(request));
    } catch (error) {
      // The whole file refused now (its group deleted meanwhile): the check page says why.
      if (error instanceof BusinessError) return reply.redirect(`/console/members/import/${id}`, 303);
      throw error;
    }
    if (!result) return uploadGone(request, reply);
    return reply.redirect(`/console/members/import/${id}/done`, 303);
  });

  app.get('/members/import/:uploadid/done', uploadParams, async (request, reply) => {
    const id = request.params.uploadid;
    const upload = await findUpload(db, clock(), id, sessionOf(request));
    if (!upload) return uploadGone(request, reply);
    const result = importedResult(upload);
    if (!result) return reply.redirect(`/console/members/import/${id}`, 303);
    return showConsole(reply, 200, importDoneView(viewerOf(request), result));
  });
}
