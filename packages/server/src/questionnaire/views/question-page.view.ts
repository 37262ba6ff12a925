import { fill, stringsFor } from '../../pages/strings.js';
import { MAX_TEXT_ANSWER } from '../../reports/answers.js';
import type { Question } from '../../variants/variant.types.js';
import type { AnswerProblem, PageSubmission, Participation } from '../questionnaire.service.js';
import { chromeOf, type PagePaths, type PageView } from './page-view.js';

/** One question as the page shows it: a fieldset of radios, or a text area. */
export interface QuestionModel {
  readonly textarea: boolean;
  readonly id: string;
  readonly name: string;
  readonly legend: string;
  readonly hint?: string;
  readonly optional?: boolean;
  readonly error: string | undefined;
  readonly value?: string;
  readonly options?: readonly { id: string; value: string; label: string; checked: boolean }[];
}

/**
 * The words of a question for this participant: in a 360 the subject reads it about themself, a
 * rater about the subject by first name; everyone else the neutral text.
 */
export function questionText(participation: Participation, question: Question): string {
  const { variant, language } = participation;
  const texts = variant.texts[language] ?? {};
  const personal =
    participation.role === 'self'
      ? texts[`q.${question.code}.self`]
      : participation.subjectName !== undefined
        ? texts[`q.${question.code}.rater`]?.replaceAll('{subject}', participation.subjectName)
        : undefined;
  return personal ?? question.texts[language] ?? texts[`q.${question.code}`] ?? question.code;
}

/** A question with the answer typed (a page shown again) or saved, and its problem if any. */
export function questionModel(
  participation: Participation,
  question: Question,
  submission: PageSubmission | undefined,
  problem: AnswerProblem | undefined,
): QuestionModel {
  const { variant, language } = participation;
  const texts = variant.texts[language] ?? {};
  const t = stringsFor(language);
  const legend = questionText(participation, question);
  const error = problem
    ? problem.kind === 'too-long'
      ? fill(t.textTooLong, { max: MAX_TEXT_ANSWER, question: legend })
      : fill(t.selectAnswer, { question: legend })
    : undefined;
  const typed = submission?.typed[question.code];
  const saved = participation.answers[question.code];
  const current = typed ?? (saved === undefined ? '' : String(saved));
  const id = `q-${question.code}`;
  if (question.type === 'text') {
    return {
      textarea: true,
      id,
      name: question.code,
      legend,
      hint: fill(t.textLimit, { max: MAX_TEXT_ANSWER }),
      optional: !question.required,
      error,
      value: current,
    };
  }
  const points =
    question.type === 'likert' ? (variant.scales[question.scale]?.points ?? []) : question.options;
  const label = (point: string | number) =>
    (question.type === 'likert'
      ? texts[`scale.${question.scale}.${point}`]
      : texts[`choice.${question.code}.${point}`]) ?? String(point);
  return {
    textarea: false,
    id,
    name: question.code,
    legend,
    error,
    options: points.map((point, i) => ({
      id: i === 0 ? id : `${id}-${i + 1}`,
      value: String(point),
      label: label(point),
      checked: current === String(point),
    })),
  };
}

/** The answer a check page shows for a question. */
export const answerOf = (model: QuestionModel) =>
  model.textarea ? (model.value ?? '') : (model.options?.find((option) => option.checked)?.label ?? '');

/**
 * Page `number` (1-based, in range) of the questionnaire: its questions with what was typed or
 * saved, an error summary for the problems of a page sent, "Page n of m" above the heading, and
 * a way back (to the check page when the participant came from it).
 */
export function questionPageView(
  participation: Participation,
  number: number,
  paths: PagePaths,
  csrf: string,
  submission?: PageSubmission,
  fromCheck = false,
): PageView {
  const { variant, language, member } = participation;
  const texts = variant.texts[language] ?? {};
  const base = chromeOf(participation);
  const current = variant.pages[number - 1];
  if (!current) throw new RangeError(`page ${number} of ${variant.pages.length}`);
  const heading = texts[`page.${current.code}.title`] ?? base.serviceName;
  const problems = new Map((submission?.problems ?? []).map((problem) => [problem.code, problem]));
  const questions = current.questions.map((question) =>
    questionModel(participation, question, submission, problems.get(question.code)),
  );
  const errors = questions.flatMap((question) =>
    question.error ? [{ href: `#${question.id}`, text: question.error }] : [],
  );
  const backHref = fromCheck
    ? paths.q(member.token, '/check')
    : paths.q(member.token, number > 1 ? `/page/${number - 1}` : '');
  return {
    template: 'question-page',
    model: {
      ...base,
      title: heading,
      errors: errors.length > 0 ? errors : undefined,
      backHref,
      caption: fill(base.t.pageOf, { page: number, pages: variant.pages.length }),
      heading,
      action: paths.q(member.token, `/page/${number}`),
      csrf,
      returnTo: fromCheck ? 'check' : undefined,
      questions,
    },
  };
}

/** Every answer per page, each with a "Change" link that comes back here; "Confirm and send". */
export function checkView(participation: Participation, paths: PagePaths, csrf: string): PageView {
  const { variant, language, member } = participation;
  const texts = variant.texts[language] ?? {};
  const base = chromeOf(participation);
  const sections = variant.pages.map((current, index) => ({
    title:
      texts[`page.${current.code}.title`] ??
      fill(base.t.pageOf, { page: index + 1, pages: variant.pages.length }),
    rows: current.questions.map((question) => {
      const model = questionModel(participation, question, undefined, undefined);
      return {
        question: model.legend,
        answer: answerOf(model),
        href: paths.q(member.token, `/page/${index + 1}?return=check#${model.id}`),
        hidden: fill(base.t.changeHidden, { question: model.legend }),
      };
    }),
  }));
  return {
    template: 'check',
    model: {
      ...base,
      title: base.t.checkTitle,
      backHref: paths.q(member.token, `/page/${variant.pages.length}`),
      sections,
      action: paths.q(member.token, '/check'),
      csrf,
    },
  };
}
