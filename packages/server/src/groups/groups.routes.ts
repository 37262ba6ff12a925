import {
  DupecheckBody,
  Group,
  GroupCreate,
  GroupedMember,
  GroupMember,
  GroupPatch,
  ListQuery,
} from '@assay/schema';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/actor.js';
import { failure, ok } from '../http/envelope.js';
import { type ApiInstance, idParams, requireEmptyBody, responses } from '../http/route-schema.js';
import * as groups from './groups.service.js';

const tags = ['groups'];
const groupParams = idParams('groupid');
const membershipParams = idParams('groupid', 'memberid');

const caller = (request: FastifyRequest) => ({ userId: request.principal.userId });

export async function groupRoutes(app: ApiInstance, { db, dialect }: AppContext) {
  app.get(
    '/groups',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'Every group, flat; the tree is built from parentgroup',
        querystring: ListQuery,
        response: responses(Type.Array(Group)),
      },
    },
    async (request) => ok(await groups.listGroups(db, caller(request))),
  );

  app.post(
    '/groups',
    {
      config: { guard: 'groups' },
      schema: { tags, summary: 'Create a group', body: GroupCreate, response: responses(Group) },
    },
    async (request) => ok(await groups.createGroup(db, actorOf(request), caller(request), request.body)),
  );

  app.get(
    '/groups/members',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'Every member that is in a group, with its groupid',
        querystring: ListQuery,
        response: responses(Type.Array(GroupedMember)),
      },
    },
    async () => ok(await groups.membersInGroups(db)),
  );

  app.get(
    '/groups/nogroup/members',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'The members in no group',
        querystring: ListQuery,
        response: responses(Type.Array(GroupMember)),
      },
    },
    async () => ok(await groups.membersInNoGroup(db)),
  );

  app.post(
    '/groups/dupecheck',
    {
      config: { guard: 'groups', changesNothing: true },
      schema: {
        tags,
        summary: 'Is this alias free? ERROR means taken; matches the alias, not the name',
        body: DupecheckBody,
        response: responses(Type.Literal('')),
      },
      validatorCompiler: () => (value) => ({ value }),
    },
    async (request) => ((await groups.aliasIsFree(db, request.body)) ? ok('') : failure('')),
  );

  app.get(
    '/groups/:groupid',
    {
      config: { guard: 'groups' },
      schema: { tags, summary: 'One group', params: groupParams, response: responses(Group) },
    },
    async (request) => ok(await groups.getGroup(db, caller(request), request.params.groupid)),
  );

  app.patch(
    '/groups/:groupid',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'Update a group; a move that would make a cycle is refused',
        params: groupParams,
        body: GroupPatch,
        response: responses(Group),
      },
    },
    async (request) =>
      ok(
        await groups.patchGroup(
          db,
          dialect,
          actorOf(request),
          caller(request),
          request.params.groupid,
          request.body,
        ),
      ),
  );

  app.delete(
    '/groups/:groupid',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'Delete a group without sub-groups; its members end in no group',
        params: groupParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      await groups.deleteGroup(db, dialect, actorOf(request), request.params.groupid);
      return ok('');
    },
  );

  app.get(
    '/groups/:groupid/members',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'The direct members of a group',
        params: groupParams,
        querystring: ListQuery,
        response: responses(Type.Array(GroupMember)),
      },
    },
    async (request) => ok(await groups.groupMembers(db, request.params.groupid)),
  );

  const add = async (request: FastifyRequest<{ Params: { groupid: string; memberid: string } }>) => {
    requireEmptyBody(request.body);
    const { groupid, memberid } = request.params;
    await groups.addMember(db, actorOf(request), groupid, memberid);
    return ok('');
  };
  const addSchema = (summary: string) => ({
    config: { guard: 'groups' as const },
    schema: { tags, summary, params: membershipParams, response: responses(Type.Literal('')) },
    validatorCompiler: () => (value: unknown) => ({ value }),
  });
  app.post('/groups/:groupid/members/:memberid', addSchema('Add a member to a group (empty body)'), add);
  app.post('/groups/:groupid/member/:memberid', addSchema('Legacy singular form of adding a member'), add);

  app.delete(
    '/groups/:groupid/members/:memberid',
    {
      config: { guard: 'groups' },
      schema: {
        tags,
        summary: 'Remove a member from a group',
        params: membershipParams,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      const { groupid, memberid } = request.params;
      await groups.removeMember(db, actorOf(request), groupid, memberid);
      return ok('');
    },
  );
}
