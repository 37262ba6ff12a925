import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GroupReportInput } from '../../src/pdf/group-input.js';
import type { PersonalReportInput } from '../../src/pdf/report-input.js';
import type { Variant } from '../../src/variants/variant.types.js';
import { readPdf } from './pdf-reader.js';
import { builtinVariants, groupInput, groupSheets, reportInput } from './report-fixtures.js';

// useReportFonts shares one parsed font and the laid-out words across every document of the
// process. Whatever is shared must not carry one document's text into another: each test starts
// from a fresh fonts module (as a new process would) and renders its documents in a set order.

type Fonts = typeof import('../../src/pdf/fonts.js');
type Layout = typeof import('../../src/pdf/layout.js');
let fonts: Fonts;
let layout: Layout;
let renderGroupReport: typeof import('../../src/pdf/group-report.js').renderGroupReport;
let renderPersonalReport: typeof import('../../src/pdf/personal-report.js').renderPersonalReport;

/** The PDF modules afresh, with nothing shared yet: as in a new process. */
async function freshProcess(): Promise<void> {
  vi.resetModules();
  fonts = await import('../../src/pdf/fonts.js');
  layout = await import('../../src/pdf/layout.js');
  ({ renderGroupReport } = await import('../../src/pdf/group-report.js'));
  ({ renderPersonalReport } = await import('../../src/pdf/personal-report.js'));
}

beforeEach(freshProcess);

/** The extracted text of a one-page document with `text` in the regular face. */
async function drawText(text: string): Promise<string> {
  const doc = layout.createReportDocument('en-US', {
    Title: 'fonts',
    Author: 'Assay',
    Subject: 'fonts',
    Creator: 'Assay',
  });
  const done = layout.collectPdf(doc);
  fonts.useReportFonts(doc);
  doc.addPage();
  doc.font(fonts.REGULAR).fontSize(12).text(text);
  doc.end();
  return (await readPdf(await done)).text;
}

// Each pair in both orders; each text must read back as drawn, whatever was drawn before it.
describe.each([
  // "É" is drawn from the glyph of "E" plus an accent: embedding it reads the glyph of "E" without
  // a character. A document that used "É" but not "E" once left "E" unreadable in every later one.
  ['Élan', 'Extraversion Élan'],
  ['Extraversion Élan', 'Élan'],
  // Before an accent above it the font draws "i" with the glyph of "ı" (dotless i), standing for
  // "i" there. A later document's own "ı" once read as "i".
  ['li\u0303\u0301n', 'Işıl'],
  ['Işıl', 'li\u0303\u0301n'],
])('a document with %j, then one with %j', (first, second) => {
  it('reads each as drawn', async () => {
    expect(await drawText(first)).toBe(first);
    expect(await drawText(second)).toBe(second);
  });
});

const variants = builtinVariants();
const variant = (alias: string) => variants.find((v) => v.alias === alias) as Variant;

/** Reports that broke each other: after the French one, the English ones read "0xtraversion". */
const REPORTS: Readonly<Record<string, () => GroupReportInput | PersonalReportInput>> = {
  'French teamscan group report': () =>
    groupInput(variant('teamscan'), 'frFR', 'group', { sheets: groupSheets(variant('teamscan'), 5) }),
  'English bigfive group report': () => groupInput(variant('bigfive'), 'enUS', 'group'),
  'English bigfive personal report': () => reportInput(variant('bigfive'), 'enUS'),
};

async function renderText(name: string): Promise<string> {
  const input = (REPORTS[name] as () => GroupReportInput | PersonalReportInput)();
  const bytes =
    'type' in input
      ? await renderGroupReport(input)
      : await renderPersonalReport(input as PersonalReportInput);
  return (await readPdf(bytes)).text;
}

describe.each([
  ['French teamscan group report', 'English bigfive group report'],
  ['English bigfive group report', 'French teamscan group report'],
  ['French teamscan group report', 'English bigfive personal report'],
  ['English bigfive personal report', 'French teamscan group report'],
])('%s, then %s', (first, second) => {
  it('gives each the text it has when rendered alone', async () => {
    const alone = new Map<string, string>();
    for (const name of [first, second]) {
      await freshProcess();
      alone.set(name, await renderText(name));
    }
    await freshProcess();
    expect(await renderText(first)).toBe(alone.get(first));
    const text = await renderText(second);
    expect(text).toBe(alone.get(second));
    if (second.startsWith('English bigfive')) {
      expect(text).toContain('Extraversion');
      expect(text).toContain('Openness to Experience');
    }
  });
});
