import Type, { type Static } from 'typebox';
import {
  CoercedBoolean,
  DateTime,
  Extra,
  Id,
  Lines,
  NullableString,
  ObjectOrEmptyArray,
  OneLine,
} from './common.js';

/** The campaign mail stages: the keys of `mailconfig` and of `config.custommailsubject`. */
export const MAIL_STAGES = [
  'campaign_invitation',
  'campaign_reminder',
  'confirmation_admin',
  'confirmation_member',
  'closing_notification',
  'campaign_reportdelivery',
] as const;
export const CLOSING_TYPES = ['date', 'auto', 'open'] as const;
export const AUTOINVITE = ['none', 'fixed', 'instant'] as const;
export const CAMPAIGN_STATUSES = ['active', 'inactive', 'ended'] as const;
export const CAMPAIGN_MEMBER_STATUSES = ['new', 'invited', 'started', 'completed'] as const;

const stageKeys = (value: ReturnType<typeof Type.String>) =>
  Type.Object(Object.fromEntries(MAIL_STAGES.map((stage) => [stage, Type.Optional(value)])), {
    additionalProperties: false,
  });

/** A template identifier per mail stage (opaque). `[]` means the instance defaults. */
export const MailConfig = stageKeys(Type.String({ minLength: 1, maxLength: 100 }));
export type MailConfig = Static<typeof MailConfig>;

/** What a write may carry as a `mailconfig`: the keys are checked against the stages by the server. */
export const MailConfigWrite = Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 100 }), {
  description: `a template identifier per mail stage: ${MAIL_STAGES.join(', ')}`,
});
const SubjectsWrite = Type.Record(Type.String(), Type.String({ maxLength: 255, ...OneLine }), {
  description: `a subject per mail stage: ${MAIL_STAGES.join(', ')}`,
});

const offset = (minimum: number) =>
  Type.Object(
    {
      amount: Type.Integer({ minimum, maximum: 3650 }),
      unit: Type.Union([Type.Literal('day'), Type.Literal('week')]),
    },
    { additionalProperties: false },
  );

/** `inviteoffset` and `reminderoffset`: `{ amount, unit }`. */
export const Offset = offset(0);
export type Offset = Static<typeof Offset>;
/** A reminder waits at least one day. */
const ReminderOffset = offset(1);

/** The spec's CampaignConfig. */
export const CampaignConfig = Type.Object(
  {
    selfregistration: Type.Optional(
      ObjectOrEmptyArray(
        Type.Object(
          {
            signup: Type.Optional(CoercedBoolean),
            register: Type.Optional(CoercedBoolean),
            group: Type.Optional(
              Type.String({ pattern: '^(root|[0-9A-Za-z]{10})?$', description: 'a groupid, root or empty' }),
            ),
            skipvalidation: Type.Optional(CoercedBoolean),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    minparticipants: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    maxparticipants: Type.Optional(
      Type.Integer({ minimum: -1, maximum: 1_000_000, description: '-1 means unlimited' }),
    ),
    selfadmin: Type.Optional(
      ObjectOrEmptyArray(
        Type.Object(
          { addmembers: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })) },
          { additionalProperties: false },
        ),
      ),
    ),
    custommailsubject: Type.Optional(
      ObjectOrEmptyArray(stageKeys(Type.String({ maxLength: 255, ...OneLine }))),
    ),
  },
  { additionalProperties: false },
);
export type CampaignConfig = Static<typeof CampaignConfig>;

/** The config a write may carry: as CampaignConfig, its subjects keyed by any name (checked by the server). */
export const CampaignConfigWrite = Type.Object(
  { ...CampaignConfig.properties, custommailsubject: Type.Optional(ObjectOrEmptyArray(SubjectsWrite)) },
  { additionalProperties: false },
);

const MemberStatusCount = Type.Object(
  {
    new: Type.Integer(),
    invited: Type.Integer(),
    started: Type.Integer(),
    completed: Type.Integer(),
    specialtotal: Type.Integer({ description: 'campaign members that are test users' }),
    specialcompleted: Type.Integer({ description: 'campaign members that are test users and completed' }),
  },
  { additionalProperties: false },
);

const campaignFields = {
  campaignid: Id,
  alias: Type.String(),
  name: Type.String(),
  description: Type.String(),
  start: DateTime,
  end: Type.Union([DateTime, Type.Null()]),
  admins: Type.Array(Type.Union([Type.String(), Type.Null()]), { description: 'member ids' }),
  variant: Type.String(),
  language: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('ended')]),
  created: DateTime,
  mailconfig: ObjectOrEmptyArray(MailConfig),
  config: ObjectOrEmptyArray(CampaignConfig),
  closingtype: Type.Union([
    Type.Union([Type.Literal('date'), Type.Literal('auto'), Type.Literal('open')]),
    Type.Null(),
  ]),
  autoinvite: Type.Union([Type.Literal('none'), Type.Literal('fixed'), Type.Literal('instant')]),
  inviteoffset: Type.Union([Offset, Type.Null()]),
  autoreminder: Type.Boolean(),
  reminderoffset: Type.Union([Offset, Type.Null()]),
  reminderrepeat: Type.Union([Type.Integer(), Type.Null()]),
  sendmemberconfirmation: Type.Boolean(),
  sendreportdelivery: Type.Boolean(),
  autogenerated: Type.Boolean(),
  membercount: Type.Integer(),
  productid: NullableString(),
  memberstatuscount: MemberStatusCount,
  accesstype: Type.Union([Type.Literal('owner'), Type.Literal('editor')]),
};

/** A campaign in GET /campaigns. */
export const CampaignListItem = Type.Object(
  { ...campaignFields, batchrelation: Type.Unknown(), campaigngroupid: NullableString() },
  { additionalProperties: false },
);
export type CampaignListItem = Static<typeof CampaignListItem>;

/** One entry of a campaign's `access`. */
export const CampaignAccess = Type.Object(
  {
    id: Type.String(),
    campaignid: Id,
    userid: Type.String(),
    type: Type.Union([Type.Literal('owner'), Type.Literal('editor')]),
    created: DateTime,
    firstname: Type.String(),
    lastname: Type.String(),
    email: Type.String(),
    agencyname: Type.String(),
    agencyfooter: Type.String(),
  },
  { additionalProperties: false },
);
export type CampaignAccess = Static<typeof CampaignAccess>;

/** A participant role of the campaign's variant. */
export const ExtraParam = Type.Object(
  {
    label: Type.String(),
    value: Type.String({ description: 'a query string: role=<role>' }),
    mandatory: Type.Boolean(),
    canaddparticipants: Type.Boolean(),
    showintitle: Type.Boolean(),
    hideinwizard: Type.Boolean(),
    mailconfig: ObjectOrEmptyArray(MailConfig),
  },
  { additionalProperties: false },
);

/** GET /campaigns/{campaignid}, and the answer of POST and PATCH. */
export const CampaignDetail = Type.Object(
  {
    ...campaignFields,
    creator: Type.String({ description: 'user id' }),
    creatordetails: Type.Object(
      { firstname: Type.String(), lastname: Type.String(), email: Type.String(), color: Type.String() },
      { additionalProperties: false },
    ),
    extraParams: Type.Array(ExtraParam),
    access: Type.Object(
      { owner: Type.Array(CampaignAccess), share: Type.Array(CampaignAccess) },
      { additionalProperties: false },
    ),
    relations: Type.Array(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type CampaignDetail = Static<typeof CampaignDetail>;

const Alias = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'letters, digits, _ and - only',
});
const writable = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, ...OneLine })),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 4000, ...Lines }), Type.Null()])),
  start: Type.Optional(DateTime),
  end: Type.Optional(Type.Union([DateTime, Type.Null()])),
  admins: Type.Optional(Type.Array(Type.Union([Id, Type.Null()]), { maxItems: 1000 })),
  mailconfig: Type.Optional(Type.Union([ObjectOrEmptyArray(MailConfigWrite), Type.Null()])),
  config: Type.Optional(Type.Union([ObjectOrEmptyArray(CampaignConfigWrite), Type.Null()])),
  closingtype: Type.Optional(
    Type.Union([Type.Union([Type.Literal('date'), Type.Literal('auto'), Type.Literal('open')]), Type.Null()]),
  ),
  autoinvite: Type.Optional(
    Type.Union([Type.Literal('none'), Type.Literal('fixed'), Type.Literal('instant')]),
  ),
  inviteoffset: Type.Optional(Type.Union([Offset, Type.Null()])),
  autoreminder: Type.Optional(CoercedBoolean),
  reminderoffset: Type.Optional(Type.Union([ReminderOffset, Type.Null()])),
  reminderrepeat: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()])),
  sendmemberconfirmation: Type.Optional(CoercedBoolean),
  sendreportdelivery: Type.Optional(CoercedBoolean),
};

/** POST /campaigns: `name`, `variant` and `start` are required; the alias is generated when left out. */
export const CampaignCreate = Type.Object(
  {
    ...writable,
    name: Type.String({ minLength: 1, maxLength: 255, ...OneLine }),
    variant: Type.String({ minLength: 1, maxLength: 64 }),
    language: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
    start: DateTime,
    alias: Type.Optional(Alias),
  },
  { additionalProperties: true },
);
export type CampaignCreate = Static<typeof CampaignCreate>;

/** PATCH /campaigns/{campaignid}: any subset; `variant` and `language` are fixed at create. */
export const CampaignPatch = Type.Object(
  {
    ...writable,
    alias: Type.Optional(Alias),
    variant: Type.Optional(Type.Unknown()),
    language: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
export type CampaignPatch = Static<typeof CampaignPatch>;

const campaignMemberFields = {
  token: Type.String({ description: 'participation token; also the report access token' }),
  memberid: Id,
  title: Type.String(),
  firstname: Type.String(),
  middlename: Type.String(),
  lastname: Type.String(),
  email: Type.String(),
  status: Type.Union([
    Type.Literal('new'),
    Type.Literal('invited'),
    Type.Literal('started'),
    Type.Literal('completed'),
  ]),
  testuser: Type.Union([Type.Literal('0'), Type.Literal('1')]),
  memberstatus: Type.String(),
  created: DateTime,
  dateinvited: Type.Union([DateTime, Type.Null()]),
  datestarted: Type.Union([DateTime, Type.Null()]),
  datecompleted: Type.Union([DateTime, Type.Null()]),
  datereminded: Type.Union([DateTime, Type.Null()]),
  countreminded: Type.Union([Type.String({ pattern: '^\\d+$' }), Type.Null()]),
  extra: Type.Union([Extra, Type.Null()]),
  tags: Type.Array(Type.String()),
  results: ObjectOrEmptyArray(
    Type.Object({ status: Type.String(), reportid: NullableString() }, { additionalProperties: false }),
  ),
  mailconfig: Type.Union([ObjectOrEmptyArray(MailConfig), Type.Null()]),
  sessionurl: Type.String(),
};

/** A member of a campaign in GET /campaigns/{campaignid}/members. */
export const CampaignMemberListItem = Type.Object(
  {
    ...campaignMemberFields,
    groupalias: Type.String({ description: 'empty when the member is in no group' }),
    groupname: Type.String({ description: 'empty when the member is in no group' }),
    memberextra: Type.Array(
      Type.Object(
        { name: Type.String(), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) },
        { additionalProperties: false },
      ),
      { description: "the member record's custom fields, as name and value" },
    ),
  },
  { additionalProperties: false },
);
export type CampaignMemberListItem = Static<typeof CampaignMemberListItem>;

/** One member of a campaign (GET, PATCH): `group` holds the group's name. */
export const CampaignMember = Type.Object(
  { ...campaignMemberFields, group: Type.String({ description: "the group's name; empty when none" }) },
  { additionalProperties: false },
);
export type CampaignMember = Static<typeof CampaignMember>;

/** POST /campaigns/{campaignid}/members: ids, and/or a group (with its sub-groups when asked). */
export const CampaignMembersAdd = Type.Object(
  {
    memberids: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100_000 })),
    groupid: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{10}$', description: 'a groupid' })),
    subgroups: Type.Optional(CoercedBoolean),
  },
  { additionalProperties: true },
);
export type CampaignMembersAdd = Static<typeof CampaignMembersAdd>;

export const CampaignMembersAdded = Type.Object(
  {
    added: Type.Array(Id),
    skipped: Type.Array(
      Type.Object({ memberid: Type.String(), reason: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type CampaignMembersAdded = Static<typeof CampaignMembersAdded>;

/** PATCH /campaigns/{campaignid}/members/{memberid}. */
export const CampaignMemberPatch = Type.Object(
  {
    extra: Type.Optional(Type.Union([ObjectOrEmptyArray(Extra), Type.Null()])),
    tags: Type.Optional(
      Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }), Type.Null()]),
    ),
    mailconfig: Type.Optional(Type.Union([ObjectOrEmptyArray(MailConfigWrite), Type.Null()])),
    testuser: Type.Optional(CoercedBoolean),
  },
  { additionalProperties: true },
);
export type CampaignMemberPatch = Static<typeof CampaignMemberPatch>;

/** The optional body of invite and remind. */
export const CampaignMailRequest = Type.Object(
  {
    memberids: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100_000 })),
    dryrun: Type.Optional(CoercedBoolean),
  },
  { additionalProperties: true },
);
export type CampaignMailRequest = Static<typeof CampaignMailRequest>;

/** GET /members/{memberid}/campaigns: the member's campaign memberships. */
export const MemberCampaign = Type.Object(
  {
    campaignid: Id,
    alias: Type.String(),
    name: Type.String(),
    variant: Type.String(),
    language: Type.String(),
    campaignstatus: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('ended')]),
    status: Type.Union([
      Type.Literal('new'),
      Type.Literal('invited'),
      Type.Literal('started'),
      Type.Literal('completed'),
    ]),
    token: Type.String(),
    dateinvited: Type.Union([DateTime, Type.Null()]),
    datestarted: Type.Union([DateTime, Type.Null()]),
    datecompleted: Type.Union([DateTime, Type.Null()]),
    reportid: NullableString(),
  },
  { additionalProperties: false },
);
export type MemberCampaign = Static<typeof MemberCampaign>;

/** The formats of GET /campaigns/{campaignid}/export. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
/** The parts of a CSV export (an Excel file holds both, as two sheets). */
export const EXPORT_PARTS = ['members', 'verbatims'] as const;

/** GET /campaigns/{campaignid}/export: the file's format and, in CSV, which part. */
export const CampaignExportQuery = Type.Object({
  format: Type.Union(
    EXPORT_FORMATS.map((format) => Type.Literal(format)),
    { description: 'csv (UTF-8 with BOM, RFC 4180) or xlsx (a Members and a Verbatims sheet)' },
  ),
  part: Type.Optional(
    Type.Union(
      EXPORT_PARTS.map((part) => Type.Literal(part)),
      { description: 'CSV only: members (the default, one row per member) or verbatims (free-text answers)' },
    ),
  ),
});
export type CampaignExportQuery = Static<typeof CampaignExportQuery>;
