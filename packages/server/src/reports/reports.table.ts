import type { Generated, Insertable, Selectable } from 'kysely';

export interface ReportTable {
  /** The internal row number: MemberReport's `id`. */
  seq: Generated<number>;
  id: string;
  type: string;
  /** Group reports only. */
  name: string | null;
  variant: string;
  language: string;
  campaign_id: string | null;
  /** The subject; null for a group report about no one in particular. */
  member_id: string | null;
  token: string;
  /** JSON: personal `{ extra, campaignparams }`, group the spec's config fields. */
  config: string;
  /** JSON: answers by question code (personal); `{}` for group reports. */
  raw: string;
  /** JSON: the scored sheet (personal) or the group's statistics (group types). */
  processed: string;
  /** JSON: `{ member: { basic, extras, xparam } }`. */
  extra: string;
  /** JSON array of strings. */
  tags: string;
  testcase: number;
  status: string;
  date: string;
  lastopened: string | null;
  created_by: string | null;
  created: string;
}
export type ReportRow = Selectable<ReportTable>;
export type NewReportRow = Insertable<ReportTable>;

export interface ReportSourceTable {
  report_id: string;
  source_id: string;
  /** The place in `selectedReports` (0, 1, ...); -1 for `selectedReportsMaster`. */
  position: number;
}

/** Why a free-text answer was left out of a group report (one entry of its `excludedVerbatims`). */
export interface ReportVerbatimReasonTable {
  report_id: string;
  /** `<reportid>:<code>`, or a bare `<reportid>` for every answer of that report. */
  entry: string;
  reason: string;
}
