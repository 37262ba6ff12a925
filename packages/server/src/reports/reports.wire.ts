import type { MemberReport, Report, ReportData, ReportShort } from '@assay/schema';
import {
  type MemberReportRow,
  parseReportConfig,
  parseTags,
  ReportColumnCache,
  type ReportDetailRow,
  type ReportListRow,
} from './reports.repository.js';

const zeroOne = (value: number | boolean) => (value ? '1' : '0') as '0' | '1';

/** A mapper for a list: the same cache serves every row of one answer. */
export function reportMapper(): (row: ReportListRow) => Report {
  const cache = new ReportColumnCache();
  return (row) => toReport(row, cache);
}

export function toReport(row: ReportListRow, cache = new ReportColumnCache()): Report {
  return {
    reportid: row.reportid,
    date: row.date,
    name: row.name,
    campaignid: row.campaignid,
    type: row.type as Report['type'],
    variant: row.variant,
    language: row.language,
    config: cache.config(row.config),
    lastopened: row.lastopened,
    status: 'active',
    tags: cache.tags(row.tags),
    testcase: zeroOne(row.testcase),
    memberid: row.memberid,
    title: row.title,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    email: row.email,
    memberstatus: row.memberstatus,
  };
}

export function toMemberReport(row: MemberReportRow, cache = new ReportColumnCache()): MemberReport {
  return {
    ...toReport(row, cache),
    // The spec's quirks of this shape: the row number as a string and the tags still JSON text.
    tags: JSON.stringify(cache.tags(row.tags)),
    id: String(row.id),
    token: row.token,
    groupid: row.groupid,
    campaignalias: row.campaignalias,
    campaignname: row.campaignname,
  };
}

function shortFields(row: ReportDetailRow) {
  return {
    reportid: row.id,
    type: row.type as Report['type'],
    name: row.name,
    variant: row.variant,
    language: row.language,
    memberid: row.member_id,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    title: row.title,
    testcase: zeroOne(row.testcase),
    groupid: row.groupid,
    groupname: row.groupname,
    accesstoken: row.token,
    campaignid: row.campaign_id,
    config: parseReportConfig(row.config),
    status: 'active' as const,
    tags: parseTags(row.tags),
  };
}

export function toReportShort(row: ReportDetailRow): ReportShort {
  return { ...shortFields(row), campaignname: row.campaignname, date: row.date };
}

export function toReportData(row: ReportDetailRow): ReportData {
  return {
    ...shortFields(row),
    token: row.token,
    thedate: row.date,
    alias: row.campaignalias,
    raw: row.raw,
    processed: row.processed,
    extra: row.extra,
  };
}
