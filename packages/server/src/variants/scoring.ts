import type {
  Band,
  ChoiceValue,
  Dimension,
  Question,
  Scale,
  ScoringItem,
  ScoringPlan,
  ScoringTarget,
  Variant,
} from './variant.types.js';

export type Processed = Record<string, number | string>;

export interface Verbatim {
  readonly code: string;
  readonly answer: string;
}

interface PlanInput {
  readonly scales: Readonly<Record<string, Scale>>;
  readonly dimensions: readonly Dimension[];
  readonly bands: readonly Band[];
  readonly questions: readonly Question[];
}

// Reused by every call: scoring is synchronous, so no two sheets ever share them at once.
interface Scratch {
  sums: Float64Array;
  counts: Int32Array;
}
const scratchByPlan = new WeakMap<ScoringPlan, Scratch>();

const NO_OPTIONS: ReadonlyMap<ChoiceValue, ChoiceValue> = new Map();
const NO_POINTS = new Uint8Array(0);

/** Builds the per-variant lookup tables; the loader calls it once, after validation. */
export function compileScoring(input: PlanInput): ScoringPlan {
  const targets: ScoringTarget[] = [];
  const targetIndex = new Map<string, number>();
  const scaleOfTarget = new Map<string, Scale>();
  for (const question of input.questions) {
    if (question.type !== 'likert' || question.dimension === undefined) continue;
    const scale = input.scales[question.scale] as Scale;
    scaleOfTarget.set(question.dimension, scale);
    if (question.facet !== undefined) scaleOfTarget.set(question.facet, scale);
  }
  const addTarget = (code: string): void => {
    const scale = scaleOfTarget.get(code);
    targetIndex.set(code, targets.length);
    targets.push({
      code,
      min: scale?.min ?? 0,
      max: scale?.max ?? 1,
      meanKey: `${code}_mean`,
      scoreKey: `${code}_score`,
      bandKey: `${code}_band`,
    });
  };
  for (const dimension of input.dimensions) addTarget(dimension.code);
  for (const dimension of input.dimensions) for (const facet of dimension.facets) addTarget(facet);

  const items: ScoringItem[] = input.questions.map((question) => {
    const item = {
      code: question.code,
      kind: question.type,
      min: 0,
      max: 0,
      valid: NO_POINTS,
      reverse: 0,
      dimension: -1,
      facet: -1,
      options: NO_OPTIONS,
    };
    if (question.type === 'likert') {
      const scale = input.scales[question.scale] as Scale;
      item.min = scale.min;
      item.max = scale.max;
      item.valid = new Uint8Array(scale.max - scale.min + 1);
      for (const point of scale.points) item.valid[point - scale.min] = 1;
      if (question.dimension !== undefined) {
        item.dimension = targetIndex.get(question.dimension) ?? -1;
        if (question.facet !== undefined) item.facet = targetIndex.get(question.facet) ?? -1;
        if (question.keyed === '-') item.reverse = scale.min + scale.max;
      }
    } else if (question.type === 'choice') {
      const options = new Map<ChoiceValue, ChoiceValue>();
      for (const value of question.options) {
        options.set(value, value);
        // Form posts and CSV imports deliver numbers as strings.
        if (typeof value === 'number') options.set(String(value), value);
      }
      item.options = options;
    }
    return item;
  });
  return { items, targets, bands: input.bands };
}

function scratchFor(plan: ScoringPlan): Scratch {
  let scratch = scratchByPlan.get(plan);
  if (scratch === undefined) {
    scratch = { sums: new Float64Array(plan.targets.length), counts: new Int32Array(plan.targets.length) };
    scratchByPlan.set(plan, scratch);
  }
  return scratch;
}

function likertValue(item: ScoringItem, value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    // Only the canonical decimal form ("4", not "04", "4.0" or " 4") counts as a number.
    n = Number(value);
    if (String(n) !== value) return undefined;
  } else return undefined;
  if (!Number.isInteger(n) || n < item.min || n > item.max || item.valid[n - item.min] !== 1)
    return undefined;
  return n;
}

/** The band of a 0-100 score: a boundary belongs to the higher band, 100 to the last. */
export function bandOf(bands: readonly Band[], score: number): string {
  for (let i = bands.length - 1; i > 0; i--) {
    const band = bands[i] as Band;
    if (score >= band.min) return band.code;
  }
  return (bands[0] as Band).code;
}

/**
 * Turns `raw` answers into `processed` as docs/variants.md "Scoring" says: the kept answers in
 * questionnaire order (reverse keying applied, text trimmed), then `<code>_mean`, `_score`, `_band`
 * for each dimension and facet that has at least one answer.
 */
export function scoreAnswers(
  variant: Pick<Variant, 'scoring'>,
  raw: Readonly<Record<string, unknown>>,
): Processed {
  const plan = variant.scoring;
  const { sums, counts } = scratchFor(plan);
  sums.fill(0);
  counts.fill(0);
  const processed: Processed = {};
  for (const item of plan.items) {
    const value = raw[item.code];
    if (value === undefined || value === null) continue;
    if (item.kind === 'likert') {
      let n = likertValue(item, value);
      if (n === undefined) continue;
      if (item.reverse !== 0) n = item.reverse - n;
      processed[item.code] = n;
      if (item.dimension >= 0) {
        (sums[item.dimension] as number) += n;
        (counts[item.dimension] as number)++;
      }
      if (item.facet >= 0) {
        (sums[item.facet] as number) += n;
        (counts[item.facet] as number)++;
      }
    } else if (item.kind === 'text') {
      if (typeof value !== 'string') continue;
      const text = value.trim();
      if (text !== '') processed[item.code] = text;
    } else {
      const option = item.options.get(value as ChoiceValue);
      if (option !== undefined) processed[item.code] = option;
    }
  }
  const { targets, bands } = plan;
  for (let t = 0; t < targets.length; t++) {
    const count = counts[t] as number;
    if (count === 0) continue;
    const target = targets[t] as ScoringTarget;
    const sum = sums[t] as number;
    // Integer numerators and denominators, divided once, so halves round as written (62.5, not 62.49999).
    processed[target.meanKey] = Math.round((sum * 100) / count) / 100;
    const score = Math.round(((sum - target.min * count) * 1000) / ((target.max - target.min) * count)) / 10;
    processed[target.scoreKey] = score;
    processed[target.bandKey] = bandOf(bands, score);
  }
  return processed;
}

/** The free-text answers of a processed sheet, in questionnaire order. */
export function verbatims(
  variant: Pick<Variant, 'scoring'>,
  processed: Readonly<Record<string, unknown>>,
): Verbatim[] {
  const result: Verbatim[] = [];
  for (const item of variant.scoring.items) {
    if (item.kind !== 'text') continue;
    const answer = processed[item.code];
    if (typeof answer === 'string' && answer !== '') result.push({ code: item.code, answer });
  }
  return result;
}
