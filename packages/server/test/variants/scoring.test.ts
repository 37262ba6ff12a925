import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVariants } from '../../src/variants/load-variants.js';
import { bandOf, scoreAnswers, verbatims } from '../../src/variants/scoring.js';
import type { Variant } from '../../src/variants/variant.types.js';
import { type TempDir, tempDir, writeBigfive, writeTiny } from './fixtures.js';

let tmp: TempDir;
let tiny: Variant;
let bigfive: Variant;
beforeAll(() => {
  tmp = tempDir();
  writeTiny(tmp.root);
  writeBigfive(tmp.root);
  const registry = loadVariants([tmp.root]);
  tiny = registry.get('tiny') as Variant;
  bigfive = registry.get('bigfive') as Variant;
});
afterAll(() => tmp.remove());

describe('scoreAnswers', () => {
  it('keeps valid answers in questionnaire order, reverses "-" keyed ones and adds scores', () => {
    const processed = scoreAnswers(tiny, {
      Remarks1: '  Great team  ',
      Unknown: 5,
      C1: '2',
      Q4: 3,
      Q3: '4',
      Q2: 2,
      Q1: 5,
    });
    // TRUST = Q1 5 and Q2 6-2=4: mean 4.5, (4.5-1)/4*100 = 87.5; OPEN = Q1; SAFE = Q2; FOCUS = Q3.
    expect(processed).toEqual({
      Q1: 5,
      Q2: 4,
      Q3: 4,
      Q4: 3,
      C1: 2,
      Remarks1: 'Great team',
      TRUST_mean: 4.5,
      TRUST_score: 87.5,
      TRUST_band: 'high',
      FOCUS_mean: 4,
      FOCUS_score: 75,
      FOCUS_band: 'high',
      OPEN_mean: 5,
      OPEN_score: 100,
      OPEN_band: 'high',
      SAFE_mean: 4,
      SAFE_score: 75,
      SAFE_band: 'high',
    });
    expect(Object.keys(processed).slice(0, 7)).toEqual([
      'Q1',
      'Q2',
      'Q3',
      'Q4',
      'C1',
      'Remarks1',
      'TRUST_mean',
    ]);
  });

  it('drops out-of-range, non-integer, malformed and unknown answers', () => {
    const processed = scoreAnswers(tiny, {
      Q1: 6,
      Q2: 0,
      Q3: 3.5,
      Q4: '04',
      C1: 3,
      Remarks1: '   ',
      Q9: 4,
    });
    expect(processed).toEqual({});
    for (const bad of [' 4', '4.0', '', 'four', true, null, [4], { value: 4 }, Number.NaN, '1e0']) {
      expect(scoreAnswers(tiny, { Q3: bad, C1: bad, Remarks1: typeof bad === 'string' ? '' : bad })).toEqual(
        {},
      );
    }
  });

  it('keeps a choice given as its own string value and scores only answered questions', () => {
    const processed = scoreAnswers(tiny, { C1: 'other', Q2: '1' });
    // Q2 = 6-1 = 5 alone: TRUST and SAFE at 100; OPEN and FOCUS have no answer and no score.
    expect(processed).toEqual({
      Q2: 5,
      C1: 'other',
      TRUST_mean: 5,
      TRUST_score: 100,
      TRUST_band: 'high',
      SAFE_mean: 5,
      SAFE_score: 100,
      SAFE_band: 'high',
    });
  });

  it('puts the middle of the scale in the middle band and the bottom in the lowest', () => {
    expect(scoreAnswers(tiny, { Q3: 3 })).toMatchObject({
      FOCUS_mean: 3,
      FOCUS_score: 50,
      FOCUS_band: 'average',
    });
    expect(scoreAnswers(tiny, { Q3: 1 })).toMatchObject({ FOCUS_mean: 1, FOCUS_score: 0, FOCUS_band: 'low' });
    expect(scoreAnswers(tiny, { Q1: 2, Q2: 4 })).toMatchObject({
      TRUST_mean: 2,
      TRUST_score: 25,
      TRUST_band: 'low',
    });
  });
});

describe('bandOf', () => {
  it('puts a boundary in the higher band and 100 in the last', () => {
    const bands = tiny.bands;
    expect([0, 39.9, 40, 59.9, 60, 99.9, 100].map((score) => bandOf(bands, score))).toEqual([
      'low',
      'low',
      'average',
      'average',
      'high',
      'high',
      'high',
    ]);
  });
});

describe('verbatims', () => {
  it('lists the kept free-text answers with their question code', () => {
    const processed = scoreAnswers(tiny, { Q1: 3, Remarks1: ' Keep the Friday demos. ' });
    expect(verbatims(tiny, processed)).toEqual([{ code: 'Remarks1', answer: 'Keep the Friday demos.' }]);
    expect(verbatims(tiny, scoreAnswers(tiny, { Remarks1: ' ' }))).toEqual([]);
  });
});

describe('a full bigfive sheet', () => {
  // Item n is answered (floor((n-1)/5) mod 5) + 1, so each block of five items (one per domain) shares
  // a value. The expectations below were worked out by hand from the package's keying (items 9, 19,
  // 24, 30, 39, 40, 48, ... are minus keyed): e.g. N3 = items 11, 41, 71, 101 answered 3, 4, 5, 1,
  // keyed +, +, +, - -> 3, 4, 5, 5 = 17 / 4 = 4.25 -> (4.25-1)/4*100 = 81.25 -> 81.3.
  const expected: Record<string, [number, number, string]> = {
    N: [3.17, 54.2, 'average'],
    E: [2.83, 45.8, 'average'],
    O: [2.92, 47.9, 'average'],
    A: [2.67, 41.7, 'average'],
    C: [3.17, 54.2, 'average'],
    N1: [2.5, 37.5, 'low'],
    N2: [2.5, 37.5, 'low'],
    N3: [4.25, 81.3, 'high'],
    N4: [3.5, 62.5, 'high'],
    N5: [4.25, 81.3, 'high'],
    N6: [2, 25, 'low'],
    E1: [2, 25, 'low'],
    E2: [2, 25, 'low'],
    E3: [4.25, 81.3, 'high'],
    E4: [3.5, 62.5, 'high'],
    E5: [2.75, 43.8, 'average'],
    E6: [2.5, 37.5, 'low'],
    O1: [2.5, 37.5, 'low'],
    O2: [2, 25, 'low'],
    O3: [3.25, 56.3, 'average'],
    O4: [3.5, 62.5, 'high'],
    O5: [4.25, 81.3, 'high'],
    O6: [2, 25, 'low'],
    A1: [2, 25, 'low'],
    A2: [2.5, 37.5, 'low'],
    A3: [3.25, 56.3, 'average'],
    A4: [3, 50, 'average'],
    A5: [3.25, 56.3, 'average'],
    A6: [2, 25, 'low'],
    C1: [2.5, 37.5, 'low'],
    C2: [2, 25, 'low'],
    C3: [3.25, 56.3, 'average'],
    C4: [4.5, 87.5, 'high'],
    C5: [3.25, 56.3, 'average'],
    C6: [3.5, 62.5, 'high'],
  };
  const minusKeyed = new Set([
    9, 19, 24, 30, 39, 40, 48, 49, 51, 53, 54, 60, 62, 67, 68, 69, 70, 73, 74, 75, 78, 79, 80, 81, 83, 84, 85,
    88, 89, 90, 92, 94, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 113, 114,
    115, 116, 118, 119, 120,
  ]);
  const raw: Record<string, number> = {};
  for (let n = 1; n <= 120; n++) raw[`Q${n}`] = (Math.floor((n - 1) / 5) % 5) + 1;

  it('scores every domain and facet', () => {
    const processed = scoreAnswers(bigfive, raw);
    for (const [code, [mean, score, band]] of Object.entries(expected)) {
      expect([
        code,
        processed[`${code}_mean`],
        processed[`${code}_score`],
        processed[`${code}_band`],
      ]).toEqual([code, mean, score, band]);
    }
    expect(Object.keys(processed)).toHaveLength(120 + 35 * 3);
  });

  it('stores each answer after reverse keying', () => {
    const processed = scoreAnswers(bigfive, raw);
    for (let n = 1; n <= 120; n++) {
      const value = raw[`Q${n}`] as number;
      expect([n, processed[`Q${n}`]]).toEqual([n, minusKeyed.has(n) ? 6 - value : value]);
    }
  });
});
