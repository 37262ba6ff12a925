import { MAIL_STAGES } from '@assay/schema';

/** The languages Assay knows; a variant supports a non-empty subset. */
export const LANGUAGES = ['enUS', 'nlNL', 'esES', 'frFR'] as const;
export type Language = (typeof LANGUAGES)[number];

export const REPORT_TYPES = ['personal', 'group', 'groupanon', 'condensed', 'complete'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The campaign mail stages of the spec's `mailconfig` (defined with the wire shapes). */
export { MAIL_STAGES };
export type MailStage = (typeof MAIL_STAGES)[number];

export interface Scale {
  readonly code: string;
  /** Ascending integers. */
  readonly points: readonly number[];
  readonly min: number;
  readonly max: number;
}

/** A participant role: the spec's `extraParams` entry, before it is labelled for the wire. */
export interface Role {
  readonly role: string;
  readonly mandatory: boolean;
  readonly canaddparticipants: boolean;
  readonly showintitle: boolean;
  readonly hideinwizard: boolean;
  readonly mailconfig: Readonly<Record<string, string>>;
}

export interface Dimension {
  readonly code: string;
  readonly facets: readonly string[];
}

export interface Band {
  readonly code: string;
  readonly min: number;
  readonly max: number;
}

export type ChoiceValue = number | string;

interface QuestionBase {
  readonly code: string;
  readonly page: string;
  readonly required: boolean;
  /** The question's text per language of the variant, from `q.<code>` or from the item bank. */
  readonly texts: Readonly<Partial<Record<Language, string>>>;
}

export interface LikertQuestion extends QuestionBase {
  readonly type: 'likert';
  readonly scale: string;
  /** Only set when the question is scored. */
  readonly keyed?: '+' | '-';
  readonly dimension?: string;
  readonly facet?: string;
}

export interface ChoiceQuestion extends QuestionBase {
  readonly type: 'choice';
  readonly options: readonly ChoiceValue[];
}

export interface TextQuestion extends QuestionBase {
  readonly type: 'text';
}

export type Question = LikertQuestion | ChoiceQuestion | TextQuestion;

export interface Page {
  readonly code: string;
  readonly questions: readonly Question[];
}

/** A question as an item bank delivers it; the loader attaches nothing but validation. */
export type BankQuestion = LikertQuestion;

export interface BankPage {
  readonly code: string;
  readonly questions: readonly BankQuestion[];
}

export interface ItemBankAdapter {
  readonly name: string;
  readonly languages: readonly Language[];
  /** The scales its questions use; the variant must define them with these exact points. */
  readonly scales: Readonly<Record<string, readonly number[]>>;
  pages(languages: readonly Language[]): BankPage[];
}

/** Lookup tables built once per variant so that scoring one sheet allocates almost nothing. */
export interface ScoringPlan {
  readonly items: readonly ScoringItem[];
  /** Dimensions first, then facets; an item's `dimension` and `facet` index into it (-1: none). */
  readonly targets: readonly ScoringTarget[];
  readonly bands: readonly Band[];
}

export interface ScoringItem {
  readonly code: string;
  readonly kind: 'likert' | 'choice' | 'text';
  /** Likert: the scale's range and which values in it are points (`valid[value - min]`). */
  readonly min: number;
  readonly max: number;
  readonly valid: Uint8Array;
  /** `min + max` for a `-` keyed question, 0 when it is not reversed. */
  readonly reverse: number;
  readonly dimension: number;
  readonly facet: number;
  /** Choice: accepted values; numeric options also accept their decimal string. */
  readonly options: ReadonlyMap<ChoiceValue, ChoiceValue>;
}

export interface ScoringTarget {
  readonly code: string;
  readonly min: number;
  readonly max: number;
  readonly meanKey: string;
  readonly scoreKey: string;
  readonly bandKey: string;
}

/** What variant.json says, before pages are resolved and texts are attached. */
export interface VariantHeader {
  readonly alias: string;
  readonly version: number;
  readonly languages: readonly Language[];
  readonly defaultLanguage: Language;
  readonly reportTypes: readonly ReportType[];
  readonly scales: Readonly<Record<string, Scale>>;
  readonly roles: readonly Role[];
  readonly dimensions: readonly Dimension[];
  readonly bands: readonly Band[];
  readonly itemBank?: { readonly adapter: string };
}

export interface Variant extends VariantHeader {
  /** Absolute path of the variant's folder. */
  readonly dir: string;
  /** Item-bank pages first, then the pages of variant.json. */
  readonly pages: readonly Page[];
  /** Every question in questionnaire order. */
  readonly questions: readonly Question[];
  /** The text files as loaded (item-bank question texts live on the questions). */
  readonly texts: Readonly<Partial<Record<Language, Readonly<Record<string, string>>>>>;
  readonly scoring: ScoringPlan;
}

export interface VariantRegistry {
  /** Sorted by alias. */
  list(): Variant[];
  get(alias: string): Variant | undefined;
}

/** A broken variant definition; the message is one line: `<file>: <place>: <problem>`. */
export class VariantDefinitionError extends Error {
  override readonly name = 'VariantDefinitionError';
  constructor(
    readonly file: string,
    readonly place: string,
    readonly problem: string,
  ) {
    super(`${file}: ${place}: ${problem}`);
  }
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
