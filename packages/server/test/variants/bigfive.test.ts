import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadVariants } from '../../src/variants/load-variants.js';
import type { LikertQuestion } from '../../src/variants/variant.types.js';
import {
  BIGFIVE_LANGUAGES,
  type Mutable,
  messageOf,
  type TempDir,
  tempDir,
  writeBigfive,
} from './fixtures.js';

interface PackageItem {
  domain: string;
  facet: number;
  keyed: string;
  text: string;
}
const pkg = createRequire(import.meta.url)('@bigfive-org/questions') as {
  getQuestions(lang: string): PackageItem[];
};
const packageLanguage: Record<string, string> = { enUS: 'en', nlNL: 'nl', esES: 'es', frFR: 'fr' };

let tmp: TempDir;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

describe('the bigfive-org item bank', () => {
  it('builds Q1..Q120 on six pages of twenty from the package, with its texts in every language', () => {
    writeBigfive(tmp.root);
    const bigfive = loadVariants([tmp.root]).get('bigfive');
    expect(bigfive?.pages.map((p) => [p.code, p.questions.length])).toEqual([
      ['p1', 20],
      ['p2', 20],
      ['p3', 20],
      ['p4', 20],
      ['p5', 20],
      ['p6', 20],
    ]);
    const questions = bigfive?.questions as LikertQuestion[];
    expect(questions).toHaveLength(120);
    expect(questions[0]).toEqual({
      code: 'Q1',
      page: 'p1',
      type: 'likert',
      scale: 'agree5',
      keyed: '+',
      dimension: 'N',
      facet: 'N1',
      required: true,
      texts: {
        enUS: 'Worry about things',
        nlNL: 'Maak mij zorgen over dingen',
        esES: 'Me preocupo por las cosas',
        frFR: "Je m'inquiète à propos de choses",
      },
    });
    const english = pkg.getQuestions('en');
    questions.forEach((question, i) => {
      const item = english[i] as PackageItem;
      expect(question.code).toBe(`Q${i + 1}`);
      expect(question.page).toBe(`p${Math.floor(i / 20) + 1}`);
      expect([question.dimension, question.facet, question.keyed]).toEqual([
        item.domain,
        `${item.domain}${item.facet}`,
        item.keyed === 'plus' ? '+' : '-',
      ]);
      for (const language of BIGFIVE_LANGUAGES) {
        const text = pkg.getQuestions(packageLanguage[language] as string)[i]?.text.trim();
        expect(question.texts[language as 'enUS']).toBe(text);
      }
    });
    expect(questions.filter((q) => q.keyed === '-')).toHaveLength(55);
  });

  it('lets a text file reword an item and a variant add its own pages after the bank', () => {
    writeBigfive(
      tmp.root,
      (v) => {
        v.pages = [{ code: 'p7', questions: [{ code: 'Remarks1', type: 'text', required: false }] }];
      },
      ['page.p7.title', 'q.Remarks1', 'q.Q1'],
    );
    const bigfive = loadVariants([tmp.root]).get('bigfive');
    expect(bigfive?.pages.map((p) => p.code)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    expect(bigfive?.questions[120]?.texts.frFR).toBe('q.Remarks1 (frFR)');
    expect(bigfive?.questions[0]?.texts.nlNL).toBe('q.Q1 (nlNL)');
  });

  const file = (): string => join(tmp.root, 'bigfive', 'variant.json');
  const cases: [string, (v: Mutable) => void, string][] = [
    [
      'a scale unlike the bank',
      (v) => (v.scales.agree5.points = [0, 1, 2, 3, 4]),
      'scales.agree5: item bank "bigfive-org" needs this scale with points [1, 2, 3, 4, 5]',
    ],
    [
      'a facet the bank needs',
      (v) => v.dimensions[4].facets.pop(),
      'dimensions: item bank "bigfive-org" question Q30 needs facet "C6" in dimension "C"',
    ],
    [
      'a dimension the bank needs',
      (v) => v.dimensions.shift(),
      'dimensions: item bank "bigfive-org" question Q1 needs dimension "N"',
    ],
    [
      'a page code of the bank',
      (v) => (v.pages = [{ code: 'p1', questions: [{ code: 'R', type: 'text', required: false }] }]),
      'pages[0].code: "p1" is a page of the item bank',
    ],
    [
      'a question code of the bank',
      (v) => (v.pages = [{ code: 'p7', questions: [{ code: 'Q5', type: 'text', required: false }] }]),
      'pages[0].questions[0].code: "Q5" is a question of the item bank',
    ],
    [
      'a dimension scored on two scales',
      (v) => {
        v.scales.agree7 = { points: [1, 2, 3, 4, 5, 6, 7] };
        v.pages = [
          {
            code: 'p7',
            questions: [
              { code: 'X1', type: 'likert', scale: 'agree7', keyed: '+', dimension: 'N', required: true },
            ],
          },
        ];
      },
      'pages[0].questions[0].scale: "N" is scored on scale "agree5": one scale per dimension and facet',
    ],
  ];
  it.each(cases)('rejects %s', (_name, change, expected) => {
    writeBigfive(tmp.root, change);
    expect(messageOf(() => loadVariants([tmp.root]))).toBe(`${file()}: ${expected}`);
  });
});
