import {
  CampaignCreate,
  CampaignDetail,
  CampaignExportQuery,
  CampaignListItem,
  CampaignMailRequest,
  CampaignMember,
  CampaignMemberListItem,
  CampaignMemberPatch,
  CampaignMembersAdd,
  CampaignMembersAdded,
  CampaignPatch,
  DupecheckBody,
  ErrorEnvelope,
  ListQuery,
  MemberCampaign,
} from '@assay/schema';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/actor.js';
import { failure, ok } from '../http/envelope.js';
import { sendExport } from '../http/file-reply.js';
import {
  type ApiInstance,
  idParams,
  requireEmptyBody,
  responses,
  sendOkArray,
  validated,
} from '../http/route-schema.js';
import { bodyUncheckedCompiler } from '../http/validator.js';
import * as mail from './campaign-mail.service.js';
import * as members from './campaign-members.service.js';
import * as campaigns from './campaigns.service.js';
import { toCampaignMemberListItem } from './campaigns.wire.js';
import { CONTENT_TYPES, exportCampaign } from './export.service.js';

const tags = ['campaigns'];
const campaignParams = idParams('campaignid');
const membershipParams = idParams('campaignid', 'memberid');

const caller = (request: FastifyRequest) => ({ userId: request.principal.userId });

/** The optional body of invite and remind: none, `{}`, or `{ memberids, dryrun }`. */
const mailRequest = (body: unknown): CampaignMailRequest =>
  body === undefined || body === null || body === '' ? {} : validated(CampaignMailRequest, body, 'body');

export async function campaignRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/campaigns',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Every campaign (list shape)',
        querystring: ListQuery,
        response: responses(Type.Array(CampaignListItem)),
      },
    },
    async (request) => ok(await campaigns.listCampaigns(deps, caller(request))),
  );

  app.post(
    '/campaigns',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Create a campaign: name, variant and start are required',
        body: CampaignCreate,
        response: responses(CampaignDetail),
      },
    },
    async (request) =>
      ok(await campaigns.createCampaign(deps, caller(request), request.body, actorOf(request))),
  );

  app.post(
    '/campaigns/dupecheck',
    {
      config: { guard: 'campaigns', changesNothing: true },
      schema: {
        tags,
        summary: 'Is this alias free? ERROR means taken; matches the alias, not the name',
        body: DupecheckBody,
        response: responses(Type.Literal('')),
      },
      validatorCompiler: bodyUncheckedCompiler,
    },
    async (request) => ((await campaigns.aliasIsFree(deps.db, request.body)) ? ok('') : failure('')),
  );

  app.get(
    '/campaigns/:campaignid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'One campaign (detail shape)',
        params: campaignParams,
        response: responses(CampaignDetail),
      },
    },
    async (request) => ok(await campaigns.getCampaign(deps, caller(request), request.params.campaignid)),
  );

  app.patch(
    '/campaigns/:campaignid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Update a campaign; variant and language cannot change',
        params: campaignParams,
        body: CampaignPatch,
        response: responses(CampaignDetail),
      },
    },
    async (request) =>
      ok(
        await campaigns.patchCampaign(
          deps,
          caller(request),
          request.params.campaignid,
          request.body,
          actorOf(request),
        ),
      ),
  );

  app.delete(
    '/campaigns/:campaignid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Delete a campaign and its memberships; its reports stay',
        params: campaignParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      await campaigns.deleteCampaign(deps, request.params.campaignid, actorOf(request));
      return ok('');
    },
  );

  app.get(
    '/campaigns/:campaignid/members',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: "The campaign's members (list shape)",
        params: campaignParams,
        querystring: ListQuery,
        response: responses(Type.Array(CampaignMemberListItem)),
      },
    },
    async (request, reply) => {
      const batches = await members.streamMembers(deps, request.params.campaignid);
      return sendOkArray(reply, batches, toCampaignMemberListItem);
    },
  );

  app.get(
    '/campaigns/:campaignid/export',
    {
      // A row per member carries its report's scores: both families' data, so both scopes.
      config: { guard: ['campaigns', 'reports'] as const },
      schema: {
        tags,
        summary:
          'The campaign as a file: a row per member with its scores, and the free-text answers (CSV: ?part=verbatims; Excel: a second sheet)',
        params: campaignParams,
        querystring: CampaignExportQuery,
        response: {
          ...responses(Type.Never(), 'an ERROR envelope when the request is refused'),
          200: {
            description:
              'The file (an attachment), or a JSend ERROR (an unknown campaign, a bad format or part)',
            content: {
              [CONTENT_TYPES.csv]: { schema: Type.String() },
              [CONTENT_TYPES.xlsx]: { schema: Type.String({ format: 'binary' }) },
              'application/json': { schema: ErrorEnvelope },
            },
          },
        },
      },
    },
    async (request, reply) =>
      sendExport(request, reply, await exportCampaign(deps, request.params.campaignid, request.query)),
  );

  app.post(
    '/campaigns/:campaignid/members',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Add members by id and/or a group (with its sub-groups when asked)',
        params: campaignParams,
        body: CampaignMembersAdd,
        response: responses(CampaignMembersAdded),
      },
    },
    async (request) =>
      ok(await members.addMembers(deps, request.params.campaignid, request.body, actorOf(request))),
  );

  app.delete(
    '/campaigns/:campaignid/members/all',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Remove every member from the campaign',
        params: campaignParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      await members.removeAllMembers(deps, request.params.campaignid, actorOf(request));
      return ok('');
    },
  );

  const mailSchema = (summary: string) => ({
    config: { guard: 'campaigns' as const },
    schema: {
      tags,
      summary,
      params: campaignParams,
      body: CampaignMailRequest,
      response: responses(
        Type.Union([Type.Literal(''), Type.Array(Type.String())]),
        "'' once queued; with dryrun, the member ids that would be mailed",
      ),
    },
    // The body is optional: validated in the handler when there is one.
    validatorCompiler: bodyUncheckedCompiler,
  });
  app.post(
    '/campaigns/:campaignid/members/invite',
    mailSchema(
      'Invite every member with status new (or those of memberids); dryrun answers who, sending nothing',
    ),
    async (request) =>
      ok(await mail.invite(deps, request.params.campaignid, mailRequest(request.body), actorOf(request))),
  );
  app.post(
    '/campaigns/:campaignid/members/remind',
    mailSchema(
      'Remind members invited or started, below reminderrepeat; dryrun answers who, sending nothing',
    ),
    async (request) =>
      ok(await mail.remind(deps, request.params.campaignid, mailRequest(request.body), actorOf(request))),
  );

  app.get(
    '/campaigns/:campaignid/members/:memberid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'One campaign member',
        params: membershipParams,
        response: responses(CampaignMember),
      },
    },
    async (request) => {
      const { campaignid, memberid } = request.params;
      return ok(await members.getMember(deps, campaignid, memberid));
    },
  );

  app.post(
    '/campaigns/:campaignid/members/:memberid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Add one member (ids in the path, empty body)',
        params: membershipParams,
        response: responses(Type.Literal('')),
      },
      validatorCompiler: bodyUncheckedCompiler,
    },
    async (request) => {
      requireEmptyBody(request.body);
      const { campaignid, memberid } = request.params;
      await members.addMember(deps, campaignid, memberid, actorOf(request));
      return ok('');
    },
  );

  app.patch(
    '/campaigns/:campaignid/members/:memberid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: "Update a campaign member's extra (role), tags, mailconfig or testuser",
        params: membershipParams,
        body: CampaignMemberPatch,
        response: responses(CampaignMember),
      },
    },
    async (request) => {
      const { campaignid, memberid } = request.params;
      return ok(await members.patchMember(deps, campaignid, memberid, request.body, actorOf(request)));
    },
  );

  app.delete(
    '/campaigns/:campaignid/members/:memberid',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Remove a member from the campaign',
        params: membershipParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      const { campaignid, memberid } = request.params;
      await members.removeMember(deps, campaignid, memberid, actorOf(request));
      return ok('');
    },
  );

  app.patch(
    '/campaigns/:campaignid/members/:memberid/reset',
    {
      config: { guard: 'campaigns' },
      schema: {
        tags,
        summary: 'Let the member take the questionnaire again (a new link; reports stay)',
        params: membershipParams,
        response: responses(Type.Literal('')),
      },
      validatorCompiler: bodyUncheckedCompiler,
    },
    async (request) => {
      const { campaignid, memberid } = request.params;
      await members.resetMember(deps, campaignid, memberid, actorOf(request));
      return ok('');
    },
  );

  app.get(
    '/members/:memberid/campaigns',
    {
      config: { guard: 'members' },
      schema: {
        tags: ['members'],
        summary: "The member's campaign memberships",
        params: idParams('memberid'),
        response: responses(Type.Array(MemberCampaign)),
      },
    },
    async (request) => ok(await members.memberCampaigns(deps, request.params.memberid)),
  );
}
