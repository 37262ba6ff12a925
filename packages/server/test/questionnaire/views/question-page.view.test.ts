import { describe, expect, it } from 'vitest';
import {
  answerOf,
  checkView,
  questionModel,
  questionPageView,
  questionText,
} from '../../../src/questionnaire/views/question-page.view.js';
import type { Question } from '../../../src/variants/variant.types.js';
import { participation, paths, TOKEN, variant } from '../fixtures.js';

const q1 = variant('leadership360').pages[0]?.questions[0] as Question;
const remarks = variant('leadership360').pages[3]?.questions[0] as Question;

describe('questionText', () => {
  it('speaks to the subject in the first person, to a rater about the subject, else neutrally', () => {
    expect(questionText(participation('leadership360', 'enUS', { role: 'self' }), q1)).toBe(
      'I explain clearly where the team is heading and why.',
    );
    expect(
      questionText(participation('leadership360', 'enUS', { role: 'peer', subjectName: 'Zoë' }), q1),
    ).toBe('Zoë explains clearly where the team is heading and why.');
    expect(questionText(participation('leadership360', 'enUS'), q1)).toBe(
      'This person explains clearly where the team is heading and why.',
    );
  });
});

describe('questionModel', () => {
  it('offers the scale points as radios labelled in the language, the saved answer checked', () => {
    const model = questionModel(
      participation('leadership360', 'nlNL', { answers: { Q1: 4 } }),
      q1,
      undefined,
      undefined,
    );
    expect(model.textarea).toBe(false);
    expect(model.options?.map((option) => option.value)).toEqual(['1', '2', '3', '4', '5']);
    expect(model.options?.map((option) => option.id)).toEqual([
      'q-Q1',
      'q-Q1-2',
      'q-Q1-3',
      'q-Q1-4',
      'q-Q1-5',
    ]);
    expect(model.options?.filter((option) => option.checked).map((option) => option.value)).toEqual(['4']);
    expect(model.error).toBeUndefined();
  });

  it('shows what was typed over what is saved, and names the question in its error', () => {
    const shown = participation('leadership360', 'enUS', { answers: { Remarks1: 'saved' } });
    const submission = { answers: {}, typed: { Remarks1: 'x'.repeat(4001) }, problems: [] };
    const model = questionModel(shown, remarks, submission, { code: 'Remarks1', kind: 'too-long' });
    expect(model.textarea).toBe(true);
    expect(model.value).toBe('x'.repeat(4001));
    expect(model.hint).toBe('You can enter up to 4000 characters.');
    expect(model.error).toContain('4000');
    expect(model.error).toContain(model.legend);
    const missing = questionModel(shown, q1, undefined, { code: 'Q1', kind: 'missing' });
    expect(missing.error).toBe(`Select an answer for: ${missing.legend}`);
  });

  it('answers the check page with the label of the point chosen, or the text', () => {
    const shown = participation('leadership360', 'enUS', { answers: { Q1: 5, Remarks1: 'Well done' } });
    expect(answerOf(questionModel(shown, q1, undefined, undefined))).toBe(
      questionModel(shown, q1, undefined, undefined).options?.[4]?.label,
    );
    expect(answerOf(questionModel(shown, remarks, undefined, undefined))).toBe('Well done');
  });
});

describe('questionPageView', () => {
  it('has a caption "Page n of m", the page title as heading, and goes back a page', () => {
    const { template, model } = questionPageView(participation('leadership360', 'enUS'), 2, paths, 'csrf');
    expect(template).toBe('question-page');
    expect(model.caption).toBe('Page 2 of 4');
    expect(model.heading).toBe(model.title);
    expect(model.backHref).toBe(`/survey/q/${TOKEN}/page/1`);
    expect(model.action).toBe(`/survey/q/${TOKEN}/page/2`);
    expect(model.csrf).toBe('csrf');
    expect(model.errors).toBeUndefined();
    expect(model.returnTo).toBeUndefined();
  });

  it('goes back to the start page from page 1, and to the check page when it came from there', () => {
    expect(questionPageView(participation('teamscan', 'enUS'), 1, paths, 'c').model.backHref).toBe(
      `/survey/q/${TOKEN}`,
    );
    const fromCheck = questionPageView(
      participation('teamscan', 'enUS'),
      2,
      paths,
      'c',
      undefined,
      true,
    ).model;
    expect(fromCheck.backHref).toBe(`/survey/q/${TOKEN}/check`);
    expect(fromCheck.returnTo).toBe('check');
  });

  it('links each problem of a page sent to its question', () => {
    const submission = { answers: {}, typed: {}, problems: [{ code: 'Q2', kind: 'missing' as const }] };
    const { model } = questionPageView(participation('leadership360', 'frFR'), 1, paths, 'c', submission);
    expect(model.errors).toEqual([
      { href: '#q-Q2', text: expect.stringContaining('Choisissez une réponse') },
    ]);
  });

  it('refuses a page the variant does not have', () => {
    expect(() => questionPageView(participation('teamscan', 'enUS'), 9, paths, 'c')).toThrow(RangeError);
  });
});

describe('checkView', () => {
  it('lists every answer per page with a Change link back to its question', () => {
    const answers = Object.fromEntries(
      variant('teamscan').questions.map((question) => [question.code, question.type === 'text' ? 'ok' : 3]),
    );
    const { template, model } = checkView(participation('teamscan', 'esES', { answers }), paths, 'c');
    expect(template).toBe('check');
    const sections = model.sections as {
      title: string;
      rows: { href: string; hidden: string; answer: string }[];
    }[];
    expect(sections).toHaveLength(variant('teamscan').pages.length);
    const first = sections[0]?.rows[0];
    expect(first?.href).toMatch(new RegExp(`^/survey/q/${TOKEN}/page/1\\?return=check#q-`));
    expect(first?.hidden).toMatch(/^tu respuesta a: /);
    expect(first?.answer).not.toBe('');
    expect(model.backHref).toBe(`/survey/q/${TOKEN}/page/${sections.length}`);
  });
});
