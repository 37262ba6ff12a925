import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { LANGUAGES } from '../../src/variants/variant.types.js';

// No skipping: until the built-in texts exist this suite fails on purpose, naming the missing file.
describe('the built-in variants', () => {
  it('live in <repo>/variants', () => {
    expect(existsSync(join(builtinVariantsDir(), 'bigfive', 'variant.json'))).toBe(true);
  });

  it('load and validate, each in all four languages', () => {
    const registry = loadVariants([builtinVariantsDir()]);
    expect(registry.list().map((v) => v.alias)).toEqual(['bigfive', 'leadership360', 'teamscan']);
    for (const variant of registry.list()) {
      expect([variant.alias, variant.languages]).toEqual([variant.alias, [...LANGUAGES]]);
    }
  });

  it('have every text, non-empty, in every language', () => {
    for (const variant of loadVariants([builtinVariantsDir()]).list()) {
      const keys = new Set(
        variant.languages.flatMap((language) => Object.keys(variant.texts[language] ?? {})),
      );
      for (const language of variant.languages) {
        const texts = variant.texts[language] ?? {};
        const missing = [...keys].filter((key) => (texts[key] ?? '').trim() === '');
        expect([variant.alias, language, missing]).toEqual([variant.alias, language, []]);
        const untexted = variant.questions
          .filter((q) => (q.texts[language] ?? '').trim() === '')
          .map((q) => q.code);
        expect([variant.alias, language, untexted]).toEqual([variant.alias, language, []]);
      }
    }
  });
});
