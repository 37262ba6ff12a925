import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/util/csv.js';
import { formatDate, parseDate } from '../../src/util/dates.js';
import { randomId, randomSecret } from '../../src/util/ids.js';

describe('dates', () => {
  it('writes the wire form with a UTC offset and whole seconds', () => {
    expect(formatDate(new Date('2026-11-22T11:46:36.789Z'))).toBe('2026-11-22T11:46:36+00:00');
  });

  it('reads tolerantly: T or a space, an offset or none (UTC), a bare date', () => {
    const cases: [string, string][] = [
      ['2026-11-22T11:46:36+00:00', '2026-11-22T11:46:36+00:00'],
      ['2026-11-22 11:46:36', '2026-11-22T11:46:36+00:00'],
      ['2026-11-22T11:46:36Z', '2026-11-22T11:46:36+00:00'],
      ['2026-11-22T12:46:36+01:00', '2026-11-22T11:46:36+00:00'],
      ['2026-11-22T06:46:36-0500', '2026-11-22T11:46:36+00:00'],
      ['2026-11-22T11:46', '2026-11-22T11:46:00+00:00'],
      ['2026-11-22', '2026-11-22T00:00:00+00:00'],
      ['2026-11-22T11:46:36.123456+00:00', '2026-11-22T11:46:36+00:00'],
    ];
    for (const [input, expected] of cases) expect(formatDate(parseDate(input) as Date), input).toBe(expected);
  });

  it('refuses what is not a date', () => {
    for (const input of [
      '',
      'tomorrow',
      '2026-02-31',
      '2026-13-01',
      '22-11-2026',
      '2026-11-22T25:00:00',
      '1; drop table x',
    ]) {
      expect(parseDate(input), input).toBeUndefined();
    }
  });
});

describe('csv', () => {
  it('reads quoted fields, escaped quotes, commas and line breaks inside quotes, CRLF and a BOM', () => {
    const text = '\ufeffa,b,c\r\n"x, y","say ""hi""","two\nlines"\n\n1,,3';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
      ['1', '', '3'],
    ]);
  });

  it('refuses a quote that is never closed', () => {
    expect(() => parseCsv('a\n"open')).toThrow('a quoted field is not closed');
  });
});

describe('ids', () => {
  it('makes 10 characters of [0-9A-Za-z], spread over the whole alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = randomId();
      expect(id).toMatch(/^[0-9A-Za-z]{10}$/);
      for (const char of id) seen.add(char);
    }
    expect(seen.size).toBe(62);
  });

  it('never hands out the same random bytes twice, across many refills of the pool', () => {
    // 4 KiB a refill: 2,000 secrets of 32 bytes and ids of 20 to 100 (40 to 200 bytes each) cross
    // it some 60 times, at every offset.
    const secrets = Array.from({ length: 2000 }, () => randomSecret());
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
    const ids = Array.from({ length: 2000 }, (_, i) => randomId(20 + (i % 81)));
    for (const [i, id] of ids.entries()) expect(id).toHaveLength(20 + (i % 81));
    // Pairs of ids of one length: a byte handed out twice would make two equal.
    expect(new Set(ids).size).toBe(ids.length);
  });
});
