import Type, { type Static } from 'typebox';
import { CoercedBoolean, DateTime, Extra, Id, NullableString, ObjectOrEmptyArray } from './common.js';

export const GROUP_TYPES = ['company', 'team', 'folder'] as const;

/** `config` of a group. */
export const GroupConfig = Type.Object(
  {
    // An empty object may come as [] (the spec's rule), here as anywhere.
    selfregistration: Type.Optional(
      ObjectOrEmptyArray(
        Type.Object(
          { signup: Type.Optional(CoercedBoolean), register: Type.Optional(CoercedBoolean) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type GroupConfig = Static<typeof GroupConfig>;

/** A group, in the list and the detail call alike. */
export const Group = Type.Object(
  {
    groupid: Id,
    alias: Type.String(),
    name: Type.String(),
    description: NullableString(),
    parentgroup: Type.String({ description: 'Parent groupid, or the literal `root`' }),
    type: NullableString(),
    status: Type.String(),
    config: ObjectOrEmptyArray(GroupConfig),
    created: DateTime,
    creator: NullableString({ description: 'User id' }),
    accesstype: Type.Union([Type.Literal('owner'), Type.Literal('editor')]),
    extra: ObjectOrEmptyArray(Extra),
    membercount: Type.Integer({ description: 'Direct members only' }),
  },
  { additionalProperties: false },
);
export type Group = Static<typeof Group>;

const GroupType = Type.Union([Type.Enum(GROUP_TYPES), Type.Null()]);
const Parent = Type.String({ pattern: '^(root|[0-9A-Za-z]{10})$', description: 'a groupid or root' });
const writable = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()])),
  parentgroup: Type.Optional(Parent),
  type: Type.Optional(GroupType),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
  config: Type.Optional(ObjectOrEmptyArray(GroupConfig)),
  extra: Type.Optional(ObjectOrEmptyArray(Extra)),
};

/** POST /groups: `name` and `alias` are required; `parentgroup` defaults to `root`. */
export const GroupCreate = Type.Object(
  {
    ...writable,
    name: Type.String({ minLength: 1, maxLength: 255 }),
    alias: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'letters, digits, _ and - only',
    }),
  },
  { additionalProperties: true },
);
export type GroupCreate = Static<typeof GroupCreate>;

/** PATCH /groups/{groupid}: any subset of the writable fields; `alias` is fixed at create. */
export const GroupPatch = Type.Object(writable, { additionalProperties: true });
export type GroupPatch = Static<typeof GroupPatch>;
