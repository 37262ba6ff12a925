import {
  type CampaignCreate,
  type CampaignDetail,
  type CampaignListItem,
  type CampaignPatch,
  MAIL_STAGES,
  type Offset,
} from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange, recordChanges } from '../audit/audit.service.js';
import { findUserByEmail } from '../auth/auth.repository.js';
import type { AppContext } from '../context.js';
import { type Database, isUniqueViolation } from '../db/database.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { groupExists } from '../groups/groups.repository.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import { isStorableText } from '../util/text.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { deleteAllCampaignMembers } from './campaign-members.repository.js';
import * as repo from './campaigns.repository.js';
import type { CampaignRow, CampaignUpdate } from './campaigns.table.js';
import { type Caller, campaignStatus, toCampaignDetail, toCampaignListItem } from './campaigns.wire.js';

/** What the campaign services need: the database, the variants, the configuration and the clock. */
export type CampaignDeps = Pick<
  AppContext,
  'db' | 'dialect' | 'variants' | 'config' | 'clock' | 'mailQueued' | 'campaignsDue'
>;

export const nowOf = (deps: Pick<CampaignDeps, 'clock'>) => formatDate(deps.clock());

/**
 * The entries of a change to members' places in a campaign (added, removed, invited, reminded,
 * ...), in the change's transaction: one `campaign_member` entry per member, with the member's id
 * so that everything about one person is found by it, and one `campaign` entry with the same
 * action that says which campaign it was. Nothing is recorded when no member changed.
 */
export async function recordCampaignMembers(
  trx: Transaction<Database>,
  actor: Actor,
  campaignId: string,
  memberIds: readonly string[],
  action: string,
  fields?: readonly string[],
): Promise<void> {
  if (memberIds.length === 0) return;
  const extra = fields ? { fields } : {};
  await recordChanges(trx, actor, [
    { resource: 'campaign', id: campaignId, action, ...extra },
    ...memberIds.map((id) => ({ resource: 'campaign_member' as const, id, action, ...extra })),
  ]);
}

const bit = (value: boolean) => (value ? 1 : 0);

/** Keys of `mailconfig` and `config.custommailsubject` must be mail stages. */
export function checkStages(value: object | null | undefined, field: string): void {
  if (!value || Array.isArray(value)) return;
  for (const key of Object.keys(value)) {
    if (!(MAIL_STAGES as readonly string[]).includes(key))
      throw new BusinessError(`${field}.${key}: not a mail stage (one of ${MAIL_STAGES.join(', ')})`);
  }
}

/** The schedule fields of a campaign after a write, checked together. */
interface Schedule {
  start: string;
  end: string | null;
  closingtype: string | null;
  autoinvite: string;
  autoreminder: boolean;
  reminderoffset: Offset | null;
  reminderrepeat: number | null;
}

function checkSchedule(schedule: Schedule): void {
  if (schedule.closingtype === 'date') {
    if (schedule.end === null) throw new BusinessError('end: is required when closingtype is date');
    if (schedule.end <= schedule.start) throw new BusinessError('end: must be after start');
  } else if (schedule.end !== null) {
    throw new BusinessError(
      'end: only a campaign whose closingtype is date has an end; leave it out or null',
    );
  }
  if (schedule.autoreminder) {
    if (schedule.reminderoffset === null)
      throw new BusinessError('reminderoffset: is required when autoreminder is on');
    if (schedule.reminderrepeat === null || schedule.reminderrepeat < 1)
      throw new BusinessError('reminderrepeat: must be at least 1 when autoreminder is on');
  }
}

/** `admins` are member ids; every one must exist. Legacy null entries are dropped. */
async function checkAdmins(db: Kysely<Database>, admins: (string | null)[]): Promise<string[]> {
  const ids = [...new Set(admins.filter((id): id is string => id !== null))];
  if (ids.length === 0) return [];
  const found = await repo.existingMemberIds(db, ids);
  const unknown = ids.find((id) => !found.has(id));
  if (unknown) throw new BusinessError(`admins: no member ${unknown}`);
  return ids;
}

/** Self-registered members go to `selfregistration.group`: a group that exists, `root` or none. */
async function checkSelfRegistrationGroup(db: Kysely<Database>, config: CampaignCreate['config']) {
  const selfregistration = config && !Array.isArray(config) ? config.selfregistration : undefined;
  const group = selfregistration && !Array.isArray(selfregistration) ? selfregistration.group : undefined;
  if (group && group !== 'root' && !(await groupExists(db, group)))
    throw new BusinessError('config.selfregistration.group: no such group');
}

/** The config without maxparticipants (a column of its own), whole as given. */
function splitConfig(config: CampaignCreate['config']): {
  text: string;
  maxparticipants: number;
} {
  if (!config || Array.isArray(config)) return { text: repo.campaignConfigText({}), maxparticipants: -1 };
  checkStages(config.custommailsubject, 'config.custommailsubject');
  const { maxparticipants = -1, ...rest } = config;
  const selfregistration = rest.selfregistration;
  if (selfregistration && !Array.isArray(selfregistration)) {
    rest.selfregistration = {
      signup: selfregistration.signup ?? false,
      register: selfregistration.register ?? false,
      group: selfregistration.group ?? '',
      skipvalidation: selfregistration.skipvalidation ?? false,
    };
  }
  return { text: repo.campaignConfigText(rest), maxparticipants };
}

function variantOf(deps: CampaignDeps, alias: string) {
  const lookup = lookupVariant(deps.variants, alias);
  if (!lookup.found) {
    throw new BusinessError(
      `variant: no such variant "${alias}" (installed: ${lookup.installed.join(', ')})`,
    );
  }
  return lookup.variant;
}

function textOrNull(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (!isStorableText(value)) throw new BusinessError(`${field}: is not valid text`);
  return value;
}

export async function listCampaigns(deps: CampaignDeps, caller: Caller): Promise<CampaignListItem[]> {
  const [rows, counts] = await Promise.all([repo.listCampaigns(deps.db), repo.statusCounts(deps.db)]);
  const now = nowOf(deps);
  return rows.map((row) => toCampaignListItem(row, counts.get(row.id) ?? repo.emptyCounts(), caller, now));
}

export async function getCampaign(deps: CampaignDeps, caller: Caller, id: string): Promise<CampaignDetail> {
  const row = await repo.findCampaign(deps.db, id);
  if (!row) throw notFound('campaign');
  const [counts, access] = await Promise.all([repo.statusCounts(deps.db, id), repo.listAccess(deps.db, id)]);
  return toCampaignDetail(
    row,
    counts.get(id) ?? repo.emptyCounts(),
    caller,
    nowOf(deps),
    access,
    deps.variants.get(row.variant),
  );
}

/** The campaign's status now. */
export async function statusOf(deps: CampaignDeps, row: CampaignRow) {
  const counts = (await repo.statusCounts(deps.db, row.id)).get(row.id) ?? repo.emptyCounts();
  return campaignStatus(row, counts, nowOf(deps));
}

/**
 * The campaign `createCampaign` would write for this input: every rule of a create checked (the
 * first broken one thrown as a BusinessError naming its field), nothing written. The console's
 * wizard checks each of its pages with it, and previews the mails of a campaign not yet created.
 */
export async function prepareCampaign(
  deps: CampaignDeps,
  caller: Caller,
  input: CampaignCreate,
): Promise<CampaignRow> {
  const variant = variantOf(deps, input.variant);
  const language = input.language ?? variant.defaultLanguage;
  if (!(variant.languages as readonly string[]).includes(language)) {
    throw new BusinessError(
      `language: the variant ${variant.alias} offers ${variant.languages.join(', ')}, not "${language}"`,
    );
  }
  const closingtype = input.closingtype === undefined ? 'open' : input.closingtype;
  const schedule: Schedule = {
    start: input.start,
    end: input.end ?? null,
    closingtype,
    autoinvite: input.autoinvite ?? 'none',
    autoreminder: input.autoreminder ?? false,
    reminderoffset: input.reminderoffset ?? null,
    reminderrepeat: input.reminderrepeat ?? null,
  };
  checkSchedule(schedule);
  checkStages(input.mailconfig, 'mailconfig');
  const admins = await checkAdmins(deps.db, input.admins ?? []);
  const config = splitConfig(input.config);
  await checkSelfRegistrationGroup(deps.db, input.config);
  if (input.alias !== undefined && (await repo.aliasTaken(deps.db, input.alias)))
    throw new BusinessError('alias: already exists');
  const now = nowOf(deps);
  return {
    id: randomId(),
    alias: input.alias ?? `${caller.userId}_${randomId(8)}`,
    name: input.name,
    description: textOrNull(input.description, 'description') ?? '',
    start_at: schedule.start,
    end_at: schedule.end,
    admins: repo.adminsText(admins),
    variant: variant.alias,
    language,
    mailconfig: repo.mailConfigText(input.mailconfig),
    config: config.text,
    maxparticipants: config.maxparticipants,
    closingtype,
    autoinvite: schedule.autoinvite,
    inviteoffset: repo.offsetText(input.inviteoffset),
    autoreminder: bit(schedule.autoreminder),
    reminderoffset: repo.offsetText(schedule.reminderoffset),
    reminderrepeat: schedule.reminderrepeat,
    sendmemberconfirmation: bit(input.sendmemberconfirmation ?? false),
    sendreportdelivery: bit(input.sendreportdelivery ?? false),
    autogenerated: bit(input.alias === undefined),
    productid: null,
    creator: caller.userId,
    created: now,
    due_at: now,
    due_failures: 0,
    closed_notified: null,
  };
}

export async function createCampaign(
  deps: CampaignDeps,
  caller: Caller,
  input: CampaignCreate,
  actor: Actor,
): Promise<CampaignDetail> {
  const row = await prepareCampaign(deps, caller, input);
  const inserted = await deps.db.transaction().execute(async (trx) => {
    const done = await repo.insertCampaign(trx, row);
    if (done) {
      await repo.insertShare(trx, {
        id: randomId(),
        campaign_id: row.id,
        user_id: caller.userId,
        type: 'owner',
        created: row.created,
      });
      await recordChange(trx, actor, { resource: 'campaign', id: row.id, action: 'create' });
    }
    return done;
  });
  if (!inserted) throw new BusinessError('alias: already exists');
  return getCampaign(deps, caller, row.id);
}

export async function patchCampaign(
  deps: CampaignDeps,
  caller: Caller,
  id: string,
  input: CampaignPatch,
  actor: Actor,
): Promise<CampaignDetail> {
  const row = await repo.findCampaign(deps.db, id);
  if (!row) throw notFound('campaign');
  if (input.variant !== undefined && input.variant !== row.variant)
    throw new BusinessError('variant: cannot change after the campaign is created');
  if (input.language !== undefined && input.language !== row.language)
    throw new BusinessError('language: cannot change after the campaign is created');
  const change: CampaignUpdate = {};
  if (input.name !== undefined) change.name = input.name;
  if (input.description !== undefined)
    change.description = textOrNull(input.description, 'description') ?? '';
  if (input.alias !== undefined && input.alias !== row.alias) {
    if (await repo.aliasTaken(deps.db, input.alias, id)) throw new BusinessError('alias: already exists');
    change.alias = input.alias;
    change.autogenerated = 0;
  }
  // A campaign that stops closing by date loses its end date with it.
  const closingtype = input.closingtype === undefined ? row.closingtype : input.closingtype;
  const end = input.end !== undefined ? input.end : closingtype === 'date' ? row.end_at : null;
  const schedule: Schedule = {
    start: input.start ?? row.start_at,
    end,
    closingtype,
    autoinvite: input.autoinvite ?? row.autoinvite,
    autoreminder: input.autoreminder ?? row.autoreminder === 1,
    reminderoffset:
      input.reminderoffset === undefined ? repo.parseOffset(row.reminderoffset) : input.reminderoffset,
    reminderrepeat: input.reminderrepeat === undefined ? row.reminderrepeat : input.reminderrepeat,
  };
  checkSchedule(schedule);
  change.start_at = schedule.start;
  change.end_at = schedule.end;
  change.closingtype = schedule.closingtype;
  change.autoinvite = schedule.autoinvite;
  change.autoreminder = bit(schedule.autoreminder);
  change.reminderoffset = repo.offsetText(schedule.reminderoffset);
  change.reminderrepeat = schedule.reminderrepeat;
  if (input.inviteoffset !== undefined) change.inviteoffset = repo.offsetText(input.inviteoffset);
  if (input.admins !== undefined) change.admins = repo.adminsText(await checkAdmins(deps.db, input.admins));
  if (input.mailconfig !== undefined) {
    checkStages(input.mailconfig, 'mailconfig');
    change.mailconfig = repo.mailConfigText(input.mailconfig);
  }
  if (input.config !== undefined) {
    const config = splitConfig(input.config);
    await checkSelfRegistrationGroup(deps.db, input.config);
    change.config = config.text;
    change.maxparticipants = config.maxparticipants;
  }
  if (input.sendmemberconfirmation !== undefined)
    change.sendmemberconfirmation = bit(input.sendmemberconfirmation);
  if (input.sendreportdelivery !== undefined) change.sendreportdelivery = bit(input.sendreportdelivery);
  // Whatever changed, the scheduler looks again: an end date, an invite moment or reminders may have moved.
  change.due_at = nowOf(deps);
  // The entry names the fields the caller sent (the schedule's derived columns are not its words).
  const fields = Object.keys(input).filter((key) => input[key as keyof CampaignPatch] !== undefined);
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.updateCampaign(trx, id, change))) throw notFound('campaign');
      await recordChange(trx, actor, { resource: 'campaign', id, action: 'update', fields });
    });
  } catch (error) {
    // Another campaign took the alias between the check and the write.
    if (isUniqueViolation(error)) throw new BusinessError('alias: already exists');
    throw error;
  }
  deps.campaignsDue();
  return getCampaign(deps, caller, id);
}

/** Deletes a campaign with its members and shares; its reports stay (their campaignid becomes null). */
export async function deleteCampaign(deps: CampaignDeps, id: string, actor: Actor): Promise<void> {
  const deleted = await deps.db.transaction().execute(async (trx) => {
    await repo.cancelQueuedMails(trx, id);
    // Its members' links say that the questionnaire is gone, not that they were never valid.
    const removed = await deleteAllCampaignMembers(trx, id, nowOf(deps));
    if (!(await repo.deleteCampaign(trx, id))) return false;
    await recordCampaignMembers(trx, actor, id, removed, 'remove');
    await recordChange(trx, actor, { resource: 'campaign', id, action: 'delete' });
    return true;
  });
  if (!deleted) throw notFound('campaign');
}

/** OK when the alias is free, ERROR when taken; a body without `value` is OK (the spec's false negative). */
export async function aliasIsFree(db: Kysely<Database>, body: unknown): Promise<boolean> {
  const value = (body as { value?: unknown } | null)?.value;
  if (typeof value !== 'string' || !isStorableText(value)) return true;
  return !(await repo.aliasTaken(db, value.trim()));
}

/** The campaign and the platform user that a share or unshare names; each must exist. */
async function shareParties(db: Kysely<Database>, campaignId: string, email: string) {
  if (!(await repo.findCampaign(db, campaignId)))
    throw new BusinessError(`campaign: no campaign ${campaignId}`);
  const user = await findUserByEmail(db, email);
  if (!user) throw new BusinessError(`user: no user ${email}`);
  return user;
}

/** `assay campaigns share ID --user EMAIL`: the user becomes an editor of the campaign. */
export async function shareCampaign(
  db: Kysely<Database>,
  campaignId: string,
  email: string,
  actor: Actor,
): Promise<boolean> {
  const user = await shareParties(db, campaignId, email);
  return db.transaction().execute(async (trx) => {
    const added = await repo.insertShare(trx, {
      id: randomId(),
      campaign_id: campaignId,
      user_id: user.id,
      type: 'editor',
      created: formatDate(new Date()),
    });
    // The entry is the campaign's; the user is not named (an e-mail is a value, never logged).
    if (added) await recordChange(trx, actor, { resource: 'campaign', id: campaignId, action: 'share' });
    return added;
  });
}

/** `assay campaigns unshare ID --user EMAIL`. The owner keeps access. */
export async function unshareCampaign(
  db: Kysely<Database>,
  campaignId: string,
  email: string,
  actor: Actor,
): Promise<boolean> {
  const user = await shareParties(db, campaignId, email);
  return db.transaction().execute(async (trx) => {
    const removed = await repo.deleteShare(trx, campaignId, user.id);
    if (removed) await recordChange(trx, actor, { resource: 'campaign', id: campaignId, action: 'unshare' });
    return removed;
  });
}
