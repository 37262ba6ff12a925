import { describe, expect, it } from 'vitest';
import type { GroupReportChoice, GroupReportSelection } from '../../../src/console/group-report.service.js';
import { type GroupReportStrings, groupReportStrings } from '../../../src/console/group-report-strings.js';
import type { Viewer } from '../../../src/console/views/console-view.js';
import { groupReportCheckView, groupReportFormView } from '../../../src/console/views/group-report.view.js';
import { raterParticipation } from '../../../src/pdf/feedback-model.js';
import { builtinVariantsDir, loadVariants } from '../../../src/variants/load-variants.js';
import type { Variant } from '../../../src/variants/variant.types.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read the models loosely; the assertions check them.
type Model = Record<string, any>;

const variants = loadVariants([builtinVariantsDir()]);
const lead = variants.get('leadership360') as Variant;
const viewer = (language: Viewer['language'] = 'enUS'): Viewer => ({
  language,
  csrf: 'token',
  path: '/console/reports/new',
  user: { firstname: 'Ada', lastname: 'Admin', email: 'admin@example.test', role: 'admin' },
});
const choice = (fields: Partial<GroupReportChoice> = {}): GroupReportChoice => ({
  kind: 'groupanon',
  source: 'campaign',
  campaign: 'Camp123456',
  group: '',
  variant: '',
  language: '',
  name: '',
  picked: [],
  subject: '',
  ...fields,
});
const selection = (fields: Partial<GroupReportSelection> = {}): GroupReportSelection => ({
  variant: 'leadership360',
  ids: ['A', 'B'],
  master: null,
  sourceName: 'Spring <b>',
  selfCount: 0,
  subjects: [],
  ...fields,
});
const plan = (fields: Record<string, unknown> = {}) => ({
  type: 'groupanon' as const,
  variant: 'leadership360',
  language: 'enUS' as const,
  count: 2,
  master: null,
  campaignId: 'Camp123456',
  excluded: [],
  ...fields,
});

/** Every text of the strings, by path, with the placeholders each holds. */
function placeholders(words: GroupReportStrings): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') found.set(path, (value.match(/\{[a-z]+\}/g) ?? []).sort());
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
  };
  walk(words, '');
  return found;
}

describe('group report views', () => {
  it('has every word, with the same placeholders, in the four console languages', () => {
    const english = placeholders(groupReportStrings('enUS'));
    for (const language of ['nlNL', 'esES', 'frFR'] as const) {
      const words = placeholders(groupReportStrings(language));
      expect([...words.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [path, holes] of english) expect(words.get(path), `${language} ${path}`).toEqual(holes);
      expect(groupReportStrings(language).title).not.toBe(groupReportStrings('enUS').title);
    }
  });

  it('links each form error to its field and keeps what was typed', () => {
    const model = groupReportFormView(viewer(), {
      form: { kind: 'groupanon', source: 'campaign', name: '<b>x</b>' },
      campaigns: [{ campaignid: 'C1', name: 'One' }],
      groups: [],
      variants: [lead],
      errors: { campaign: 'Choose a campaign' },
    }).model as Model;
    expect(model.errors).toEqual([{ href: '#campaign', text: 'Choose a campaign' }]);
    expect(model.kinds.find((k: Model) => k.checked).value).toBe('groupanon');
    expect(model.name).toBe('<b>x</b>');
  });

  it('offers no "Make the report" while an anonymous report is below its minimum', () => {
    const below = groupReportCheckView(viewer(), {
      choice: choice(),
      selection: selection(),
      variant: lead,
      plan: plan({ anonymous: { minimum: 5, met: false } }),
      verbatims: [],
    }).model as Model;
    expect(below.canMake).toBe(false);
    expect(below.anonymous.text).toBe(
      'An anonymous report needs at least 5 reports. It has 2, so it cannot be made: add reports or choose another type.',
    );
    expect(below.rows[1].value).toBe('Campaign Spring <b>');
    const met = groupReportCheckView(viewer('frFR'), {
      choice: choice(),
      selection: selection(),
      variant: lead,
      plan: plan({ anonymous: { minimum: 2, met: true } }),
      verbatims: [],
    }).model as Model;
    expect(met.canMake).toBe(true);
    expect(met.uses).toBe('Il utiliserait 2 rapports personnels.');
  });

  it('names the rater groups left out of a 360 and why', () => {
    const groups = raterParticipation(
      lead,
      'enUS',
      new Map([
        ['manager', 1],
        ['peer', 2],
        ['directreport', 4],
      ]),
    );
    const model = groupReportCheckView(viewer(), {
      choice: choice({ kind: '360', source: 'reports', picked: ['S', 'A', 'B'] }),
      selection: selection({ master: 'S' }),
      variant: lead,
      plan: plan({ type: 'group', master: 'S', count: 7, raterGroups: groups }),
      subject: 'Sam',
      verbatims: [],
    }).model as Model;
    expect(model.uses).toBe('It is about Sam: their own report and 7 raters’ reports.');
    expect(model.raterGroups.map((g: Model) => [g.label, g.n, g.leftOut])).toEqual([
      ['Self', 1, false],
      ['Manager', 1, false],
      ['Peer', 2, true],
      ['Direct report', 4, false],
    ]);
    expect(model.leftOutSummary).toBe('Left out of the report: Peer.');
  });

  it('shows a refusal instead of the plan, and a reason error next to its answer', () => {
    const refused = groupReportCheckView(viewer(), {
      choice: choice(),
      selection: selection(),
      variant: lead,
      plan: { refused: 'selectedReports: X is a group report, not a personal report' },
      verbatims: [],
    }).model as Model;
    expect([refused.problem, refused.canMake]).toEqual([
      'selectedReports: X is a group report, not a personal report',
      false,
    ]);
    const verbatims = [
      { reportid: 'A', code: 'Remarks1', question: 'Q?', answer: 'one' },
      { reportid: 'B', code: 'Remarks1', question: 'Q?', answer: 'two' },
    ];
    const error = 'excludedVerbatims: a reason is required for B:Remarks1';
    const model = groupReportCheckView(viewer(), {
      choice: choice(),
      selection: selection(),
      variant: lead,
      plan: plan(),
      verbatims,
      ticked: new Set(['B:Remarks1']),
      reasons: new Map([['A:Remarks1', 'kept as typed']]),
      error,
    }).model as Model;
    expect(model.errors).toEqual([{ href: '#reason-2', text: error }]);
    expect(model.verbatims.map((v: Model) => [v.entry, v.checked, v.reason, v.error])).toEqual([
      ['A:Remarks1', false, 'kept as typed', undefined],
      ['B:Remarks1', true, '', error],
    ]);
    expect(model.pageError).toBeUndefined();
  });
});
