import type { Language, Variant } from '../variants/variant.types.js';
import type { ReportAgency, ReportMember } from './report-input.js';

/** One personal report that a group report is made of. */
export interface GroupReportSheet {
  readonly reportId: string;
  readonly member: ReportMember;
  /** The personal report's date in the wire form. */
  readonly date: string;
  /** The scored sheet, as stored (`<code>_score`, `<code>_band`, answers by question code). */
  readonly processed: Readonly<Record<string, number | string>>;
  /** The rater's role in a 360 (`config.campaignparams.role`: self, manager, peer, directreport), if any. */
  readonly role?: string;
}

/**
 * Everything a group-type report shows; the renderer reads nothing else. The service has checked
 * the selection (same variant, personal reports, the anonymity minimum) before it gets here.
 */
export interface GroupReportInput {
  readonly type: 'group' | 'groupanon' | 'condensed' | 'complete';
  readonly variant: Variant;
  readonly language: Language;
  /** The group report's own name (`name` of POST /reports); may be empty. */
  readonly name: string;
  /** The group report's date in the wire form. */
  readonly date: string;
  readonly reportId: string;
  readonly agency: ReportAgency;
  readonly instanceName?: string;
  /** The selected personal reports (`selectedReports`), in the order selected. */
  readonly sheets: readonly GroupReportSheet[];
  /**
   * A 360 feedback report (type `group` only): the subject's self report
   * (`selectedReportsMaster`); `sheets` are then the raters' reports, each with its role.
   */
  readonly master?: GroupReportSheet;
  /**
   * Free-text answers left out (`excludedVerbatims`): `<reportid>:<code>` leaves out one answer,
   * a bare `<reportid>` every answer of that report.
   */
  readonly excludedVerbatims: ReadonlySet<string>;
}
