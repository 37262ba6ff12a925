import type {
  CampaignMember,
  CampaignMemberListItem,
  CampaignMemberPatch,
  CampaignMembersAdd,
  CampaignMembersAdded,
  MemberCampaign,
} from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { descendantIds, groupExists } from '../groups/groups.repository.js';
import { findMember } from '../members/members.repository.js';
import { randomId, randomSecret } from '../util/ids.js';
import * as members from './campaign-members.repository.js';
import * as repo from './campaigns.repository.js';
import { type CampaignDeps, checkStages, nowOf, recordCampaignMembers } from './campaigns.service.js';
import type { CampaignMemberUpdate, CampaignRow, NewCampaignMemberRow } from './campaigns.table.js';
import { campaignStatus, toCampaignMember, toCampaignMemberListItem } from './campaigns.wire.js';

export const SKIP_UNKNOWN = 'unknown member';
export const SKIP_PRESENT = 'already in the campaign';
export const SKIP_FULL = 'campaign is full';

async function requireCampaign(deps: CampaignDeps, id: string): Promise<CampaignRow> {
  const row = await repo.findCampaign(deps.db, id);
  if (!row) throw notFound('campaign');
  return row;
}

export async function streamMembers(deps: CampaignDeps, campaignId: string) {
  await requireCampaign(deps, campaignId);
  return members.streamCampaignMembers(deps.db, campaignId);
}

export async function getMember(
  deps: CampaignDeps,
  campaignId: string,
  memberId: string,
): Promise<CampaignMember> {
  await requireCampaign(deps, campaignId);
  const row = await members.findCampaignMemberView(deps.db, campaignId, memberId);
  if (!row) throw notFound('campaign member');
  return toCampaignMember(row);
}

/** The members of a group, and of every group below it when asked, in no particular order. */
async function groupMemberIds(db: Kysely<Database>, group: GroupChoice): Promise<string[]> {
  const groups = group.subgroups
    ? await descendantIds(db, group.groupid)
    : (await groupExists(db, group.groupid))
      ? [group.groupid]
      : [];
  if (groups.length === 0) throw new BusinessError('groupid: no such group');
  return members.memberIdsInGroups(db, groups);
}

// A new member's columns, encoded once.
const NO_TAGS = members.memberTagsText([]);
const NO_RESULTS = members.resultsText(null);

/**
 * A member's row in a campaign, status `new` with a fresh token: names, e-mail and `testuser` are
 * copied from the member; `extra` is none unless given.
 */
export function newCampaignMember(
  campaignId: string,
  memberId: string,
  member: members.MemberToAdd,
  now: string,
  extra: Record<string, unknown> = {},
): NewCampaignMemberRow {
  return {
    id: randomId(),
    campaign_id: campaignId,
    member_id: memberId,
    token: randomSecret(),
    status: 'new',
    title: member.title ?? '',
    firstname: member.firstname,
    middlename: member.middlename ?? '',
    lastname: member.lastname,
    email: member.email,
    testuser: member.testuser,
    extra: members.memberExtraText(extra),
    tags: NO_TAGS,
    results: NO_RESULTS,
    sessionurl: '',
    countreminded: 0,
    created: now,
  };
}

/** A group whose members are to be added, with the members of every group below it when asked. */
export interface GroupChoice {
  readonly groupid: string;
  readonly subgroups: boolean;
}

/** Whom to add to a campaign at once: members by id, and the members of groups. */
export interface MemberSelection {
  readonly memberids?: readonly string[];
  readonly groups?: readonly GroupChoice[];
}

/**
 * Adds a selection in one transaction that holds the campaign's row, so that concurrent adds cannot
 * fill it past `maxparticipants` together; those beyond it are skipped with the reason. The groups
 * are read in that transaction too, and a refusal (a group that is not there, even the last of
 * several) leaves nothing added.
 */
export async function addSelection(
  deps: CampaignDeps,
  campaignId: string,
  selection: MemberSelection,
  actor: Actor,
): Promise<CampaignMembersAdded> {
  const now = nowOf(deps);
  const result = await deps.db.transaction().execute(async (trx) => {
    const campaign = await repo.lockCampaign(trx, deps.dialect, campaignId);
    if (!campaign) throw notFound('campaign');
    const chosen = [...(selection.memberids ?? [])];
    for (const group of selection.groups ?? []) chosen.push(...(await groupMemberIds(trx, group)));
    const memberIds = [...new Set(chosen)];
    const skipped: CampaignMembersAdded['skipped'] = [];
    const found = await members.lockMembersToAdd(trx, deps.dialect, memberIds);
    const present = await members.membersInCampaign(trx, campaignId, [...found.keys()]);
    let room =
      campaign.maxparticipants < 0
        ? Number.POSITIVE_INFINITY
        : campaign.maxparticipants - (await members.countCampaignMembers(trx, campaignId));
    const rows: NewCampaignMemberRow[] = [];
    for (const id of memberIds) {
      const member = found.get(id);
      if (!member) skipped.push({ memberid: id, reason: SKIP_UNKNOWN });
      else if (present.has(id)) skipped.push({ memberid: id, reason: SKIP_PRESENT });
      else if (room <= 0) skipped.push({ memberid: id, reason: SKIP_FULL });
      else {
        room -= 1;
        rows.push(newCampaignMember(campaignId, id, member, now));
      }
    }
    const inserted = await members.insertCampaignMembers(trx, rows);
    // Invitations of an `instant` or a `fixed` campaign go out at the scheduler's next tick.
    if (inserted.size > 0 && campaign.autoinvite !== 'none') await repo.markDue(trx, campaignId, now);
    const added = rows.filter((row) => inserted.has(row.member_id)).map((row) => row.member_id);
    await recordCampaignMembers(trx, actor, campaignId, added, 'add');
    return { added, skipped };
  });
  if (result.added.length > 0) deps.campaignsDue();
  return result;
}

/** POST /campaigns/{id}/members: `memberids` and/or a group (with its sub-groups when asked). */
export async function addMembers(
  deps: CampaignDeps,
  campaignId: string,
  input: CampaignMembersAdd,
  actor: Actor,
): Promise<CampaignMembersAdded> {
  if (input.memberids === undefined && input.groupid === undefined)
    throw new BusinessError('memberids: give memberids, a groupid, or both');
  const selection: MemberSelection = {
    ...(input.memberids === undefined ? {} : { memberids: input.memberids }),
    ...(input.groupid === undefined
      ? {}
      : { groups: [{ groupid: input.groupid, subgroups: input.subgroups ?? false }] }),
  };
  return addSelection(deps, campaignId, selection, actor);
}

/** POST /campaigns/{id}/members/{memberid}: adding a member that is there already changes nothing. */
export async function addMember(
  deps: CampaignDeps,
  campaignId: string,
  memberId: string,
  actor: Actor,
): Promise<void> {
  const { skipped } = await addSelection(deps, campaignId, { memberids: [memberId] }, actor);
  const reason = skipped[0]?.reason;
  if (reason === SKIP_UNKNOWN) throw notFound('member');
  if (reason === SKIP_FULL) throw new BusinessError('maxparticipants: the campaign is full');
}

function roleCheck(deps: CampaignDeps, campaign: CampaignRow, extra: Record<string, unknown>) {
  if (extra.role === undefined) return;
  const roles = deps.variants.get(campaign.variant)?.roles.map((role) => role.role) ?? [];
  if (typeof extra.role !== 'string' || !roles.includes(extra.role))
    throw new BusinessError(`extra.role: must be one of ${roles.join(', ')}`);
}

export async function patchMember(
  deps: CampaignDeps,
  campaignId: string,
  memberId: string,
  input: CampaignMemberPatch,
  actor: Actor,
): Promise<CampaignMember> {
  const campaign = await requireCampaign(deps, campaignId);
  const change: CampaignMemberUpdate = {};
  if (input.extra !== undefined) {
    const extra = input.extra && !Array.isArray(input.extra) ? input.extra : {};
    roleCheck(deps, campaign, extra);
    // An empty extra is no extra: null, as before it was ever set (the wire shape has no `[]` for it).
    change.extra = members.memberExtraText(extra);
  }
  if (input.tags !== undefined) change.tags = members.memberTagsText([...new Set(input.tags ?? [])]);
  checkStages(input.mailconfig, 'mailconfig');
  if (input.mailconfig !== undefined) change.mailconfig = members.memberMailConfigText(input.mailconfig);
  if (input.testuser !== undefined) change.testuser = input.testuser ? 1 : 0;
  // The entry names the fields the caller sent; a patch that changes nothing records nothing.
  const fields = Object.keys(input).filter((key) => input[key as keyof CampaignMemberPatch] !== undefined);
  const found =
    Object.keys(change).length === 0
      ? (await members.findCampaignMember(deps.db, campaignId, memberId)) !== undefined
      : await deps.db.transaction().execute(async (trx) => {
          if (!(await members.updateCampaignMember(trx, campaignId, memberId, change))) return false;
          await recordCampaignMembers(trx, actor, campaignId, [memberId], 'update', fields);
          return true;
        });
  if (!found) throw notFound('campaign member');
  return getMember(deps, campaignId, memberId);
}

export async function removeMember(
  deps: CampaignDeps,
  campaignId: string,
  memberId: string,
  actor: Actor,
): Promise<void> {
  await requireCampaign(deps, campaignId);
  const removed = await deps.db.transaction().execute(async (trx) => {
    await repo.cancelQueuedMails(trx, campaignId, memberId);
    if (!(await members.deleteCampaignMember(trx, campaignId, memberId, nowOf(deps)))) return false;
    await recordCampaignMembers(trx, actor, campaignId, [memberId], 'remove');
    return true;
  });
  if (!removed) throw notFound('campaign member');
  // An `auto` campaign whose last unfinished member left may have ended.
  await repo.markDue(deps.db, campaignId, nowOf(deps));
}

export async function removeAllMembers(deps: CampaignDeps, campaignId: string, actor: Actor): Promise<void> {
  await requireCampaign(deps, campaignId);
  await deps.db.transaction().execute(async (trx) => {
    await repo.cancelQueuedMails(trx, campaignId);
    const removed = await members.deleteAllCampaignMembers(trx, campaignId, nowOf(deps));
    await recordCampaignMembers(trx, actor, campaignId, removed, 'remove');
  });
}

/**
 * The member may take the questionnaire again: answers and session cleared, status back to
 * `invited` (or `new` if never invited), start, completion and reminder dates cleared with the
 * reminder count, and a new token, so that the old link says it was reset and a remind sends the
 * new one. Reports already made stay.
 */
export async function resetMember(
  deps: CampaignDeps,
  campaignId: string,
  memberId: string,
  actor: Actor,
): Promise<void> {
  await requireCampaign(deps, campaignId);
  const reset = await deps.db.transaction().execute(async (trx) => {
    if (!(await members.resetCampaignMember(trx, campaignId, memberId, randomSecret(), nowOf(deps))))
      return false;
    await recordCampaignMembers(trx, actor, campaignId, [memberId], 'reset');
    return true;
  });
  if (!reset) throw notFound('campaign member');
  await repo.markDue(deps.db, campaignId, nowOf(deps));
}

/** GET /members/{memberid}/campaigns. */
export async function memberCampaigns(deps: CampaignDeps, memberId: string): Promise<MemberCampaign[]> {
  if (!(await findMember(deps.db, memberId))) throw notFound('member');
  const rows = await members.listMemberCampaigns(deps.db, memberId);
  const byCampaign = await repo.statusCounts(deps.db, [...new Set(rows.map((row) => row.campaignid))]);
  const now = nowOf(deps);
  return rows.map((row) => {
    const results = members.parseResults(row.results);
    return {
      campaignid: row.campaignid,
      alias: row.alias,
      name: row.name,
      variant: row.variant,
      language: row.language,
      campaignstatus: campaignStatus(row, byCampaign.get(row.campaignid) ?? repo.emptyCounts(), now),
      status: row.status,
      token: row.token,
      dateinvited: row.dateinvited,
      datestarted: row.datestarted,
      datecompleted: row.datecompleted,
      reportid: (results?.reportid as string | undefined) ?? null,
    };
  });
}

/** A campaign member's status, as the list shows and filters it. */
export type CampaignMemberStatus = CampaignMemberListItem['status'];

/**
 * One page (1-based) of the campaign's members in the list shape, in the order of their member ids,
 * of one status when asked. The caller has found the campaign (an unknown one has no members).
 */
export async function membersPage(
  deps: Pick<CampaignDeps, 'db'>,
  campaignId: string,
  options: { status?: CampaignMemberStatus; page: number; size: number },
): Promise<CampaignMemberListItem[]> {
  const rows = await members.pageCampaignMembers(deps.db, campaignId, {
    ...(options.status === undefined ? {} : { status: options.status }),
    limit: options.size,
    offset: (Math.max(1, options.page) - 1) * options.size,
  });
  return rows.map(toCampaignMemberListItem);
}

/** Every member of the campaign in the list shape (a 360's subjects and raters, grouped by the console). */
export async function allMembers(deps: CampaignDeps, campaignId: string): Promise<CampaignMemberListItem[]> {
  const all: CampaignMemberListItem[] = [];
  for await (const batch of await streamMembers(deps, campaignId))
    all.push(...batch.map(toCampaignMemberListItem));
  return all;
}

/**
 * Members who could be added to the campaign (not in it yet) whose name or address holds `search`,
 * one page (1-based) at a time, and whether more follow.
 */
export async function membersToAdd(
  deps: Pick<CampaignDeps, 'db'>,
  campaignId: string,
  options: { search: string; page: number; size: number },
) {
  const rows = await members.membersOutsideCampaign(deps.db, campaignId, {
    search: options.search,
    limit: options.size + 1,
    offset: (Math.max(1, options.page) - 1) * options.size,
  });
  return { members: rows.slice(0, options.size), more: rows.length > options.size };
}
