import { CampaignExportQuery, CampaignPatch } from '@assay/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { campaignActivity } from '../campaigns/activity.service.js';
import { inviteAll, mailRecipients, remindShown } from '../campaigns/campaign-mail.service.js';
import {
  addSelection,
  allMembers,
  getMember,
  membersPage,
  membersToAdd,
  removeMember,
  resetMember,
  SKIP_FULL,
} from '../campaigns/campaign-members.service.js';
import { type CampaignDeps, getCampaign, nowOf, patchCampaign } from '../campaigns/campaigns.service.js';
import { exportCampaign } from '../campaigns/export.service.js';
import { campaignFigures } from '../campaigns/figures.service.js';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { listGroups } from '../groups/groups.service.js';
import { sendExport } from '../http/file-reply.js';
import { formValues } from '../http/form-body.js';
import { type ApiInstance, fieldsOf, validated } from '../http/route-schema.js';
import { listMails } from '../mail/outbox.service.js';
import { PAGE_CSP } from '../pages/security.js';
import { campaignRetentionOf } from '../retention/retention.service.js';
import { campaignStrings } from './campaign-strings.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import {
  addedNotice,
  addMembersView,
  answeringView,
  CANDIDATES_PAGE_SIZE,
  type CampaignPageInput,
  campaignHref,
  campaignPageView,
  is360,
  isSettingField,
  MEMBERS_PAGE_SIZE,
  type MemberFilter,
  mailCheckView,
  mailResultView,
  memberActionView,
  memberFilterOf,
  pageOf,
  progressJson,
  settingPatch,
  settingView,
} from './views/campaign.view.js';
import { consoleMessage, type Viewer } from './views/console-view.js';

/** The campaign page's CSP: the pages' own, plus the console's one script and its same-origin fetch. */
export const CAMPAIGN_PAGE_CSP = PAGE_CSP.replace(
  "default-src 'none';",
  "default-src 'none'; script-src 'self'; connect-src 'self';",
);

const campaignParams = Type.Object({ campaignid: Type.String() });
const memberParams = Type.Object({ campaignid: Type.String(), memberid: Type.String() });
const settingParams = Type.Object({ campaignid: Type.String(), field: Type.String() });
const pageQuery = Type.Object({
  status: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  done: Type.Optional(Type.String()),
  added: Type.Optional(Type.String()),
  full: Type.Optional(Type.String()),
  subjects: Type.Optional(Type.String()),
});

const callerOf = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });
const countOf = (value: unknown) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : 0;

/**
 * What the campaign page shows, from the services the API's routes call: the campaign, one page of
 * its members (of a status), its failed mails and, for a 360, every member to group. Exported with
 * `campaignPageView` so that a benchmark's floor can render the same page from the same calls.
 */
export async function loadCampaignPage(
  deps: CampaignDeps,
  caller: { userId: string },
  id: string,
  options: { filter: MemberFilter; page: number },
): Promise<Omit<CampaignPageInput, 'notice'>> {
  const campaign = await getCampaign(deps, caller, id);
  const variant = deps.variants.get(campaign.variant);
  // A page past the last shows the last (the counts come with the campaign).
  const counts = campaign.memberstatuscount;
  const total =
    options.filter === 'all'
      ? counts.new + counts.invited + counts.started + counts.completed
      : counts[options.filter];
  const page = Math.min(options.page, Math.max(1, Math.ceil(total / MEMBERS_PAGE_SIZE)));
  const [members, failedMails, everyone, activity, retention] = await Promise.all([
    membersPage(deps, id, {
      ...(options.filter === 'all' ? {} : { status: options.filter }),
      page,
      size: MEMBERS_PAGE_SIZE,
    }),
    listMails(deps.db, { campaignId: id, status: 'failed', limit: 50 }),
    is360(variant) ? allMembers(deps, id) : undefined,
    campaignActivity(deps.db, id, new Date()),
    campaignRetentionOf(deps, id),
  ]);
  return {
    campaign,
    variant,
    members,
    filter: options.filter,
    page,
    failedMails,
    everyone,
    activity,
    questionnaireUrl: deps.config.questionnaireUrl,
    retention,
  };
}

function noticeOf(viewer: Viewer, query: { done?: string; added?: string; full?: string }) {
  const s = campaignStrings(viewer.language);
  if (query.added !== undefined)
    return addedNotice(viewer.language, countOf(query.added), countOf(query.full));
  return query.done === 'removed'
    ? s.removed
    : query.done === 'reset'
      ? s.resetDone
      : query.done === 'saved'
        ? s.saved
        : undefined;
}

/** The campaign page and its pages: settings, members (add, remove, reset), invitations and reminders. */
export async function campaignRoutes(app: ApiInstance, deps: AppContext) {
  const page = (reply: FastifyReply, status: number, view: Parameters<typeof showConsole>[2]) =>
    showConsole(reply, status, view);

  app.get(
    '/campaigns/:campaignid',
    { schema: { params: campaignParams, querystring: pageQuery } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const filter = memberFilterOf(request.query.status);
      const input = await loadCampaignPage(deps, callerOf(request), request.params.campaignid, {
        filter,
        page: pageOf(request.query.page),
      });
      reply.header('content-security-policy', CAMPAIGN_PAGE_CSP);
      return page(
        reply,
        200,
        campaignPageView(viewer, {
          ...input,
          notice: noticeOf(viewer, request.query),
          subjectPage: pageOf(request.query.subjects),
        }),
      );
    },
  );

  app.get(
    '/campaigns/:campaignid/progress.json',
    { schema: { params: campaignParams } },
    async (request, reply) => {
      const campaign = await getCampaign(deps, callerOf(request), request.params.campaignid);
      return reply
        .type('application/json; charset=utf-8')
        .send(progressJson(viewerOf(request), campaign.memberstatuscount));
    },
  );

  app.get(
    '/campaigns/:campaignid/answering',
    { schema: { params: campaignParams } },
    async (request, reply) => {
      const campaign = await getCampaign(deps, callerOf(request), request.params.campaignid);
      const variant = deps.variants.get(campaign.variant);
      // A campaign whose variant is no longer installed has no pages to count people on.
      if (!variant) return reply.callNotFound();
      const figures = await campaignFigures(deps.db, campaign.campaignid, variant);
      return page(reply, 200, answeringView(viewerOf(request), campaign, variant, figures));
    },
  );

  // The campaign's export, by the code (and the checks) of the API's GET /campaigns/{id}/export.
  app.get('/campaigns/:campaignid/export', { schema: { params: campaignParams } }, async (request, reply) => {
    const id = request.params.campaignid;
    try {
      const query = validated(CampaignExportQuery, request.query, 'query');
      return sendExport(request, reply, await exportCampaign(deps, id, query));
    } catch (error) {
      // An address edited by hand (a format the export has not): the API's message, on a page.
      const refusal = refusalOf(request, error);
      const viewer = viewerOf(request);
      const s = campaignStrings(viewer.language);
      return page(
        reply,
        400,
        consoleMessage(viewer, s.downloadRefused, [refusal], {
          href: campaignHref(id),
          text: s.backToCampaign,
        }),
      );
    }
  });

  app.get(
    '/campaigns/:campaignid/settings/:field',
    { schema: { params: settingParams } },
    async (request, reply) => {
      const { campaignid, field } = request.params;
      const campaign = await getCampaign(deps, callerOf(request), campaignid);
      if (!isSettingField(field)) return reply.callNotFound();
      return page(reply, 200, settingView(viewerOf(request), campaign, field));
    },
  );

  app.post(
    '/campaigns/:campaignid/settings/:field',
    { schema: { params: settingParams } },
    async (request, reply) => {
      const { campaignid, field } = request.params;
      const caller = callerOf(request);
      const campaign = await getCampaign(deps, caller, campaignid);
      if (!isSettingField(field)) return reply.callNotFound();
      // The form's text fields: `value`, or a date's parts (`end-day`, … `end-time`).
      const fields = Object.fromEntries(
        Object.entries(fieldsOf(request.body)).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      try {
        await patchCampaign(
          deps,
          caller,
          campaignid,
          validated(CampaignPatch, settingPatch(field, fields), 'body'),
          consoleActorOf(request),
        );
      } catch (error) {
        const shown = { value: fields.value ?? '', parts: fields, error: refusalOf(request, error) };
        return page(reply, 400, settingView(viewerOf(request), campaign, field, shown));
      }
      return reply.redirect(`${campaignHref(campaignid)}?done=saved#settings`, 303);
    },
  );

  const addPage = async (
    request: FastifyRequest,
    campaignid: string,
    query: { q?: string | undefined; page?: string | undefined },
    error?: { field: 'groups' | 'members'; text: string },
  ) => {
    const caller = callerOf(request);
    const search = (query.q ?? '').slice(0, 200);
    const listPage = pageOf(query.page);
    const [campaign, groups, found] = await Promise.all([
      getCampaign(deps, caller, campaignid),
      listGroups(deps.db, caller),
      membersToAdd(deps, campaignid, { search, page: listPage, size: CANDIDATES_PAGE_SIZE }),
    ]);
    return addMembersView(viewerOf(request), campaign, {
      groups: groups.map((group) => ({ id: group.groupid, name: group.name || group.alias })),
      candidates: found.members,
      search,
      page: listPage,
      more: found.more,
      ...(error ? { error } : {}),
    });
  };
  const addSchema = {
    schema: {
      params: campaignParams,
      querystring: Type.Object({ q: Type.Optional(Type.String()), page: Type.Optional(Type.String()) }),
    },
  };

  app.get('/campaigns/:campaignid/members/add', addSchema, async (request, reply) =>
    page(reply, 200, await addPage(request, request.params.campaignid, request.query)),
  );

  app.post('/campaigns/:campaignid/members/add', addSchema, async (request, reply) => {
    const { campaignid } = request.params;
    const s = campaignStrings(viewerOf(request).language);
    const byGroup = fieldsOf(request.body).by === 'group';
    const ids = formValues(request.body, byGroup ? 'groupid' : 'memberid');
    if (ids.length === 0) {
      const error = byGroup
        ? { field: 'groups' as const, text: s.chooseGroup }
        : { field: 'members' as const, text: s.chooseMember };
      return page(reply, 400, await addPage(request, campaignid, request.query, error));
    }
    let added: number;
    let full: number;
    try {
      const subgroups = fieldsOf(request.body).subgroups === 'true';
      const selection = byGroup
        ? { groups: ids.map((groupid) => ({ groupid, subgroups })) }
        : { memberids: ids };
      const result = await addSelection(deps, campaignid, selection, consoleActorOf(request));
      added = result.added.length;
      full = result.skipped.filter((skip) => skip.reason === SKIP_FULL).length;
    } catch (error) {
      const text = refusalOf(request, error);
      return page(
        reply,
        400,
        await addPage(request, campaignid, request.query, {
          field: byGroup ? 'groups' : 'members',
          text,
        }),
      );
    }
    return reply.redirect(`${campaignHref(campaignid)}?added=${added}&full=${full}#members`, 303);
  });

  for (const action of ['remove', 'reset'] as const) {
    app.get(
      `/campaigns/:campaignid/members/:memberid/${action}`,
      { schema: { params: memberParams } },
      async (request, reply) => {
        const { campaignid, memberid } = request.params;
        const campaign = await getCampaign(deps, callerOf(request), campaignid);
        const member = await getMember(deps, campaignid, memberid);
        return page(reply, 200, memberActionView(viewerOf(request), campaign, member, action));
      },
    );
    app.post(
      `/campaigns/:campaignid/members/:memberid/${action}`,
      { schema: { params: memberParams } },
      async (request, reply) => {
        const { campaignid, memberid } = request.params;
        await (action === 'remove' ? removeMember : resetMember)(
          deps,
          campaignid,
          memberid,
          consoleActorOf(request),
        );
        return reply.redirect(
          `${campaignHref(campaignid)}?done=${action === 'remove' ? 'removed' : 'reset'}#members`,
          303,
        );
      },
    );
  }

  for (const kind of ['invite', 'remind'] as const) {
    const check = async (request: FastifyRequest, campaignid: string) => {
      const [campaign, recipients] = await Promise.all([
        getCampaign(deps, callerOf(request), campaignid),
        mailRecipients(deps, campaignid, kind),
      ]);
      return mailCheckView(viewerOf(request), campaign, kind, recipients, nowOf(deps));
    };
    app.get(
      `/campaigns/:campaignid/${kind}`,
      { schema: { params: campaignParams } },
      async (request, reply) => page(reply, 200, await check(request, request.params.campaignid)),
    );
    app.post(
      `/campaigns/:campaignid/${kind}`,
      { schema: { params: campaignParams } },
      async (request, reply) => {
        const { campaignid } = request.params;
        const shown = fieldsOf(request.body).shown;
        let count: number;
        try {
          if (kind === 'invite') count = await inviteAll(deps, campaignid, consoleActorOf(request));
          else if (typeof shown === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)$/.test(shown))
            count = await remindShown(deps, campaignid, shown, consoleActorOf(request));
          else return page(reply, 400, await check(request, request.params.campaignid));
        } catch (error) {
          if (!(error instanceof BusinessError)) throw error;
          return page(reply, 409, await check(request, request.params.campaignid));
        }
        return reply.redirect(`${campaignHref(campaignid)}/${kind}/done?count=${count}`, 303);
      },
    );
    app.get(
      `/campaigns/:campaignid/${kind}/done`,
      {
        schema: { params: campaignParams, querystring: Type.Object({ count: Type.Optional(Type.String()) }) },
      },
      async (request, reply) => {
        const campaign = await getCampaign(deps, callerOf(request), request.params.campaignid);
        return page(
          reply,
          200,
          mailResultView(viewerOf(request), campaign, kind, countOf(request.query.count)),
        );
      },
    );
  }
}
