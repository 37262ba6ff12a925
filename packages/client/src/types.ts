/**
 * The client's types, all taken from `@assay/schema` (types only: nothing of it is imported at run
 * time). Request bodies are the schema's own shapes; results are the schema's shapes after the
 * client's tolerant reading (see `Normalised`), so every result is assignable to the schema type.
 */
import type * as S from '@assay/schema';
import type { Static } from 'typebox';

/**
 * A wire shape as the client returns it: every field that the schema types as "an object, or `[]`
 * when empty" (`config`, `extra`, `mailconfig`, `custommailsubject`, `selfregistration`, ...) is
 * narrowed to the object, because the client turns such an empty `[]` into `{}`. The exception is a
 * campaign member's `results`, which stays `[]` while there is no report (`{}` is not a valid
 * `{ status, reportid }`). A `Normalised<T>` is assignable to `T`.
 */
export type Normalised<T> = T extends readonly (infer U)[]
  ? Normalised<U>[]
  : T extends object
    ? { [K in keyof T]: K extends 'results' ? T[K] : Field<T[K]> }
    : T;

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
/** The `[]` alternative of an "object or empty array" union (an array of `unknown`). */
type DropEmptyArray<V> = V extends readonly unknown[] ? (unknown extends V[number] ? never : V) : V;
type HasObject<V> = [Exclude<V, readonly unknown[] | Primitive>] extends [never] ? false : true;
type Field<V> = HasObject<V> extends true ? Normalised<DropEmptyArray<V>> : Normalised<V>;

/** The families of the API; each is an OAuth scope. */
export type Scope = S.Scope;

/** The enumerations of the schema, by name. */
export type ReportType = (typeof S.REPORT_TYPES)[number];
export type MemberLevel = (typeof S.MEMBER_LEVELS)[number];
export type GroupType = (typeof S.GROUP_TYPES)[number];

// Members
export type MemberListItem = Normalised<Static<typeof S.MemberListItem>>;
export type MemberDetail = Normalised<Static<typeof S.MemberDetail>>;
export type GroupMember = Normalised<Static<typeof S.GroupMember>>;
export type GroupedMember = Normalised<Static<typeof S.GroupedMember>>;
export type MemberCreate = Static<typeof S.MemberCreate>;
/** PATCH /members/{id}: a `group` or `groupid` is always refused, so the client does not take one. */
export type MemberPatch = Omit<Static<typeof S.MemberPatch>, 'group' | 'groupid'>;
/** A row of an import with `update`: the e-mail finds the member, the fields given change it. */
export type MemberImportUpdateRow = Static<typeof S.MemberImportUpdateRow>;
/** POST /members/import as JSON. */
export type MemberImport = Omit<Static<typeof S.MemberImport>, 'members'> & {
  members: (MemberCreate | MemberImportUpdateRow)[];
};
export type MemberImportResult = Static<typeof S.MemberImportResult>;
export type MemberCampaign = Normalised<Static<typeof S.MemberCampaign>>;

// Groups
export type Group = Normalised<Static<typeof S.Group>>;
export type GroupConfig = Normalised<Static<typeof S.GroupConfig>>;
export type GroupCreate = Static<typeof S.GroupCreate>;
export type GroupPatch = Static<typeof S.GroupPatch>;

// Campaigns
export type CampaignListItem = Normalised<Static<typeof S.CampaignListItem>>;
export type CampaignDetail = Normalised<Static<typeof S.CampaignDetail>>;
export type CampaignConfig = Normalised<Static<typeof S.CampaignConfig>>;
export type CampaignCreate = Static<typeof S.CampaignCreate>;
export type CampaignPatch = Static<typeof S.CampaignPatch>;
export type CampaignMemberListItem = Normalised<Static<typeof S.CampaignMemberListItem>>;
export type CampaignMember = Normalised<Static<typeof S.CampaignMember>>;
export type CampaignMemberPatch = Static<typeof S.CampaignMemberPatch>;
export type CampaignMembersAdd = Static<typeof S.CampaignMembersAdd>;
export type CampaignMembersAdded = Static<typeof S.CampaignMembersAdded>;
export type CampaignMailRequest = Static<typeof S.CampaignMailRequest>;
export type MailConfig = Static<typeof S.MailConfig>;
export type Offset = Static<typeof S.Offset>;

// Reports
export type Report = Normalised<Static<typeof S.Report>>;
export type MemberReport = Normalised<Static<typeof S.MemberReport>>;
export type ReportShort = Normalised<Static<typeof S.ReportShort>>;
export type ReportData = Normalised<Static<typeof S.ReportData>>;
export type ReportCounts = Static<typeof S.ReportCounts>;
export type ReportCreate = Static<typeof S.ReportCreate>;
export type ReportPatch = Static<typeof S.ReportPatch>;
export type ReportImportRow = Static<typeof S.ReportImportRow>;
/** POST /reports/import/{variant} as JSON: `{ reports: [...] }`. */
export type ReportImport = { reports: ReportImportRow[] };
export type ReportImportResult = Static<typeof S.ReportImportResult>;
export type ReportSearchResult = Static<typeof S.ReportSearchResult>;
export type Verbatim = Static<typeof S.Verbatim>;
export type SummaryRequest = Static<typeof S.SummaryRequest>;
export type SummaryResult = Static<typeof S.SummaryResult>;
export type SummaryDefinition = Static<typeof S.SummaryDefinition>;
export type Sample = Static<typeof S.Sample>;

// Settings
export type ClientConfig = Static<typeof S.ClientConfig>;
export type ClientConfigShort = Static<typeof S.ClientConfigShort>;
export type ReportVariant = Normalised<Static<typeof S.ReportVariant>>;
export type Datastructure = Static<typeof S.Datastructure>;
export type TextKeys = Static<typeof S.TextKeys>;
export type Texts = Static<typeof S.Texts>;

// Auth
export type TokenData = Static<typeof S.TokenData>;

// Webhooks
export type Webhook = Static<typeof S.Webhook>;
export type WebhookWithSecret = Static<typeof S.WebhookWithSecret>;
export type WebhookCreate = Static<typeof S.WebhookCreate>;
export type WebhookPatch = Static<typeof S.WebhookPatch>;
export type WebhookDelivery = Static<typeof S.WebhookDelivery>;
export type WebhookTestResult = Static<typeof S.WebhookTestResult>;

// Audit
export type AuditEntry = Static<typeof S.AuditEntry>;
export type AuditQuery = Static<typeof S.AuditQuery>;
