import { list, one, report, reportCounts, reportData, reportShort } from '../normalise.js';
import { type PdfFile, pdfFile } from '../pdf.js';
import type { Transport } from '../transport.js';
import type {
  Report,
  ReportCounts,
  ReportCreate,
  ReportData,
  ReportImport,
  ReportImportResult,
  ReportPatch,
  ReportSearchResult,
  ReportShort,
  SummaryDefinition,
  SummaryRequest,
  SummaryResult,
  Verbatim,
} from '../types.js';
import { nothing, seg } from './shared.js';

/** The reports family (scope `reports`). */
export class Reports {
  constructor(private readonly http: Transport) {}

  /** GET /reports: every report. */
  list(): Promise<Report[]> {
    return this.http.call('GET', '/reports', list(report));
  }

  /**
   * POST /reports: a group, groupanon, condensed or complete report from personal reports of one
   * variant (`selectedReports` comma-separated, or an array).
   */
  create(body: ReportCreate): Promise<Report> {
    return this.http.call('POST', '/reports', one(report), { body: { json: body } });
  }

  /** GET /reports/counts: count strings by variant and report type. */
  counts(): Promise<ReportCounts> {
    return this.http.call('GET', '/reports/counts', reportCounts);
  }

  /** GET /reports/search/{term}: campaigns, members and groups matching the term (not reports). */
  search(term: string): Promise<ReportSearchResult> {
    return this.http.call('GET', `/reports/search/${seg(term)}`);
  }

  /**
   * GET /reports/filtered/{variant}/{entitytype}/{entityid}: `group` is the entity type that works;
   * `campaign` and `member` answer HTTP 403, as the interface records.
   */
  filtered(variant: string, entityType: string, entityId: string): Promise<Report[]> {
    return this.http.call(
      'GET',
      `/reports/filtered/${seg(variant)}/${seg(entityType)}/${seg(entityId)}`,
      list(report),
    );
  }

  /** GET /reports/verbatims?reports=<ids>: the free-text answers of those reports. */
  verbatims(reportIds: string | readonly string[]): Promise<Verbatim[]> {
    const reports = typeof reportIds === 'string' ? reportIds : reportIds.join(',');
    return this.http.call('GET', '/reports/verbatims', undefined, { query: { reports } });
  }

  /** GET /reports/summary/{variant}: what a summary of the variant holds (not report data). */
  summaryDefinition(variant: string, options: { language?: string } = {}): Promise<SummaryDefinition> {
    return this.http.call('GET', `/reports/summary/${seg(variant)}`, undefined, {
      query: { language: options.language },
    });
  }

  /** POST /reports/summary: statistics per dimension and per question over personal reports. */
  summary(body: SummaryRequest): Promise<SummaryResult> {
    return this.http.call('POST', '/reports/summary', undefined, { body: { json: body } });
  }

  /** POST /reports/import/{variant} as JSON: rows of answers of existing members become personal reports. */
  import(variant: string, body: ReportImport): Promise<ReportImportResult> {
    return this.http.call('POST', `/reports/import/${seg(variant)}`, undefined, { body: { json: body } });
  }

  /** POST /reports/import/{variant} as CSV: `memberid` or `email`, then a column per question code. */
  importCsv(variant: string, csv: string): Promise<ReportImportResult> {
    return this.http.call('POST', `/reports/import/${seg(variant)}`, undefined, {
      body: { text: csv, contentType: 'text/csv; charset=utf-8' },
    });
  }

  /** GET /reports/{reportid}: the rendered PDF as a stream (with its file name and size). */
  async pdf(reportId: string): Promise<PdfFile> {
    return pdfFile(await this.http.binary('GET', `/reports/${seg(reportId)}`));
  }

  /** GET /reports/{reportid}: the rendered PDF, whole, as bytes (`Buffer.from(bytes)` in Node). */
  async pdfBytes(reportId: string): Promise<Uint8Array> {
    const response = await this.http.binary('GET', `/reports/${seg(reportId)}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** GET /reports/{reportid}/short. */
  short(reportId: string): Promise<ReportShort> {
    return this.http.call('GET', `/reports/${seg(reportId)}/short`, one(reportShort));
  }

  /**
   * GET /reports/{reportid}/data: with the answers; `raw`, `processed` and `extra` are JSON-encoded
   * strings (`parseReportData` decodes them).
   */
  data(reportId: string): Promise<ReportData> {
    return this.http.call('GET', `/reports/${seg(reportId)}/data`, one(reportData));
  }

  /** GET /reports/{reportid}/usage: the group reports this report feeds. */
  usage(reportId: string): Promise<Report[]> {
    return this.http.call('GET', `/reports/${seg(reportId)}/usage`, list(report));
  }

  /** PATCH /reports/{reportid}: `name` (group reports), `language`, `tags`, `testcase`. */
  update(reportId: string, patch: ReportPatch): Promise<Report> {
    return this.http.call('PATCH', `/reports/${seg(reportId)}`, one(report), { body: { json: patch } });
  }

  /** DELETE /reports/{reportid} (refused while a group report uses it). */
  delete(reportId: string): Promise<void> {
    return this.http.call('DELETE', `/reports/${seg(reportId)}`, nothing);
  }

  /** POST /reports/{reportid}/recalc: scores the report again. */
  recalc(reportId: string): Promise<void> {
    return this.http.call('POST', `/reports/${seg(reportId)}/recalc`, nothing);
  }
}

/** The answers of a ReportData, decoded from their JSON-encoded strings. */
export interface ParsedReportAnswers {
  /** Answers by question code: numbers (scores) or strings (free text). */
  raw: Record<string, number | string>;
  /** The scored sheet by code. */
  processed: Record<string, unknown>;
  /** `{ member: { basic, extras, xparam } }`. */
  extra: Record<string, unknown>;
}

const decode = (text: string): Record<string, unknown> => {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

/** Decodes `raw`, `processed` and `extra` of a ReportData (`[]` or unreadable text read as `{}`). */
export function parseReportData(data: Pick<ReportData, 'raw' | 'processed' | 'extra'>): ParsedReportAnswers {
  return {
    raw: decode(data.raw) as Record<string, number | string>,
    processed: decode(data.processed),
    extra: decode(data.extra),
  };
}
