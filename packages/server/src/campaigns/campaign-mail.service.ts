import type { CampaignMailRequest } from '@assay/schema';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import { findUserById } from '../auth/auth.repository.js';
import type { Database } from '../db/database.js';
import { BusinessError, notFound } from '../domain/errors.js';
import type { MailParams, RenderedMail } from '../mail/mail.types.js';
import { type QueuedMail, queueMails } from '../mail/outbox.repository.js';
import { fromHeader, mailFromParts, messageIdDomain } from '../mail/outbox.service.js';
import { renderMail } from '../mail/render.js';
import { questionnaireMinutes } from '../questionnaire/duration.js';
import { questionnaireLink, reportLink } from '../questionnaire/links.js';
import type { Language, MailStage, Variant } from '../variants/variant.types.js';
import { queueEvent, queueEvents } from '../webhooks/events.js';
import type { MailableMember } from './campaign-mail.repository.js';
import * as members from './campaign-mail.repository.js';
import { parseMemberExtra, parseMemberMailConfig } from './campaign-members.repository.js';
import * as repo from './campaigns.repository.js';
import { type CampaignDeps, nowOf, recordCampaignMembers, statusOf } from './campaigns.service.js';
import type { CampaignRow } from './campaigns.table.js';

/** The display name of `MAIL_FROM` (`Name <address>`), or its address. */
export function senderName(mailFrom: string): string {
  const { name, address } = mailFromParts(mailFrom);
  return name || address || mailFrom;
}

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The campaign's admins (member ids), without the null entries legacy rows may hold. */
export function adminsOf(campaign: Pick<CampaignRow, 'admins'>): string[] {
  return repo.parseAdmins(campaign.admins).filter((id): id is string => typeof id === 'string');
}

/** A mailconfig as a plain object: `{}` for none. */
const stagesOf = (config: Record<string, unknown> | [] | null): Record<string, unknown> =>
  config === null || Array.isArray(config) ? {} : config;

/** What every mail of one campaign shares; made once per batch of mails. */
export interface CampaignMailContext {
  campaign: CampaignRow;
  variant: Variant | undefined;
  inviter: MailParams['inviter'];
  sender: string;
  minutes: number | undefined;
  mailconfig: Record<string, unknown>;
  subjects: Record<string, unknown>;
}

export async function mailContext(deps: CampaignDeps, db: Kysely<Database>, campaign: CampaignRow) {
  const user = campaign.creator ? await findUserById(db, campaign.creator) : undefined;
  const variant = deps.variants.get(campaign.variant);
  const config = repo.parseCampaignConfig(campaign.config);
  return {
    campaign,
    variant,
    inviter: user ? { firstname: user.firstname, lastname: user.lastname, email: user.email } : null,
    sender: user?.agencyname || senderName(deps.config.mailFrom),
    minutes: questionnaireMinutes(variant),
    mailconfig: stagesOf(repo.parseMailConfig(campaign.mailconfig)),
    subjects: asObject(config.custommailsubject),
  } satisfies CampaignMailContext;
}

/**
 * The template for a stage: the member's own `mailconfig`, else the campaign's, else the one its
 * participant role names, else the instance default (`standard`).
 */
function templateFor(context: CampaignMailContext, member: MailableMember, stage: MailStage): string {
  const own = stagesOf(parseMemberMailConfig(member.mailconfig))[stage];
  if (typeof own === 'string') return own;
  const campaign = context.mailconfig[stage];
  if (typeof campaign === 'string') return campaign;
  const role = parseMemberExtra(member.extra)?.role;
  const byRole = context.variant?.roles.find((entry) => entry.role === role)?.mailconfig[stage];
  return byRole ?? 'standard';
}

/** The mail of one stage to one campaign member. */
export function memberMail(
  context: CampaignMailContext,
  member: MailableMember,
  stage: MailStage,
  sequence: number,
  link: string,
): QueuedMail<MailParams> {
  const subject = context.subjects[stage];
  const params: MailParams = {
    stage,
    language: context.campaign.language as Language,
    template: templateFor(context, member, stage),
    variant: context.campaign.variant,
    ...(typeof subject === 'string' && subject.trim() !== '' ? { subject } : {}),
    recipient: {
      title: member.title,
      firstname: member.firstname,
      lastname: member.lastname,
      email: member.email,
    },
    campaign: { id: context.campaign.id, name: context.campaign.name, end: context.campaign.end_at },
    link,
    sender: context.sender,
    inviter: context.inviter,
    ...(context.minutes === undefined ? {} : { minutes: context.minutes }),
  };
  return {
    // A reset gives the member a new token and starts its reminders again: the token's head in the
    // key lets the new round's mails through, while each round still mails once.
    dedupeKey: `${member.token ? `${member.id}.${member.token.slice(0, 12)}` : member.id}:${stage}:${sequence}`,
    campaignId: context.campaign.id,
    memberId: member.member_id,
    stage,
    sequence,
    recipient: member.email,
    params,
  };
}

/** The member a preview is addressed to: no one real, so no real link is shown either. */
export const SAMPLE_MEMBER: MailableMember = {
  id: 'preview',
  member_id: 'preview',
  token: 'SAMPLE-TOKEN',
  title: '',
  firstname: 'Alex',
  lastname: 'Sample',
  email: 'alex.sample@example.com',
  extra: null,
  mailconfig: null,
  countreminded: 0,
};
/** Who completed, in a preview of `confirmation_admin`. */
const SAMPLE_SUBJECT = { firstname: 'Sam', lastname: 'Example' };

/** A mail as a participant would receive it: its headers, parts and how it was made. */
export interface MailPreview {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly template: string;
  readonly language: Language;
}

/**
 * The mail a stage of a campaign sends, for the sample member: built as the outbox builds it
 * (`memberMail`) and rendered as delivery renders it, with the From delivery gives it. The
 * campaign may be one not yet written (`prepareCampaign`'s row). Nothing is queued or sent.
 */
export async function previewMail(
  deps: CampaignDeps,
  campaign: CampaignRow,
  stage: MailStage,
  language: Language = campaign.language as Language,
): Promise<MailPreview> {
  const context = await mailContext(deps, deps.db, { ...campaign, language });
  const sample = SAMPLE_MEMBER;
  const link =
    stage === 'campaign_invitation' || stage === 'campaign_reminder'
      ? questionnaireLink(deps, sample.token)
      : stage === 'campaign_reportdelivery'
        ? reportLink(deps, sample.token)
        : '';
  const { params } = memberMail(context, sample, stage, 0, link);
  if (stage === 'confirmation_admin') params.subjectMember = SAMPLE_SUBJECT;
  const mail = renderMail(deps.variants, params);
  const from = fromHeader(deps.config.mailFrom, params.sender);
  return {
    from: typeof from === 'string' ? from : `${from.name} <${from.address}>`,
    to: `${sample.firstname} ${sample.lastname} <${sample.email}>`,
    ...mail,
    template: params.template,
    language,
  };
}

/** The mail a stage of a written campaign sends, for the sample member (the console's preview). */
export async function previewCampaignMail(
  deps: CampaignDeps,
  campaignId: string,
  stage: MailStage,
): Promise<MailPreview> {
  const campaign = await repo.findCampaign(deps.db, campaignId);
  if (!campaign) throw notFound('campaign');
  return previewMail(deps, campaign, stage);
}

async function queue(deps: CampaignDeps, trx: Transaction<Database>, mails: QueuedMail[], now: string) {
  if (mails.length === 0) return;
  await queueMails(trx, mails, { now, messageIdDomain: messageIdDomain(deps.config.mailFrom) });
}

/**
 * Invites the campaign's `new` members (or those of `memberIds`): marks them invited and queues
 * their invitations in one transaction. Answers how many were invited.
 */
export async function inviteNow(
  deps: CampaignDeps,
  campaign: CampaignRow,
  actor: Actor,
  memberIds?: string[],
): Promise<number> {
  const count = await deps.db.transaction().execute((trx) => inviteIn(deps, trx, campaign, actor, memberIds));
  if (count > 0) deps.mailQueued();
  return count;
}

/**
 * `inviteNow` as one step of the caller's transaction (a sign-up that adds the member it invites);
 * the caller calls `deps.mailQueued()` once it has committed and the answer was more than 0.
 */
export async function inviteIn(
  deps: CampaignDeps,
  trx: Transaction<Database>,
  campaign: CampaignRow,
  actor: Actor,
  memberIds?: string[],
): Promise<number> {
  const now = nowOf(deps);
  const invited = await members.markInvited(trx, campaign.id, now, memberIds);
  if (invited.length === 0) return 0;
  await queueEvents(
    trx,
    'campaignmember.invited',
    invited.map((member) => ({ campaignid: campaign.id, memberid: member.member_id, dateinvited: now })),
    { now, orderKey: (data) => data.memberid as string },
  );
  const context = await mailContext(deps, trx, campaign);
  const mails = invited.map((member) =>
    memberMail(context, member, 'campaign_invitation', 0, questionnaireLink(deps, member.token)),
  );
  await queue(deps, trx, mails, now);
  await recordCampaignMembers(
    trx,
    actor,
    campaign.id,
    invited.map((member) => member.member_id),
    'invite',
  );
  // Reminders count from the invitation: the scheduler looks again.
  await repo.markDue(trx, campaign.id, now);
  return mails.length;
}

/**
 * Sends a member its questionnaire link again (a self-registration sign-up of someone already
 * taking part): the invitation for a member not invited yet, else the invitation mail once more.
 * At most one such mail a minute per member: the minute is the mail's sequence in its unique key.
 */
export async function resendLink(
  deps: CampaignDeps,
  campaign: CampaignRow,
  memberId: string,
  actor: Actor,
): Promise<void> {
  if ((await inviteNow(deps, campaign, actor, [memberId])) > 0) return;
  const now = nowOf(deps);
  const queued = await deps.db.transaction().execute(async (trx) => {
    const [member] = await members.selectMailable(trx, campaign.id, [memberId], (query) =>
      query.where('status', '!=', 'completed'),
    );
    if (!member) return false;
    const context = await mailContext(deps, trx, campaign);
    const minute = Math.floor(deps.clock().getTime() / 60_000);
    await queue(
      deps,
      trx,
      [memberMail(context, member, 'campaign_invitation', minute, questionnaireLink(deps, member.token))],
      now,
    );
    await recordCampaignMembers(trx, actor, campaign.id, [memberId], 'invite');
    return true;
  });
  if (queued) deps.mailQueued();
}

/**
 * Reminds members who were invited or started, below `reminderrepeat` reminders; `due` narrows
 * them further (the scheduler: those whose last mail is older than the offset).
 */
export async function remindNow(
  deps: CampaignDeps,
  campaign: CampaignRow,
  actor: Actor,
  options: {
    memberIds?: string[];
    due?: (member: { dateinvited: string | null; datereminded: string | null }) => boolean;
  } = {},
): Promise<number> {
  const now = nowOf(deps);
  const count = await deps.db.transaction().execute(async (trx) => {
    const candidates = (
      await members.remindable(trx, campaign.id, campaign.reminderrepeat, options.memberIds)
    ).filter((member) => options.due?.(member) ?? true);
    if (candidates.length === 0) return 0;
    const changed = await members.markReminded(trx, candidates, now);
    const context = await mailContext(deps, trx, campaign);
    const reminded = candidates.filter((member) => changed.has(member.id));
    const mails = reminded.map((member) =>
      memberMail(
        context,
        member,
        'campaign_reminder',
        member.countreminded + 1,
        questionnaireLink(deps, member.token),
      ),
    );
    await queue(deps, trx, mails, now);
    await recordCampaignMembers(
      trx,
      actor,
      campaign.id,
      reminded.map((member) => member.member_id),
      'remind',
    );
    await repo.markDue(trx, campaign.id, now);
    return mails.length;
  });
  if (count > 0) deps.mailQueued();
  return count;
}

async function activeCampaign(deps: CampaignDeps, id: string): Promise<CampaignRow> {
  const campaign = await repo.findCampaign(deps.db, id);
  if (!campaign) throw notFound('campaign');
  const status = await statusOf(deps, campaign);
  if (status !== 'active') {
    throw new BusinessError(
      `campaign: is ${status === 'ended' ? 'ended' : 'not active yet (it starts at its start date)'}; mail goes out only while it is active`,
    );
  }
  return campaign;
}

/** POST /campaigns/{id}/members/invite: '' once queued, or the member ids a dry run would mail. */
export async function invite(
  deps: CampaignDeps,
  id: string,
  input: CampaignMailRequest,
  actor: Actor,
): Promise<string | string[]> {
  const campaign = await activeCampaign(deps, id);
  if (input.dryrun)
    return (await members.invitable(deps.db, id, input.memberids)).map((member) => member.member_id);
  await inviteNow(deps, campaign, actor, input.memberids);
  return '';
}

/** POST /campaigns/{id}/members/remind: '' once queued, or the member ids a dry run would mail. */
export async function remind(
  deps: CampaignDeps,
  id: string,
  input: CampaignMailRequest,
  actor: Actor,
): Promise<string | string[]> {
  const campaign = await activeCampaign(deps, id);
  if (input.dryrun) {
    return (await members.remindable(deps.db, id, campaign.reminderrepeat, input.memberids)).map(
      (member) => member.member_id,
    );
  }
  await remindNow(deps, campaign, actor, { memberIds: input.memberids });
  return '';
}

/** An admin as the recipient of a campaign's mail: keyed by campaign and admin, no link of its own. */
function asRecipient(
  campaign: CampaignRow,
  admin: { id: string; title: string | null; firstname: string; lastname: string; email: string },
): MailableMember {
  return {
    id: `${campaign.id}-${admin.id}`,
    member_id: admin.id,
    token: '',
    title: admin.title ?? '',
    firstname: admin.firstname,
    lastname: admin.lastname,
    email: admin.email,
    extra: null,
    mailconfig: null,
    countreminded: 0,
  };
}

/** Queues `closing_notification` to the campaign's admins, once: the campaign row remembers it. */
export async function notifyClosed(
  deps: CampaignDeps,
  trx: Transaction<Database>,
  campaign: CampaignRow,
  actor: Actor,
): Promise<number> {
  const now = nowOf(deps);
  if (!(await members.markClosedNotified(trx, campaign.id, now))) return 0;
  // The campaign's end is recorded when it is noticed (its end date, its last member done).
  await recordChange(trx, actor, { resource: 'campaign', id: campaign.id, action: 'end' });
  await queueEvent(trx, 'campaign.ended', { campaignid: campaign.id, ended: now }, { now });
  const adminIds = adminsOf(campaign);
  if (adminIds.length === 0) return 0;
  const admins = await members.findAdminRecipients(trx, adminIds);
  const context = await mailContext(deps, trx, campaign);
  const mails = admins.map((admin) =>
    memberMail(context, asRecipient(campaign, admin), 'closing_notification', 0, ''),
  );
  await queue(deps, trx, mails, now);
  return mails.length;
}

/**
 * The mails of a completion, queued in the caller's transaction (the one that marks the member
 * completed): `confirmation_member` when the campaign sends it, `confirmation_admin` to each admin,
 * and `campaign_reportdelivery` with the report link when the campaign sends it. Answers how many.
 */
export async function queueCompletionMails(
  deps: CampaignDeps,
  trx: Transaction<Database>,
  campaign: CampaignRow,
  member: MailableMember,
  reportLink: string,
): Promise<number> {
  const now = nowOf(deps);
  const context = await mailContext(deps, trx, campaign);
  const mails: QueuedMail[] = [];
  if (campaign.sendmemberconfirmation === 1)
    mails.push(memberMail(context, member, 'confirmation_member', 0, ''));
  if (campaign.sendreportdelivery === 1)
    mails.push(memberMail(context, member, 'campaign_reportdelivery', 0, reportLink));
  const adminIds = adminsOf(campaign);
  if (adminIds.length > 0) {
    const admins = await members.findAdminRecipients(trx, adminIds);
    for (const admin of admins) {
      const mail = memberMail(context, asRecipient(campaign, admin), 'confirmation_admin', 0, '');
      mail.params.subjectMember = { firstname: member.firstname, lastname: member.lastname };
      // One confirmation per completing member and admin.
      mail.dedupeKey = `${member.id}:confirmation_admin:${admin.id}`;
      mails.push(mail);
    }
  }
  await queue(deps, trx, mails, now);
  // An `auto` campaign may have ended with this completion.
  await repo.markDue(trx, campaign.id, now);
  return mails.length;
}

/** What an invite or a remind would do now, read only: who would be mailed, and the mail the first would get. */
export interface MailRecipients {
  readonly campaign: CampaignRow;
  /** Why nothing can be sent now (the API's message), when the campaign is not active. */
  readonly refused?: string;
  /** Who would be mailed, in the order of their member ids. */
  readonly members: readonly MailableMember[];
  /** The first recipient's mail as the outbox would render it; undefined when nobody would get one. */
  readonly preview?: RenderedMail;
}

/**
 * Who an invite (members still `new`) or a remind (invited or started, below `reminderrepeat`)
 * would mail now, by the same selection as `invite` and `remind`, sending nothing; with the first
 * recipient's mail rendered as the outbox renders it.
 */
export async function mailRecipients(
  deps: CampaignDeps,
  id: string,
  kind: 'invite' | 'remind',
): Promise<MailRecipients> {
  let campaign: CampaignRow;
  try {
    campaign = await activeCampaign(deps, id);
  } catch (error) {
    if (!(error instanceof BusinessError)) throw error;
    const row = await repo.findCampaign(deps.db, id);
    if (!row) throw notFound('campaign');
    return { campaign: row, refused: error.message, members: [] };
  }
  const found =
    kind === 'invite'
      ? await members.invitable(deps.db, id)
      : await members.remindable(deps.db, id, campaign.reminderrepeat);
  const sorted = [...found].sort((a, b) =>
    a.member_id < b.member_id ? -1 : a.member_id > b.member_id ? 1 : 0,
  );
  const first = sorted[0];
  if (!first) return { campaign, members: sorted };
  const context = await mailContext(deps, deps.db, campaign);
  const mail =
    kind === 'invite'
      ? memberMail(context, first, 'campaign_invitation', 0, questionnaireLink(deps, first.token))
      : memberMail(
          context,
          first,
          'campaign_reminder',
          first.countreminded + 1,
          questionnaireLink(deps, first.token),
        );
  return { campaign, members: sorted, preview: renderMail(deps.variants, mail.params) };
}

/**
 * POST /campaigns/{id}/members/remind for a check page shown at `shownAt`: reminds only members not
 * reminded since, so that the same form posted twice reminds nobody twice. Answers how many were queued.
 */
export async function remindShown(
  deps: CampaignDeps,
  id: string,
  shownAt: string,
  actor: Actor,
): Promise<number> {
  const campaign = await activeCampaign(deps, id);
  return remindNow(deps, campaign, actor, {
    due: (member) => member.datereminded === null || member.datereminded < shownAt,
  });
}

/** POST /campaigns/{id}/members/invite from the console: answers how many invitations were queued. */
export async function inviteAll(deps: CampaignDeps, id: string, actor: Actor): Promise<number> {
  return inviteNow(deps, await activeCampaign(deps, id), actor);
}
