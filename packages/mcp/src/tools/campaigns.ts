import {
  type AssayClient,
  type CampaignCreate,
  type CampaignDetail,
  type CampaignListItem,
  type CampaignMemberListItem,
  formatDate,
  parseDate,
} from '@assay/client';
import Type from 'typebox';
import { DateText, fullName, IdOf, isoDate, Nullable, page, paging } from '../shapes.js';
import { type Tool, ToolInputError, tool } from '../tool.js';

const Progress = Type.Object(
  {
    members: Type.Integer({ description: 'Members in the campaign.' }),
    new: Type.Integer({ description: 'Not invited yet.' }),
    invited: Type.Integer({ description: 'Invited, not started.' }),
    started: Type.Integer({ description: 'Answering, not finished.' }),
    completed: Type.Integer({ description: 'Finished: their personal report exists.' }),
  },
  { description: 'How far the members are.' },
);

const CampaignSummary = Type.Object({
  campaignId: IdOf('the campaign'),
  name: Type.String(),
  alias: Type.String(),
  variant: Type.String({ description: 'The questionnaire (report variant) the members answer.' }),
  language: Type.String(),
  status: Type.String({ description: '`active`, `inactive` or `ended`.' }),
  start: Nullable(DateText('When the campaign opens.')),
  end: Nullable(DateText('When it closes; null when it has no end date.')),
  closingType: Nullable(Type.String({ description: '`date`, `auto` (when everyone completed), `open`.' })),
  autoInvite: Type.String({
    description: '`none` (invite with inviteCampaignMembers), `instant` or `fixed`.',
  }),
  progress: Progress,
});

function campaignSummary(campaign: CampaignListItem | CampaignDetail) {
  const counts = campaign.memberstatuscount;
  return {
    campaignId: campaign.campaignid,
    name: campaign.name,
    alias: campaign.alias,
    variant: campaign.variant,
    language: campaign.language,
    status: campaign.status,
    start: isoDate(campaign.start),
    end: isoDate(campaign.end),
    closingType: campaign.closingtype ?? null,
    autoInvite: campaign.autoinvite,
    progress: {
      members: campaign.membercount,
      new: counts.new,
      invited: counts.invited,
      started: counts.started,
      completed: counts.completed,
    },
  };
}

const CampaignParticipant = Type.Object({
  memberId: IdOf('the member'),
  name: Type.String(),
  email: Type.String(),
  status: Type.String({ description: '`new`, `invited`, `started` or `completed`.' }),
  role: Nullable(Type.String(), 'The role in a 360 (self, manager, peer, directreport); null otherwise.'),
  invitedOn: Nullable(DateText('When the invitation was sent.')),
  completedOn: Nullable(DateText('When the answers were sent.')),
  reminders: Type.Integer({ description: 'Reminders sent.' }),
  reportId: Nullable(IdOf('the personal report'), 'Once completed.'),
});

function participant(member: CampaignMemberListItem) {
  const extra = (member.extra ?? {}) as Record<string, unknown>;
  const results = Array.isArray(member.results) ? undefined : member.results;
  return {
    memberId: member.memberid,
    name: fullName(member),
    email: member.email,
    status: member.status,
    role: typeof extra.role === 'string' ? extra.role : null,
    invitedOn: isoDate(member.dateinvited),
    completedOn: isoDate(member.datecompleted),
    reminders: Number(member.countreminded ?? 0) || 0,
    reportId: results?.reportid ?? null,
  };
}

/** A date argument (ISO 8601) in the wire form; a clear error when it is not a date. */
function wireDate(value: string, field: string): string {
  const date = parseDate(value);
  if (!date)
    throw new ToolInputError(`${field}: "${value}" is not a date; give ISO 8601, e.g. 2026-12-01T09:00:00Z.`);
  return formatDate(date);
}

const MailInput = Type.Object(
  {
    campaignId: IdOf('the campaign'),
    memberIds: Type.Optional(
      Type.Array(IdOf('a member'), {
        minItems: 1,
        maxItems: 10_000,
        description:
          'Only these members. Required with confirm: true, and then exactly the memberIds the dry run listed.',
      }),
    ),
    confirm: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'false (the default): a dry run that sends nothing. true: send, after a dry run.',
      }),
    ),
  },
  { additionalProperties: false },
);

const MailOutput = Type.Object({
  sent: Type.Boolean({ description: 'true when the mails were sent; false for a dry run.' }),
  count: Type.Integer({ description: 'How many members are (or would be) mailed.' }),
  recipients: Type.Array(
    Type.Object({
      memberId: IdOf('the member'),
      name: Type.String(),
      email: Type.String(),
      status: Type.String(),
    }),
  ),
  next: Type.String({ description: 'What to do next.' }),
});

/** Invite or remind: a dry run listing the recipients, or the sending confirmed with their ids. */
async function mailing(
  stage: 'invite' | 'remind',
  client: AssayClient,
  args: { campaignId: string; memberIds?: string[]; confirm?: boolean },
) {
  const { campaignId, memberIds, confirm } = args;
  const request = memberIds ? { memberids: memberIds } : {};
  const [eligible, members] = await Promise.all([
    client.campaigns[stage](campaignId, { ...request, dryrun: true }),
    client.campaigns.members(campaignId),
  ]);
  const byId = new Map(members.map((member) => [member.memberid, member]));
  const recipients = eligible.map((memberId) => {
    const member = byId.get(memberId);
    return {
      memberId,
      name: member ? fullName(member) : '',
      email: member?.email ?? '',
      status: member?.status ?? '',
    };
  });
  const word = stage === 'invite' ? 'invitation' : 'reminder';
  if (!confirm) {
    return {
      sent: false,
      count: recipients.length,
      recipients,
      next:
        recipients.length === 0
          ? `Nobody would get ${stage === 'invite' ? 'an' : 'a'} ${word}: nothing to send.`
          : `Dry run: nothing was sent. Show the ${recipients.length === 1 ? 'recipient' : `${recipients.length} recipients`} to the user; to send, call this tool again with confirm: true and memberIds set to exactly the memberIds listed here.`,
    };
  }
  if (!memberIds) {
    throw new ToolInputError(
      `confirm: true needs memberIds: call without confirm first (a dry run), then again with confirm: true and the memberIds it listed.`,
    );
  }
  const listed = new Set(eligible);
  const stale = memberIds.filter((memberId) => !listed.has(memberId));
  if (stale.length > 0) {
    throw new ToolInputError(
      `Nothing was sent: ${stale.length} of the memberIds cannot get ${stage === 'invite' ? 'an' : 'a'} ${word} now (${stale.slice(0, 10).join(', ')}${stale.length > 10 ? ', ...' : ''}): not in the campaign, or already ${stage === 'invite' ? 'invited' : 'completed or at the reminder limit'}. Run the dry run again.`,
    );
  }
  await client.campaigns[stage](campaignId, { memberids: memberIds });
  return {
    sent: true,
    count: recipients.length,
    recipients,
    next: `Sent ${recipients.length} ${word}${recipients.length === 1 ? '' : 's'}; the mails leave through the instance's outbox.`,
  };
}

const mailTool = (stage: 'invite' | 'remind') =>
  tool({
    name: stage === 'invite' ? 'inviteCampaignMembers' : 'remindCampaignMembers',
    title: stage === 'invite' ? 'Invite campaign members by e-mail' : 'Remind campaign members by e-mail',
    description:
      (stage === 'invite'
        ? 'E-mails the invitation with the personal questionnaire link to the members of a campaign who ' +
          'were not invited yet (or only to `memberIds`). '
        : 'E-mails a reminder to the members of a campaign who were invited or started but did not ' +
          'complete, below the reminder limit (or only to `memberIds`). ') +
      'Real e-mail to real people, so it works in two steps: call it first without `confirm` (a dry run: ' +
      'nothing is sent, the recipients are listed), show the list to the user, and only when the user ' +
      'agrees call it again with `confirm: true` and `memberIds` set to the memberIds of that list.',
    input: MailInput,
    output: MailOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    scopes: ['campaigns'],
    async run(args, { client }) {
      return { structured: await mailing(stage, client, args) };
    },
  });

export const campaignTools: Tool[] = [
  tool({
    name: 'listCampaigns',
    title: 'List campaigns',
    description:
      'Lists the campaigns of the instance with their progress. A campaign invites members to answer ' +
      'one questionnaire (its `variant`) in one language between its start and end; each member who ' +
      'completes gets a personal report. `status` filters on `active`, `inactive` or `ended`.',
    input: Type.Object(
      {
        status: Type.Optional(Type.String({ enum: ['active', 'inactive', 'ended'] })),
        ...paging(100, 10_000),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      total: Type.Integer(),
      offset: Type.Integer(),
      campaigns: Type.Array(CampaignSummary),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['campaigns'],
    async run({ status, limit, offset }, { client }) {
      const campaigns = (await client.campaigns.list()).filter(
        (campaign) => !status || campaign.status === status,
      );
      const { total, items } = page(campaigns, limit, offset);
      return { structured: { total, offset: offset ?? 0, campaigns: items.map(campaignSummary) } };
    },
  }),

  tool({
    name: 'getCampaign',
    title: 'Get a campaign with its members',
    description:
      'Gives one campaign: its settings, its progress, and its members with their status (new, invited, ' +
      'started, completed), reminders sent and, once completed, the `reportId` of their personal report. ' +
      '`memberStatus` keeps only members with that status.',
    input: Type.Object(
      {
        campaignId: IdOf('the campaign'),
        memberStatus: Type.Optional(Type.String({ enum: ['new', 'invited', 'started', 'completed'] })),
        ...paging(200, 10_000),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      campaign: CampaignSummary,
      description: Nullable(Type.String()),
      sendMemberConfirmation: Type.Boolean(),
      sendReportDelivery: Type.Boolean(),
      autoReminder: Type.Boolean(),
      roles: Type.Array(Type.String(), {
        description: 'The participant roles of the variant (360 campaigns).',
      }),
      totalMembers: Type.Integer({ description: 'Members matching memberStatus, before paging.' }),
      members: Type.Array(CampaignParticipant),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['campaigns'],
    async run({ campaignId, memberStatus, limit, offset }, { client }) {
      const [campaign, members] = await Promise.all([
        client.campaigns.get(campaignId),
        client.campaigns.members(campaignId),
      ]);
      const { total, items } = page(
        members.filter((member) => !memberStatus || member.status === memberStatus),
        limit,
        offset,
      );
      return {
        structured: {
          campaign: campaignSummary(campaign),
          description: campaign.description ?? null,
          sendMemberConfirmation: campaign.sendmemberconfirmation,
          sendReportDelivery: campaign.sendreportdelivery,
          autoReminder: campaign.autoreminder,
          roles: campaign.extraParams.map(
            (param) => new URLSearchParams(param.value).get('role') ?? param.label,
          ),
          totalMembers: total,
          members: items.map(participant),
        },
      };
    },
  }),

  tool({
    name: 'createCampaign',
    title: 'Create a campaign',
    description:
      'Creates a campaign: members of it answer the questionnaire `variant` (see listVariants) in ' +
      "`language` (one of the variant's; default its default language). It starts at `start` (default " +
      'now) and, with `end`, closes then. `autoInvite` `none` (the default) means nobody is mailed until ' +
      'inviteCampaignMembers; `instant` mails each member as soon as it is added. Add members with ' +
      'addCampaignMembers.',
    input: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 255 }),
        variant: Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'A variant alias from listVariants.',
        }),
        language: Type.Optional(Type.String({ description: 'e.g. enUS, nlNL, esES, frFR.' })),
        start: Type.Optional(Type.String({ description: 'ISO 8601 date and time; default now.' })),
        end: Type.Optional(Type.String({ description: 'ISO 8601; the campaign closes then.' })),
        description: Type.Optional(Type.String({ maxLength: 4000 })),
        autoInvite: Type.Optional(Type.String({ enum: ['none', 'instant'], default: 'none' })),
        autoReminder: Type.Optional(
          Type.Boolean({ description: 'Remind people who did not complete, weekly.' }),
        ),
        sendMemberConfirmation: Type.Optional(Type.Boolean({ description: 'Mail members a confirmation.' })),
        sendReportDelivery: Type.Optional(
          Type.Boolean({ description: 'Mail members the link to their report.' }),
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ campaign: CampaignSummary }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scopes: ['campaigns'],
    async run(args, { client }) {
      const body: CampaignCreate = {
        name: args.name,
        variant: args.variant,
        start: args.start ? wireDate(args.start, 'start') : formatDate(new Date()),
        autoinvite: (args.autoInvite ?? 'none') as 'none' | 'instant',
      };
      if (args.language) body.language = args.language;
      if (args.end) {
        body.end = wireDate(args.end, 'end');
        body.closingtype = 'date';
      }
      if (args.description !== undefined) body.description = args.description;
      if (args.autoReminder !== undefined) {
        body.autoreminder = args.autoReminder;
        if (args.autoReminder) body.reminderoffset = { amount: 1, unit: 'week' };
      }
      if (args.sendMemberConfirmation !== undefined)
        body.sendmemberconfirmation = args.sendMemberConfirmation;
      if (args.sendReportDelivery !== undefined) body.sendreportdelivery = args.sendReportDelivery;
      return { structured: { campaign: campaignSummary(await client.campaigns.create(body)) } };
    },
  }),

  tool({
    name: 'addCampaignMembers',
    title: 'Add members to a campaign',
    description:
      'Adds members to a campaign: the members of `memberIds`, and/or every direct member of `groupId` ' +
      '(with `includeSubgroups`, the members of its sub-groups too). Members already in the campaign ' +
      "are skipped and listed with the reason. With the campaign's autoInvite `instant` the new members " +
      'are mailed at once; otherwise nobody is mailed until inviteCampaignMembers.',
    input: Type.Object(
      {
        campaignId: IdOf('the campaign'),
        memberIds: Type.Optional(Type.Array(IdOf('a member'), { minItems: 1, maxItems: 10_000 })),
        groupId: Type.Optional(IdOf('a group', "Add this group's members.")),
        includeSubgroups: Type.Optional(Type.Boolean({ default: false })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      added: Type.Array(IdOf('an added member')),
      skipped: Type.Array(Type.Object({ memberId: Type.String(), reason: Type.String() })),
      progress: Progress,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    scopes: ['campaigns'],
    async run({ campaignId, memberIds, groupId, includeSubgroups }, { client }) {
      if (!memberIds && !groupId) throw new ToolInputError('Give memberIds, groupId, or both.');
      const result = await client.campaigns.addMembers(campaignId, {
        ...(memberIds ? { memberids: memberIds } : {}),
        ...(groupId ? { groupid: groupId, subgroups: includeSubgroups ?? false } : {}),
      });
      const campaign = await client.campaigns.get(campaignId);
      return {
        structured: {
          added: result.added,
          skipped: result.skipped.map((entry) => ({ memberId: entry.memberid, reason: entry.reason })),
          progress: campaignSummary(campaign).progress,
        },
      };
    },
  }),

  mailTool('invite'),
  mailTool('remind'),
];
