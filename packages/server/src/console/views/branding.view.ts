import {
  AGENCY_FOOTER_MAX,
  AGENCY_NAME_MAX,
  type BrandingField,
  type BrandingProblem,
  MIN_TEXT_CONTRAST,
} from '../../auth/branding.js';
import { fill } from '../../pages/strings.js';
import { labelsFor } from '../../pdf/labels.js';
import { CONTENT_WIDTH, COVER, FOOTER, INK, MUTED, PAGE, RULE, STYLES } from '../../pdf/layout.js';
import type { Language } from '../../variants/variant.types.js';
import { brandingStrings } from '../branding-strings.js';
import { refusalIn } from '../refusals.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** The values the form and the cover show: saved, posted or typed for a preview. */
export interface BrandingValues {
  readonly agencyname: string;
  readonly agencyfooter: string;
  readonly color: string;
}

const FIELD_IDS: Readonly<Record<BrandingField, string>> = {
  'agency-name': 'agencyname',
  'agency-footer': 'agencyfooter',
  color: 'color',
};

/** The preview image's address for these values (the page and the image agree on it). */
export function previewHref(values: BrandingValues): string {
  const query = new URLSearchParams({
    agencyname: values.agencyname,
    agencyfooter: values.agencyfooter,
    color: values.color,
  });
  return `/console/branding/preview.svg?${query.toString()}`;
}

/** The branding page: the form, its problems, and the cover drawn with `values`. */
export function brandingView(
  viewer: Viewer,
  input: {
    values: BrandingValues;
    problems?: readonly BrandingProblem[];
    saved?: boolean;
    previewColor: string;
  },
): ConsoleView {
  const b = brandingStrings(viewer.language);
  const labels: Readonly<Record<BrandingField, string>> = {
    'agency-name': b.agencyName,
    'agency-footer': b.agencyFooter,
    color: b.color,
  };
  const problems = input.problems ?? [];
  const errorOf = (field: BrandingField) => {
    const found = problems.find((p) => p.field === field);
    return found ? `${labels[field]}: ${refusalIn(viewer.language, found.problem)}` : undefined;
  };
  // A colour that cannot be shown (mistyped) leaves the picker at the colour the cover uses.
  const pickerColor = /^#[0-9a-f]{6}$/.test(input.values.color) ? input.values.color : input.previewColor;
  return {
    template: 'console/branding',
    model: {
      ...chrome(viewer, 'branding'),
      b,
      title: b.title,
      errors:
        problems.length > 0
          ? problems.map((p) => ({ href: `#${FIELD_IDS[p.field]}`, text: errorOf(p.field) }))
          : undefined,
      nameError: errorOf('agency-name'),
      footerError: errorOf('agency-footer'),
      colorError: errorOf('color'),
      colorHint: fill(b.colorHint, { ratio: MIN_TEXT_CONTRAST }),
      notice: input.saved ? b.saved : undefined,
      values: input.values,
      pickerColor,
      nameMax: AGENCY_NAME_MAX,
      footerMax: AGENCY_FOOTER_MAX,
      preview: previewHref({ ...input.values, color: input.previewColor }),
    },
  };
}

/** Text for XML: the five markup characters as entities, and no character XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Lines of at most `width` characters, broken between words (a long word is cut), at most `max`
 * lines, the last one ending in an ellipsis when text is left over. An estimate of the PDF's
 * measured lines: the preview does not load the fonts, to stay cheap.
 */
export function wrapLines(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/[ \t]+/)) {
      let rest = [...word];
      while (rest.length > 0) {
        const room = width - [...line].length - (line === '' ? 0 : 1);
        if (rest.length <= room) {
          line = line === '' ? rest.join('') : `${line} ${rest.join('')}`;
          rest = [];
        } else if (line !== '') {
          lines.push(line);
          line = '';
        } else {
          lines.push(rest.slice(0, width).join(''));
          rest = rest.slice(width);
        }
      }
    }
    lines.push(line);
  }
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept[max - 1] = `${[...(kept[max - 1] as string)].slice(0, width - 1).join('')}…`;
  return kept;
}

// Average advance of a character as a share of the font size (Noto Sans, mixed text): for wrapping.
const ADVANCE = { regular: 0.52, bold: 0.56 } as const;
const perLine = (width: number, size: number, advance: number) =>
  Math.max(8, Math.floor(width / (size * advance)));

/**
 * The first page of a personal report as SVG, drawn from the layout constants the PDF cover uses
 * (pdf/layout.ts COVER and FOOTER): the colour band, the agency name, a sample title and name, the
 * short rule, the facts, and the footer with the agency's lines. Every text is escaped; `dir="auto"`
 * is not an SVG attribute, so right-to-left names are left to the bidirectional algorithm, as in the
 * PDF. `color` must already be a checked `#rrggbb`.
 */
export function coverSvg(language: Language, values: BrandingValues, date: Date): string {
  const b = brandingStrings(language);
  const labels = labelsFor(language);
  const out: string[] = [];
  const text = (
    x: number,
    y: number,
    size: number,
    fill: string,
    content: string,
    bold = false,
    anchor = '',
  ) =>
    out.push(
      `<text x="${x}" y="${y.toFixed(1)}" font-size="${size}" fill="${fill}"${bold ? ' font-weight="700"' : ''}${anchor}>${escapeXml(content)}</text>`,
    );
  const lineHeight = (size: number, gap: number) => size * 1.2 + gap;
  out.push(`<rect x="0" y="0" width="${PAGE.width}" height="${COVER.band}" fill="${values.color}"/>`);

  let y: number = PAGE.top;
  const agency = values.agencyname === '' ? ' ' : values.agencyname;
  const agencyStyle = { ...STYLES.strong, size: COVER.agencySize };
  for (const line of wrapLines(agency, perLine(CONTENT_WIDTH, agencyStyle.size, ADVANCE.bold), 4)) {
    text(PAGE.left, y + agencyStyle.size, agencyStyle.size, INK, line, true);
    y += lineHeight(agencyStyle.size, agencyStyle.lineGap);
  }

  y = COVER.titleTop;
  text(PAGE.left, y + STYLES.title.size, STYLES.title.size, INK, b.sampleTitle, true);
  y += lineHeight(STYLES.title.size, STYLES.title.lineGap) + COVER.titleAfter;
  text(PAGE.left, y + STYLES.name.size, STYLES.name.size, INK, b.sampleName);
  y += lineHeight(STYLES.name.size, STYLES.name.lineGap) + COVER.nameAfter;
  out.push(
    `<rect x="${PAGE.left}" y="${y.toFixed(1)}" width="${COVER.rule.width}" height="${COVER.rule.height}" fill="${values.color}"/>`,
  );
  y += COVER.rule.after;

  const valueX = PAGE.left + COVER.factLabelWidth;
  const valueChars = perLine(CONTENT_WIDTH - COVER.factLabelWidth, STYLES.body.size, ADVANCE.regular);
  const dateText = new Intl.DateTimeFormat(labels.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    date,
  );
  const facts: [string, string][] = [
    [labels.instrument, b.sampleInstrument],
    [labels.completed, dateText],
    [labels.language, labels.languageName],
    [labels.preparedBy, values.agencyname],
  ];
  for (const [label, value] of facts) {
    if (value === '') continue;
    text(PAGE.left, y + 2 + STYLES.small.size, STYLES.small.size, MUTED, label);
    for (const line of wrapLines(value, valueChars, 3)) {
      text(valueX, y + STYLES.body.size, STYLES.body.size, INK, line);
      y += lineHeight(STYLES.body.size, STYLES.body.lineGap);
    }
    y += 6;
  }
  y += 22;
  for (const line of wrapLines(
    b.sampleDescription,
    perLine(CONTENT_WIDTH, STYLES.lead.size, ADVANCE.regular),
    4,
  )) {
    text(PAGE.left, y + STYLES.lead.size, STYLES.lead.size, MUTED, line);
    y += lineHeight(STYLES.lead.size, STYLES.lead.lineGap);
  }

  const ruleY = FOOTER.top - FOOTER.ruleAbove;
  out.push(
    `<line x1="${PAGE.left}" y1="${ruleY}" x2="${PAGE.left + CONTENT_WIDTH}" y2="${ruleY}" stroke="${RULE}" stroke-width="0.5"/>`,
  );
  const footerWidth = CONTENT_WIDTH - FOOTER.numberWidth - FOOTER.gap;
  let footerY = FOOTER.top;
  if (values.agencyfooter !== '') {
    for (const line of wrapLines(
      values.agencyfooter,
      perLine(footerWidth, FOOTER.size, ADVANCE.regular),
      6,
    )) {
      text(PAGE.left, footerY + FOOTER.size, FOOTER.size, MUTED, line);
      footerY += lineHeight(FOOTER.size, 1);
    }
  }
  const page = labels.page.replace('{page}', '1').replace('{pages}', '6');
  text(
    PAGE.left + CONTENT_WIDTH,
    FOOTER.top + FOOTER.size,
    FOOTER.size,
    MUTED,
    page,
    false,
    ' text-anchor="end"',
  );

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PAGE.width} ${PAGE.height}" width="${PAGE.width}" height="${PAGE.height}" role="img" font-family="'Noto Sans', Arial, sans-serif">`,
    `<title>${escapeXml(b.previewAlt)}</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...out,
    '</svg>',
  ].join('\n');
}
