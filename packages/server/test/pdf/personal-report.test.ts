import { beforeAll, describe, expect, it } from 'vitest';
import { labelsFor } from '../../src/pdf/labels.js';
import { renderPersonalReport } from '../../src/pdf/personal-report.js';
import { formatDay } from '../../src/pdf/report-model.js';
import { scoreAnswers } from '../../src/variants/scoring.js';
import type { Variant } from '../../src/variants/variant.types.js';
import { collapse, type ReadPdf, readPdf } from './pdf-reader.js';
import { builtinVariants, reportInput, syntheticRaw } from './report-fixtures.js';

/** The body of indirect object `id` in a PDF whose dictionaries are written uncompressed (pdfkit's). */
function object(pdf: string, id: string): string {
  const match = new RegExp(`(?:^|\\n)${id} 0 obj\\n([\\s\\S]*?)\\nendobj`).exec(pdf);
  if (!match) throw new Error(`object ${id} not found`);
  return match[1] as string;
}

function catalog(bytes: Buffer): { catalog: string; markInfo: string } {
  const pdf = bytes.toString('latin1');
  const match = /\n(\d+) 0 obj\n<<\n\/Type \/Catalog\n([\s\S]*?)>>\nendobj/.exec(pdf);
  if (!match) throw new Error('no catalog');
  const body = match[2] as string;
  const markInfo = /\/MarkInfo (\d+) 0 R/.exec(body);
  return { catalog: body, markInfo: markInfo ? object(pdf, markInfo[1] as string) : '' };
}

const variants = builtinVariants();

describe.each(variants.map((variant) => [variant.alias, variant] as const))(
  '%s personal report',
  (_, variant) => {
    describe.each([...variant.languages])('%s', (language) => {
      const texts = variant.texts[language] as Record<string, string>;
      const input = reportInput(variant, language);
      let bytes: Buffer;
      let pdf: ReadPdf;
      beforeAll(async () => {
        bytes = await renderPersonalReport(input);
        pdf = await readPdf(bytes);
      });

      it('is a tagged PDF 1.7 in the report language with its title, author and subject', () => {
        expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
        const locale = labelsFor(language).locale;
        const { catalog: root, markInfo } = catalog(bytes);
        expect(root).toContain(`/Lang (${locale})`);
        expect(root).toMatch(/\/StructTreeRoot \d+ 0 R/);
        expect(root).toMatch(/\/ViewerPreferences \d+ 0 R/);
        expect(markInfo).toContain('/Marked true');
        expect(pdf.marked).toBe(true);
        expect(pdf.info.Language).toBe(locale);
        expect(pdf.info.Title).toBe(`${texts['report.personal.title']} – Dr. Zoë Ørsted-Núñez`);
        expect(pdf.info.Author).toBe('Bureau Élan & Söhne');
        expect(pdf.info.Subject).toBe(texts['variant.name']);
      });

      it('has a cover, an overview and the dimension sections on a sensible number of pages', () => {
        expect(pdf.pages).toBeGreaterThanOrEqual(3);
        expect(pdf.pages).toBeLessThanOrEqual(3 + variant.dimensions.length);
        const cover = pdf.pageTexts[0] as string;
        expect(cover).toContain(collapse(texts['report.personal.title'] as string));
        expect(cover).toContain('Dr. Zoë Ørsted-Núñez');
        expect(cover).toContain(formatDay(input.date, labelsFor(language).locale));
        expect(cover).toContain(collapse(texts['variant.name'] as string));
        expect(cover).toContain('Bureau Élan & Söhne');
        expect(cover).toContain('R7kQ2mX9aB');
        expect(pdf.text).toContain(collapse(texts['report.personal.intro'] as string));
      });

      it("names every dimension and facet and prints the member's band and its text", () => {
        for (const dimension of variant.dimensions) {
          expect(pdf.text).toContain(collapse(texts[`dimension.${dimension.code}.name`] as string));
          expect(pdf.text).toContain(collapse(texts[`dimension.${dimension.code}.description`] as string));
          const band = input.processed[`${dimension.code}_band`] as string;
          expect(pdf.text).toContain(collapse(texts[`dimension.${dimension.code}.band.${band}`] as string));
          expect(pdf.text).toContain(texts[`band.${band}`] as string);
          for (const facet of dimension.facets) {
            expect(pdf.text).toContain(collapse(texts[`facet.${facet}.name`] as string));
          }
        }
      });

      it('puts the footer and "page n of N" on every page', () => {
        const footer = collapse(texts['report.footer'] as string);
        pdf.pageTexts.forEach((page, i) => {
          expect(page).toContain(footer);
          expect(page).toContain('Keizersgracht 1, 1015 CJ Amsterdam');
          const label = labelsFor(language).page;
          expect(page).toContain(
            label.replace('{page}', String(i + 1)).replace('{pages}', String(pdf.pages)),
          );
        });
      });

      it('tags headings, paragraphs and charts with alternative text', () => {
        expect(pdf.structure[0]).toBe('Document');
        expect(pdf.structure).toContain('H1');
        expect(pdf.structure).toContain('H2');
        expect(pdf.structure).toContain('P');
        const figures = pdf.structure.filter((role) => role.startsWith('Figure['));
        // The overview, then one facet chart per dimension that has facets.
        expect(figures).toHaveLength(1 + variant.dimensions.filter((d) => d.facets.length > 0).length);
        const first = variant.dimensions[0]?.code as string;
        expect(figures[0]).toContain(`${texts[`dimension.${first}.name`]}: `);
      });
    });
  },
);

describe('personal report', () => {
  const bigfive = variants.find((variant) => variant.alias === 'bigfive') as Variant;
  const teamscan = variants.find((variant) => variant.alias === 'teamscan') as Variant;

  it('prints markup in names and agency names literally', async () => {
    const input = reportInput(teamscan, 'enUS', {
      member: {
        title: '',
        firstname: '<script>alert("x")</script>',
        middlename: 'van der',
        lastname: 'Berg & Co',
      },
      agency: { name: '<b>Acme</b> & "Sons"', footer: '', color: '#123456' },
    });
    const pdf = await readPdf(await renderPersonalReport(input));
    expect(pdf.pageTexts[0]).toContain('<script>alert("x")</script> van der Berg & Co');
    expect(pdf.pageTexts[0]).toContain('<b>Acme</b> & "Sons"');
    expect(pdf.info.Title).toContain('<script>alert("x")</script> van der Berg & Co');
  });

  it('prints a name typed with combining accents as the composed letters', async () => {
    const member = { title: '', firstname: 'Zoe\u0308', middlename: '', lastname: 'Nu\u0301n\u0303ez' };
    const pdf = await readPdf(await renderPersonalReport(reportInput(teamscan, 'frFR', { member })));
    expect(pdf.pageTexts[0]).toContain('Zoë Núñez');
  });

  it('embeds Noto Sans as TrueType, the only font', async () => {
    const pdf = (await renderPersonalReport(reportInput(teamscan, 'enUS'))).toString('latin1');
    expect(pdf.match(/\/FontFile2 /g)).toHaveLength(2);
    expect(pdf).not.toContain('/FontFile3');
    expect(pdf).not.toContain('Helvetica');
    expect(pdf).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    expect(pdf).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Bold/);
  });

  it('says "no answers" for a dimension without a score and leaves out its band text', async () => {
    const processed = scoreAnswers(teamscan, syntheticRaw(teamscan));
    const [first] = teamscan.dimensions;
    const code = first?.code as string;
    const band = processed[`${code}_band`] as string;
    for (const suffix of ['_mean', '_score', '_band']) delete processed[`${code}${suffix}`];
    const pdf = await readPdf(await renderPersonalReport(reportInput(teamscan, 'nlNL', { processed })));
    const texts = teamscan.texts.nlNL as Record<string, string>;
    expect(pdf.text).toContain(`${texts[`dimension.${code}.name`]} Geen antwoorden`);
    expect(pdf.text).not.toContain(collapse(texts[`dimension.${code}.band.${band}`] as string));
  });

  it('spreads the synthetic sheet over the bands, so the tests above see each band text', () => {
    const processed = scoreAnswers(bigfive, syntheticRaw(bigfive));
    const bands = new Set(bigfive.dimensions.map((d) => processed[`${d.code}_band`]));
    expect([...bands].sort()).toEqual(['average', 'high', 'low']);
  });

  it('renders the same text for a report before and after other reports share its fonts', async () => {
    const input = reportInput(bigfive, 'esES');
    const before = await readPdf(await renderPersonalReport(input));
    for (const language of bigfive.languages) {
      const member = { title: 'Sr.', firstname: 'Ægir', middlename: '', lastname: `Þórsson ${language}` };
      await renderPersonalReport(reportInput(bigfive, language, { member }));
    }
    const after = await readPdf(await renderPersonalReport(input));
    expect(after.pageTexts).toEqual(before.pageTexts);
  });

  it('lists the free-text answers under their questions', async () => {
    const lead = variants.find((variant) => variant.alias === 'leadership360') as Variant;
    const processed = scoreAnswers(lead, {
      ...syntheticRaw(lead),
      Remarks1: '  Señor <i>Ødegård</i> listens.  ',
    });
    const pdf = await readPdf(await renderPersonalReport(reportInput(lead, 'enUS', { processed })));
    const texts = lead.texts.enUS as Record<string, string>;
    expect(pdf.text).toContain(
      `${texts['report.verbatims.heading']} ${texts['q.Remarks1']} Señor <i>Ødegård</i> listens.`,
    );
  });
});
