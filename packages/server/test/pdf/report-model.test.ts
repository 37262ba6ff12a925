import { describe, expect, it } from 'vitest';
import { barColor } from '../../src/pdf/layout.js';
import { buildReportModel, formatDay, fullName } from '../../src/pdf/report-model.js';
import type { Variant } from '../../src/variants/variant.types.js';
import { builtinVariants, reportInput } from './report-fixtures.js';

const teamscan = builtinVariants().find((variant) => variant.alias === 'teamscan') as Variant;

describe('buildReportModel', () => {
  it('writes scores, band limits and the date the way the language does', () => {
    const processed = { PUR_score: 54.2, PUR_band: 'average', TRU_score: 100, TRU_band: 'high' };
    const dutch = buildReportModel(reportInput(teamscan, 'nlNL', { processed }));
    expect(dutch.dimensions.map((d) => [d.row.scoreText, d.row.bandLabel])).toEqual([
      ['54,2', 'Gemiddeld'],
      ['100,0', 'Hoog'],
      ['–', 'Geen antwoorden'],
      ['–', 'Geen antwoorden'],
      ['–', 'Geen antwoorden'],
    ]);
    expect(dutch.bands.map((band) => `${band.label} ${band.range}`)).toEqual([
      'Laag 0–39,9',
      'Gemiddeld 40–59,9',
      'Hoog 60–100',
    ]);
    expect(dutch.dateText).toBe('22 november 2026');
    expect(buildReportModel(reportInput(teamscan, 'enUS', { processed })).dateText).toBe('November 22, 2026');
    expect(buildReportModel(reportInput(teamscan, 'esES', { processed })).dateText).toBe(
      '22 de noviembre de 2026',
    );
    expect(buildReportModel(reportInput(teamscan, 'frFR', { processed })).dateText).toBe('22 novembre 2026');
  });

  it('takes the stored band, and works one out only when the stored one is unknown', () => {
    const processed = { PUR_score: '75', PUR_band: 'low', TRU_score: 75, TRU_band: 'nonsense' };
    const model = buildReportModel(reportInput(teamscan, 'enUS', { processed }));
    expect(model.dimensions[0]?.row).toMatchObject({ score: 75, band: 'low', bandLabel: 'Low' });
    expect(model.dimensions[1]?.row).toMatchObject({ score: 75, band: 'high', bandLabel: 'High' });
    expect(model.dimensions[1]?.interpretation).toBe(teamscan.texts.enUS?.['dimension.TRU.band.high']);
  });

  it('refuses a language the variant has no texts for', () => {
    const english = { ...teamscan, texts: { enUS: teamscan.texts.enUS } } as Variant;
    expect(() => buildReportModel(reportInput(english, 'frFR'))).toThrow(
      'variant "teamscan" has no frFR texts',
    );
  });

  it('joins the lines of the agency footer into one', () => {
    const agency = { name: 'Acme', footer: 'Street 1\r\n\n  1000 AA  Town \n', color: '#000' };
    expect(buildReportModel(reportInput(teamscan, 'enUS', { agency })).agencyFooter).toBe(
      'Street 1 · 1000 AA Town',
    );
  });
});

describe('fullName', () => {
  it('joins the parts that are present, with single spaces', () => {
    expect(fullName({ title: '', firstname: ' Jan ', middlename: 'van  der', lastname: 'Berg' })).toBe(
      'Jan van der Berg',
    );
    expect(fullName({ title: 'Dr.', firstname: '', middlename: '', lastname: 'Ørsted' })).toBe('Dr. Ørsted');
  });
});

describe('formatDay', () => {
  it('names the day in UTC and keeps a text that is not a date', () => {
    expect(formatDay('2026-12-31T23:30:00-02:00', 'en-US')).toBe('January 1, 2027');
    expect(formatDay('2026-02-03', 'nl-NL')).toBe('3 februari 2026');
    expect(formatDay(' sometime ', 'en-US')).toBe('sometime');
  });
});

describe('barColor', () => {
  it('keeps a dark colour, darkens a pale one and replaces an invalid one', () => {
    expect(barColor('#0b6e4f')).toBe('#0b6e4f');
    expect(barColor('#abc')).not.toBe('#aabbcc');
    expect(barColor('#ffffff')).toMatch(/^#[0-9a-f]{6}$/);
    expect(barColor('red')).toBe('#1f5f8b');
    expect(barColor('#12345')).toBe('#1f5f8b');
  });
});
