import Type, { type Static } from 'typebox';
import {
  CoercedBoolean,
  DateTime,
  Extra,
  Id,
  NullableString,
  ObjectOrEmptyArray,
  OneLine,
} from './common.js';

export const MEMBER_LEVELS = [
  'ceofounder',
  'ceofounderwithteam',
  'ceofounderalone',
  'teamleader',
  'employee',
  'guest',
] as const;

const Status = Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Null()]);
const Level = Type.Union([Type.Enum(MEMBER_LEVELS), Type.Null()]);
const Name = Type.String({ minLength: 1, maxLength: 255, ...OneLine });
const Email = Type.String({
  format: 'email',
  maxLength: 254,
  description:
    'unique regardless of case; refused with invisible, bidirectional-control or look-alike characters or mixed scripts; ' +
    'the domain is stored without a trailing dot and a Unicode domain as punycode',
});

/** A member in GET /members. */
export const MemberListItem = Type.Object(
  {
    memberid: Id,
    title: NullableString(),
    firstname: Type.String(),
    middlename: NullableString(),
    lastname: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    company: Type.String(),
    jobtitle: Type.String(),
    status: NullableString(),
    level: NullableString(),
    testuser: Type.Boolean(),
    group: NullableString({ description: 'Display name of the group, not its id' }),
  },
  { additionalProperties: false },
);
export type MemberListItem = Static<typeof MemberListItem>;

/** A member in GET /members/{memberid}: no phone, company, jobtitle or group. */
export const MemberDetail = Type.Object(
  {
    memberid: Id,
    title: NullableString(),
    firstname: Type.String(),
    middlename: NullableString(),
    lastname: Type.String(),
    email: Type.String(),
    status: NullableString(),
    level: NullableString(),
    groupid: Type.Union([Id, Type.Null()]),
    createdon: DateTime,
    testuser: Type.Boolean(),
    extra: ObjectOrEmptyArray(Extra),
    activeusersession: Type.Boolean(),
    useraccount: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type MemberDetail = Static<typeof MemberDetail>;

/** A member in GET /groups/{groupid}/members and GET /groups/nogroup/members. */
export const GroupMember = Type.Object(
  {
    memberid: Id,
    title: NullableString(),
    firstname: Type.String(),
    middlename: NullableString(),
    lastname: Type.String(),
    email: Type.String(),
    status: NullableString(),
    level: NullableString(),
    testuser: Type.Boolean(),
    extra: ObjectOrEmptyArray(Extra),
  },
  { additionalProperties: false },
);
export type GroupMember = Static<typeof GroupMember>;

/** A member in GET /groups/members: a GroupMember with the group it is in. */
export const GroupedMember = Type.Object(
  { ...GroupMember.properties, groupid: Id },
  { additionalProperties: false },
);
export type GroupedMember = Static<typeof GroupedMember>;

const writable = {
  title: Type.Optional(Type.Union([Type.String({ maxLength: 100, ...OneLine }), Type.Null()])),
  firstname: Type.Optional(Name),
  middlename: Type.Optional(Type.Union([Type.String({ maxLength: 255, ...OneLine }), Type.Null()])),
  lastname: Type.Optional(Name),
  email: Type.Optional(Email),
  phone: Type.Optional(Type.Union([Type.String({ maxLength: 64, ...OneLine }), Type.Null()])),
  company: Type.Optional(Type.Union([Type.String({ maxLength: 255, ...OneLine }), Type.Null()])),
  jobtitle: Type.Optional(Type.Union([Type.String({ maxLength: 255, ...OneLine }), Type.Null()])),
  status: Type.Optional(Status),
  level: Type.Optional(Level),
  testuser: Type.Optional(CoercedBoolean),
  extra: Type.Optional(ObjectOrEmptyArray(Extra)),
};

/** POST /members: `email`, `firstname` and `lastname` are required. Unknown fields are ignored. */
export const MemberCreate = Type.Object(
  { ...writable, email: Email, firstname: Name, lastname: Name },
  { additionalProperties: true },
);
export type MemberCreate = Static<typeof MemberCreate>;

/**
 * A row of POST /members/import with `update`: the e-mail finds the member, the other fields given
 * change it. A row whose e-mail is new must be a whole MemberCreate.
 */
export const MemberImportUpdateRow = Type.Object(
  { ...writable, email: Email },
  { additionalProperties: true },
);
export type MemberImportUpdateRow = Static<typeof MemberImportUpdateRow>;

/** PATCH /members/{memberid}: any subset; `group` and `groupid` are refused with `Access denied`. */
export const MemberPatch = Type.Object(
  {
    ...writable,
    group: Type.Optional(Type.Unknown({ description: 'Refused: answers ERROR `Access denied`' })),
    groupid: Type.Optional(Type.Unknown({ description: 'Refused: answers ERROR `Access denied`' })),
  },
  { additionalProperties: true },
);
export type MemberPatch = Static<typeof MemberPatch>;

/** POST /members/import as JSON (a CSV body with a header row of field names is accepted too). */
export const MemberImport = Type.Object({
  members: Type.Array(Type.Unknown(), { description: 'MemberWrite objects; each row is checked on its own' }),
  groupid: Type.Optional(Id),
  update: Type.Optional(CoercedBoolean),
});
export type MemberImport = Static<typeof MemberImport>;

/** The query of POST /members/import with a CSV body, which has no room for these fields. */
export const MemberImportQuery = Type.Object({
  groupid: Type.Optional(Id),
  update: Type.Optional(CoercedBoolean),
});
export type MemberImportQuery = Static<typeof MemberImportQuery>;

/** The answer of POST /members/import: valid rows are kept, failed rows reported. */
export const MemberImportResult = Type.Object(
  {
    created: Type.Array(Id),
    updated: Type.Array(Id),
    errors: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() })),
  },
  { additionalProperties: false },
);
export type MemberImportResult = Static<typeof MemberImportResult>;

/** The member fields a write may carry, in the order a CSV header may name them. */
export const MEMBER_WRITE_FIELDS = Object.keys(writable) as (keyof typeof writable)[];
