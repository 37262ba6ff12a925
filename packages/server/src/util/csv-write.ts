import { type CellValue, spreadsheetText } from './spreadsheet-cell.js';

/*
 * Writing CSV that spreadsheet programs open as meant: UTF-8 with a byte-order mark (Excel reads
 * UTF-8 without guessing only then), RFC 4180 quoting and CRLF line ends, and no cell that a
 * spreadsheet would run as a formula (OWASP "CSV injection", the rule of spreadsheet-cell.ts).
 */

/** Starts a CSV file: without it Excel reads UTF-8 as the machine's own code page. */
export const CSV_BOM = '\uFEFF';

/** A cell's value: text, a number, or nothing (an empty cell). */
export type CsvValue = CellValue;

// What makes RFC 4180 quote a field: a quote, a comma or a line break.
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: a text that a spreadsheet would read as a formula gets a leading `'`, which shows the
 * text as typed and runs nothing; a number is written as a number (a negative score is data, not a
 * formula); a field with a quote, comma or line break is quoted, its quotes doubled.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = spreadsheetText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvCell(values[i]);
  return `${line}\r\n`;
}
