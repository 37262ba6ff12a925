/*
 * The one rule for a text cell of every file a spreadsheet opens (the campaign export's CSV and
 * Excel workbook, the report import's sample CSV): a text a spreadsheet could run as a formula is
 * written with a leading `'`, which shows it as typed and runs nothing (OWASP "CSV injection",
 * https://owasp.org/www-community/attacks/CSV_Injection). Why the workbook takes the same `'`:
 * docs/campaigns.md, "Export".
 */

/** A cell's value: text, a number, or nothing (an empty cell). */
export type CellValue = string | number | null | undefined;

// OWASP's tab and carriage return, and line feed beside them, as the very first character: escaped
// whatever follows, as OWASP asks.
const CONTROL_START = /^[\t\r\n]/;
// What a spreadsheet or an import that trims may drop before the first character that shows: every
// Unicode space and line break (White_Space: space, NBSP, U+2000-U+200A, U+3000, NEL, U+2028...),
// the other control characters, and the characters that draw nothing (Default_Ignorable_Code_Point:
// zero-width space, word joiner, BOM, soft hyphen...).
const BLANK = '\\p{White_Space}\\p{Cc}\\p{Default_Ignorable_Code_Point}';
const FIRST_SHOWN = new RegExp(`^[${BLANK}]*([^${BLANK}])`, 'u');
// OWASP's formula starts. A character whose compatibility form (NFKC) begins with one counts too:
// the full-width ＝ ＋ － ＠ and the small ﹦ ﹢ ﹣ ﹫, which some spreadsheets read as the ASCII ones.
const FORMULA_START = /^[=+\-@]/;

/** Whether a spreadsheet could take the text for a formula: its first shown character starts one. */
export function startsFormula(text: string): boolean {
  // A text starting with a printable ASCII character (most of an export's cells) is its own first
  // shown character: decided without the Unicode scan, which cost 95 against 20 ns a cell.
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return FORMULA_START.test(text);
  if (CONTROL_START.test(text)) return true;
  const shown = FIRST_SHOWN.exec(text)?.[1];
  return shown !== undefined && FORMULA_START.test(shown.normalize('NFKC'));
}

/** A text cell as every export writes it: with a leading `'` when it could start a formula. */
export function spreadsheetText(text: string): string {
  return startsFormula(text) ? `'${text}` : text;
}

/**
 * A cell of an Excel workbook: text by the same rule as CSV's (an exceljs string cell is no formula
 * when written, but Excel re-reads it as one once it is edited or saved as CSV); a number as a
 * number (a negative score is data); nothing, or a number that is not finite, as an empty cell.
 */
export function workbookCell(value: CellValue): string | number | null {
  if (typeof value === 'string') return spreadsheetText(value);
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
