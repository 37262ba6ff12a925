import { BusinessError } from '../domain/errors.js';
import { isStorableText } from '../util/text.js';
import {
  type ChoiceValue,
  isLanguage,
  type Language,
  type Question,
  type Variant,
} from '../variants/variant.types.js';

/** The longest free-text answer kept (characters): a long paragraph, not a document. */
export const MAX_TEXT_ANSWER = 4000;

/** A set of answers refused: the message names the first question at fault (`answers.Q3: ...`). */
export class AnswerError extends Error {}

const questionMaps = new WeakMap<Variant, Map<string, Question>>();

/** The variant's questions by code (built once per variant). */
export function questionsByCode(variant: Variant): Map<string, Question> {
  let map = questionMaps.get(variant);
  if (map === undefined) {
    map = new Map(variant.questions.map((question) => [question.code, question]));
    questionMaps.set(variant, map);
  }
  return map;
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Checks a participant's answers against the variant and answers them in canonical form (scale
 * points as numbers, text trimmed, blanks left out), in questionnaire order. Every code must be one
 * of the variant's questions, every value valid for its question, and every required question
 * answered; the first problem throws an AnswerError naming the question.
 */
export function checkAnswers(
  variant: Variant,
  answers: unknown,
  options: { requireAll?: boolean } = {},
): Record<string, number | string> {
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    throw new AnswerError('answers: must be an object of answers by question code');
  }
  const byCode = questionsByCode(variant);
  for (const code of Object.keys(answers)) {
    if (!byCode.has(code)) throw new AnswerError(`answers.${code}: unknown question code`);
  }
  const given = answers as Record<string, unknown>;
  const clean: Record<string, number | string> = {};
  for (const question of variant.questions) {
    const value = given[question.code];
    if (isBlank(value)) {
      if (question.required && options.requireAll !== false) {
        throw new AnswerError(`answers.${question.code}: is required`);
      }
      continue;
    }
    clean[question.code] = checkAnswer(variant, question, value);
  }
  if (Object.keys(clean).length === 0) throw new AnswerError('answers: has no answer');
  return clean;
}

/** One answer in canonical form, or an AnswerError naming the question. */
export function checkAnswer(variant: Variant, question: Question, value: unknown): number | string {
  const where = `answers.${question.code}`;
  if (question.type === 'text') {
    if (typeof value !== 'string') throw new AnswerError(`${where}: must be text`);
    const text = value.trim();
    if (!isStorableText(text)) throw new AnswerError(`${where}: contains characters that cannot be stored`);
    if (text.length > MAX_TEXT_ANSWER) {
      throw new AnswerError(`${where}: at most ${MAX_TEXT_ANSWER} characters (got ${text.length})`);
    }
    return text;
  }
  if (question.type === 'likert') {
    const scale = variant.scales[question.scale];
    const points = scale?.points ?? [];
    const n =
      typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    if (!points.includes(n)) throw new AnswerError(`${where}: must be one of ${points.join(', ')}`);
    return n;
  }
  const options = question.options as readonly ChoiceValue[];
  for (const option of options) {
    if (
      option === value ||
      (typeof option === 'number' && typeof value === 'string' && String(option) === value.trim())
    ) {
      return option;
    }
  }
  throw new AnswerError(`${where}: must be one of ${options.join(', ')}`);
}

/** The message of a language the variant does not offer. */
export const languageProblem = (variant: Variant) =>
  `language: must be one of ${variant.languages.join(', ')} (the languages of ${variant.alias})`;

/** `value` as one of the variant's languages (its default when blank), or an ERROR naming the field. */
export function variantLanguage(variant: Variant, value: unknown): Language {
  const language = value === undefined || value === null || value === '' ? variant.defaultLanguage : value;
  if (!isLanguage(language) || !variant.languages.includes(language))
    throw new BusinessError(languageProblem(variant));
  return language;
}
