import { isolate } from '../../util/safe-text.js';
import { bdiHtml, escapeHtml } from './handlebars.js';
import { anchor, paragraph } from './layout.js';

/** The placeholders of a variant's `mail.*` texts (docs/variants.md, "Texts"). */
export type Placeholder = 'firstname' | 'lastname' | 'campaignname' | 'link' | 'end' | 'sender';
export type PlaceholderValues = Readonly<Record<Placeholder, string>>;

const PLACEHOLDER = /\{(firstname|lastname|campaignname|link|end|sender)\}/;
const PLACEHOLDERS = new RegExp(PLACEHOLDER.source, 'g');

/** The placeholders whose values people typed: isolated where they may hold right-to-left text. */
const TYPED: ReadonlySet<string> = new Set<Placeholder>(['firstname', 'lastname', 'campaignname', 'sender']);

/** A placeholder's value in plain text (a subject, a text part): typed values isolated (FSI ... PDI). */
function textOf(name: Placeholder, values: PlaceholderValues): string {
  return TYPED.has(name) ? isolate(values[name]) : values[name];
}

/**
 * Replaces the known `{name}` placeholders in plain text (a subject); any other brace text stays as
 * it is. Names, the campaign's and the sender's name go in isolated (see `isolate`).
 */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  // A replacer function, so `$` in a value is never read as a replacement pattern.
  return text.replace(PLACEHOLDERS, (_match, name: Placeholder) => textOf(name, values));
}

/** A line alternates literal text (even indexes) and placeholder names (odd indexes). */
type Line = readonly string[];
type Paragraph = readonly Line[];

const parsed = new Map<string, readonly Paragraph[]>();

/** Paragraphs split on blank lines, lines on newlines, each line on its placeholders; cached per text. */
function parse(body: string): readonly Paragraph[] {
  let paragraphs = parsed.get(body);
  if (paragraphs === undefined) {
    paragraphs = body
      .replace(/\r\n?/g, '\n')
      .split(/\n[ \t]*\n/)
      .map((block) => block.replace(/^\n+|\s+$/g, ''))
      .filter((block) => block.trim() !== '')
      .map((block) => block.split('\n').map((line) => line.split(PLACEHOLDER)));
    parsed.set(body, paragraphs);
  }
  return paragraphs;
}

/**
 * A variant's mail body as plain text and as HTML paragraphs (everything escaped, the link a link).
 * Without an end date, lines that hold `{end}` are left out ("Closing date: {end}" would dangle).
 */
export function renderVariantBody(body: string, values: PlaceholderValues): { text: string; html: string } {
  const paragraphs = values.end === '' ? withoutEnd(parse(body)) : parse(body);
  const link = values.link === '' ? '' : anchor(escapeHtml(values.link), escapeHtml(values.link));
  const text = paragraphs
    .map((lines) =>
      lines.map((line) =>
        line.map((part, i) => (i % 2 === 0 ? part : textOf(part as Placeholder, values))).join(''),
      ),
    )
    .map((lines) => lines.join('\n'))
    .join('\n\n');
  const html = paragraphs
    .map((lines) =>
      lines.map((line) =>
        line
          .map((part, i) => {
            if (i % 2 === 0) return escapeHtml(part);
            if (part === 'link') return link;
            return TYPED.has(part)
              ? bdiHtml(values[part as Placeholder])
              : escapeHtml(values[part as Placeholder]);
          })
          .join(''),
      ),
    )
    .map((lines) => paragraph(lines.join('<br>\n')))
    .join('\n');
  return { text, html };
}

function withoutEnd(paragraphs: readonly Paragraph[]): Paragraph[] {
  return paragraphs
    .map((lines) => lines.filter((line) => !line.some((part, i) => i % 2 === 1 && part === 'end')))
    .filter((lines) => lines.length > 0);
}
