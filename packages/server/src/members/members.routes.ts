import type { IncomingMessage } from 'node:http';
import {
  DupecheckBody,
  ListQuery,
  MemberCreate,
  MemberDetail,
  MemberImport,
  MemberImportQuery,
  MemberImportResult,
  MemberListItem,
  MemberPatch,
} from '@assay/schema';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { accessDenied, BusinessError } from '../domain/errors.js';
import { actorOf } from '../http/actor.js';
import { failure, ok } from '../http/envelope.js';
import { IMPORT_BODY_LIMIT, readBody } from '../http/read-body.js';
import { type ApiInstance, idParams, responses, sendOkArray, validated } from '../http/route-schema.js';
import { utf8Body } from '../util/text.js';
import { eraseMember } from './erasure.service.js';
import { importMembersFromCsv, importMembersFromJson, JsonImportBody } from './import-body.js';
import * as members from './members.service.js';
import { toListItem } from './members.wire.js';

const tags = ['members'];
const memberParams = idParams('memberid');

export async function memberRoutes(app: ApiInstance, { db, dialect }: AppContext) {
  app.get(
    '/members',
    {
      config: { guard: 'members' },
      schema: {
        tags,
        summary: 'Every member (list shape)',
        querystring: ListQuery,
        response: responses(Type.Array(MemberListItem)),
      },
    },
    async (_request, reply) => sendOkArray(reply, members.listMembers(db), toListItem),
  );

  app.post(
    '/members',
    {
      config: { guard: 'members' },
      schema: { tags, summary: 'Create a member', body: MemberCreate, response: responses(MemberDetail) },
    },
    async (request) => ok(await members.createMember(db, actorOf(request), request.body)),
  );

  // The import also takes CSV; the text parser lives in a scope of its own so that no other route
  // reads a text body.
  await app.register(async (scope: ApiInstance) => {
    // Bodies of up to 64 MiB: read into one buffer as they come (`readBody`), never copied whole again.
    scope.addContentTypeParser(
      ['text/csv', 'text/plain'],
      async (request: FastifyRequest, payload: IncomingMessage) => {
        const text = utf8Body(
          await readBody(payload, request.headers['content-length']),
          request.headers['content-type'],
        );
        if (text === undefined) throw new BusinessError('body: must be UTF-8 (save the CSV as UTF-8)');
        return text;
      },
    );
    // A JSON body is kept as its bytes: the import reads its rows a chunk at a time (import-body.ts).
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      async (request: FastifyRequest, payload: IncomingMessage) => {
        const bytes = await readBody(payload, request.headers['content-length']);
        return new JsonImportBody(bytes, request.headers['content-type']);
      },
    );
    scope.post(
      '/members/import',
      {
        config: { guard: 'members' },
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Import members from JSON or CSV (text/csv with a header row; ?groupid= and ?update=1 for CSV)',
          body: {
            content: {
              'application/json': { schema: MemberImport },
              'text/csv': {
                schema: Type.String({
                  description: 'A header row of member field names, then one member a line',
                }),
              },
            },
          },
          querystring: MemberImportQuery,
          response: responses(MemberImportResult),
        },
        // JSON and CSV bodies are told apart by the handler, so both reach it unvalidated.
        validatorCompiler: () => (value) => ({ value }),
      },
      async (request) => {
        if (typeof request.body === 'string') {
          const query = validated(MemberImportQuery, request.query ?? {}, 'query');
          return ok(await importMembersFromCsv(db, request.body, query, { actor: actorOf(request) }));
        }
        if (request.body instanceof JsonImportBody)
          return ok(await importMembersFromJson(db, actorOf(request), request.body));
        const input = validated(MemberImport, request.body ?? null, 'body');
        return ok(await members.importMembers(db, actorOf(request), input));
      },
    );
  });

  app.post(
    '/members/dupecheck',
    {
      config: { guard: 'members', changesNothing: true },
      schema: {
        tags,
        summary: 'Is this e-mail free? ERROR means taken; a body without `value` answers OK',
        body: DupecheckBody,
        response: responses(Type.Literal('')),
      },
      validatorCompiler: () => (value) => ({ value }),
    },
    async (request) => ((await members.emailIsFree(db, request.body)) ? ok('') : failure('')),
  );

  app.get(
    '/members/:memberid',
    {
      config: { guard: 'members' },
      schema: {
        tags,
        summary: 'One member (detail shape)',
        params: memberParams,
        response: responses(MemberDetail),
      },
    },
    async (request) => ok(await members.getMember(db, request.params.memberid)),
  );

  app.patch(
    '/members/:memberid',
    {
      config: { guard: 'members' },
      schema: {
        tags,
        summary: 'Update a member; `group` or `groupid` answers ERROR `Access denied`',
        params: memberParams,
        body: MemberPatch,
        response: responses(MemberDetail),
      },
      // "Always" refused, says the spec: before the body is validated, so that no other message
      // can stand in for it.
      preValidation: async (request) => {
        if (members.carriesGroup(request.body)) throw accessDenied();
      },
    },
    async (request) =>
      ok(await members.patchMember(db, actorOf(request), request.params.memberid, request.body)),
  );

  app.delete(
    '/members/:memberid',
    {
      config: { guard: 'members' },
      schema: {
        tags,
        summary: 'Delete (erase) a member',
        params: memberParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      await eraseMember(db, dialect, request.params.memberid, actorOf(request));
      return ok('');
    },
  );
}
