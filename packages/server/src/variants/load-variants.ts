import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { itemBanks } from './item-banks/item-banks.js';
import { Checker, readJsonFile } from './json-checks.js';
import { compileScoring } from './scoring.js';
import type { Language, Page, Question, Variant, VariantRegistry } from './variant.types.js';
import { parseVariantJson, type VariantStructure } from './variant-structure.js';
import { loadTexts, requiredTextKeys } from './variant-texts.js';

/** `<repo>/variants`: the same four levels up from src/variants/*.ts and from dist/variants/*.js. */
export function builtinVariantsDir(): string {
  return fileURLToPath(new URL('../../../../variants', import.meta.url));
}

/**
 * Loads the built-in variants and the customer's (`ASSAY_VARIANTS_DIR`); a broken definition throws
 * one line naming it.
 */
export function loadInstanceVariants(config: Pick<Config, 'variantsDir'>): VariantRegistry {
  return loadVariants(
    config.variantsDir ? [builtinVariantsDir(), config.variantsDir] : [builtinVariantsDir()],
  );
}

/**
 * Loads every variant folder of each dir, in order; a later dir's variant replaces an earlier one
 * with the same alias. Throws VariantDefinitionError on the first problem found.
 */
export function loadVariants(dirs: readonly string[]): VariantRegistry {
  const byAlias = new Map<string, Variant>();
  for (const dir of dirs) {
    const absolute = resolve(dir);
    let names: string[];
    try {
      names = readdirSync(absolute, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return new Checker(absolute).fail('folder', code === 'ENOENT' ? 'missing' : `unreadable (${code})`);
    }
    for (const name of names) {
      const variant = loadVariant(join(absolute, name));
      byAlias.set(variant.alias, variant);
    }
  }
  const sorted = [...byAlias.values()].sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  return {
    list: () => [...sorted],
    get: (alias) => byAlias.get(alias),
  };
}

/** Loads and validates one variant folder. */
export function loadVariant(dir: string): Variant {
  const absolute = resolve(dir);
  const file = join(absolute, 'variant.json');
  const c = new Checker(file);
  const structure = parseVariantJson(file, readJsonFile(file));
  if (structure.alias !== basename(absolute)) {
    c.fail(
      'alias',
      `${JSON.stringify(structure.alias)} does not match the folder name "${basename(absolute)}"`,
    );
  }

  const bankPages = structure.itemBank === undefined ? [] : loadBank(c, structure);
  const bankCodes = new Set(bankPages.flatMap((page) => page.questions.map((q) => q.code)));
  const pages = [...bankPages, ...structure.pages];
  checkAcrossPages(c, structure, bankPages);

  const required = requiredTextKeys(structure, pages, bankCodes);
  const texts = loadTexts(absolute, structure.languages, required);

  const withTexts: Page[] = pages.map((page) => ({
    code: page.code,
    questions: page.questions.map((question): Question => {
      const own: Partial<Record<Language, string>> = { ...question.texts };
      for (const language of structure.languages) {
        const text = texts[language]?.[`q.${question.code}`];
        // A text file may reword an item-bank question; the bank's text is the fallback.
        if (text !== undefined) own[language] = text;
      }
      return { ...question, texts: own };
    }),
  }));
  const questions = withTexts.flatMap((page) => page.questions);
  const base = { ...structure, dir: absolute, pages: withTexts, questions, texts };
  return { ...base, scoring: compileScoring(base) };
}

function loadBank(c: Checker, structure: VariantStructure): Page[] {
  const name = structure.itemBank?.adapter as string;
  const adapter = itemBanks[name];
  if (adapter === undefined) {
    c.fail('itemBank.adapter', `unknown item bank "${name}" (known: ${Object.keys(itemBanks).join(', ')})`);
  }
  for (const [i, language] of structure.languages.entries()) {
    if (!adapter.languages.includes(language)) {
      c.fail(`languages[${i}]`, `item bank "${name}" has no ${language} texts`);
    }
  }
  for (const [code, points] of Object.entries(adapter.scales)) {
    const scale = structure.scales[code];
    if (scale === undefined || scale.points.join() !== points.join()) {
      c.fail(`scales.${code}`, `item bank "${name}" needs this scale with points [${points.join(', ')}]`);
    }
  }
  const facetOwner = new Map<string, string>();
  for (const dimension of structure.dimensions)
    for (const f of dimension.facets) facetOwner.set(f, dimension.code);
  const dimensionCodes = new Set(structure.dimensions.map((d) => d.code));
  const pages = adapter.pages(structure.languages);
  for (const page of pages) {
    for (const question of page.questions) {
      const where = `item bank "${name}" question ${question.code}`;
      if (question.dimension !== undefined && !dimensionCodes.has(question.dimension)) {
        c.fail('dimensions', `${where} needs dimension "${question.dimension}"`);
      }
      if (question.facet !== undefined && facetOwner.get(question.facet) !== question.dimension) {
        c.fail('dimensions', `${where} needs facet "${question.facet}" in dimension "${question.dimension}"`);
      }
    }
  }
  return pages;
}

/** Rules that span pages: codes unique with the bank's, one scale per score, no key collisions, no unscored dimension. */
function checkAcrossPages(c: Checker, structure: VariantStructure, bankPages: readonly Page[]): void {
  const pageCodes = new Set(bankPages.map((page) => page.code));
  const questionCodes = new Set(bankPages.flatMap((page) => page.questions.map((q) => q.code)));
  const scoreKeys = new Set<string>();
  for (const dimension of structure.dimensions) {
    for (const code of [dimension.code, ...dimension.facets]) {
      for (const suffix of ['_mean', '_score', '_band']) scoreKeys.add(code + suffix);
    }
  }
  const scaleOf = new Map<string, string>();
  for (const page of bankPages) for (const q of page.questions) recordScale(scaleOf, q);
  structure.pages.forEach((page, p) => {
    if (pageCodes.has(page.code)) c.fail(`pages[${p}].code`, `"${page.code}" is a page of the item bank`);
    page.questions.forEach((question, q) => {
      const place = `pages[${p}].questions[${q}]`;
      if (questionCodes.has(question.code)) {
        c.fail(`${place}.code`, `"${question.code}" is a question of the item bank`);
      }
      if (scoreKeys.has(question.code)) {
        c.fail(`${place}.code`, `"${question.code}" collides with a score key of processed answers`);
      }
      if (question.type !== 'likert' || question.dimension === undefined) return;
      for (const code of [question.dimension, question.facet]) {
        if (code === undefined) continue;
        const scale = scaleOf.get(code);
        if (scale !== undefined && scale !== question.scale) {
          c.fail(
            `${place}.scale`,
            `"${code}" is scored on scale "${scale}": one scale per dimension and facet`,
          );
        }
      }
      recordScale(scaleOf, question);
    });
  });
  // A dimension nothing counts for would never get a score, and its report section would stay empty.
  structure.dimensions.forEach((dimension, d) => {
    if (!scaleOf.has(dimension.code))
      c.fail(`dimensions[${d}].code`, `no question counts for "${dimension.code}"`);
    dimension.facets.forEach((facet, f) => {
      if (!scaleOf.has(facet))
        c.fail(`dimensions[${d}].facets[${f}].code`, `no question counts for "${facet}"`);
    });
  });
}

function recordScale(scaleOf: Map<string, string>, question: Question): void {
  if (question.type !== 'likert' || question.dimension === undefined) return;
  if (!scaleOf.has(question.dimension)) scaleOf.set(question.dimension, question.scale);
  if (question.facet !== undefined && !scaleOf.has(question.facet))
    scaleOf.set(question.facet, question.scale);
}
