import { createRequire } from 'node:module';
import type { BankPage, BankQuestion, ItemBankAdapter, Language } from '../variant.types.js';

interface PackageQuestion {
  readonly domain: string;
  readonly facet: number;
  readonly keyed: string;
  readonly text: string;
}

interface BigFivePackage {
  getQuestions(lang: string): readonly PackageQuestion[];
}

const packageLanguage: Readonly<Record<Language, string>> = {
  enUS: 'en',
  nlNL: 'nl',
  esES: 'es',
  frFR: 'fr',
};

const PAGE_SIZE = 20;
const SCALE = 'agree5';

// The package is CommonJS; getQuestions (unlike getItems) hands out its data without mutating it.
const require = createRequire(import.meta.url);
let bank: BigFivePackage | undefined;
function loadPackage(): BigFivePackage {
  bank ??= require('@bigfive-org/questions') as BigFivePackage;
  return bank;
}

function keyedOf(keyed: string, num: number): '+' | '-' {
  if (keyed === 'plus') return '+';
  if (keyed === 'minus') return '-';
  throw new Error(`@bigfive-org/questions: item ${num} has keyed "${keyed}"`);
}

/**
 * Johnson's 120-item IPIP-NEO-PI-R from `@bigfive-org/questions`: Q1..Q120 by the package's item
 * order, domain letter as dimension, `<domain><facet>` as facet, six pages of twenty items.
 */
export const bigfiveOrg: ItemBankAdapter = {
  name: 'bigfive-org',
  languages: ['enUS', 'nlNL', 'esES', 'frFR'],
  scales: { [SCALE]: [1, 2, 3, 4, 5] },
  pages(languages: readonly Language[]): BankPage[] {
    const pkg = loadPackage();
    const base = pkg.getQuestions('en');
    const translated = languages.map((language) => {
      const items = pkg.getQuestions(packageLanguage[language]);
      if (items.length !== base.length) {
        throw new Error(`@bigfive-org/questions: ${items.length} items in ${language}, ${base.length} in en`);
      }
      return items;
    });
    const questions: BankQuestion[] = base.map((item, i) => {
      const num = i + 1;
      const texts: Partial<Record<Language, string>> = {};
      languages.forEach((language, l) => {
        const other = translated[l]?.[i];
        if (other === undefined || other.domain !== item.domain || other.facet !== item.facet) {
          throw new Error(`@bigfive-org/questions: item ${num} differs between en and ${language}`);
        }
        texts[language] = other.text.trim();
      });
      return {
        code: `Q${num}`,
        page: `p${Math.floor(i / PAGE_SIZE) + 1}`,
        type: 'likert',
        scale: SCALE,
        keyed: keyedOf(item.keyed, num),
        dimension: item.domain,
        facet: `${item.domain}${item.facet}`,
        required: true,
        texts,
      };
    });
    const pages: BankPage[] = [];
    for (let start = 0; start < questions.length; start += PAGE_SIZE) {
      pages.push({ code: `p${pages.length + 1}`, questions: questions.slice(start, start + PAGE_SIZE) });
    }
    return pages;
  },
};
