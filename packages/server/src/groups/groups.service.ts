import type { Group, GroupConfig, GroupCreate, GroupedMember, GroupMember, GroupPatch } from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange, recordChanges } from '../audit/audit.service.js';
import { type Database, type Dialect, isUniqueViolation, orWhenRaced } from '../db/database.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { findMember } from '../members/members.repository.js';
import { toGroupMember } from '../members/members.wire.js';
import { nowText } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import { caseFold, isStorableText } from '../util/text.js';
import * as repo from './groups.repository.js';
import type { GroupUpdate } from './groups.table.js';

/** Who asks: `accesstype` is `owner` for the user who created the group. */
export interface Caller {
  userId: string;
}

function toGroup(row: repo.GroupWithCount, caller: Caller): Group {
  return {
    groupid: row.id,
    alias: row.alias,
    name: row.name,
    description: row.description,
    parentgroup: row.parent_id ?? 'root',
    type: row.type,
    status: row.status,
    config: repo.parseGroupObject(row.config) as Group['config'],
    created: row.created,
    creator: row.creator,
    accesstype: row.creator !== null && row.creator === caller.userId ? 'owner' : 'editor',
    extra: repo.parseGroupObject(row.extra) as Group['extra'],
    membercount: Number(row.membercount),
  };
}

/**
 * An unset config stays `[]` on the wire; a given `selfregistration` is stored whole, in the shape
 * the spec gives (`{ signup: bool, register: bool }`), a switch left out being off.
 */
function configText(config: GroupConfig | unknown[] | undefined): string {
  if (!config || Array.isArray(config) || !config.selfregistration) return '{}';
  const given = config.selfregistration;
  const { signup = false, register = false } = Array.isArray(given) ? {} : given;
  return repo.groupObjectText({ selfregistration: { signup, register } });
}

export async function listGroups(db: Kysely<Database>, caller: Caller): Promise<Group[]> {
  return (await repo.listGroups(db)).map((row) => toGroup(row, caller));
}

export async function getGroup(db: Kysely<Database>, caller: Caller, id: string): Promise<Group> {
  const row = await repo.findGroup(db, id);
  if (!row) throw notFound('group');
  return toGroup(row, caller);
}

async function parentId(db: Kysely<Database>, parentgroup: string | undefined): Promise<string | null> {
  if (parentgroup === undefined || parentgroup === 'root') return null;
  if (!(await repo.groupExists(db, parentgroup))) throw new BusinessError('parentgroup: no such group');
  return parentgroup;
}

export async function createGroup(
  db: Kysely<Database>,
  actor: Actor,
  caller: Caller,
  input: GroupCreate,
): Promise<Group> {
  const id = randomId();
  const parent = await parentId(db, input.parentgroup);
  const inserted = await orWhenRaced(
    db.transaction().execute(async (trx) => {
      const made = await repo.insertGroup(trx, {
        id,
        alias: input.alias,
        name: input.name,
        name_key: caseFold(input.name),
        description: input.description ?? null,
        parent_id: parent,
        type: input.type ?? null,
        status: input.status ?? 'active',
        config: configText(input.config),
        extra: repo.groupObjectText(input.extra),
        creator: caller.userId,
        created: nowText(),
      });
      if (made) await recordChange(trx, actor, { resource: 'group', id, action: 'create' });
      return made;
    }),
    new BusinessError('parentgroup: no such group'),
  );
  if (!inserted) {
    throw new BusinessError(
      (await repo.aliasTaken(db, input.alias)) ? 'alias: already exists' : 'name: already exists',
    );
  }
  return getGroup(db, caller, id);
}

/** The wire names of the fields a group's patch sets, for its audit entry (never their values). */
const GROUP_FIELDS = ['name', 'description', 'type', 'status', 'config', 'extra', 'parentgroup'] as const;

export async function patchGroup(
  db: Kysely<Database>,
  dialect: Dialect,
  actor: Actor,
  caller: Caller,
  id: string,
  input: GroupPatch,
): Promise<Group> {
  const change: GroupUpdate = {};
  if (input.name !== undefined) {
    change.name = input.name;
    change.name_key = caseFold(input.name);
  }
  if (input.description !== undefined) change.description = input.description;
  if (input.type !== undefined) change.type = input.type;
  if (input.status !== undefined) change.status = input.status;
  if (input.config !== undefined) change.config = configText(input.config);
  if (input.extra !== undefined) change.extra = repo.groupObjectText(input.extra);
  await db.transaction().execute(async (trx) => {
    if (input.parentgroup !== undefined) await repo.lockTree(trx, dialect);
    if (!(await repo.groupExists(trx, id))) throw notFound('group');
    if (input.parentgroup !== undefined) {
      const parent = await parentId(trx, input.parentgroup);
      if (parent !== null && (await repo.ancestorIds(trx, parent)).includes(id)) {
        throw new BusinessError('parentgroup: a group cannot be moved below itself or one of its sub-groups');
      }
      change.parent_id = parent;
    }
    try {
      await repo.updateGroup(trx, id, change);
    } catch (error) {
      if (isUniqueViolation(error)) throw new BusinessError('name: already exists');
      throw error;
    }
    const fields = GROUP_FIELDS.filter((name) => input[name] !== undefined);
    // A patch that sets no field changes nothing, and leaves no entry.
    if (fields.length > 0)
      await recordChange(trx, actor, { resource: 'group', id, action: 'update', fields });
  });
  return getGroup(db, caller, id);
}

/**
 * Deletes a group without sub-groups. Its members end in no group, each with an entry of its own
 * (`group.remove`, as if removed one by one), after the group's `delete`.
 */
export async function deleteGroup(
  db: Kysely<Database>,
  dialect: Dialect,
  actor: Actor,
  id: string,
): Promise<void> {
  const hasSubgroups = new BusinessError('group: has sub-groups; move or delete them first');
  // A sub-group created while the group is deleted makes the delete fail at its foreign key.
  await orWhenRaced(
    db.transaction().execute(async (trx) => {
      await repo.lockTree(trx, dialect);
      if (!(await repo.groupExists(trx, id))) throw notFound('group');
      if (await repo.hasSubgroups(trx, id)) throw hasSubgroups;
      const released = (await repo.deleteGroup(trx, id)) ?? [];
      await recordChange(trx, actor, { resource: 'group', id, action: 'delete' });
      await recordChanges(
        trx,
        actor,
        released.map((memberId) => groupChange(memberId, 'group.remove')),
      );
    }),
    hasSubgroups,
  );
}

/** OK when the alias is free, ERROR when taken; a body without `value` is OK (the spec's false negative). */
export async function aliasIsFree(db: Kysely<Database>, body: unknown): Promise<boolean> {
  const value = (body as { value?: unknown } | null)?.value;
  if (typeof value !== 'string' || !isStorableText(value)) return true;
  return !(await repo.aliasTaken(db, value.trim()));
}

export async function groupMembers(db: Kysely<Database>, groupId: string): Promise<GroupMember[]> {
  if (!(await repo.groupExists(db, groupId))) throw notFound('group');
  return (await repo.listGroupMembers(db, groupId)).map(toGroupMember);
}

export async function membersInNoGroup(db: Kysely<Database>): Promise<GroupMember[]> {
  return (await repo.listGroupMembers(db, null)).map(toGroupMember);
}

export async function membersInGroups(db: Kysely<Database>): Promise<GroupedMember[]> {
  return (await repo.listGroupedMembers(db)).map((row) => ({
    ...toGroupMember(row),
    groupid: row.group_id as string,
  }));
}

/**
 * The audit entry of a change to a member's group: the member is what changed (its `groupid`), so
 * the entry is the member's (`resource` `member`, its id), and everything about one person is found
 * by their id. `group.add`, `group.remove`, or `group.move` (out of one group into another).
 */
const groupChange = (memberId: string, action: 'group.add' | 'group.remove' | 'group.move') => ({
  resource: 'member' as const,
  id: memberId,
  action,
  fields: ['groupid'],
});

/** A member is in at most one group: adding it to another is refused until it is removed. */
export async function addMember(
  db: Kysely<Database>,
  actor: Actor,
  groupId: string,
  memberId: string,
): Promise<void> {
  if (!(await repo.groupExists(db, groupId))) throw notFound('group');
  // The group may be deleted between the check and the write.
  const added = await orWhenRaced(
    db.transaction().execute(async (trx) => {
      if (!(await repo.addToGroup(trx, memberId, groupId))) return false;
      await recordChange(trx, actor, groupChange(memberId, 'group.add'));
      return true;
    }),
    notFound('group'),
  );
  if (added) return;
  if (!(await findMember(db, memberId))) throw notFound('member');
  throw new BusinessError('member: already in another group; remove it from that group first');
}

/**
 * Puts a member made in the caller's transaction (a sign-up) in a group, in that transaction:
 * answers false, changing nothing, when the group is not there (deleted since it was configured).
 */
export async function addNewMember(
  trx: Transaction<Database>,
  dialect: Dialect,
  actor: Actor,
  groupId: string,
  memberId: string,
): Promise<boolean> {
  if (!(await repo.lockGroup(trx, dialect, groupId))) return false;
  if (!(await repo.addToGroup(trx, memberId, groupId))) return false;
  await recordChange(trx, actor, groupChange(memberId, 'group.add'));
  return true;
}

export async function removeMember(
  db: Kysely<Database>,
  actor: Actor,
  groupId: string,
  memberId: string,
): Promise<void> {
  if (!(await repo.groupExists(db, groupId))) throw notFound('group');
  const removed = await db.transaction().execute(async (trx) => {
    if (!(await repo.removeFromGroup(trx, memberId, groupId))) return false;
    await recordChange(trx, actor, groupChange(memberId, 'group.remove'));
    return true;
  });
  if (removed) return;
  if (!(await findMember(db, memberId))) throw notFound('member');
  throw new BusinessError('member: is not in this group');
}

/**
 * Moves members from one group to another (or, with `to` null, out of every group): the removal and
 * the add of `removeMember` and `addMember`, with their refusals, in one transaction, so that a
 * move that fails for one member moves none. The console's "move members between groups".
 */
export async function moveMembers(
  db: Kysely<Database>,
  actor: Actor,
  from: string,
  to: string | null,
  memberIds: readonly string[],
): Promise<void> {
  await orWhenRaced(
    db.transaction().execute(async (trx) => {
      if (!(await repo.groupExists(trx, from))) throw notFound('group');
      if (to !== null && !(await repo.groupExists(trx, to))) throw new BusinessError('group: no such group');
      for (const memberId of memberIds) {
        if (!(await repo.removeFromGroup(trx, memberId, from))) {
          if (!(await findMember(trx, memberId))) throw notFound('member');
          throw new BusinessError('member: is not in this group');
        }
        if (to !== null && !(await repo.addToGroup(trx, memberId, to))) {
          throw new BusinessError('member: already in another group; remove it from that group first');
        }
      }
      await recordChanges(
        trx,
        actor,
        memberIds.map((memberId) => groupChange(memberId, to === null ? 'group.remove' : 'group.move')),
      );
    }),
    new BusinessError('group: no such group'),
  );
}
