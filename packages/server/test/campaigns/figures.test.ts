import { describe, expect, it } from 'vitest';
import { median, pageReached, pagesByCode } from '../../src/campaigns/figures.service.js';
import { campaignStrings } from '../../src/console/campaign-strings.js';
import { durationText } from '../../src/console/views/campaign.view.js';
import { answeredCodes, parseAnswers } from '../../src/questionnaire/questionnaire.repository.js';

// The pieces of "how answering goes" (campaigns/figures.service.ts) that need no database; the
// campaign page's test shows them from real participations on both engines.

const variant = {
  pages: [
    { code: 'p1', questions: [{ code: 'Q1' }, { code: 'Q2' }] },
    { code: 'p2', questions: [{ code: 'Q3' }] },
    { code: 'p3', questions: [{ code: 'Q4' }, { code: 'Remarks1' }] },
  ],
} as unknown as Parameters<typeof pagesByCode>[0];
const pages = pagesByCode(variant);
const reached = (answers: Record<string, unknown>) =>
  pageReached(pages, answeredCodes(JSON.stringify(answers)));

describe('campaign figures', () => {
  it('takes the median of an odd and an even count, and of none', () => {
    expect(median([])).toBeUndefined();
    expect(median([7])).toBe(7);
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
  });

  it('places an unfinished member on the page after the last one with an answer', () => {
    expect(reached({})).toBe(0);
    expect(reached({ Q2: 3 })).toBe(1);
    // A page skipped (its answers optional) does not hold a member back.
    expect(reached({ Q1: 1, Remarks1: 'x' })).toBe(3);
    expect(reached({ Q3: 2 })).toBe(2);
    // Codes the variant does not ask (an older version's) count for nothing.
    expect(reached({ Q99: 1 })).toBe(0);
  });

  it('reads the answered codes as parseAnswers keeps the answers, whatever the text', () => {
    for (const text of [
      '{"Q1":3,"Q2":"x","Q3":null,"Q4":[1],"Q5":{"a":1},"Q6":true}',
      '{"Q1": 3, "Remarks1": "a \\"Q9\\": quote"}',
      '{}',
      '[]',
      'null',
      '"text"',
      'not json',
      '',
    ]) {
      expect(answeredCodes(text), text).toEqual(Object.keys(parseAnswers(text)));
    }
  });

  it('words a duration as under a minute, minutes, or hours and minutes', () => {
    const s = campaignStrings('enUS');
    expect(durationText('enUS', s, 20)).toBe('under a minute');
    expect(durationText('enUS', s, 90)).toBe('2 min');
    expect(durationText('enUS', s, 59 * 60)).toBe('59 min');
    expect(durationText('enUS', s, 3600)).toBe('1 h 0 min');
    expect(durationText('enUS', s, 2 * 3600 + 25 * 60)).toBe('2 h 25 min');
    expect(durationText('nlNL', campaignStrings('nlNL'), 2 * 3600 + 25 * 60)).toBe('2 u 25 min');
  });
});
