import type { Sample } from '@assay/schema';
import type { Static } from 'typebox';
import { notFound } from '../domain/errors.js';
import { renderPersonalReport } from '../pdf/personal-report.js';
import { formatDate } from '../util/dates.js';
import { scoreAnswers } from '../variants/scoring.js';
import { isLanguage, type Language, type Variant, type VariantRegistry } from '../variants/variant.types.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { DEFAULT_COLOR, type RenderedReport, safeFileName } from './report-pdf.js';

/** A made-up participant per language: accented names show that every letter prints. */
const SAMPLE_PEOPLE: Readonly<Record<Language, { firstname: string; lastname: string; comment: string }>> = {
  enUS: {
    firstname: 'Alex',
    lastname: 'Morgan',
    comment: 'Keep the weekly demos; they help everyone see progress.',
  },
  nlNL: {
    firstname: 'Sanne',
    lastname: 'de Vries',
    comment: 'Houd de wekelijkse demo’s: iedereen ziet zo de voortgang.',
  },
  esES: {
    firstname: 'Lucía',
    lastname: 'Fernández',
    comment: 'Mantened las demostraciones semanales: todos ven el avance.',
  },
  frFR: {
    firstname: 'Élodie',
    lastname: 'Lefèvre',
    comment: 'Gardez les démos hebdomadaires : chacun voit les progrès.',
  },
};

/** The moment every sample is dated, so that a sample is the same document on every instance. */
const SAMPLE_DATE = formatDate(new Date(Date.UTC(2026, 0, 15, 10, 0, 0)));

/** A small deterministic generator (mulberry32), seeded by the variant and language. */
function random(seed: string): () => number {
  let state = 0;
  for (const char of seed) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Believable answers for a sample: each dimension leans to its own level (low, middle, high in
 * turn) with some spread, reverse-keyed items answered the other way, so the sample shows every
 * band; choices take an option, free text a comment in the language.
 */
export function syntheticAnswers(
  variant: Variant,
  language: Language,
  seed = 0,
): Record<string, number | string> {
  const next = random(`${variant.alias}:${language}:${seed}`);
  const levels = [0.8, 0.25, 0.55, 0.9, 0.4, 0.65];
  const levelOf = new Map(
    // Seed 0 (the samples) shows every band in turn; other seeds (the demo's people) get a profile each.
    variant.dimensions.map((dimension, i) => [
      dimension.code,
      seed === 0 ? (levels[i % levels.length] as number) : 0.15 + next() * 0.7,
    ]),
  );
  const answers: Record<string, number | string> = {};
  for (const question of variant.questions) {
    if (question.type === 'text') {
      answers[question.code] = SAMPLE_PEOPLE[language].comment;
    } else if (question.type === 'choice') {
      answers[question.code] = question.options[Math.floor(next() * question.options.length)] as
        | number
        | string;
    } else {
      const points = variant.scales[question.scale]?.points ?? [];
      const level = question.dimension === undefined ? 0.5 : (levelOf.get(question.dimension) ?? 0.5);
      const aimed = question.keyed === '-' ? 1 - level : level;
      const position = Math.min(1, Math.max(0, aimed + (next() - 0.5) * 0.5));
      answers[question.code] = points[Math.round(position * (points.length - 1))] as number;
    }
  }
  return answers;
}

/** GET /samples: one sample report per variant and language, with the address of its PDF. */
export function listSamples(variants: VariantRegistry, publicUrl: string): Static<typeof Sample>[] {
  const samples: Static<typeof Sample>[] = [];
  for (const variant of variants.list()) {
    for (const language of variant.languages) {
      samples.push({
        variant: variant.alias,
        language,
        type: 'personal',
        name: variant.texts[language]?.['variant.name'] ?? variant.alias,
        url: `${publicUrl}/api/v1/samples/${encodeURIComponent(variant.alias)}/${language}`,
      });
    }
  }
  return samples;
}

/** The sample PDF of a variant in a language, made from synthetic answers now. */
export async function renderSample(
  variants: VariantRegistry,
  alias: string,
  language: string,
): Promise<RenderedReport> {
  const lookup = lookupVariant(variants, alias);
  if (!lookup.found || !isLanguage(language) || !lookup.variant.languages.includes(language))
    throw notFound('sample');
  const variant = lookup.variant;
  const person = SAMPLE_PEOPLE[language];
  const pdf = await renderPersonalReport({
    variant,
    language,
    member: { title: '', firstname: person.firstname, middlename: '', lastname: person.lastname },
    date: SAMPLE_DATE,
    reportId: 'SAMPLE',
    processed: scoreAnswers(variant, syntheticAnswers(variant, language)),
    agency: { name: 'Assay', footer: '', color: DEFAULT_COLOR },
  });
  return { pdf, filename: safeFileName([variant.alias, 'sample', language]) };
}
