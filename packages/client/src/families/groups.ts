import { groupMember, group as groupReader, list, one, report, reportCounts } from '../normalise.js';
import type { Transport } from '../transport.js';
import type {
  Group,
  GroupCreate,
  GroupedMember,
  GroupMember,
  GroupPatch,
  Report,
  ReportCounts,
} from '../types.js';
import { type DupecheckResult, dupecheck, nothing, seg } from './shared.js';

/** A group with its sub-groups, as `groups.tree()` builds it from `parentgroup`. */
export type GroupNode = Group & { children: GroupNode[] };

/** The groups family (scope `groups`). */
export class Groups {
  constructor(
    private readonly http: Transport,
    private readonly memberGroupId: (memberId: string) => Promise<string | null>,
  ) {}

  /** GET /groups: every group, flat (the tree is built from `parentgroup`; see `tree()`). */
  list(): Promise<Group[]> {
    return this.http.call('GET', '/groups', list(groupReader));
  }

  /** GET /groups, arranged as a tree: the groups under `root` (or under a missing parent) first. */
  async tree(): Promise<GroupNode[]> {
    const groups = await this.list();
    const nodes = new Map<string, GroupNode>();
    for (const group of groups) nodes.set(group.groupid, { ...group, children: [] });
    const roots: GroupNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentgroup === 'root' ? undefined : nodes.get(node.parentgroup);
      if (parent && parent !== node) parent.children.push(node);
      else roots.push(node);
    }
    return roots;
  }

  /** POST /groups: `name` and `alias` are required; `parentgroup` defaults to `root`. */
  create(group: GroupCreate): Promise<Group> {
    return this.http.call('POST', '/groups', one(groupReader), { body: { json: group } });
  }

  /** GET /groups/members: every member that is in a group, with its `groupid`. */
  membersInGroups(): Promise<GroupedMember[]> {
    return this.http.call('GET', '/groups/members', list(groupMember));
  }

  /** POST /groups/dupecheck: is this alias taken? (It matches the alias, not the name.) */
  dupecheck(alias: string): Promise<DupecheckResult> {
    return dupecheck(this.http, '/groups/dupecheck', alias);
  }

  /** GET /groups/{groupid}. */
  get(groupId: string): Promise<Group> {
    return this.http.call('GET', `/groups/${seg(groupId)}`, one(groupReader));
  }

  /** PATCH /groups/{groupid}: any subset of the writable fields (a move is a new `parentgroup`). */
  update(groupId: string, patch: GroupPatch): Promise<Group> {
    return this.http.call('PATCH', `/groups/${seg(groupId)}`, one(groupReader), { body: { json: patch } });
  }

  /** DELETE /groups/{groupid}: a group without sub-groups; its members end in no group. */
  delete(groupId: string): Promise<void> {
    return this.http.call('DELETE', `/groups/${seg(groupId)}`, nothing);
  }

  /** GET /groups/nogroup/members: the members in no group. */
  membersWithoutGroup(): Promise<GroupMember[]> {
    return this.http.call('GET', '/groups/nogroup/members', list(groupMember));
  }

  /** GET /groups/{groupid}/members: the group's direct members. */
  members(groupId: string): Promise<GroupMember[]> {
    return this.http.call('GET', `/groups/${seg(groupId)}/members`, list(groupMember));
  }

  /**
   * POST /groups/{groupid}/members/{memberid} (empty body). A member is in at most one group: remove
   * it from its group first, or use `moveMember`.
   */
  addMember(groupId: string, memberId: string): Promise<void> {
    return this.http.call('POST', `/groups/${seg(groupId)}/members/${seg(memberId)}`, nothing);
  }

  /** POST /groups/{groupid}/member/{memberid}: the legacy singular route; the same as `addMember`. */
  addMemberLegacy(groupId: string, memberId: string): Promise<void> {
    return this.http.call('POST', `/groups/${seg(groupId)}/member/${seg(memberId)}`, nothing);
  }

  /** DELETE /groups/{groupid}/members/{memberid}. */
  removeMember(groupId: string, memberId: string): Promise<void> {
    return this.http.call('DELETE', `/groups/${seg(groupId)}/members/${seg(memberId)}`, nothing);
  }

  /**
   * Moves a member to a group (or, with null, out of any group), the way the interface requires:
   * GET /members/{memberid} for its group, DELETE it from that group, POST it to the new one.
   * Nothing is sent when it is already there. Needs the `members` scope too.
   */
  async moveMember(memberId: string, groupId: string | null): Promise<void> {
    const current = await this.memberGroupId(memberId);
    if (current === groupId) return;
    if (current) await this.removeMember(current, memberId);
    if (groupId) await this.addMember(groupId, memberId);
  }

  /** GET /groups/{groupid}/reports: the reports about the group's direct members. */
  reports(groupId: string): Promise<Report[]> {
    return this.http.call('GET', `/groups/${seg(groupId)}/reports`, list(report));
  }

  /** GET /groups/{groupid}/reports/counts: count strings by variant and report type. */
  reportCounts(groupId: string): Promise<ReportCounts> {
    return this.http.call('GET', `/groups/${seg(groupId)}/reports/counts`, reportCounts);
  }
}
