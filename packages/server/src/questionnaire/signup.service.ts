import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { inviteIn, resendLink } from '../campaigns/campaign-mail.service.js';
import * as members from '../campaigns/campaign-members.repository.js';
import { newCampaignMember } from '../campaigns/campaign-members.service.js';
import * as campaigns from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, nowOf, recordCampaignMembers } from '../campaigns/campaigns.service.js';
import type { CampaignRow } from '../campaigns/campaigns.table.js';
import type { Database } from '../db/database.js';
import { addNewMember } from '../groups/groups.service.js';
import { findMemberIdByEmail } from '../members/members.repository.js';
import { registerMember } from '../members/members.service.js';
import { lineProblem } from '../util/safe-text.js';
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
  const raw = campaigns.parseCampaignConfig(campaign.config).selfregistration;
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
  /** `control`: a line break or another control character; `link`: a web or e-mail address. */
  kind: 'missing' | 'invalid' | 'too-long' | 'control' | 'link';
};

/**
 * What mail programs turn into a link: a scheme (`http://`, `https://`, any `x://`), `www.`, an
 * e-mail address (`@`), or a domain name: a letter or digit, a dot, then two letters or more
 * (`evil.example/login`, `example.com`). Initials ("J.R.R. Tolkien", "Ph.D") and a dot followed by
 * a space ("St. John") remain; "Jean.Paul" written without its space is refused too.
 */
const NAME_LINK = /[a-z][a-z0-9+.-]*:\/\/|www\.|@|[\p{L}\p{N}_-]\.\p{L}{2,}/iu;

/** Checks a first or last name: a problem's kind, or undefined when the name may be used. */
export function nameProblem(raw: unknown, value: string): FieldProblem['kind'] | undefined {
  if (value === '') return 'missing';
  // One line, as every name (util/safe-text.ts): no line break, control, bidirectional or invisible
  // character, checked as sent (the page folds runs of blanks, and a pasted tab, into one space).
  if (typeof raw === 'string' && lineProblem(raw.replaceAll('\t', ' ')) !== undefined) return 'control';
  if (NAME_LINK.test(value)) return 'link';
  if ([...value].length > 255 || !isStorableText(value)) return 'too-long';
  return undefined;
}

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
      const kind = nameProblem(form[field], value[field]);
      if (kind) problems.push({ field, kind });
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

/** What the sign-up's transaction did; the mail that follows is sent after it committed. */
type SignupStep =
  | SignupOutcome
  /** The address takes part already: its link goes again. */
  | { readonly kind: 'present'; readonly memberId: string }
  | { readonly kind: 'added'; readonly token: string; readonly invited: number };

/**
 * A sign-up on `{questionnaire_url}/s/<alias>`. An address already taking part gets its link again
 * by e-mail; a known member not yet in the campaign is added (register or signup); an unknown
 * address becomes a new member only when the campaign lets people register. Whatever happens, the
 * page the visitor sees is the same "check your e-mail" (never whether the address was known),
 * except with `skipvalidation`, where a new participation goes straight on, and when the campaign
 * is full. One transaction under the campaign row's lock (as every add takes) makes the member, puts
 * it in the campaign's group, adds it and invites it: `maxparticipants` holds, and a failure at any
 * step leaves nothing. Every change is recorded as `actor`'s (the anonymous visitor at their address).
 */
export async function signUp(
  deps: CampaignDeps,
  actor: Actor,
  campaign: CampaignRow,
  settings: SelfRegistration,
  form: SignupForm,
): Promise<SignupOutcome> {
  const now = nowOf(deps);
  const step = await deps.db.transaction().execute(async (trx): Promise<SignupStep> => {
    const locked = await campaigns.lockCampaign(trx, deps.dialect, campaign.id);
    // Deleted since the page was shown: nothing to take part in, and nothing to say so.
    if (!locked) return { kind: 'mailed' };
    let memberId = await findMemberIdByEmail(trx, form.email);
    if (memberId !== undefined && (await members.membersInCampaign(trx, locked.id, [memberId])).has(memberId))
      return { kind: 'present', memberId };
    const register = settings.register && form.firstname !== '' && form.lastname !== '';
    if (memberId === undefined && !register) return { kind: 'mailed' };
    if (
      locked.maxparticipants >= 0 &&
      (await members.countCampaignMembers(trx, locked.id)) >= locked.maxparticipants
    )
      return { kind: 'full' };
    if (memberId === undefined) {
      const person = { email: form.email, firstname: form.firstname, lastname: form.lastname };
      const made = await registerMember(trx, actor, person);
      if (made !== undefined && settings.group !== undefined)
        await addNewMember(trx, deps.dialect, actor, settings.group, made);
      // Undefined when registered by a concurrent request a moment ago: carry on as a known member.
      memberId = made ?? (await findMemberIdByEmail(trx, form.email));
      if (memberId === undefined) return { kind: 'mailed' };
    }
    const member = (await members.lockMembersToAdd(trx, deps.dialect, [memberId])).get(memberId);
    // Deleted since it was found (PostgreSQL, where the lookup locks nothing).
    if (!member) return { kind: 'mailed' };
    const row = newCampaignMember(locked.id, memberId, member, now);
    if (!(await members.insertCampaignMembers(trx, [row])).has(memberId))
      return { kind: 'present', memberId };
    await recordCampaignMembers(trx, actor, locked.id, [memberId], 'add');
    // Invitations of an `instant` or a `fixed` campaign go out at the scheduler's next tick.
    if (locked.autoinvite !== 'none') await campaigns.markDue(trx, locked.id, now);
    const invited = settings.skipvalidation ? 0 : await inviteIn(deps, trx, locked, actor, [memberId]);
    return { kind: 'added', token: row.token, invited };
  });
  switch (step.kind) {
    case 'present':
      await resendLink(deps, campaign, step.memberId, actor);
      return { kind: 'mailed' };
    case 'added':
      deps.campaignsDue();
      if (step.invited > 0) deps.mailQueued();
      return settings.skipvalidation ? { kind: 'go', token: step.token } : { kind: 'mailed' };
    default:
      return step;
  }
}

/** The campaign a sign-up alias names (aliases are `[A-Za-z0-9_-]`, unique regardless of case). */
export async function campaignByAlias(deps: CampaignDeps, alias: string): Promise<CampaignRow | undefined> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(alias)) return undefined;
  return campaigns.findCampaignByAlias(deps.db, alias);
}

/**
 * How many raters a subject may ask. The report shows a rater group (a role) only from
 * `MIN_GROUP_RESPONSES` (3) answers on, and most 360 practice asks 3 to 8 people a group so that a
 * few who do not answer still leave enough; 10 a role leaves room for that. A subject has one or two
 * managers (a matrix organisation, a recent change), whose answers are shown alone: 2. However many
 * roles a variant defines, 20 people in all: more than any 360 needs, few enough that a subject's
 * link cannot be used to mail many strangers.
 */
export const RATERS_PER_ROLE = 10;
export const RATERS_PER_MANAGER_ROLE = 2;
export const RATERS_PER_SUBJECT = 20;

/** The roles with one or two people, shown in the report from a single answer (as `EXEMPT_GROUPS` of pdf/feedback-model.ts). */
const SINGLE_ROLES: readonly string[] = ['manager'];

export const ratersPerRole = (role: string) =>
  SINGLE_ROLES.includes(role) ? RATERS_PER_MANAGER_ROLE : RATERS_PER_ROLE;

/** What the subject typed for a rater, kept in the rater's `extra` as `nominated`. */
interface Nominated {
  readonly firstname: string;
  readonly lastname: string;
  readonly email: string;
}

/** A rater as the raters page lists it: only what the subject typed, and the role. */
export interface ListedRater {
  /** The name typed; empty for a rater asked before names were kept. */
  readonly name: string;
  /** The address typed (for a rater asked before it was kept, the address it matched, up to letter case). */
  readonly email: string;
  readonly role: string;
}

/** The subject's raters in a campaign, in the order asked, from the `extra` of its members. */
async function subjectRaters(db: Kysely<Database>, campaignId: string, subjectId: string) {
  const rows = await members.otherParticipants(db, campaignId, subjectId);
  return rows.flatMap(({ email, extra }) => {
    if (extra.subject !== subjectId) return [];
    const nominated = extra.nominated as Partial<Nominated> | undefined;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return [
      {
        role: String(extra.role ?? ''),
        name: `${text(nominated?.firstname)} ${text(nominated?.lastname)}`.trim(),
        email: text(nominated?.email) || email,
      },
    ];
  });
}

/**
 * The raters a 360's subject has asked, in the order asked: the name and address the subject typed
 * and the role, never the stored member's name or the participation's status (the address may be a
 * member's the subject does not know, and who has answered is not the subject's to see).
 */
export async function ratersOf(deps: CampaignDeps, participation: Participation): Promise<ListedRater[]> {
  return subjectRaters(deps.db, participation.campaign.id, participation.member.member_id);
}

/** Whether the subject may ask one more rater of `role`: `subject-cap`, `role-cap` or undefined. */
function capReached(raters: { role: string }[], role: string): 'subject-cap' | 'role-cap' | undefined {
  if (raters.length >= RATERS_PER_SUBJECT) return 'subject-cap';
  if (raters.filter((rater) => rater.role === role).length >= ratersPerRole(role)) return 'role-cap';
  return undefined;
}

export type NominationOutcome = 'added' | 'self' | 'present' | 'full' | 'subject-cap' | 'role-cap';

/**
 * A subject asks someone for feedback: the person is found by e-mail or made a member, and added to
 * the campaign with `extra` `{ role, subject, nominated }` (`nominated`: the name and address the
 * subject typed), invited as the campaign's `autoinvite` says. One transaction under the campaign
 * row's lock (as every add takes), so the caps (`RATERS_PER_SUBJECT`, `ratersPerRole`) and
 * `maxparticipants` hold under concurrent requests: past them nothing is created and nothing mailed.
 * `self` when the address is the subject's own, `present` when the person takes part already.
 * The member made and the place added are recorded as `actor`'s (the subject on their page).
 */
export async function nominateRater(
  deps: CampaignDeps,
  actor: Actor,
  participation: Participation,
  form: SignupForm,
  role: string,
): Promise<NominationOutcome> {
  const campaignId = participation.campaign.id;
  const subject = participation.member.member_id;
  // Refused early without a lock when the caps are already reached (a page reloaded, a script).
  const early = capReached(await subjectRaters(deps.db, campaignId, subject), role);
  if (early) return early;
  const now = nowOf(deps);
  const outcome = await deps.db.transaction().execute(async (trx): Promise<NominationOutcome> => {
    const campaign = await campaigns.lockCampaign(trx, deps.dialect, campaignId);
    if (!campaign) return 'full';
    const cap = capReached(await subjectRaters(trx, campaignId, subject), role);
    if (cap) return cap;
    let memberId = await findMemberIdByEmail(trx, form.email);
    if (memberId === subject) return 'self';
    if (
      memberId !== undefined &&
      (await members.membersInCampaign(trx, campaignId, [memberId])).has(memberId)
    )
      return 'present';
    if (
      campaign.maxparticipants >= 0 &&
      (await members.countCampaignMembers(trx, campaignId)) >= campaign.maxparticipants
    )
      return 'full';
    if (memberId === undefined) {
      const person = { email: form.email, firstname: form.firstname, lastname: form.lastname };
      // Undefined when made by a concurrent request a moment ago: that member, then.
      memberId = (await registerMember(trx, actor, person)) ?? (await findMemberIdByEmail(trx, form.email));
      if (memberId === undefined) return 'present';
    }
    const member = (await members.lockMembersToAdd(trx, deps.dialect, [memberId])).get(memberId);
    if (!member) return 'present';
    const nominated: Nominated = { firstname: form.firstname, lastname: form.lastname, email: form.email };
    const added = await members.insertCampaignMembers(trx, [
      newCampaignMember(campaignId, memberId, member, now, { role, subject, nominated }),
    ]);
    if (!added.has(memberId)) return 'present';
    await recordCampaignMembers(trx, actor, campaignId, [memberId], 'add');
    // Invitations of an `instant` or a `fixed` campaign go out at the scheduler's next tick.
    if (campaign.autoinvite !== 'none') await campaigns.markDue(trx, campaignId, now);
    return 'added';
  });
  if (outcome === 'added') deps.campaignsDue();
  return outcome;
}
