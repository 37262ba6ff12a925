import type { Question, Variant } from '../variants/variant.types.js';

/** Seconds a participant needs for one item of each type. */
const SECONDS_PER_ITEM: Readonly<Record<Question['type'], number>> = { likert: 8, choice: 10, text: 60 };

/**
 * About how long a variant's questionnaire takes, in minutes: the one figure the invitation and
 * reminder mails and the start page state. Its items' seconds, rounded to five minutes (an
 * estimate, not a promise), at least five; undefined for a variant without questions.
 */
export function questionnaireMinutes(variant: Pick<Variant, 'questions'> | undefined): number | undefined {
  if (!variant || variant.questions.length === 0) return undefined;
  const seconds = variant.questions.reduce((sum, question) => sum + SECONDS_PER_ITEM[question.type], 0);
  return Math.max(5, Math.round(seconds / 300) * 5);
}
