import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupReportInput, GroupReportSheet } from '../../src/pdf/group-input.js';
import { buildCondensedModel, buildGroupModel, memberName } from '../../src/pdf/group-model.js';
import { renderGroupReport } from '../../src/pdf/group-report.js';
import { groupLabelsFor, labelsFor } from '../../src/pdf/labels.js';
import { renderPersonalReport } from '../../src/pdf/personal-report.js';
import { formatDay } from '../../src/pdf/report-model.js';
import type { Variant } from '../../src/variants/variant.types.js';
import { collapse, type ReadPdf, readPdf } from './pdf-reader.js';
import { builtinVariants, GROUP_NAMES, groupInput, groupSheets } from './report-fixtures.js';

const variants = builtinVariants();
const bigfive = variants.find((variant) => variant.alias === 'bigfive') as Variant;
const lead = variants.find((variant) => variant.alias === 'leadership360') as Variant;
const teamscan = variants.find((variant) => variant.alias === 'teamscan') as Variant;

const en = (variant: Variant) => variant.texts.enUS as Record<string, string>;
const names = (sheets: readonly GroupReportSheet[]) => sheets.map(memberName);

async function render(input: GroupReportInput): Promise<{ bytes: Buffer; pdf: ReadPdf }> {
  const bytes = await renderGroupReport(input);
  return { bytes, pdf: await readPdf(bytes) };
}

/** Every form a name can take in a PDF's bytes outside compressed streams: UTF-8, UTF-16BE, Latin-1. */
function rawForms(text: string): Buffer[] {
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.alloc(le.length);
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1] as number;
    be[i + 1] = le[i] as number;
  }
  return [Buffer.from(text, 'utf8'), be, Buffer.from(text, 'latin1')];
}

describe('group report', () => {
  const input = groupInput(bigfive, 'enUS', 'group');
  const texts = en(bigfive);
  let bytes: Buffer;
  let pdf: ReadPdf;
  beforeAll(async () => {
    ({ bytes, pdf } = await render(input));
  });

  it('is a tagged PDF 1.7 with the title, the report name, the agency and the instrument', () => {
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    expect(pdf.marked).toBe(true);
    expect(pdf.info.Language).toBe('en-US');
    expect(pdf.info.Title).toBe(`${texts['report.group.title']} – Team Ørsted 2026`);
    expect(pdf.info.Author).toBe('Bureau Élan & Söhne');
    expect(pdf.info.Subject).toBe(texts['variant.name']);
  });

  it('has a cover with the name, date, instrument, number of respondents and agency', () => {
    const cover = pdf.pageTexts[0] as string;
    expect(cover).toContain(texts['report.group.title']);
    expect(cover).toContain('Team Ørsted 2026');
    expect(cover).toContain(formatDay(input.date, 'en-US'));
    expect(cover).toContain(texts['variant.name']);
    expect(cover).toContain(`${texts['report.respondents.label']} 10`);
    expect(cover).toContain('Bureau Élan & Söhne');
    expect(cover).toContain('G7kQ2mX9aB');
    expect(pdf.text).toContain(collapse(texts['report.group.intro'] as string));
  });

  it('names every dimension and facet with its group mean, median and range', () => {
    const model = buildGroupModel(input);
    const labels = groupLabelsFor('enUS');
    for (const dimension of model.dimensions) {
      expect(pdf.text).toContain(
        `${dimension.row.name} ${labels.mean}: ${dimension.row.scoreText} · ${dimension.row.bandLabel}`,
      );
      const { stats } = dimension;
      expect(pdf.text).toContain(
        `${labels.mean} ${stats.meanText} ${labels.median} ${stats.medianText} ${labels.range} ${stats.rangeText} ${labels.sd} ${stats.sdText} ${texts['report.respondents.label']} 10`,
      );
      for (const facet of dimension.facets) expect(pdf.text).toContain(`${facet.name} ${facet.scoreText}`);
    }
  });

  it('places every member by name under each dimension, highest score first', () => {
    const model = buildGroupModel(input);
    for (const name of names(input.sheets)) {
      // Once per dimension (the accents and the markup as typed).
      expect(pdf.text.split(name).length - 1).toBeGreaterThanOrEqual(bigfive.dimensions.length);
    }
    const first = model.dimensions[0];
    const order = first?.members.map((m) =>
      pdf.text.indexOf(`${m.scoreText} ${m.name}`, pdf.text.indexOf(first.row.name)),
    );
    expect(order?.every((at) => at > 0)).toBe(true);
    expect(first?.members.map((m) => m.score)).toEqual(
      [...(first?.members ?? [])].map((m) => m.score).sort((a, b) => b - a),
    );
  });

  it('tags headings, lists and charts with alternative text', () => {
    expect(pdf.structure[0]).toBe('Document');
    for (const role of ['H1', 'H2', 'H3', 'P', 'L', 'LI', 'LBody']) expect(pdf.structure).toContain(role);
    const figures = pdf.structure.filter((role) => role.startsWith('Figure['));
    // The overview, then per dimension its distribution and its facets.
    expect(figures).toHaveLength(1 + 2 * bigfive.dimensions.length);
    expect(figures[1]).toContain('Distribution of 10 scores');
  });

  it('puts the footer and "page n of N" on every page', () => {
    pdf.pageTexts.forEach((page, i) => {
      expect(page).toContain(collapse(texts['report.footer'] as string));
      expect(page).toContain(`Page ${i + 1} of ${pdf.pages}`);
    });
  });
});

describe('group report comments', () => {
  it('lists every answer under its question with the name of its writer, minus the excluded ones', async () => {
    const sheets = groupSheets(lead, 5);
    const excluded = new Set(['S1x:Remarks1', 'S3x']);
    const { pdf } = await render(groupInput(lead, 'enUS', 'group', { sheets, excludedVerbatims: excluded }));
    const texts = en(lead);
    const start = pdf.text.indexOf(`${texts['report.verbatims.heading']} ${texts['q.Remarks1']}`);
    expect(start).toBeGreaterThan(0);
    const comments = pdf.text.slice(start);
    expect(comments).toContain(`S0 says Remarks1. – ${memberName(sheets[0] as GroupReportSheet)}`);
    expect(comments).toContain(`S1 says Remarks2. – ${memberName(sheets[1] as GroupReportSheet)}`);
    expect(comments).not.toContain('S1 says Remarks1.');
    expect(comments).not.toContain('S3 says');
    expect(comments.indexOf('S0 says Remarks1.')).toBeLessThan(
      comments.indexOf(texts['q.Remarks2'] as string),
    );
  });
});

describe('anonymous group report', () => {
  const sheets = groupSheets(lead, 8);
  const input = groupInput(lead, 'enUS', 'groupanon', {
    sheets,
    excludedVerbatims: new Set(['S2x:Remarks2']),
  });
  let bytes: Buffer;
  let pdf: ReadPdf;
  beforeAll(async () => {
    ({ bytes, pdf } = await render(input));
  });

  it('names no one: not in the text, the alternative texts, the metadata or any string of the file', () => {
    const everything = [pdf.text, ...pdf.structure, ...Object.values(pdf.info).map(String)].join('\n');
    for (const sheet of sheets) {
      for (const part of [memberName(sheet), sheet.member.firstname, sheet.member.lastname]) {
        expect(everything).not.toContain(part);
        for (const form of rawForms(part)) expect(bytes.includes(form)).toBe(false);
      }
    }
    expect(pdf.info.Title).toBe(`${en(lead)['report.groupanon.title']} – Team Ørsted 2026`);
    expect(pdf.text).toContain(collapse(en(lead)['report.groupanon.intro'] as string));
  });

  it('still shows the statistics and the distribution of every dimension', () => {
    for (const dimension of lead.dimensions) {
      expect(pdf.text).toContain(en(lead)[`dimension.${dimension.code}.name`]);
    }
    expect(pdf.structure.filter((role) => role.startsWith('Figure[Distribution of 8 scores'))).toHaveLength(
      lead.dimensions.length,
    );
  });

  it('shows every answer shuffled (the same way each time), unattributed, minus the excluded one', async () => {
    const model = buildGroupModel(input);
    const block = model.verbatims.find((b) => b.code === 'Remarks1');
    const answers = block?.answers.map((a) => a.answer) ?? [];
    expect([...answers].sort()).toEqual(sheets.map((_, i) => `S${i} says Remarks1.`).sort());
    expect(answers).not.toEqual(sheets.map((_, i) => `S${i} says Remarks1.`));
    expect(block?.answers.every((a) => a.name === '')).toBe(true);
    expect(buildGroupModel(input).verbatims).toEqual(model.verbatims);
    const shown = answers.map((answer) => pdf.text.indexOf(answer));
    expect(shown.every((at) => at > 0)).toBe(true);
    expect([...shown].sort((a, b) => a - b)).toEqual(shown);
    expect(pdf.text).not.toContain('S2 says Remarks2.');
    expect(pdf.text).toContain('S2 says Remarks1.');
  });
});

describe('condensed report', () => {
  it('fits 10 members on one page: names, dimensions, scores with band letters, group mean', async () => {
    const input = groupInput(lead, 'enUS', 'condensed');
    const { pdf } = await render(input);
    expect(pdf.pages).toBe(1);
    const texts = en(lead);
    expect(pdf.text).toContain(texts['report.condensed.title']);
    for (const dimension of lead.dimensions) {
      expect(pdf.text).toContain(collapse(texts[`dimension.${dimension.code}.name`] as string));
    }
    const model = buildCondensedModel(input);
    // A name too long for its column wraps: compared without white space.
    const squash = (text: string) => text.replace(/\s+/g, '');
    for (const row of model.rows) {
      expect(squash(pdf.text)).toContain(
        squash(`${row.name} ${row.cells.map((c) => `${c.text} ${c.key}`).join(' ')}`),
      );
    }
    expect(pdf.text).toContain(
      `Dr. Zoë Ørsted-Núñez ${model.rows.find((r) => r.name.startsWith('Dr.'))?.cells[0]?.text}`,
    );
    expect(pdf.text).toContain(`Group mean ${model.mean.map((c) => `${c.text} ${c.key}`).join(' ')}`);
    expect(pdf.text).toContain('Bands: L = Low, A = Average, H = High.');
    expect(pdf.structure).toContain('Table');
    expect(pdf.structure.filter((role) => role === 'TR')).toHaveLength(12);
  });

  it('keeps 40 members on one page and runs 100 on over more pages with the header repeated', async () => {
    const forty = await render(
      groupInput(bigfive, 'enUS', 'condensed', { sheets: groupSheets(bigfive, 40) }),
    );
    expect(forty.pdf.pages).toBe(1);
    const hundred = await render(
      groupInput(bigfive, 'enUS', 'condensed', { sheets: groupSheets(bigfive, 100) }),
    );
    expect(hundred.pdf.pages).toBeGreaterThan(1);
    for (const page of hundred.pdf.pageTexts) expect(page).toContain('Name Neuroticism');
  });
});

describe('complete report', () => {
  it('is the group report followed by each personal report, each from a new page under its name', async () => {
    const sheets = groupSheets(teamscan, 3);
    const input = groupInput(teamscan, 'nlNL', 'complete', { sheets });
    const [complete, group, ...personal] = await Promise.all([
      render(input),
      render({ ...input, type: 'group' }),
      ...sheets.map(async (sheet) =>
        readPdf(
          await renderPersonalReport({
            variant: teamscan,
            language: 'nlNL',
            member: sheet.member,
            date: sheet.date,
            reportId: sheet.reportId,
            processed: sheet.processed,
            agency: input.agency,
            instanceName: input.instanceName,
          }),
        ),
      ),
    ]);
    // The personal reports without their covers: the group report's cover says who made them.
    const parts = personal.map((p) => p.pages - 1);
    expect(complete.pdf.pages).toBe(group.pdf.pages + parts.reduce((sum, n) => sum + n, 0));
    const texts = teamscan.texts.nlNL as Record<string, string>;
    expect(complete.pdf.info.Title).toBe(`${texts['report.complete.title']} – Team Ørsted 2026`);
    let page = group.pdf.pages;
    sheets.forEach((sheet, i) => {
      expect(
        complete.pdf.pageTexts[page]?.startsWith(`${memberName(sheet)} ${texts['report.personal.title']}`),
      ).toBe(true);
      page += parts[i] as number;
    });
    // The group part is the group report: the same pages but for the title and the page numbers.
    expect(complete.pdf.pageTexts[2]).toBe(
      group.pdf.pageTexts[2]?.replace(/ van \d+$/, ` van ${complete.pdf.pages}`),
    );
  });

  it('leaves excluded comments out of the personal parts too', async () => {
    const sheets = groupSheets(lead, 2);
    const { pdf } = await render(
      groupInput(lead, 'enUS', 'complete', { sheets, excludedVerbatims: new Set(['S0x:Remarks1', 'S1x']) }),
    );
    expect(pdf.text).not.toContain('S0 says Remarks1.');
    expect(pdf.text).not.toContain('S1 says');
    expect(pdf.text.split('S0 says Remarks2.').length - 1).toBe(2);
  });
});

describe('360 feedback report', () => {
  const roles = ['manager', 'peer', 'peer', 'directreport', 'directreport', 'directreport'];
  const sheets = groupSheets(lead, roles.length, { roles, prefix: 'R' });
  const master = { ...(groupSheets(lead, 1, { prefix: 'M' })[0] as GroupReportSheet), role: 'self' };
  const input = { ...groupInput(lead, 'enUS', 'group', { sheets }), master };
  const texts = en(lead);
  let pdf: ReadPdf;
  beforeAll(async () => {
    ({ pdf } = await render(input));
  });

  it('names the subject on the cover and in the title', () => {
    expect(pdf.pageTexts[0]).toContain(`${texts['report.personal.title']} ${memberName(master)}`);
    expect(pdf.info.Title).toBe(`${texts['report.personal.title']} – ${memberName(master)}`);
    expect(pdf.pageTexts[0]).toContain(`${texts['report.respondents.label']} 6`);
  });

  it('reports participation per rater group and says why the 2 peers were left out', () => {
    const labels = groupLabelsFor('enUS');
    expect(pdf.text).toContain('Self 1 Included Manager 1 Included Peer 2 Left out: fewer than 3 responses');
    expect(pdf.text).toContain('Direct report 3 Included');
    expect(pdf.text).toContain(
      collapse(labels.suppressedNote.replace('{groups}', 'Peer').replace('{min}', '3')),
    );
  });

  it('leaves the peers out of every chart, number and comment after the participation table', () => {
    const participation = pdf.pageTexts.findIndex((page) => page.includes('Left out: fewer than 3'));
    const rest = pdf.pageTexts.slice(participation + 1).join(' ');
    expect(rest).not.toMatch(/Peer/);
    for (const alt of pdf.structure.filter((role) => role.startsWith('Figure[')))
      expect(alt).not.toContain('Peer');
    expect(pdf.text).not.toContain('R1 says');
    expect(pdf.text).not.toContain('R2 says');
    expect(pdf.text).toContain('R0 says Remarks1.');
    expect(pdf.text).toContain('R4 says Remarks2.');
  });

  it('prints "all others" as the mean of the manager and the direct reports only', () => {
    const first = lead.dimensions[0]?.code as string;
    const score = (sheet: GroupReportSheet) => sheet.processed[`${first}_score`] as number;
    const shown = [sheets[0], sheets[3], sheets[4], sheets[5]] as GroupReportSheet[];
    const expected = Math.round((shown.reduce((sum, s) => sum + score(s), 0) / shown.length) * 10) / 10;
    const withPeers = Math.round((sheets.reduce((sum, s) => sum + score(s), 0) / sheets.length) * 10) / 10;
    expect(expected).not.toBe(withPeers);
    const figure = pdf.structure.find(
      (role) => role.startsWith('Figure[') && role.includes(texts[`dimension.${first}.name`] as string),
    );
    expect(figure).toContain(`All others: ${expected.toFixed(1)}`);
    expect(figure).toContain(`Self: ${score(master).toFixed(1)}`);
  });

  it('has gaps, strengths, development areas, item detail and comments', () => {
    const labels = groupLabelsFor('enUS');
    for (const heading of [labels.gapsHeading, labels.strengths, labels.development, labels.itemsHeading]) {
      expect(pdf.structure).toContain('H2');
      expect(pdf.text).toContain(heading);
    }
    expect(pdf.text).toContain(collapse(texts['q.Q1'] as string));
    expect(pdf.text).toContain(`${texts['q.Q3']} (reverse-keyed)`);
    expect(pdf.text).toContain(texts['report.verbatims.heading']);
  });
});

describe('sparse groups', () => {
  it('says "no answers" for a dimension nobody answered, and renders a group of one', async () => {
    const [first] = teamscan.dimensions;
    const code = first?.code as string;
    const sheets = groupSheets(teamscan, 1).map((sheet) => {
      const processed = { ...sheet.processed };
      for (const suffix of ['_mean', '_score', '_band']) delete processed[`${code}${suffix}`];
      return { ...sheet, processed };
    });
    const { pdf } = await render(groupInput(teamscan, 'enUS', 'group', { sheets }));
    expect(pdf.text).toContain(`${en(teamscan)[`dimension.${code}.name`]} No answers`);
    expect(pdf.text).toContain(`${groupLabelsFor('enUS').sd} –`);
  });

  it('renders a 360 without any rater to show, saying there is nothing to compare with', async () => {
    const sheets = groupSheets(lead, 2, { roles: ['peer', 'peer'], prefix: 'R' });
    const master = groupSheets(lead, 1, { prefix: 'M' })[0] as GroupReportSheet;
    const { pdf } = await render({ ...groupInput(lead, 'enUS', 'group', { sheets }), master });
    expect(pdf.text).toContain(groupLabelsFor('enUS').noOthers);
    expect(pdf.text).not.toContain('R0 says');
    expect(pdf.text).toContain('M0 says Remarks1.');
  });
});

describe('names', () => {
  it('prints accents and markup as typed, also when typed with combining accents', async () => {
    const sheets = groupSheets(teamscan, 5);
    const decomposed = { title: '', firstname: 'Zoe\u0308', middlename: '', lastname: 'Nu\u0301n\u0303ez' };
    sheets[1] = { ...(sheets[1] as GroupReportSheet), member: decomposed };
    for (const type of ['group', 'condensed'] as const) {
      const { pdf } = await render(groupInput(teamscan, 'frFR', type, { sheets }));
      expect(pdf.text).toContain('Zoë Núñez');
      expect(pdf.text).toContain('Dr. Zoë Ørsted-Núñez');
      expect(pdf.text).toContain('<script>alert(1)</script> Smith & Co');
      expect(GROUP_NAMES[4]?.firstname).toBe('<script>alert(1)</script>');
    }
  });
});

describe.each(['enUS', 'nlNL', 'esES', 'frFR'] as const)('%s', (language) => {
  it.each(['group', 'groupanon', 'condensed', 'complete', '360'] as const)(
    'renders %s in the language',
    async (type) => {
      const variant = type === '360' ? lead : bigfive;
      const sheets = groupSheets(variant, type === 'complete' ? 2 : 6, {
        roles:
          type === '360' ? ['manager', 'peer', 'peer', 'peer', 'directreport', 'directreport'] : undefined,
      });
      const base = groupInput(variant, language, type === '360' ? 'group' : type, { sheets });
      const input = type === '360' ? { ...base, master: groupSheets(variant, 1, { prefix: 'M' })[0] } : base;
      const { bytes, pdf } = await render(input);
      const texts = variant.texts[language] as Record<string, string>;
      const labels = groupLabelsFor(language);
      expect(bytes.toString('latin1')).toContain(`/Lang (${labelsFor(language).locale})`);
      expect(pdf.info.Language).toBe(labelsFor(language).locale);
      const title = type === '360' ? texts['report.personal.title'] : texts[`report.${type}.title`];
      expect(pdf.text).toContain(collapse(title as string));
      expect(pdf.text).toContain(texts[`band.${variant.bands[0]?.code}`]);
      if (type === 'condensed') expect(pdf.text).toContain(labels.groupMean);
      else if (type === '360') {
        expect(pdf.text).toContain(labels.gapsHeading);
        // Direct reports (2) are left out here, and the report says so.
        expect(pdf.text).toContain(collapse(labels.leftOut.replace('{min}', '3')));
      } else
        expect(pdf.text).toMatch(new RegExp(`${labels.mean} \\S+ ${labels.median} \\S+ ${labels.range} `));
      expect(pdf.pageTexts.at(-1)).toContain(
        labelsFor(language).page.replace('{page}', String(pdf.pages)).replace('{pages}', String(pdf.pages)),
      );
    },
  );
});
