import type { MemberReport, Report, ReportData, ReportShort } from '@assay/schema';
import { jsonObjectColumn } from '../db/json-columns.js';
import type { MemberReportRow, ReportDetailRow, ReportListRow } from './reports.repository.js';

const zeroOne = (value: number | boolean) => (value ? '1' : '0') as '0' | '1';

/**
 * A JSON column read through a small cache: a list of 100,000 personal reports holds a handful of
 * distinct configs and tags, so each distinct text is parsed once per list, not once per row.
 */
export class ColumnCache {
  private readonly objects = new Map<string, Record<string, unknown> | []>();
  private readonly arrays = new Map<string, string[]>();

  object(text: string): Record<string, unknown> | [] {
    let value = this.objects.get(text);
    if (value === undefined) {
      value = jsonObjectColumn(text);
      if (this.objects.size < 1000) this.objects.set(text, value);
    }
    return value;
  }

  array(text: string): string[] {
    let value = this.arrays.get(text);
    if (value === undefined) {
      value = tagsOf(text);
      if (this.arrays.size < 1000) this.arrays.set(text, value);
    }
    return value;
  }
}

export function tagsOf(text: string): string[] {
  if (text === '[]' || text === '') return [];
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}

/** A mapper for a list: the same cache serves every row of one answer. */
export function reportMapper(): (row: ReportListRow) => Report {
  const cache = new ColumnCache();
  return (row) => toReport(row, cache);
}

export function toReport(row: ReportListRow, cache = new ColumnCache()): Report {
  return {
    reportid: row.reportid,
    date: row.date,
    name: row.name,
    campaignid: row.campaignid,
    type: row.type as Report['type'],
    variant: row.variant,
    language: row.language,
    config: cache.object(row.config),
    lastopened: row.lastopened,
    status: 'active',
    tags: cache.array(row.tags),
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

export function toMemberReport(row: MemberReportRow, cache = new ColumnCache()): MemberReport {
  return {
    ...toReport(row, cache),
    // The spec's quirks of this shape: the row number as a string and the tags still JSON text.
    tags: JSON.stringify(cache.array(row.tags)),
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
    config: jsonObjectColumn(row.config),
    status: 'active' as const,
    tags: tagsOf(row.tags),
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
