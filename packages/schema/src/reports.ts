import Type, { type Static } from 'typebox';
import { DateTime, Id, NullableString, ObjectOrEmptyArray } from './common.js';

export const REPORT_TYPES = ['personal', 'group', 'groupanon', 'condensed', 'complete'] as const;
/** The group types that POST /reports makes. */
export const GROUP_REPORT_TYPES = ['group', 'groupanon', 'condensed', 'complete'] as const;

const ZeroOne = Type.Union([Type.Literal('0'), Type.Literal('1')], { description: '"0" or "1"' });

/** Personal `{ extra, campaignparams }`; group the config fields of POST /reports. `[]` when empty. */
const ReportConfig = ObjectOrEmptyArray(Type.Record(Type.String(), Type.Unknown()));

/** The joined fields of the report's subject (null on a group report about no one). */
const subject = {
  memberid: Type.Union([Id, Type.Null()], { description: 'Subject of the report' }),
  title: NullableString(),
  firstname: NullableString(),
  middlename: NullableString(),
  lastname: NullableString(),
  email: NullableString(),
};

const reportCore = {
  reportid: Id,
  date: DateTime,
  name: NullableString({ description: 'Set only for group reports' }),
  campaignid: Type.Union([Id, Type.Null()]),
  type: Type.Enum(REPORT_TYPES),
  variant: Type.String(),
  language: Type.String(),
  config: ReportConfig,
  lastopened: Type.Union([DateTime, Type.Null()]),
  status: Type.Literal('active'),
  testcase: ZeroOne,
  ...subject,
  memberstatus: NullableString(),
};

/** GET /reports, /campaigns/{id}/reports, /groups/{id}/reports, /reports/{id}/usage. */
export const Report = Type.Object(
  { ...reportCore, tags: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export type Report = Static<typeof Report>;

/** GET /members/{id}/reports: the core fields plus the row number; `tags` JSON-encoded. */
export const MemberReport = Type.Object(
  {
    ...reportCore,
    tags: Type.String({ description: 'a JSON-encoded array' }),
    id: Type.String({ pattern: '^[0-9]+$', description: 'the internal row id, a numeric string' }),
    token: Type.String(),
    groupid: Type.Union([Id, Type.Null()]),
    campaignalias: NullableString(),
    campaignname: NullableString(),
  },
  { additionalProperties: false },
);
export type MemberReport = Static<typeof MemberReport>;

const shortFields = {
  reportid: Id,
  type: reportCore.type,
  name: reportCore.name,
  variant: Type.String(),
  language: Type.String(),
  memberid: subject.memberid,
  firstname: subject.firstname,
  middlename: subject.middlename,
  lastname: subject.lastname,
  title: subject.title,
  testcase: ZeroOne,
  groupid: Type.Union([Id, Type.Null()]),
  groupname: NullableString(),
  accesstoken: Type.String({ description: 'opens the report at {questionnaire_url}/r/<accesstoken>' }),
  campaignid: reportCore.campaignid,
  config: ReportConfig,
  status: Type.Literal('active'),
  tags: Type.Array(Type.String()),
};

/** GET /reports/{id}/short. */
export const ReportShort = Type.Object(
  { ...shortFields, campaignname: NullableString(), date: DateTime },
  { additionalProperties: false },
);
export type ReportShort = Static<typeof ReportShort>;

/** GET /reports/{id}/data: ReportShort without campaignname and date, with the answers. */
export const ReportData = Type.Object(
  {
    ...shortFields,
    token: Type.String(),
    thedate: DateTime,
    alias: NullableString({ description: "the campaign's alias" }),
    raw: Type.String({ description: 'JSON-encoded answers by question code' }),
    processed: Type.String({ description: 'JSON-encoded scored sheet' }),
    extra: Type.String({ description: 'JSON-encoded `{ member: { basic, extras, xparam } }`' }),
  },
  { additionalProperties: false },
);
export type ReportData = Static<typeof ReportData>;

/** GET /reports/counts and /groups/{id}/reports/counts: count strings by variant and type. */
export const ReportCounts = Type.Record(Type.String(), Type.Record(Type.String(), Type.String()));

const Selection = Type.Union(
  [Type.String({ maxLength: 100_000 }), Type.Array(Type.String(), { maxItems: 10_000 })],
  {
    description: 'report ids, comma-separated (an array is accepted too)',
  },
);

/** POST /reports: a group-type report from the spec's config fields. */
export const ReportCreate = Type.Object({
  reportType: Type.Optional(Type.String({ description: `one of ${GROUP_REPORT_TYPES.join(', ')}` })),
  type: Type.Optional(Type.String({ description: 'the same as reportType' })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  variant: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  selectedReports: Type.Optional(Selection),
  selectedReportsMaster: Type.Optional(Type.String({ maxLength: 100 })),
  selectedMember: Type.Optional(Type.String({ maxLength: 100 })),
  excludedVerbatims: Type.Optional(Selection),
  campaignid: Type.Optional(Type.String({ maxLength: 100 })),
});
export type ReportCreate = Static<typeof ReportCreate>;

/** PATCH /reports/{id}: what may change (docs/reports.md). */
export const ReportPatch = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  language: Type.Optional(Type.String()),
  tags: Type.Optional(
    ObjectOrEmptyArray(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
  ),
  testcase: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('0'), Type.Literal('1'), Type.Literal(0), Type.Literal(1)]),
  ),
});
export type ReportPatch = Static<typeof ReportPatch>;

/** One row of POST /reports/import/{variant}. */
export const ReportImportRow = Type.Object({
  memberid: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  answers: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])),
  campaignid: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
  role: Type.Optional(Type.String()),
});
export type ReportImportRow = Static<typeof ReportImportRow>;

export const ReportImport = Type.Object({
  reports: Type.Array(Type.Unknown(), {
    description: 'rows: memberid or email, answers, campaignid?, language?, date?, role?',
  }),
});

export const ReportImportResult = Type.Object(
  {
    created: Type.Array(Id),
    errors: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() })),
  },
  { additionalProperties: false },
);
export type ReportImportResult = Static<typeof ReportImportResult>;

/** GET /reports/verbatims: one free-text answer. */
export const Verbatim = Type.Object(
  { reportid: Id, code: Type.String(), question: Type.String(), answer: Type.String() },
  { additionalProperties: false },
);

/** GET /reports/search/{term}. */
export const ReportSearchResult = Type.Object(
  {
    campaigns: Type.Array(
      Type.Object({ campaignid: Id, alias: Type.String(), name: Type.String(), variant: Type.String() }),
    ),
    members: Type.Array(
      Type.Object({
        memberid: Id,
        firstname: Type.String(),
        middlename: NullableString(),
        lastname: Type.String(),
        email: Type.String(),
      }),
    ),
    groups: Type.Array(Type.Object({ groupid: Id, alias: Type.String(), name: Type.String() })),
  },
  { additionalProperties: false },
);

/** POST /reports/summary. */
export const SummaryRequest = Type.Object({
  variant: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  selectedReports: Type.Optional(Selection),
});

const Statistic = {
  n: Type.Integer(),
  mean: Type.Union([Type.Number(), Type.Null()]),
  sd: Type.Union([Type.Number(), Type.Null()]),
  distribution: Type.Record(Type.String(), Type.Integer()),
};

export const SummaryResult = Type.Object({
  variant: Type.String(),
  language: Type.String(),
  n: Type.Integer({ description: 'reports summarised' }),
  dimensions: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      parent: Type.Union([Type.String(), Type.Null()], { description: 'the dimension of a facet' }),
      ...Statistic,
    }),
  ),
  questions: Type.Array(
    Type.Object({
      code: Type.String(),
      question: Type.String(),
      dimension: Type.Union([Type.String(), Type.Null()]),
      ...Statistic,
    }),
  ),
});

export type SummaryResult = Static<typeof SummaryResult>;

/** GET /reports/summary/{variant}: what a summary of this variant holds. */
export const SummaryDefinition = Type.Object({
  variant: Type.String(),
  name: Type.String(),
  languages: Type.Array(Type.String()),
  statistics: Type.Array(Type.String()),
  scale: Type.Object({ min: Type.Number(), max: Type.Number(), description: Type.String() }),
  bands: Type.Array(
    Type.Object({ code: Type.String(), name: Type.String(), min: Type.Number(), max: Type.Number() }),
  ),
  dimensions: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      parent: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  questions: Type.Array(
    Type.Object({
      code: Type.String(),
      type: Type.String(),
      question: Type.String(),
      dimension: Type.Union([Type.String(), Type.Null()]),
      points: Type.Array(Type.Union([Type.Number(), Type.String()])),
    }),
  ),
});

/** GET /samples: one sample report per variant and language. */
export const Sample = Type.Object(
  {
    variant: Type.String(),
    language: Type.String(),
    type: Type.Literal('personal'),
    name: Type.String({ description: "the variant's name in that language" }),
    url: Type.String({ description: 'the PDF, behind the samples scope' }),
  },
  { additionalProperties: false },
);
