import type { ReportImportResult } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import type { ImportRow, PersonalReportRequest, ReportImportCheck } from '../../reports/personal.service.js';
import type { Variant } from '../../variants/variant.types.js';
import { consoleDate, consoleNumber } from '../format.js';
import { refusalIn } from '../refusals.js';
import { reportImportStrings } from '../report-import-strings.js';
import { consoleStrings } from '../strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { variantName } from './dashboard.view.js';
import { CHECK_ROWS_SHOWN } from './import.view.js';

/** Which form field a problem of the upload form belongs to. */
export type ReportImportFormProblem = 'variant' | 'file' | 'utf8' | 'size';

/** The upload form: the questionnaire, a file (or its rows pasted), and a sample CSV per questionnaire. */
export function reportImportFormView(
  viewer: Viewer,
  input: {
    variants: readonly Variant[];
    variant?: string;
    pasted?: string;
    /** What is wrong with the form as posted, each shown beside its field. */
    problems?: readonly ReportImportFormProblem[];
    limits: { megabytes: number; rows: number };
  },
): ConsoleView {
  const base = chrome(viewer, 'reports');
  const s = reportImportStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  const problems = new Set(input.problems ?? []);
  const fileError = problems.has('file')
    ? s.noFile
    : problems.has('utf8')
      ? s.notUtf8
      : problems.has('size')
        ? fill(s.tooLarge, { size: number(input.limits.megabytes) })
        : undefined;
  const variantError = problems.has('variant') ? s.noVariant : undefined;
  const name = (variant: Variant) => variantName(variant, variant.alias, viewer.language);
  return {
    template: 'console/report-import',
    model: {
      ...base,
      s,
      title: s.title,
      fileError,
      fileHint: fill(s.fileHint, { size: number(input.limits.megabytes), rows: number(input.limits.rows) }),
      pasted: input.pasted ?? '',
      select: {
        id: 'field-variant',
        name: 'variant',
        label: s.variantLabel,
        hint: s.variantHint,
        error: variantError,
        describedBy: `field-variant-hint${variantError ? ' field-variant-error' : ''}`,
        options: [
          { value: '', text: s.chooseVariant, selected: !input.variant },
          ...input.variants.map((variant) => ({
            value: variant.alias,
            text: name(variant),
            selected: variant.alias === input.variant,
          })),
        ],
      },
      samples: input.variants.map((variant) => ({
        href: `/console/reports/import/sample.csv?${new URLSearchParams({ variant: variant.alias })}`,
        text: fill(s.sampleLink, { name: name(variant) }),
      })),
      errorHidden: base.t.errorHidden,
      errors:
        variantError || fileError
          ? [
              ...(variantError ? [{ href: '#field-variant', text: variantError }] : []),
              ...(fileError ? [{ href: '#field-file', text: fileError }] : []),
            ]
          : undefined,
    },
  };
}

export interface ReportImportCheckInput {
  readonly id: string;
  readonly name: string;
  /** The questionnaire's alias as the upload names it. */
  readonly alias: string;
  /** Undefined when the questionnaire is no longer installed. */
  readonly variant?: Variant;
  /** The whole file's refusal (not valid CSV or JSON, a column that is no question code, too many rows). */
  readonly problem?: string;
  readonly rows?: readonly ImportRow[];
  readonly check?: ReportImportCheck;
}

/** A value of a row as the page shows it: text as it is, anything else as its JSON (cut short). */
function shown(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answers a row gives (its non-blank values), as a count. */
function answered(answers: unknown): string {
  if (!isObject(answers)) return shown(answers);
  return String(
    Object.values(answers).filter((v) => v !== undefined && v !== null && String(v).trim() !== '').length,
  );
}

/**
 * The check page: with errors, a banner, the rows with errors (each with its problem beside it) and
 * "Upload your file again"; without, the first rows as they will be imported (the language and date
 * each report will get) and the button "Import N reports".
 */
export function reportImportCheckView(viewer: Viewer, input: ReportImportCheckInput): ConsoleView {
  const base = chrome(viewer, 'reports');
  const s = reportImportStrings(viewer.language);
  const c = consoleStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  const variantLabel = input.variant ? variantName(input.variant, input.alias, viewer.language) : input.alias;
  const said = (message: string) => refusalIn(viewer.language, message);
  const problems = input.problem
    ? [said(input.problem)]
    : input.variant === undefined
      ? [fill(s.variantGone, { name: input.alias })]
      : [];
  const errors = input.check?.errors ?? [];
  const valid = input.check?.valid ?? [];
  const failed = problems.length > 0 || errors.length > 0;
  const rows = input.rows ?? [];
  const rawCells = (row: number) => {
    const raw = rows[row - 1];
    if (!isObject(raw)) return [shown(raw), '', '', '', '', ''];
    return [
      shown(raw.memberid ?? raw.email),
      shown(raw.campaignid),
      shown(raw.language),
      shown(raw.date),
      shown(raw.role),
      answered(raw.answers),
    ];
  };
  const requestCells = (row: number, request: PersonalReportRequest) => {
    const raw = rows[row - 1] as Record<string, unknown>;
    return [
      shown(raw.memberid ?? raw.email),
      request.campaignId ?? '',
      c.languageNames[request.language as keyof typeof c.languageNames] ?? request.language,
      consoleDate(viewer.language, request.date),
      request.role ?? '',
      String(Object.keys(request.answers).length),
    ];
  };
  const firstError = new Map<number, string>();
  for (const error of errors) if (!firstError.has(error.row)) firstError.set(error.row, said(error.message));
  const title = failed
    ? fill(s.problemsTitle, { name: input.name })
    : fill(s.checkTitle, { name: input.name });
  const count = valid.length;
  return {
    template: 'console/report-import-check',
    model: {
      ...base,
      s,
      title,
      heading: title,
      failed,
      problems,
      errorRows: [...firstError]
        .slice(0, CHECK_ROWS_SHOWN)
        .map(([row, message]) => ({ row, message, cells: rawCells(row) })),
      onlyFirstErrors:
        firstError.size > CHECK_ROWS_SHOWN ? fill(s.onlyFirstErrors, { count: CHECK_ROWS_SHOWN }) : undefined,
      okBody: fill(s.checkBody, { count: number(count), variant: variantLabel }),
      okRows: failed
        ? []
        : valid
            .slice(0, CHECK_ROWS_SHOWN)
            .map(({ row, request }) => ({ row, cells: requestCells(row, request) })),
      onlyFirstRows:
        !failed && count > CHECK_ROWS_SHOWN ? fill(s.onlyFirstRows, { count: CHECK_ROWS_SHOWN }) : undefined,
      importAction: `/console/reports/import/${input.id}`,
      importButton: count === 1 ? s.importButtonOne : fill(s.importButton, { count: number(count) }),
      canImport: !failed && count > 0,
    },
  };
}

/** What the import did: reports made, rows refused (each with its problem), and the way to the reports. */
export function reportImportDoneView(viewer: Viewer, result: ReportImportResult, alias: string): ConsoleView {
  const base = chrome(viewer, 'reports');
  const s = reportImportStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  return {
    template: 'console/report-import-done',
    model: {
      ...base,
      s,
      title: s.doneTitle,
      lines: [
        fill(s.doneCreated, { count: number(result.created.length) }),
        fill(s.doneRefused, { count: number(result.errors.length) }),
      ],
      refused: result.errors
        .slice(0, CHECK_ROWS_SHOWN)
        .map((error) => ({ ...error, message: refusalIn(viewer.language, error.message) })),
      reportsHref: `/console/reports?${new URLSearchParams({ variant: alias })}`,
    },
  };
}
