import type { PersonalReportInput } from '../../src/pdf/report-input.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { scoreAnswers } from '../../src/variants/scoring.js';
import type { Language, Variant } from '../../src/variants/variant.types.js';

let builtins: Variant[] | undefined;

/** Where each dimension's answers aim, as a fraction of the scale. */
const AIMS = [1, 0, 0.5, 0.75, 0.25];

/** The built-in variants, loaded once per test file. */
export function builtinVariants(): Variant[] {
  builtins ??= loadVariants([builtinVariantsDir()]).list();
  return builtins;
}

/**
 * Answers that spread the scores over the scale: each dimension aims at its own scale point (high,
 * low, middle, ... in turn, moved by `shift`) and its facets one point below, at or above it, so
 * the dimensions land in different bands and the facets differ. Free-text questions get a comment.
 */
export function syntheticRaw(variant: Variant, shift = 0): Record<string, unknown> {
  const dimensionIndex = new Map(variant.dimensions.map((d, i) => [d.code, i]));
  const raw: Record<string, unknown> = {};
  for (const question of variant.questions) {
    if (question.type === 'text') {
      raw[question.code] = 'Keep the Friday demos.';
      continue;
    }
    if (question.type !== 'likert' || question.dimension === undefined) continue;
    const scale = variant.scales[question.scale];
    if (scale === undefined) continue;
    const d = dimensionIndex.get(question.dimension) ?? 0;
    const facets = variant.dimensions[d]?.facets ?? [];
    const f = question.facet === undefined ? 0 : facets.indexOf(question.facet);
    const points = scale.points;
    const base = Math.round((AIMS[(d + shift) % AIMS.length] as number) * (points.length - 1));
    const spread = question.facet === undefined ? 0 : (f % 3) - 1;
    const index = Math.min(points.length - 1, Math.max(0, base + spread));
    const target = points[index] as number;
    raw[question.code] = question.keyed === '-' ? scale.min + scale.max - target : target;
  }
  return raw;
}

export function reportInput(
  variant: Variant,
  language: Language,
  overrides: Partial<PersonalReportInput> = {},
): PersonalReportInput {
  return {
    variant,
    language,
    member: { title: 'Dr.', firstname: 'Zoë', middlename: '', lastname: 'Ørsted-Núñez' },
    date: '2026-11-22T11:46:36+00:00',
    reportId: 'R7kQ2mX9aB',
    processed: scoreAnswers(variant, syntheticRaw(variant)),
    agency: { name: 'Bureau Élan & Söhne', footer: 'Keizersgracht 1, 1015 CJ Amsterdam', color: '#0b6e4f' },
    instanceName: 'Assay Demo',
    ...overrides,
  };
}
