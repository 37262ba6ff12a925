import type { Group, MemberImportResult } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import { consoleNumber } from '../format.js';
import { membersStrings } from '../members-strings.js';
import { refusalIn } from '../refusals.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { flatten, groupTree } from './groups.view.js';

/** Rows a check page shows at most (of the file, or of its rows with errors). */
export const CHECK_ROWS_SHOWN = 50;

/** Which form field a problem of the upload form belongs to. */
export type ImportFormProblem = 'file' | 'utf8' | 'size' | 'groupid';

/** The upload form: a file (or its rows pasted), the group for new members, whether to update. */
export function importFormView(
  viewer: Viewer,
  groups: readonly Group[],
  input: {
    groupid?: string;
    update?: boolean;
    pasted?: string;
    problem?: { field: ImportFormProblem; text?: string };
  },
): ConsoleView {
  const base = chrome(viewer, 'members');
  const m = membersStrings(viewer.language);
  const problem = input.problem;
  const fileError =
    problem?.field === 'file'
      ? m.noFile
      : problem?.field === 'utf8'
        ? m.notUtf8
        : problem?.field === 'size'
          ? m.tooLarge
          : undefined;
  const groupError = problem?.field === 'groupid' ? problem.text : undefined;
  return {
    template: 'console/import',
    model: {
      ...base,
      m,
      title: m.importTitle,
      fileError,
      pasted: input.pasted ?? '',
      update: input.update === true,
      select: {
        id: 'field-groupid',
        name: 'groupid',
        label: m.importGroup,
        error: groupError,
        describedBy: groupError ? 'field-groupid-error' : undefined,
        options: [
          { value: '', text: m.importNoGroup, selected: !input.groupid },
          ...flatten(groupTree(groups)).map((node) => ({
            value: node.group.groupid,
            text: `${'\u2014 '.repeat(node.depth)}${node.group.name}`,
            selected: node.group.groupid === input.groupid,
          })),
        ],
      },
      errorHidden: base.t.errorHidden,
      errors: fileError
        ? [{ href: '#field-file', text: fileError }]
        : groupError
          ? [{ href: '#field-groupid', text: groupError }]
          : undefined,
    },
  };
}

export interface ImportCheckInput {
  readonly id: string;
  readonly name: string;
  /** The whole file's refusal (not valid CSV, no e-mail column, no such group). */
  readonly problem?: string;
  readonly result?: MemberImportResult;
  /** The file's header and the rows to show, by their number. */
  readonly names: readonly string[];
  readonly rows: ReadonlyMap<number, readonly string[]>;
}

/** The rows whose numbers a check page shows: the first rows with errors, else the first rows. */
export function rowsToShow(result: MemberImportResult | undefined): Set<number> {
  if (!result) return new Set();
  if (result.errors.length > 0) return new Set(result.errors.slice(0, CHECK_ROWS_SHOWN).map((e) => e.row));
  const total = result.created.length + result.updated.length;
  return new Set(Array.from({ length: Math.min(total, CHECK_ROWS_SHOWN) }, (_, i) => i + 1));
}

/**
 * The check page: with errors, a banner, the rows with errors (each with its problem beside it) and
 * "Upload your file again"; without, the first rows and the button "Import N members".
 */
export function importCheckView(viewer: Viewer, input: ImportCheckInput): ConsoleView {
  const base = chrome(viewer, 'members');
  const m = membersStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  const { result } = input;
  const said = (message: string) => refusalIn(viewer.language, message);
  const problems = input.problem ? [said(input.problem)] : [];
  const errors = result?.errors ?? [];
  const failed = problems.length > 0 || errors.length > 0;
  const count = result ? result.created.length + result.updated.length : 0;
  const cellsOf = (row: number) => {
    const cells = input.rows.get(row) ?? [];
    return input.names.map((_, column) => cells[column] ?? '');
  };
  const firstError = new Map<number, string>();
  for (const error of errors) if (!firstError.has(error.row)) firstError.set(error.row, said(error.message));
  const shownErrors = [...firstError].slice(0, CHECK_ROWS_SHOWN);
  const title = failed
    ? fill(m.problemsTitle, { name: input.name })
    : fill(m.checkTitle, { name: input.name });
  return {
    template: 'console/import-check',
    model: {
      ...base,
      m,
      title,
      heading: title,
      failed,
      problems,
      names: input.names,
      errorRows: shownErrors.map(([row, message]) => ({ row, message, cells: cellsOf(row) })),
      onlyFirstErrors:
        firstError.size > CHECK_ROWS_SHOWN ? fill(m.onlyFirstErrors, { count: CHECK_ROWS_SHOWN }) : undefined,
      okBody: fill(m.checkBody, { count: number(count) }),
      okRows: failed ? [] : [...rowsToShow(result)].map((row) => ({ row, cells: cellsOf(row) })),
      onlyFirstRows:
        !failed && count > CHECK_ROWS_SHOWN ? fill(m.onlyFirstRows, { count: CHECK_ROWS_SHOWN }) : undefined,
      importAction: `/console/members/import/${input.id}`,
      importButton: count === 1 ? m.importButtonOne : fill(m.importButton, { count: number(count) }),
      canImport: !failed && count > 0,
    },
  };
}

/** What the import did: members added, updated, rows refused (each with its problem). */
export function importDoneView(viewer: Viewer, result: MemberImportResult): ConsoleView {
  const base = chrome(viewer, 'members');
  const m = membersStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  return {
    template: 'console/import-done',
    model: {
      ...base,
      m,
      title: m.doneTitle,
      lines: [
        fill(m.doneCreated, { count: number(result.created.length) }),
        fill(m.doneUpdated, { count: number(result.updated.length) }),
        fill(m.doneRefused, { count: number(result.errors.length) }),
      ],
      errors: undefined,
      refused: result.errors
        .slice(0, CHECK_ROWS_SHOWN)
        .map((error) => ({ ...error, message: refusalIn(viewer.language, error.message) })),
    },
  };
}
