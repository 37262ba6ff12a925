import { describe, expect, it } from 'vitest';
import type { Variant, VariantRegistry } from '../../src/variants/variant.types.js';
import { lookupVariant } from '../../src/variants/variant-lookup.js';

const registry = (...aliases: string[]): VariantRegistry => {
  const variants = aliases.map((alias) => ({ alias }) as Variant);
  return { list: () => variants, get: (alias) => variants.find((variant) => variant.alias === alias) };
};

describe('lookupVariant', () => {
  it('finds an installed variant by its alias', () => {
    const found = lookupVariant(registry('bigfive', 'pulse'), 'pulse');
    expect(found.found && found.variant.alias).toBe('pulse');
  });

  it('answers a miss with the alias asked and the installed ones, for the caller to word', () => {
    expect(lookupVariant(registry('bigfive', 'pulse'), 'Bigfive')).toEqual({
      found: false,
      alias: 'Bigfive',
      installed: ['bigfive', 'pulse'],
    });
  });
});
