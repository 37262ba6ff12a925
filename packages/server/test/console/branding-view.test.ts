import { describe, expect, it } from 'vitest';
import { checkBrandColor, contrastWithWhite, ratioText, rgbOf } from '../../src/auth/branding.js';
import { coverSvg, escapeXml, previewHref, wrapLines } from '../../src/console/views/branding.view.js';
import { barColor } from '../../src/pdf/layout.js';

describe('the brand colour’s contrast against white (WCAG 2.x)', () => {
  it.each([
    ['#1d70b8', 5.17, true],
    ['#767676', 4.54, true],
    ['#000000', 21, true],
    ['#ffffff', 1, false],
    ['#ffdd00', 1.35, false],
    ['#777777', 4.48, false],
  ])('%s is %f:1 (passes: %s)', (color, ratio, passes) => {
    expect(contrastWithWhite(rgbOf(color))).toBeCloseTo(ratio, 1);
    expect(checkBrandColor(color).ok).toBe(passes);
  });

  it('says the ratio rounded down, so that a failing colour never shows 4.5', () => {
    expect(ratioText(4.499)).toBe('4.4:1');
    expect(checkBrandColor('#FD0')).toEqual({
      ok: false,
      problem: 'the colour #ffdd00 has a contrast of 1.3:1 against white; text needs at least 4.5:1',
    });
    expect(checkBrandColor(' #1D70B8 ')).toEqual({ ok: true, value: '#1d70b8' });
  });

  it('is the same computation the PDF bars use', () => {
    expect(barColor('#1d70b8')).toBe('#1d70b8');
    expect(contrastWithWhite(rgbOf(barColor('#ffdd00')))).toBeGreaterThanOrEqual(3);
  });
});

describe('the cover preview', () => {
  const values = { agencyname: 'Acme', agencyfooter: 'Street 1\nCity', color: '#1d70b8' };
  it('draws the band and the rule in the colour, the name and the footer lines', () => {
    const svg = coverSvg('enUS', values, new Date('2026-11-26T00:00:00Z'));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/fill="#1d70b8"/g)).toHaveLength(2);
    expect(svg).toContain('>Acme</text>');
    expect(svg).toContain('>Street 1</text>');
    expect(svg).toContain('>City</text>');
    expect(svg).toContain('>November 26, 2026</text>');
    expect(svg).toContain('>Page 1 of 6</text>');
    expect(coverSvg('nlNL', values, new Date('2026-11-26T00:00:00Z'))).toContain(
      '>Persoonlijk rapport</text>',
    );
  });

  it('escapes text and drops characters XML cannot hold', () => {
    expect(escapeXml(`<a href='x'>&"</a>\u0001`)).toBe(
      '&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;\uFFFD',
    );
  });

  it('wraps long text between words and cuts what does not fit', () => {
    expect(wrapLines('one two three four', 9, 5)).toEqual(['one two', 'three', 'four']);
    expect(wrapLines('abcdefghij', 4, 5)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapLines('a\nb\nc\nd', 10, 2)).toEqual(['a', 'b…']);
  });

  it('links the image with the values, escaped by the address', () => {
    expect(previewHref({ agencyname: 'A&B', agencyfooter: '', color: '#000000' })).toBe(
      '/console/branding/preview.svg?agencyname=A%26B&agencyfooter=&color=%23000000',
    );
  });
});
