import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../src/util/csv-write.js';
import { spreadsheetText, startsFormula, workbookCell } from '../../src/util/spreadsheet-cell.js';

// OWASP's formula starts (https://owasp.org/www-community/attacks/CSV_Injection), their full-width
// and small forms, which some spreadsheets read as the ASCII ones.
const STARTERS = ['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫'];
// OWASP's control starts: formulas only as the very first character.
const CONTROL_STARTERS = ['\t', '\r', '\n'];
// What may come before a starter and be dropped by a spreadsheet or an import that trims.
const BLANKS: Record<string, string> = {
  nothing: '',
  space: ' ',
  spaces: '   ',
  tab: '\t',
  'line feed': '\n',
  'carriage return': '\r',
  CRLF: '\r\n',
  'vertical tab': '\v',
  'form feed': '\f',
  'NEL U+0085': '\u0085',
  'NBSP U+00A0': '\u00a0',
  'ogham space U+1680': '\u1680',
  ...Object.fromEntries(
    Array.from({ length: 11 }, (_, i) => {
      const char = String.fromCharCode(0x2000 + i);
      return [`U+${(0x2000 + i).toString(16).toUpperCase()}`, char];
    }),
  ),
  'line separator U+2028': '\u2028',
  'paragraph separator U+2029': '\u2029',
  'narrow NBSP U+202F': '\u202f',
  'math space U+205F': '\u205f',
  'ideographic space U+3000': '\u3000',
  'zero-width space U+200B': '\u200b',
  'word joiner U+2060': '\u2060',
  'BOM U+FEFF': '\ufeff',
  'soft hyphen U+00AD': '\u00ad',
  'a mix': ' \u00a0\u3000\u200b\ufeff ',
};
// Texts no spreadsheet runs: written exactly as they are.
const HARMLESS = [
  'Ada',
  'Jean-Luc',
  'Ada -',
  'a=b',
  '1+1',
  'ada.lovelace@example.test',
  "O'Neil",
  "'=1",
  '(=1)',
  'Zoë',
  '日本語',
  ' Ada',
  '\u00a0Ada',
  '\u3000Ada',
  '\u200bAda',
  '#REF!',
  '%',
  '',
  ' ',
  '\u00a0',
];

/** A text written alone in a CSV line, read back by a CSV parser. */
const throughCsv = (text: string) => (parse(csvLine([text])) as string[][])[0]?.[0];

describe('spreadsheet cells: one rule for every CSV and workbook text', () => {
  for (const [name, blank] of Object.entries(BLANKS))
    it(`a formula start after ${name} gets a leading ' in CSV and in the workbook`, () => {
      for (const starter of STARTERS) {
        const text = `${blank}${starter}SUM(1)`;
        expect(startsFormula(text), JSON.stringify(text)).toBe(true);
        expect(spreadsheetText(text)).toBe(`'${text}`);
        expect(throughCsv(text), JSON.stringify(text)).toBe(`'${text}`);
        expect(workbookCell(text)).toBe(`'${text}`);
      }
    });

  it("tab, carriage return and line feed as the first character get a leading '", () => {
    for (const starter of CONTROL_STARTERS)
      for (const text of [`${starter}Ada`, `${starter}1`, starter]) {
        expect(throughCsv(text), JSON.stringify(text)).toBe(`'${text}`);
        expect(workbookCell(text)).toBe(`'${text}`);
      }
  });

  it('leaves the texts no spreadsheet runs as they are', () => {
    for (const text of HARMLESS) {
      expect(startsFormula(text), JSON.stringify(text)).toBe(false);
      expect(throughCsv(text), JSON.stringify(text)).toBe(text);
      expect(workbookCell(text)).toBe(text);
    }
  });

  it('keeps numbers numbers, negative ones too; the same sign in a text is escaped', () => {
    for (const number of [-1, -3.5, 0, 42, 1e21]) {
      expect(csvCell(number)).toBe(String(number));
      expect(workbookCell(number)).toBe(number);
    }
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(workbookCell('-1+2')).toBe("'-1+2");
    expect(workbookCell(' -1')).toBe("' -1");
    expect([Number.NaN, Number.POSITIVE_INFINITY, null, undefined].map(workbookCell)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(csvCell(Number.NaN)).toBe('');
  });
});
