import { describe, expect, it } from 'vitest';
import {
  buildFeedbackModel,
  DEVELOPMENT_BELOW,
  EXEMPT_GROUPS,
  GAP_ALIGNED_BELOW,
  GAP_LARGE_FROM,
  MIN_GROUP_RESPONSES,
  raterGroupOf,
  STRENGTH_FROM,
} from '../../src/pdf/feedback-model.js';
import type { GroupReportSheet } from '../../src/pdf/group-input.js';
import type { Variant } from '../../src/variants/variant.types.js';
import { builtinVariants, groupInput } from './report-fixtures.js';

const lead = builtinVariants().find((variant) => variant.alias === 'leadership360') as Variant;
const DIMS = lead.dimensions.map((d) => d.code);

/** A rater whose every dimension scores `score` (or per dimension), with optional answers and comments. */
function rater(
  id: string,
  role: string | undefined,
  score: number | Record<string, number>,
  extra: Record<string, number | string> = {},
): GroupReportSheet {
  const processed: Record<string, number | string> = { ...extra };
  for (const code of DIMS) {
    processed[`${code}_score`] = typeof score === 'number' ? score : (score[code] ?? 50);
  }
  return {
    reportId: id,
    member: { title: '', firstname: `First ${id}`, middlename: '', lastname: `Last ${id}` },
    date: '2026-11-20T09:00:00+00:00',
    processed,
    ...(role === undefined ? {} : { role }),
  };
}

function feedback(master: GroupReportSheet, sheets: GroupReportSheet[], excluded: string[] = []) {
  return buildFeedbackModel({
    ...groupInput(lead, 'enUS', 'group', { sheets, excludedVerbatims: new Set(excluded) }),
    master,
  });
}

const self = rater('self', 'self', 80, { Q1: 5, Q3: 1, Remarks1: 'Self says hello' });
const manager = rater('m1', 'manager', 40, { Q1: 2, Remarks1: 'Manager remark' });
const directs = [60, 70, 80].map((score, i) =>
  rater(`d${i}`, 'directreport', score, { Q1: 3 + (i % 2), Q3: 2, Remarks1: `Direct remark ${i}` }),
);
const peers = [10, 20].map((score, i) =>
  rater(`p${i}`, 'peer', score, { Q1: 1, Q3: 5, Remarks1: `Peer remark ${i}` }),
);

describe('360 anonymity', () => {
  it('has a minimum of 3 responses per group, self and manager exempt', () => {
    expect(MIN_GROUP_RESPONSES).toBe(3);
    expect(EXEMPT_GROUPS).toEqual(['self', 'manager']);
  });

  it('puts raters without a known role in "other", and a rater claiming "self" too', () => {
    expect(raterGroupOf(lead, 'peer')).toBe('peer');
    expect(raterGroupOf(lead, 'directreport')).toBe('directreport');
    expect(raterGroupOf(lead, undefined)).toBe('other');
    expect(raterGroupOf(lead, '')).toBe('other');
    expect(raterGroupOf(lead, 'boss')).toBe('other');
    expect(raterGroupOf(lead, 'self')).toBe('other');
  });

  it('leaves a group of 2 peers out of charts, numbers, items and comments, and marks it', () => {
    const model = feedback(self, [manager, ...directs, ...peers]);
    expect(model.participation.map((g) => [g.code, g.n, g.shown, g.suppressed])).toEqual([
      ['self', 1, true, false],
      ['manager', 1, true, false],
      ['peer', 2, false, true],
      ['directreport', 3, true, false],
    ]);
    expect(model.suppressed.map((g) => g.label)).toEqual(['Peer']);
    expect(model.shownGroups.map((g) => g.code)).toEqual(['manager', 'directreport']);
    for (const dimension of model.dimensions) {
      expect(dimension.rows.map((row) => row.name)).toEqual([
        'Self',
        'Manager',
        'Direct report',
        'All others',
      ]);
      expect(dimension.groups.map((g) => g.group)).not.toContain('peer');
    }
    for (const item of model.items) {
      expect(item.rows.map((row) => row.group)).toEqual(['self', 'manager', 'directreport', 'others']);
    }
    const answers = model.comments.flatMap((block) => block.groups.flatMap((g) => g.answers));
    expect(answers).not.toContain('Peer remark 0');
    expect(answers).not.toContain('Peer remark 1');
    expect(model.comments.flatMap((block) => block.groups.map((g) => g.group))).not.toContain('peer');
  });

  it('computes "all others" over the shown raters only, so a left-out group cannot be subtracted back', () => {
    const model = feedback(self, [manager, ...directs, ...peers]);
    // Manager 40 and direct reports 60, 70, 80: (40 + 60 + 70 + 80) / 4 = 62.5. With the peers'
    // 10 and 20 it would have been 280 / 6 = 46.7.
    for (const dimension of model.dimensions) {
      expect(dimension.others.row.score).toBe(62.5);
      expect(dimension.others.row.scoreText).toBe('62.5');
      expect(dimension.others.n).toBe(4);
      expect(dimension.groups.find((g) => g.group === 'directreport')?.row.score).toBe(70);
      expect(dimension.groups.find((g) => g.group === 'manager')?.row.score).toBe(40);
    }
    const q1 = model.items.find((item) => item.code === 'Q1');
    expect(q1?.rows.find((row) => row.group === 'others')).toMatchObject({ n: 4, counts: [0, 1, 2, 1, 0] });
  });

  it('shows a manager from one response and a group of exactly 3 unknown roles as "Other"', () => {
    const others = [30, 40, 50].map((score, i) => rater(`o${i}`, i === 0 ? undefined : 'coach', score));
    const model = feedback(self, [manager, ...others]);
    expect(model.shownGroups.map((g) => [g.code, g.label, g.n])).toEqual([
      ['manager', 'Manager', 1],
      ['other', 'Other', 3],
    ]);
    // The variant's rater roles without responses are listed, neither shown nor suppressed.
    expect(model.participation.find((g) => g.code === 'peer')).toMatchObject({
      n: 0,
      shown: false,
      suppressed: false,
    });
    expect(model.dimensions[0]?.others.row.score).toBe(40);
  });

  it('leaves two raters of unknown role out like any small group', () => {
    const model = feedback(self, [rater('o1', undefined, 10), rater('o2', 'coach', 20), ...directs]);
    expect(model.suppressed.map((g) => g.code)).toEqual(['other']);
    expect(model.dimensions[0]?.others.row.score).toBe(70);
  });

  it('never counts the subject as a rater, even when selected as one too', () => {
    const model = feedback(self, [self, manager, ...directs]);
    expect(model.raters).toBe(4);
    expect(model.dimensions[0]?.others.row.score).toBe(62.5);
  });

  it('has nothing to compare with when only self can be shown', () => {
    const model = feedback(self, peers);
    expect(model.shownGroups).toEqual([]);
    expect(model.dimensions[0]?.rows.map((row) => row.name)).toEqual(['Self']);
    expect(model.dimensions[0]?.gap).toBeUndefined();
    expect(model.strengths).toEqual([]);
    expect(model.development).toEqual([]);
  });
});

describe('360 insights', () => {
  it('reads gaps as aligned, moderate or large, blind spot or hidden strength', () => {
    expect([GAP_ALIGNED_BELOW, GAP_LARGE_FROM]).toEqual([12.5, 25]);
    // All others are 50 on every dimension; self differs per dimension.
    const selfScores = { VIS: 62.4, COM: 62.5, DEC: 75, DEV: 25, COL: 37.6, INT: 50 };
    const model = feedback(rater('self', 'self', selfScores), [rater('m', 'manager', 50)]);
    const gaps = Object.fromEntries(
      model.dimensions.map((d) => [d.code, [d.gap?.text, d.gap?.kind, d.gap?.size]]),
    );
    expect(gaps).toEqual({
      VIS: ['+12.4', 'aligned', 'aligned'],
      COM: ['+12.5', 'blindSpot', 'moderate'],
      DEC: ['+25.0', 'blindSpot', 'large'],
      DEV: ['\u221225.0', 'hiddenStrength', 'large'],
      COL: ['\u221212.4', 'aligned', 'aligned'],
      INT: ['0.0', 'aligned', 'aligned'],
    });
    expect(model.dimensions.find((d) => d.code === 'DEV')?.gap?.label).toBe('Hidden strength (large)');
    expect(model.dimensions.find((d) => d.code === 'COM')?.gap?.label).toBe('Blind spot (moderate)');
  });

  it("takes strengths and development areas from the others' mean", () => {
    expect([STRENGTH_FROM, DEVELOPMENT_BELOW]).toEqual([75, 50]);
    const scores = { VIS: 80, COM: 75, DEV: 74.9, DEC: 50, COL: 49.9, INT: 20 };
    const model = feedback(rater('self', 'self', 50), [rater('m', 'manager', scores)]);
    expect(model.strengths.map((d) => d.code)).toEqual(['VIS', 'COM']);
    expect(model.development.map((d) => d.code)).toEqual(['INT', 'COL']);
  });

  it('shows item answers as given, reversing the stored keying of a "-" statement', () => {
    const model = feedback(self, [manager, ...directs]);
    const q3 = model.items.find((item) => item.code === 'Q3');
    expect(q3?.reverse).toBe(true);
    // Stored 1 for self means the answer 5; stored 2 for each direct report means 4.
    expect(q3?.rows.find((row) => row.group === 'self')).toMatchObject({
      n: 1,
      counts: [0, 0, 0, 0, 1],
      mean: 5,
    });
    expect(q3?.rows.find((row) => row.group === 'directreport')).toMatchObject({
      n: 3,
      counts: [0, 0, 0, 3, 0],
      meanText: '4.0',
    });
    expect(q3?.rows.find((row) => row.group === 'manager')).toMatchObject({ n: 0, meanText: '–' });
  });

  it('groups comments per shown group, shuffled the same way every time, minus excluded ones', () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      rater(`d${i}`, 'directreport', 60, { Remarks1: `Direct remark ${i}` }),
    );
    const first = feedback(self, [manager, ...many], ['d3:Remarks1', 'm1']);
    const again = feedback(self, [manager, ...many], ['d3:Remarks1', 'm1']);
    const block = first.comments.find((b) => b.code === 'Remarks1');
    expect(block?.groups.map((g) => g.group)).toEqual(['self', 'directreport']);
    const directAnswers = block?.groups.find((g) => g.group === 'directreport')?.answers ?? [];
    expect([...directAnswers].sort()).toEqual([0, 1, 2, 4, 5, 6, 7].map((i) => `Direct remark ${i}`));
    expect(directAnswers).not.toEqual([0, 1, 2, 4, 5, 6, 7].map((i) => `Direct remark ${i}`));
    expect(again.comments).toEqual(first.comments);
  });
});
