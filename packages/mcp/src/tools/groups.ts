import type { AssayClient, Group, GroupCreate, GroupNode } from '@assay/client';
import { GROUP_TYPES } from '@assay/schema';
import Type from 'typebox';
import { fullName, IdOf, Nullable } from '../shapes.js';
import { type Tool, tool } from '../tool.js';

const GroupEntry = Type.Object({
  groupId: IdOf('the group'),
  name: Type.String(),
  alias: Type.String(),
  parentGroupId: Nullable(IdOf('the parent group'), 'null for a group at the top of the tree.'),
  path: Type.String({
    description: 'The names from the top of the tree down to this group, joined by " / ".',
  }),
  depth: Type.Integer({ description: '0 at the top of the tree.' }),
  type: Nullable(Type.String(), '`company`, `team`, `folder` or null.'),
  status: Type.String(),
  memberCount: Type.Integer({ description: 'Direct members only; members of sub-groups are not counted.' }),
});

function entry(group: Group, path: string[], depth: number) {
  return {
    groupId: group.groupid,
    name: group.name,
    alias: group.alias,
    parentGroupId: group.parentgroup && group.parentgroup !== 'root' ? group.parentgroup : null,
    path: path.join(' / '),
    depth,
    type: group.type ?? null,
    status: group.status,
    memberCount: group.membercount,
  };
}

/** The tree, depth first, each group followed by its sub-groups; siblings by name. */
function flatten(nodes: GroupNode[], path: string[] = [], depth = 0): ReturnType<typeof entry>[] {
  const sorted = [...nodes].sort((a, b) => a.name.localeCompare(b.name));
  return sorted.flatMap((node) => {
    const here = [...path, node.name];
    return [entry(node, here, depth), ...flatten(node.children, here, depth + 1)];
  });
}

/** A group's path from the top of the tree (by the flat list), for a single group. */
async function pathOf(client: AssayClient, group: Group): Promise<{ path: string[]; depth: number }> {
  const all = new Map((await client.groups.list()).map((each) => [each.groupid, each]));
  const path = [group.name];
  const seen = new Set([group.groupid]);
  for (let parent = all.get(group.parentgroup ?? ''); parent && !seen.has(parent.groupid); ) {
    seen.add(parent.groupid);
    path.unshift(parent.name);
    parent = all.get(parent.parentgroup ?? '');
  }
  return { path, depth: path.length - 1 };
}

/** An alias from a name: lower-case letters and digits, with a random tail so that it is unique. */
function aliasFor(name: string): string {
  const base = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 40);
  return `${base || 'group'}${Math.random().toString(36).slice(2, 8)}`;
}

export const groupTools: Tool[] = [
  tool({
    name: 'listGroups',
    title: 'List the group tree',
    description:
      'Lists every group of the instance as a tree, flattened depth first: each group comes right before ' +
      'its sub-groups, with its `path` from the top ("Company / Sales / North"), its `depth` and its ' +
      'number of direct members. Groups organise members (a company, a team, a folder); a member is in ' +
      'at most one group. Gives the `groupId`s for the other tools.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ groups: Type.Array(GroupEntry) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['groups'],
    async run(_args, { client }) {
      return { structured: { groups: flatten(await client.groups.tree()) } };
    },
  }),

  tool({
    name: 'getGroup',
    title: 'Get a group with its members',
    description:
      'Gives one group: its place in the tree, its direct sub-groups, and its direct members (members ' +
      'of sub-groups are not included; call getGroup on each sub-group for those).',
    input: Type.Object({ groupId: IdOf('the group') }, { additionalProperties: false }),
    output: Type.Object({
      group: GroupEntry,
      description: Nullable(Type.String()),
      subgroups: Type.Array(Type.Object({ groupId: IdOf('a sub-group'), name: Type.String() })),
      members: Type.Array(
        Type.Object({
          memberId: IdOf('a member'),
          name: Type.String(),
          email: Type.String(),
          status: Nullable(Type.String()),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['groups'],
    async run({ groupId }, { client }) {
      const [group, members, all] = await Promise.all([
        client.groups.get(groupId),
        client.groups.members(groupId),
        client.groups.list(),
      ]);
      const { path, depth } = await pathOf(client, group);
      return {
        structured: {
          group: entry(group, path, depth),
          description: group.description ?? null,
          subgroups: all
            .filter((each) => each.parentgroup === groupId)
            .map((each) => ({ groupId: each.groupid, name: each.name })),
          members: members.map((member) => ({
            memberId: member.memberid,
            name: fullName(member),
            email: member.email,
            status: member.status ?? null,
          })),
        },
      };
    },
  }),

  tool({
    name: 'createGroup',
    title: 'Create a group',
    description:
      'Creates a group, at the top of the tree or under `parentGroupId`. The name must be unique on the ' +
      'instance. `alias` (letters and digits, unique) is made from the name when not given.',
    input: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 255 }),
        parentGroupId: Type.Optional(IdOf('the parent group', 'Put the new group under this group.')),
        type: Type.Optional(Type.String({ enum: [...GROUP_TYPES], description: GROUP_TYPES.join(', ') })),
        description: Type.Optional(Type.String({ maxLength: 2000 })),
        alias: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ group: GroupEntry }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scopes: ['groups'],
    async run({ name, parentGroupId, type, description, alias }, { client }) {
      const created = await client.groups.create({
        name,
        alias: alias ?? aliasFor(name),
        parentgroup: parentGroupId ?? 'root',
        ...(type ? { type } : {}),
        ...(description !== undefined ? { description } : {}),
      } as GroupCreate);
      const { path, depth } = await pathOf(client, created);
      return { structured: { group: entry(created, path, depth) } };
    },
  }),

  tool({
    name: 'moveMember',
    title: 'Move a member to another group',
    description:
      'Puts a member in another group, taking it out of the group it is in (a member is in at most one ' +
      'group). `groupId` null takes the member out of every group. Nothing changes when the member is ' +
      'already there. Should adding to the new group fail, the member is put back where it was.',
    input: Type.Object(
      {
        memberId: IdOf('the member'),
        groupId: Nullable(IdOf('the group to move to'), 'The group to move to, or null for no group.'),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      memberId: IdOf('the member'),
      fromGroupId: Nullable(IdOf('the group the member was in')),
      toGroupId: Nullable(IdOf('the group the member is in now')),
      moved: Type.Boolean({ description: 'false when the member was already in that group.' }),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scopes: ['members', 'groups'],
    async run({ memberId, groupId }, { client }) {
      const from = (await client.members.get(memberId)).groupid ?? null;
      if (from === groupId)
        return { structured: { memberId, fromGroupId: from, toGroupId: groupId, moved: false } };
      // The target first: a missing group fails before anything changes.
      if (groupId) await client.groups.get(groupId);
      if (from) await client.groups.removeMember(from, memberId);
      if (groupId) {
        try {
          await client.groups.addMember(groupId, memberId);
        } catch (error) {
          if (from) await client.groups.addMember(from, memberId).catch(() => undefined);
          throw error;
        }
      }
      const now = (await client.members.get(memberId)).groupid ?? null;
      if (now !== groupId)
        throw new Error(`The member is in ${now ?? 'no group'} after the move, not in ${groupId}.`);
      return { structured: { memberId, fromGroupId: from, toGroupId: groupId, moved: true } };
    },
  }),
];
