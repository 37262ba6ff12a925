import type { Language, Variant } from '../variants/variant.types.js';

/** The name fields of a member as the API stores them; empty parts are left out when printed. */
export interface ReportMember {
  readonly title: string;
  readonly firstname: string;
  readonly middlename: string;
  readonly lastname: string;
}

/** Whose name and colours the report carries. */
export interface ReportAgency {
  readonly name: string;
  /** Address or contact printed in every page's footer (its lines joined into one); may be empty. */
  readonly footer: string;
  /** `#rrggbb` or `#rgb`; bars and accents use it (darkened when too light to see on white). */
  readonly color: string;
}

/** Everything a personal report shows: the renderer reads nothing else (no database, no clock). */
export interface PersonalReportInput {
  readonly variant: Variant;
  /** One of the variant's languages: every text, the date and the numbers follow it. */
  readonly language: Language;
  readonly member: ReportMember;
  /** The completion date in the wire form (`2026-11-22T11:46:36+00:00`); printed as that day in UTC. */
  readonly date: string;
  readonly reportId: string;
  /** The scored sheet (`<code>_score` 0-100 and `<code>_band` per dimension and facet). */
  readonly processed: Readonly<Record<string, number | string>>;
  readonly agency: ReportAgency;
  /** The Assay instance's name, shown on the cover under the agency when it differs. */
  readonly instanceName?: string;
}
