import { sql } from 'kysely';
import { inviteNow, resendLink } from '../campaigns/campaign-mail.service.js';
import { addToCampaign, SKIP_FULL } from '../campaigns/campaign-members.service.js';
import type { CampaignDeps } from '../campaigns/campaigns.service.js';
import type { CampaignRow } from '../campaigns/campaigns.table.js';
import { groupExists } from '../groups/groups.repository.js';
import { addMember as addToGroup } from '../groups/groups.service.js';
import { findMemberIdByEmail } from '../members/members.repository.js';
import { createMember } from '../members/members.service.js';
import { isMailbox, isStorableText } from '../util/text.js';
import type { Participation } from './questionnaire.service.js';

/** The campaign's `config.selfregistration`, its switches read as booleans. */
export interface SelfRegistration {
  readonly register: boolean;
  readonly signup: boolean;
  readonly skipvalidation: boolean;
  /** The group a newly registered member joins; undefined for none (or `root`). */
  readonly group: string | undefined;
}

const on = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

export function selfRegistrationOf(campaign: Pick<CampaignRow, 'config'>): SelfRegistration | undefined {
  let config: unknown;
  try {
    config = JSON.parse(campaign.config);
  } catch {
    return undefined;
  }
  const raw = (config as { selfregistration?: unknown } | null)?.selfregistration;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const value = raw as Record<string, unknown>;
  const result = {
    register: on(value.register),
    signup: on(value.signup),
    skipvalidation: on(value.skipvalidation),
    group: typeof value.group === 'string' && /^[0-9A-Za-z]{10}$/.test(value.group) ? value.group : undefined,
  };
  return result.register || result.signup ? result : undefined;
}

export interface SignupForm {
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
}

export type FieldProblem = {
  field: 'firstname' | 'lastname' | 'email';
  kind: 'missing' | 'invalid' | 'too-long';
};

/** Checks a sign-up form; names are needed only to register. */
export function checkSignupForm(
  form: Record<string, unknown>,
  needNames: boolean,
): { value: SignupForm; problems: FieldProblem[] } {
  const text = (name: string) =>
    typeof form[name] === 'string' ? (form[name] as string).trim().replace(/\s+/g, ' ') : '';
  const value = { firstname: text('firstname'), lastname: text('lastname'), email: text('email') };
  const problems: FieldProblem[] = [];
  if (needNames) {
    for (const field of ['firstname', 'lastname'] as const) {
      if (value[field] === '') problems.push({ field, kind: 'missing' });
      else if ([...value[field]].length > 255 || !isStorableText(value[field]))
        problems.push({ field, kind: 'too-long' });
    }
  }
  if (value.email === '') problems.push({ field: 'email', kind: 'missing' });
  else if (value.email.length > 254 || !isMailbox(value.email))
    problems.push({ field: 'email', kind: 'invalid' });
  return { value, problems };
}

export type SignupOutcome =
  /** The page says "check your e-mail", whatever happened (a link sent, or nothing to send). */
  | { readonly kind: 'mailed' }
  /** skipvalidation and a new participation: straight on to the questionnaire. */
  | { readonly kind: 'go'; readonly token: string }
  | { readonly kind: 'full' };

async function participationOf(deps: CampaignDeps, campaignId: string, memberId: string) {
  return deps.db
    .selectFrom('campaign_members')
    .select(['token', 'status'])
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
}

/**
 * A sign-up on `{questionnaire_url}/s/<alias>`. An address already taking part gets its link again
 * by e-mail; a known member not yet in the campaign is added (register or signup); an unknown
 * address becomes a new member only when the campaign lets people register. Whatever happens, the
 * page the visitor sees is the same "check your e-mail" (never whether the address was known),
 * except with `skipvalidation`, where a new participation goes straight on, and when the campaign
 * is full. `maxparticipants` holds because adding locks the campaign row.
 */
export async function signUp(
  deps: CampaignDeps,
  campaign: CampaignRow,
  settings: SelfRegistration,
  form: SignupForm,
): Promise<SignupOutcome> {
  let memberId = await findMemberIdByEmail(deps.db, form.email);
  let created = false;
  if (memberId !== undefined) {
    const existing = await participationOf(deps, campaign.id, memberId);
    if (existing) {
      await resendLink(deps, campaign, memberId);
      return { kind: 'mailed' };
    }
  } else {
    if (!settings.register || form.firstname === '' || form.lastname === '') return { kind: 'mailed' };
    try {
      memberId = (
        await createMember(deps.db, {
          email: form.email,
          firstname: form.firstname,
          lastname: form.lastname,
        } as never)
      ).memberid;
      created = true;
    } catch {
      // Registered by a concurrent sign-up a moment ago: carry on as a known member.
      memberId = await findMemberIdByEmail(deps.db, form.email);
      if (memberId === undefined) return { kind: 'mailed' };
    }
    if (created && settings.group !== undefined && (await groupExists(deps.db, settings.group))) {
      await addToGroup(deps.db, settings.group, memberId).catch(() => undefined);
    }
  }
  const { added, skipped } = await addToCampaign(deps, campaign.id, [memberId]);
  if (added.length === 0) {
    if (skipped[0]?.reason === SKIP_FULL) {
      if (created) await deps.db.deleteFrom('members').where('id', '=', memberId).execute();
      return { kind: 'full' };
    }
    // Added by a concurrent sign-up: the link goes by e-mail.
    await resendLink(deps, campaign, memberId);
    return { kind: 'mailed' };
  }
  if (settings.skipvalidation) {
    const participation = await participationOf(deps, campaign.id, memberId);
    if (participation) return { kind: 'go', token: participation.token };
  }
  await inviteNow(deps, campaign, [memberId]);
  return { kind: 'mailed' };
}

/** The campaign a sign-up alias names (aliases are `[A-Za-z0-9_-]`, unique regardless of case). */
export async function campaignByAlias(deps: CampaignDeps, alias: string): Promise<CampaignRow | undefined> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(alias)) return undefined;
  return deps.db
    .selectFrom('campaigns')
    .selectAll()
    .where(sql<string>`lower(alias)`, '=', alias.toLowerCase())
    .executeTakeFirst();
}

/** The raters a 360's subject has asked, in the order asked. */
export async function ratersOf(deps: CampaignDeps, participation: Participation) {
  const rows = await deps.db
    .selectFrom('campaign_members')
    .select(['firstname', 'lastname', 'status', 'extra'])
    .where('campaign_id', '=', participation.campaign.id)
    .where('member_id', '!=', participation.member.member_id)
    .orderBy('created')
    .execute();
  return rows.flatMap((row) => {
    try {
      const extra = JSON.parse(row.extra ?? '{}') as { subject?: unknown; role?: unknown };
      return extra.subject === participation.member.member_id
        ? [{ ...row, role: String(extra.role ?? '') }]
        : [];
    } catch {
      return [];
    }
  });
}

/**
 * A subject asks someone for feedback: the person is found by e-mail or made a member, added to the
 * campaign (its `maxparticipants` and `autoinvite` as for any add) with `extra` `{ role, subject }`.
 * `self` when the address is the subject's own, `present` when the person takes part already.
 */
export async function nominateRater(
  deps: CampaignDeps,
  participation: Participation,
  form: SignupForm,
  role: string,
): Promise<'added' | 'self' | 'present'> {
  let memberId = await findMemberIdByEmail(deps.db, form.email);
  if (memberId === undefined) {
    try {
      memberId = (
        await createMember(deps.db, {
          email: form.email,
          firstname: form.firstname,
          lastname: form.lastname,
        } as never)
      ).memberid;
    } catch {
      // Made by a concurrent request a moment ago.
      memberId = await findMemberIdByEmail(deps.db, form.email);
    }
  }
  if (memberId === undefined || memberId === participation.member.member_id) return 'self';
  const { added } = await addToCampaign(deps, participation.campaign.id, [memberId]);
  if (added.length === 0) return 'present';
  await deps.db
    .updateTable('campaign_members')
    .set({ extra: JSON.stringify({ role, subject: participation.member.member_id }) })
    .where('campaign_id', '=', participation.campaign.id)
    .where('member_id', '=', memberId)
    .execute();
  return 'added';
}
