import type { SummaryResult } from '@assay/schema';
import type { Language, Variant } from '../variants/variant.types.js';

/** What a summary needs of one personal report: the answers as given and the scored sheet. */
export interface Sheet {
  readonly raw: Readonly<Record<string, unknown>>;
  readonly processed: Readonly<Record<string, unknown>>;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Running n, mean and sum of squares (Welford), so a thousand sheets cost one pass. */
class Accumulator {
  n = 0;
  private mean = 0;
  private m2 = 0;
  readonly distribution: Record<string, number> = {};

  add(value: number, bucket: string): void {
    this.n++;
    const delta = value - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (value - this.mean);
    this.distribution[bucket] = (this.distribution[bucket] ?? 0) + 1;
  }

  count(bucket: string): void {
    this.n++;
    this.distribution[bucket] = (this.distribution[bucket] ?? 0) + 1;
  }

  /** Mean and sample standard deviation (n - 1), two decimals; null where undefined. */
  result(numeric: boolean) {
    return {
      n: this.n,
      mean: numeric && this.n > 0 ? round2(this.mean) : null,
      sd: numeric && this.n > 1 ? round2(Math.sqrt(this.m2 / (this.n - 1))) : null,
      distribution: this.distribution,
    };
  }
}

/**
 * Statistics per dimension and facet (over the 0-100 scores; the distribution counts the score
 * bands) and per scored or choice question (over the answers as given; the distribution counts each
 * scale point or option, zeros included). Free-text questions are left to the verbatims.
 */
export function summarize(variant: Variant, language: Language, sheets: readonly Sheet[]): SummaryResult {
  const texts = variant.texts[language] ?? {};
  const text = (key: string) => texts[key] ?? key;
  const targets: { code: string; name: string; parent: string | null }[] = [];
  for (const dimension of variant.dimensions) {
    targets.push({ code: dimension.code, name: text(`dimension.${dimension.code}.name`), parent: null });
    for (const facet of dimension.facets) {
      targets.push({ code: facet, name: text(`facet.${facet}.name`), parent: dimension.code });
    }
  }
  const bandCodes = variant.bands.map((band) => band.code);
  const targetStats = targets.map(() => {
    const accumulator = new Accumulator();
    for (const band of bandCodes) accumulator.distribution[band] = 0;
    return accumulator;
  });
  const questions = variant.questions.filter((question) => question.type !== 'text');
  const questionStats = questions.map((question) => {
    const accumulator = new Accumulator();
    const buckets =
      question.type === 'likert'
        ? (variant.scales[question.scale]?.points ?? [])
        : question.type === 'choice'
          ? question.options
          : [];
    for (const bucket of buckets) accumulator.distribution[String(bucket)] = 0;
    return accumulator;
  });
  for (const sheet of sheets) {
    for (let t = 0; t < targets.length; t++) {
      const score = sheet.processed[`${(targets[t] as { code: string }).code}_score`];
      if (typeof score !== 'number') continue;
      const band = sheet.processed[`${(targets[t] as { code: string }).code}_band`];
      (targetStats[t] as Accumulator).add(score, typeof band === 'string' ? band : '');
    }
    for (let q = 0; q < questions.length; q++) {
      const question = questions[q] as (typeof questions)[number];
      const value = sheet.raw[question.code];
      if (value === undefined || value === null || value === '') continue;
      const accumulator = questionStats[q] as Accumulator;
      if (typeof value === 'number') accumulator.add(value, String(value));
      else accumulator.count(String(value));
    }
  }
  return {
    variant: variant.alias,
    language,
    n: sheets.length,
    dimensions: targets.map((target, t) => ({ ...target, ...(targetStats[t] as Accumulator).result(true) })),
    questions: questions.map((question, q) => ({
      code: question.code,
      question: question.texts[language] ?? text(`q.${question.code}`),
      dimension: question.type === 'likert' ? (question.dimension ?? null) : null,
      ...(questionStats[q] as Accumulator).result(
        question.type === 'likert' ||
          (question.type === 'choice' && question.options.every((o) => typeof o === 'number')),
      ),
    })),
  };
}
