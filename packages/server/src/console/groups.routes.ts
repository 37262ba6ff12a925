import { GroupCreate, GroupPatch } from '@assay/schema';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import * as groups from '../groups/groups.service.js';
import { formValues } from '../http/form-body.js';
import { type ApiInstance, fieldsOf, validated } from '../http/route-schema.js';
import { consoleActorOf, refusalOf, showConsole, viewerOf } from './console-kit.js';
import {
  groupCreateView,
  groupMembersView,
  groupMoveView,
  groupRenameView,
  groupsView,
} from './views/groups.view.js';

const groupParams = { schema: { params: Type.Object({ groupid: Type.String({ maxLength: 40 }) }) } };

/** The caller as the API's groups routes pass it: `accesstype` owner for the group's creator. */
const caller = (request: FastifyRequest) => ({ userId: request.operator?.user.id ?? '' });

/** A posted form's text field ('' when absent or sent as something else). */
const field = (body: unknown, name: string) => {
  const value = fieldsOf(body)[name];
  return typeof value === 'string' ? value : '';
};

/** The group tree, and the forms that create, rename and move a group and move its members. */
export async function groupPages(app: ApiInstance, deps: AppContext) {
  const { db, dialect } = deps;

  app.get('/groups', async (request, reply) =>
    showConsole(reply, 200, groupsView(viewerOf(request), await groups.listGroups(db, caller(request)))),
  );

  app.get('/groups/new', async (request, reply) => {
    const all = await groups.listGroups(db, caller(request));
    return showConsole(reply, 200, groupCreateView(viewerOf(request), all, { values: {} }));
  });

  app.post('/groups/new', async (request, reply) => {
    const values = {
      name: field(request.body, 'name'),
      alias: field(request.body, 'alias'),
      parentgroup: field(request.body, 'parentgroup') || 'root',
    };
    try {
      // The API's rules: POST /groups validates its body with this schema, then creates.
      const group = await groups.createGroup(
        db,
        consoleActorOf(request),
        caller(request),
        validated(GroupCreate, values, 'body'),
      );
      return reply.redirect(`/console/groups#group-${group.groupid}`, 303);
    } catch (error) {
      const all = await groups.listGroups(db, caller(request));
      return showConsole(
        reply,
        400,
        groupCreateView(viewerOf(request), all, { values, error: refusalOf(request, error) }),
      );
    }
  });

  app.get('/groups/:groupid/rename', groupParams, async (request, reply) => {
    const group = await groups.getGroup(db, caller(request), request.params.groupid);
    return showConsole(reply, 200, groupRenameView(viewerOf(request), group, { name: group.name }));
  });

  app.post('/groups/:groupid/rename', groupParams, async (request, reply) => {
    const id = request.params.groupid;
    const name = field(request.body, 'name');
    try {
      await groups.patchGroup(
        db,
        dialect,
        consoleActorOf(request),
        caller(request),
        id,
        validated(GroupPatch, { name }, 'body'),
      );
      return reply.redirect(`/console/groups#group-${id}`, 303);
    } catch (error) {
      const message = refusalOf(request, error);
      const group = await groups.getGroup(db, caller(request), id);
      return showConsole(reply, 400, groupRenameView(viewerOf(request), group, { name, error: message }));
    }
  });

  app.get('/groups/:groupid/move', groupParams, async (request, reply) => {
    const group = await groups.getGroup(db, caller(request), request.params.groupid);
    const all = await groups.listGroups(db, caller(request));
    const view = groupMoveView(viewerOf(request), group, all, { parentgroup: group.parentgroup });
    return showConsole(reply, 200, view);
  });

  app.post('/groups/:groupid/move', groupParams, async (request, reply) => {
    const id = request.params.groupid;
    const parentgroup = field(request.body, 'parentgroup');
    try {
      const patch = validated(GroupPatch, { parentgroup }, 'body');
      await groups.patchGroup(db, dialect, consoleActorOf(request), caller(request), id, patch);
      return reply.redirect(`/console/groups#group-${id}`, 303);
    } catch (error) {
      const message = refusalOf(request, error);
      const [group, all] = await Promise.all([
        groups.getGroup(db, caller(request), id),
        groups.listGroups(db, caller(request)),
      ]);
      const view = groupMoveView(viewerOf(request), group, all, { parentgroup, error: message });
      return showConsole(reply, 400, view);
    }
  });

  app.get('/groups/:groupid/members', groupParams, async (request, reply) => {
    const id = request.params.groupid;
    const [group, all, members] = await Promise.all([
      groups.getGroup(db, caller(request), id),
      groups.listGroups(db, caller(request)),
      groups.groupMembers(db, id),
    ]);
    const view = groupMembersView(viewerOf(request), group, all, members, { chosen: [], to: '' });
    return showConsole(reply, 200, view);
  });

  app.post('/groups/:groupid/members', groupParams, async (request, reply) => {
    const id = request.params.groupid;
    const chosen = formValues(request.body, 'member');
    const to = field(request.body, 'group');
    const missing = chosen.length === 0 ? 'member' : to === '' ? 'group' : undefined;
    let error: string | { field: 'member' | 'group'; missing: true } | undefined;
    if (missing) error = { field: missing, missing: true };
    else {
      try {
        await groups.moveMembers(db, consoleActorOf(request), id, to === 'none' ? null : to, chosen);
        return reply.redirect(`/console/groups#group-${id}`, 303);
      } catch (thrown) {
        error = refusalOf(request, thrown);
      }
    }
    const [group, all, members] = await Promise.all([
      groups.getGroup(db, caller(request), id),
      groups.listGroups(db, caller(request)),
      groups.groupMembers(db, id),
    ]);
    const view = groupMembersView(viewerOf(request), group, all, members, { chosen, to, error });
    return showConsole(reply, 400, view);
  });
}
