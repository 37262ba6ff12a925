import type { GroupReportInput, GroupReportSheet } from '../../src/pdf/group-input.js';
import type { PersonalReportInput, ReportMember } from '../../src/pdf/report-input.js';
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

/** Names that test extraction: accents, ligature-prone letters, markup, a middle name. */
export const GROUP_NAMES: readonly ReportMember[] = [
  { title: 'Dr.', firstname: 'Zoë', middlename: '', lastname: 'Ørsted-Núñez' },
  { title: '', firstname: 'Jan', middlename: 'van der', lastname: 'Berg' },
  { title: '', firstname: 'Ægir', middlename: '', lastname: 'Þórsson' },
  { title: '', firstname: 'Chloé', middlename: '', lastname: 'Lefèvre' },
  { title: '', firstname: '<script>alert(1)</script>', middlename: '', lastname: 'Smith & Co' },
  { title: '', firstname: 'Núria', middlename: '', lastname: 'García López' },
  { title: '', firstname: 'Łucja', middlename: '', lastname: 'Kowalczyk' },
  { title: '', firstname: 'Siobhán', middlename: '', lastname: 'Ó Briain' },
  { title: '', firstname: 'Björn', middlename: '', lastname: 'Müller' },
  { title: '', firstname: 'Inès', middlename: '', lastname: 'Dubois' },
];

/**
 * `count` scored sheets: each member answers like `syntheticRaw` with its own shift (so the
 * dimensions spread over the bands differently per member) and writes a comment of its own to
 * every free-text question. Names come from GROUP_NAMES, numbered beyond its length.
 */
export function groupSheets(
  variant: Variant,
  count: number,
  options: { readonly roles?: readonly (string | undefined)[]; readonly prefix?: string } = {},
): GroupReportSheet[] {
  const prefix = options.prefix ?? 'S';
  return Array.from({ length: count }, (_, i) => {
    const raw = syntheticRaw(variant, i);
    for (const question of variant.questions) {
      if (question.type === 'text') raw[question.code] = `${prefix}${i} says ${question.code}.`;
    }
    const base = GROUP_NAMES[i % GROUP_NAMES.length] as ReportMember;
    const member =
      i < GROUP_NAMES.length
        ? base
        : { ...base, lastname: `${base.lastname} ${Math.floor(i / GROUP_NAMES.length)}` };
    const role = options.roles?.[i];
    return {
      reportId: `${prefix}${i}x`,
      member,
      date: '2026-11-20T09:00:00+00:00',
      processed: scoreAnswers(variant, raw),
      ...(role === undefined ? {} : { role }),
    };
  });
}

export function groupInput(
  variant: Variant,
  language: Language,
  type: GroupReportInput['type'],
  overrides: Partial<GroupReportInput> = {},
): GroupReportInput {
  return {
    type,
    variant,
    language,
    name: 'Team Ørsted 2026',
    date: '2026-11-22T11:46:36+00:00',
    reportId: 'G7kQ2mX9aB',
    agency: { name: 'Bureau Élan & Söhne', footer: 'Keizersgracht 1, 1015 CJ Amsterdam', color: '#0b6e4f' },
    instanceName: 'Assay Demo',
    sheets: groupSheets(variant, 10),
    excludedVerbatims: new Set(),
    ...overrides,
  };
}
