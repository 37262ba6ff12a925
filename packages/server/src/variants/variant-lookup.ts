import type { Variant, VariantRegistry } from './variant.types.js';

/** The answer of `lookupVariant`: the variant, or that no installed variant has the alias. */
export type VariantLookup =
  | { readonly found: true; readonly variant: Variant }
  | { readonly found: false; readonly alias: string; readonly installed: readonly string[] };

/**
 * The one lookup of a variant that a caller names (in a path, a body, a stored row). Each caller
 * maps a miss to its own answer, as the interface records it: a 404 for a path
 * (`/reports/import/{variant}`, `/settings/variants/{alias}`), a business `ERROR` for a body field
 * (`POST /reports`, `/reports/summary`, `/campaigns`).
 */
export function lookupVariant(variants: VariantRegistry, alias: string): VariantLookup {
  const variant = variants.get(alias);
  if (variant) return { found: true, variant };
  return { found: false, alias, installed: variants.list().map((entry) => entry.alias) };
}
