import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvLine } from '../../src/util/csv-write.js';

describe('csvCell and csvLine', () => {
  it('neutralises every formula start OWASP names, and only at the start (or after blanks)', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvCell(`${start}1+1`).replace(/^"|"$/g, '')).toBe(`'${start}1+1`);
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =1')).toBe("' =1");
    expect(csvCell("'quoted")).toBe("'quoted");
  });

  it('quotes by RFC 4180 (quote, comma, line break), numbers and empties plainly', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });

  it('reads back through a CSV parser as written, the neutralised cells with their mark', () => {
    const values = ['=cmd|" /C calc"!A0', 'Zoë, "Z"', '\tTab', 'plain', '-2', 'x\r\ny'];
    const parsed = parse(CSV_BOM + csvLine(values) + csvLine(['last']), {
      bom: true,
      relax_column_count: true,
    });
    expect(parsed).toEqual([
      ['\'=cmd|" /C calc"!A0', 'Zoë, "Z"', "'\tTab", 'plain', "'-2", 'x\r\ny'],
      ['last'],
    ]);
  });
});
