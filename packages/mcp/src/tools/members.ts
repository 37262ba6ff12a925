import type {
  AssayClient,
  MemberCampaign,
  MemberCreate,
  MemberDetail,
  MemberListItem,
  MemberPatch,
} from '@assay/client';
import { MEMBER_LEVELS } from '@assay/schema';
import Type from 'typebox';
import { DateText, fullName, IdOf, isoDate, matcher, Nullable, page, paging } from '../shapes.js';
import { type Tool, ToolInputError, tool } from '../tool.js';

const MemberSummary = Type.Object({
  memberId: IdOf('the member'),
  name: Type.String({ description: 'First, middle and last name.' }),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  group: Nullable(Type.String(), 'The name of the group the member is in; null when in none.'),
  company: Type.String(),
  jobTitle: Type.String(),
  status: Nullable(Type.String(), '`active`, `inactive` or null.'),
  testUser: Type.Boolean(),
});

function summary(member: MemberListItem) {
  return {
    memberId: member.memberid,
    name: fullName(member),
    firstName: member.firstname,
    lastName: member.lastname,
    email: member.email,
    group: member.group ?? null,
    company: member.company ?? '',
    jobTitle: member.jobtitle ?? '',
    status: member.status ?? null,
    testUser: member.testuser,
  };
}

const CampaignMembership = Type.Object({
  campaignId: IdOf('the campaign'),
  campaignName: Type.String(),
  variant: Type.String(),
  language: Type.String(),
  campaignStatus: Type.String({ description: '`active`, `inactive` or `ended`.' }),
  status: Type.String({ description: "The member's progress: `new`, `invited`, `started` or `completed`." }),
  invitedOn: Nullable(DateText('When the invitation was sent.')),
  startedOn: Nullable(DateText('When the member opened the questionnaire.')),
  completedOn: Nullable(DateText('When the member sent the answers.')),
  reportId: Nullable(IdOf('the personal report'), 'The personal report, once completed.'),
});

const Member = Type.Object({
  memberId: IdOf('the member'),
  name: Type.String(),
  title: Nullable(Type.String()),
  firstName: Type.String(),
  middleName: Nullable(Type.String()),
  lastName: Type.String(),
  email: Type.String(),
  status: Nullable(Type.String()),
  level: Nullable(Type.String()),
  groupId: Nullable(IdOf('the group'), 'The group the member is in; null when in none.'),
  createdOn: Nullable(DateText('When the member was created.')),
  testUser: Type.Boolean(),
  extra: Type.Record(Type.String(), Type.Unknown(), { description: "The instance's custom fields." }),
  campaigns: Type.Array(CampaignMembership, { description: 'The campaigns the member takes part in.' }),
});

function membership(entry: MemberCampaign) {
  return {
    campaignId: entry.campaignid,
    campaignName: entry.name,
    variant: entry.variant,
    language: entry.language,
    campaignStatus: entry.campaignstatus,
    status: entry.status,
    invitedOn: isoDate(entry.dateinvited),
    startedOn: isoDate(entry.datestarted),
    completedOn: isoDate(entry.datecompleted),
    reportId: entry.reportid ?? null,
  };
}

function detail(member: MemberDetail, campaigns: MemberCampaign[]) {
  return {
    memberId: member.memberid,
    name: fullName(member),
    title: member.title ?? null,
    firstName: member.firstname,
    middleName: member.middlename ?? null,
    lastName: member.lastname,
    email: member.email,
    status: member.status ?? null,
    level: member.level ?? null,
    groupId: member.groupid ?? null,
    createdOn: isoDate(member.createdon),
    testUser: member.testuser,
    extra: (member.extra ?? {}) as Record<string, unknown>,
    campaigns: campaigns.map(membership),
  };
}

async function memberWithCampaigns(client: AssayClient, memberId: string) {
  const [member, campaigns] = await Promise.all([
    client.members.get(memberId),
    client.members.campaigns(memberId),
  ]);
  return detail(member, campaigns);
}

/** The member fields a tool may write, in camelCase, and their wire names. */
const writable = {
  title: Type.Optional(Nullable(Type.String({ maxLength: 100 }), 'A title such as "Dr.".')),
  firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  middleName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  email: Type.Optional(
    Type.String({ format: 'email', maxLength: 254, description: 'Unique on the instance.' }),
  ),
  phone: Type.Optional(Type.String({ maxLength: 50 })),
  company: Type.Optional(Type.String({ maxLength: 255 })),
  jobTitle: Type.Optional(Type.String({ maxLength: 255 })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
  level: Type.Optional(
    Nullable(Type.String({ enum: [...MEMBER_LEVELS] }), `One of ${MEMBER_LEVELS.join(', ')}, or null.`),
  ),
  testUser: Type.Optional(Type.Boolean({ description: 'A test person: left out of group statistics.' })),
};
const WIRE: Record<string, string> = {
  title: 'title',
  firstName: 'firstname',
  middleName: 'middlename',
  lastName: 'lastname',
  email: 'email',
  phone: 'phone',
  company: 'company',
  jobTitle: 'jobtitle',
  status: 'status',
  level: 'level',
  testUser: 'testuser',
};

/** The camelCase fields given, by their wire names (fields not given are left out). */
function toWire(fields: Record<string, unknown>): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const name = WIRE[key];
    if (name && value !== undefined) wire[name] = value;
  }
  return wire;
}

const NewMember = Type.Object(
  {
    ...writable,
    email: Type.String({ format: 'email', maxLength: 254, description: 'Unique on the instance.' }),
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const memberTools: Tool[] = [
  tool({
    name: 'findMembers',
    title: 'Find members',
    description:
      'Finds the people (members) registered on the Assay instance. Members are the people who answer ' +
      'questionnaires; each may be in one group. Give `query` to match words of the name, e-mail, ' +
      'company or job title (case and accents ignored; every word must match), `groupId` to keep only ' +
      'the direct members of one group, or neither to list everyone. Gives `memberId`s for the other tools.',
    input: Type.Object(
      {
        query: Type.Optional(
          Type.String({ maxLength: 200, description: 'Words to look for, e.g. "ana garcia".' }),
        ),
        groupId: Type.Optional(
          IdOf('a group', 'Only the direct members of this group (a groupId from listGroups).'),
        ),
        ...paging(50, 10_000),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      total: Type.Integer({ description: 'How many members match in all.' }),
      offset: Type.Integer(),
      members: Type.Array(MemberSummary),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['members'],
    async run({ query, groupId, limit, offset }, { client }) {
      const [members, inGroup] = await Promise.all([
        client.members.list(),
        groupId ? client.groups.members(groupId) : Promise.resolve(undefined),
      ]);
      const ids = inGroup ? new Set(inGroup.map((member) => member.memberid)) : undefined;
      const matches = matcher(query);
      const found = members.filter(
        (member) =>
          (!ids || ids.has(member.memberid)) &&
          matches([
            member.firstname,
            member.middlename,
            member.lastname,
            member.email,
            member.company,
            member.jobtitle,
          ]),
      );
      const { total, items } = page(found, limit, offset);
      return { structured: { total, offset: offset ?? 0, members: items.map(summary) } };
    },
  }),

  tool({
    name: 'getMember',
    title: 'Get a member',
    description:
      "Gives one member's details: name, e-mail, status, the group it is in (`groupId`), custom fields, " +
      'and every campaign it takes part in with its progress and, once completed, the `reportId` of its ' +
      'personal report.',
    input: Type.Object({ memberId: IdOf('the member') }, { additionalProperties: false }),
    output: Member,
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['members'],
    async run({ memberId }, { client }) {
      return { structured: await memberWithCampaigns(client, memberId) };
    },
  }),

  tool({
    name: 'createMember',
    title: 'Create a member',
    description:
      'Registers a new person (member) on the instance. `email`, `firstName` and `lastName` are required; ' +
      'the e-mail must not belong to another member (use findMembers first). Give `groupId` to put the ' +
      'member in a group at once. Gives the new member with its `memberId`.',
    input: Type.Object(
      {
        ...NewMember.properties,
        groupId: Type.Optional(IdOf('a group', 'Put the new member in this group.')),
      },
      { additionalProperties: false, required: ['email', 'firstName', 'lastName'] },
    ),
    output: Member,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scopes: ['members'],
    async run({ groupId, ...fields }, { client }) {
      if (groupId) await client.groups.get(groupId);
      const created = await client.members.create(toWire(fields) as MemberCreate);
      if (groupId) await client.groups.addMember(groupId, created.memberid);
      return { structured: await memberWithCampaigns(client, created.memberid) };
    },
  }),

  tool({
    name: 'updateMember',
    title: 'Update a member',
    description:
      "Changes some of a member's fields (name, e-mail, phone, company, job title, status, level, test " +
      'user); fields not given stay as they are. To change the group use moveMember instead.',
    input: Type.Object({ memberId: IdOf('the member'), ...writable }, { additionalProperties: false }),
    output: Member,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scopes: ['members'],
    async run({ memberId, ...fields }, { client }) {
      const patch = toWire(fields);
      if (Object.keys(patch).length === 0) {
        throw new ToolInputError('Nothing to change: give at least one field besides memberId.');
      }
      await client.members.update(memberId, patch as MemberPatch);
      return { structured: await memberWithCampaigns(client, memberId) };
    },
  }),

  tool({
    name: 'importMembers',
    title: 'Import members',
    description:
      'Registers many people at once (up to 10,000 a call). Each row needs `email`, `firstName` and ' +
      '`lastName`. Rows are checked one by one: good rows are saved, bad ones come back in `errors` with ' +
      'their row number (1 = the first row) and the reason. With `updateExisting`, a row whose e-mail ' +
      'is already a member updates that member instead of being refused. `groupId` puts every row in ' +
      'that group.',
    input: Type.Object(
      {
        members: Type.Array(NewMember, { minItems: 1, maxItems: 10_000 }),
        groupId: Type.Optional(IdOf('a group', 'Put every imported member in this group.')),
        updateExisting: Type.Optional(Type.Boolean({ default: false })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      created: Type.Array(IdOf('a created member')),
      updated: Type.Array(IdOf('an updated member')),
      errors: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() })),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    scopes: ['members'],
    async run({ members, groupId, updateExisting }, { client }) {
      const result = await client.members.import({
        members: members.map((row) => toWire(row) as MemberCreate),
        ...(groupId ? { groupid: groupId } : {}),
        ...(updateExisting ? { update: true } : {}),
      });
      return { structured: result };
    },
  }),
];
