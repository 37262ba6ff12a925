import { MemberCreate, MemberPatch } from '@assay/schema';
import { Type } from 'typebox';
import { memberCampaigns } from '../campaigns/campaign-members.service.js';
import type { AppContext } from '../context.js';
import { getGroup } from '../groups/groups.service.js';
import { type ApiInstance, fieldsOf, validated } from '../http/route-schema.js';
import { exportMemberData } from '../members/member-data.service.js';
import * as members from '../members/members.service.js';
import { memberReports } from '../reports/reports.service.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import { MEMBER_FORM_FIELDS, memberFormView, memberListView, memberView } from './views/members.view.js';

const memberParams = { schema: { params: Type.Object({ memberid: Type.String({ maxLength: 40 }) }) } };

/** The member form's fields as posted: text only, each field at most once. */
function formOf(body: unknown): Record<string, string> {
  const form = fieldsOf(body);
  const values: Record<string, string> = {};
  for (const name of MEMBER_FORM_FIELDS) {
    const value = form[name];
    values[name] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** The member list, a member's page, and the forms that add and edit a member. */
export async function memberPages(app: ApiInstance, deps: AppContext) {
  const { db } = deps;
  // The list page is one query and one view: `memberListPage` (members.service.ts, over the
  // repository's `memberPage`) and `memberListView` (views/members.view.ts) rendered by
  // `showConsole`; a benchmark's bare route can make the very same calls.
  app.get(
    '/members',
    {
      schema: {
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 254 })),
          after: Type.Optional(Type.String({ maxLength: 40 })),
          before: Type.Optional(Type.String({ maxLength: 40 })),
        }),
      },
    },
    async (request, reply) => {
      const { q, after, before } = request.query;
      const page = await members.memberListPage(db, { search: q?.trim(), after, before });
      return showConsole(reply, 200, memberListView(viewerOf(request), { q, page }));
    },
  );

  app.get('/members/new', async (request, reply) =>
    showConsole(reply, 200, memberFormView(viewerOf(request), { values: {} })),
  );

  app.post('/members/new', async (request, reply) => {
    const values = formOf(request.body);
    try {
      // The API's rules: POST /members validates its body with this schema, then creates.
      const created = await members.createMember(
        db,
        consoleActorOf(request),
        validated(MemberCreate, values, 'body'),
      );
      return reply.redirect(`/console/members/${created.memberid}`, 303);
    } catch (error) {
      return showConsole(
        reply,
        400,
        memberFormView(viewerOf(request), { values, error: refusalOf(request, error) }),
      );
    }
  });

  app.get('/members/:memberid', memberParams, async (request, reply) => {
    const id = request.params.memberid;
    const member = await members.getMember(db, id);
    const [row, campaigns, reports, group] = await Promise.all([
      members.memberRow(db, id),
      memberCampaigns(deps, id),
      memberReports(deps, id),
      member.groupid ? getGroup(db, { userId: request.operator?.user.id ?? '' }, member.groupid) : undefined,
    ]);
    return showConsole(
      reply,
      200,
      memberView(viewerOf(request), {
        member,
        row,
        campaigns,
        reports,
        group: group ? { id: group.groupid, name: group.name } : undefined,
      }),
    );
  });

  // Their data export (GDPR art. 15) as a JSON attachment: the document `assay members export-data` prints.
  app.get('/members/:memberid/data', memberParams, async (request, reply) => {
    const document = await exportMemberData(db, deps.variants, request.params.memberid);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="member-${document.member.memberid}.json"`)
      .header('cache-control', 'no-store')
      .send(`${JSON.stringify(document, null, 2)}\n`);
  });

  app.get('/members/:memberid/edit', memberParams, async (request, reply) => {
    const row = await members.memberRow(db, request.params.memberid);
    const values: Record<string, string> = {};
    for (const name of MEMBER_FORM_FIELDS) values[name] = row[name] ?? '';
    return showConsole(reply, 200, memberFormView(viewerOf(request), { memberId: row.id, values }));
  });

  app.post('/members/:memberid/edit', memberParams, async (request, reply) => {
    const id = request.params.memberid;
    const values = formOf(request.body);
    try {
      // The API's rules: PATCH /members/{id} validates its body with this schema, then patches.
      await members.patchMember(db, consoleActorOf(request), id, validated(MemberPatch, values, 'body'));
      return reply.redirect(`/console/members/${id}`, 303);
    } catch (error) {
      const viewer = viewerOf(request);
      return showConsole(
        reply,
        400,
        memberFormView(viewer, { memberId: id, values, error: refusalOf(request, error) }),
      );
    }
  });
}
