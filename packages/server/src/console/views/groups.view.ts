import type { Group, GroupMember } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import { consoleNumber } from '../format.js';
import { type MembersStrings, membersStrings } from '../members-strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { errorOf, errorsOf, memberName, textFields } from './members.view.js';

/** A group in the tree, with its sub-groups (by name). */
export interface GroupNode {
  readonly group: Group;
  readonly depth: number;
  readonly children: GroupNode[];
}

const byName = (a: GroupNode, b: GroupNode) =>
  a.group.name.localeCompare(b.group.name) || (a.group.groupid < b.group.groupid ? -1 : 1);

/** The flat list of the API (`parentgroup` or `root`) as a tree; a group whose parent is gone is a root. */
export function groupTree(groups: readonly Group[]): GroupNode[] {
  const ids = new Set(groups.map((group) => group.groupid));
  const children = new Map<string, Group[]>();
  for (const group of groups) {
    const parent = group.parentgroup !== 'root' && ids.has(group.parentgroup) ? group.parentgroup : 'root';
    children.set(parent, [...(children.get(parent) ?? []), group]);
  }
  const build = (parent: string, depth: number, seen: Set<string>): GroupNode[] =>
    (children.get(parent) ?? [])
      .filter((group) => !seen.has(group.groupid))
      .map((group) => ({
        group,
        depth,
        children: build(group.groupid, depth + 1, new Set([...seen, group.groupid])),
      }))
      .sort(byName);
  return build('root', 0, new Set());
}

/** The tree in reading order, each group once. */
export function flatten(nodes: readonly GroupNode[]): GroupNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children)]);
}

const countText = (m: MembersStrings, language: Viewer['language'], count: number) =>
  count === 1 ? m.memberCountOne : fill(m.memberCount, { count: consoleNumber(language, count) });

/** The group tree: nested lists, each group with its member count and what can be done with it. */
export function groupsView(viewer: Viewer, groups: readonly Group[]): ConsoleView {
  const base = chrome(viewer, 'groups');
  const m = membersStrings(viewer.language);
  const item = (node: GroupNode): Record<string, unknown> => ({
    id: node.group.groupid,
    name: node.group.name,
    count: countText(m, viewer.language, node.group.membercount),
    renameHref: `/console/groups/${node.group.groupid}/rename`,
    moveHref: `/console/groups/${node.group.groupid}/move`,
    membersHref: node.group.membercount > 0 ? `/console/groups/${node.group.groupid}/members` : undefined,
    children: node.children.map(item),
  });
  const tree = groupTree(groups).map(item);
  return {
    template: 'console/groups',
    model: { ...base, m, title: m.groupsTitle, tree, empty: tree.length === 0 ? m.noGroupsYet : undefined },
  };
}

/** The choice of a parent: the top, then every group in tree order, indented by its depth. */
function parentOptions(m: MembersStrings, nodes: readonly GroupNode[], selected: string) {
  return [
    { value: 'root', text: m.atTheTop, selected: selected === 'root' },
    ...nodes.map((node) => ({
      value: node.group.groupid,
      text: `${'\u2014 '.repeat(node.depth)}${node.group.name}`,
      selected: node.group.groupid === selected,
    })),
  ];
}

/** A select's model: label, options, and its error when it failed. */
function selectField(name: string, label: string, options: unknown[], error?: string, hint?: string) {
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, name, label, options, error, hint, describedBy: describedBy || undefined };
}

/** The form to create a group: name, short name (alias), where it goes. */
export function groupCreateView(
  viewer: Viewer,
  groups: readonly Group[],
  input: { values: Readonly<Record<string, string>>; error?: string },
): ConsoleView {
  const base = chrome(viewer, 'groups');
  const m = membersStrings(viewer.language);
  // Several problems at once (`name: must not be empty; alias: ...`): each next to its field.
  const errors = input.error ? errorsOf(input.error, ['name', 'alias', 'parentgroup']) : [];
  return {
    template: 'console/group-form',
    model: {
      ...base,
      m,
      title: m.createGroupTitle,
      heading: m.createGroupTitle,
      action: '/console/groups/new',
      submit: m.createGroup,
      fields: textFields(
        [
          { name: 'name', label: m.groupName },
          { name: 'alias', label: m.groupAlias, hint: m.groupAliasHint },
        ],
        input.values,
        errors,
        base.t,
        m,
      ),
      select: selectField(
        'parentgroup',
        m.groupParent,
        parentOptions(m, flatten(groupTree(groups)), input.values.parentgroup ?? 'root'),
        errors.find((error) => error.field === 'parentgroup')?.text,
      ),
      errorHidden: base.t.errorHidden,
      errors:
        errors.length > 0
          ? errors.map((error) => ({ href: `#field-${error.field}`, text: error.text }))
          : undefined,
    },
  };
}

/** The form to rename a group. */
export function groupRenameView(
  viewer: Viewer,
  group: Group,
  input: { name: string; error?: string },
): ConsoleView {
  const base = chrome(viewer, 'groups');
  const m = membersStrings(viewer.language);
  const error = input.error ? errorOf(input.error, ['name']) : undefined;
  const heading = fill(m.renameTitle, { name: group.name });
  return {
    template: 'console/group-form',
    model: {
      ...base,
      m,
      title: heading,
      heading,
      action: `/console/groups/${group.groupid}/rename`,
      submit: m.save,
      fields: textFields([{ name: 'name', label: m.groupName }], { name: input.name }, error, base.t, m),
      errors: error ? [{ href: `#field-${error.field}`, text: error.text }] : undefined,
    },
  };
}

/** The form to move a group under another (not under itself nor one of its own sub-groups). */
export function groupMoveView(
  viewer: Viewer,
  group: Group,
  groups: readonly Group[],
  input: { parentgroup: string; error?: string },
): ConsoleView {
  const base = chrome(viewer, 'groups');
  const m = membersStrings(viewer.language);
  const error = input.error ? errorOf(input.error, ['parentgroup']) : undefined;
  const heading = fill(m.moveTitle, { name: group.name });
  const own = flatten(groupTree(groups)).find((node) => node.group.groupid === group.groupid);
  const below = new Set(flatten(own ? [own] : []).map((node) => node.group.groupid));
  const places = flatten(groupTree(groups)).filter((node) => !below.has(node.group.groupid));
  return {
    template: 'console/group-form',
    model: {
      ...base,
      m,
      title: heading,
      heading,
      action: `/console/groups/${group.groupid}/move`,
      submit: m.move,
      fields: [],
      select: selectField(
        'parentgroup',
        m.groupParent,
        parentOptions(m, places, input.parentgroup),
        error?.text,
        m.moveHint,
      ),
      errorHidden: base.t.errorHidden,
      errors: error ? [{ href: '#field-parentgroup', text: error.text }] : undefined,
    },
  };
}

/** Members of a group as checkboxes, and the group to move the chosen ones to (or none). */
export function groupMembersView(
  viewer: Viewer,
  group: Group,
  groups: readonly Group[],
  members: readonly GroupMember[],
  input: {
    chosen: readonly string[];
    to: string;
    /** A business error's message, or what the form misses. */
    error?: string | { field: 'member' | 'group'; missing: true };
  },
): ConsoleView {
  const base = chrome(viewer, 'groups');
  const m = membersStrings(viewer.language);
  const error =
    typeof input.error === 'string'
      ? errorOf(input.error, ['member', 'group'])
      : input.error
        ? {
            field: input.error.field,
            text: input.error.field === 'member' ? m.noMemberChosen : m.noTargetChosen,
          }
        : undefined;
  const heading = fill(m.moveMembersTitle, { name: group.name });
  const targets = flatten(groupTree(groups)).filter((node) => node.group.groupid !== group.groupid);
  const chosen = new Set(input.chosen);
  return {
    template: 'console/group-members',
    model: {
      ...base,
      m,
      title: heading,
      heading,
      action: `/console/groups/${group.groupid}/members`,
      members: members.map((member, index) => ({
        id: `member-${index}`,
        value: member.memberid,
        name: memberName(member),
        email: member.email,
        checked: chosen.has(member.memberid),
      })),
      memberError: error?.field === 'member' ? error.text : undefined,
      select: selectField(
        'group',
        m.targetGroup,
        [
          { value: 'none', text: m.noGroup, selected: input.to === 'none' },
          ...targets.map((node) => ({
            value: node.group.groupid,
            text: `${'\u2014 '.repeat(node.depth)}${node.group.name}`,
            selected: node.group.groupid === input.to,
          })),
        ],
        error?.field === 'group' ? error.text : undefined,
      ),
      errorHidden: base.t.errorHidden,
      errors: error
        ? [{ href: error.field === 'member' ? '#member-0' : '#field-group', text: error.text }]
        : undefined,
    },
  };
}
