import Handlebars from 'handlebars';
import { needsIsolation } from '../../util/safe-text.js';

/** A compiled template: data in, string out. */
export type Template = (data: object) => string;

/** Mail templates run in an environment of their own, so helpers registered elsewhere never leak in. */
const hb = Handlebars.create();

// `{{plural minutes "minute" "minutes"}}`: the only helper, so templates can count without code.
hb.registerHelper('plural', (count: unknown, one: unknown, other: unknown) =>
  typeof one === 'string' && typeof other === 'string' ? (count === 1 ? one : other) : '',
);

// The data is one flat object of strings, so iteration, scopes and @data have nothing to work on;
// leaving them out makes each call cheaper (Handlebars wraps every registered helper per call).
for (const helper of ['each', 'with', 'lookup', 'log']) hb.unregisterHelper(helper);

// knownHelpersOnly: a misspelt or removed helper in an override file fails when the file is loaded,
// not when a mail is sent; plain `{{name}}` lookups and `{{#if}}`/`{{#unless}}` still work.
const OPTIONS = {
  knownHelpers: { plural: true, each: false, with: false, lookup: false, log: false },
  knownHelpersOnly: true,
  data: false,
  preventIndent: true,
} as const;

/** HTML parts: every `{{value}}` is HTML-escaped. */
export function compileHtml(source: string): Template {
  return hb.compile(source, OPTIONS);
}

/** Subjects and text parts: nothing is escaped. */
export function compileText(source: string): Template {
  return hb.compile(source, { ...OPTIONS, noEscape: true });
}

/** Compiles now (Handlebars compiles on first use), so a broken source fails here. */
export function checkSource(source: string, part: 'html' | 'text'): void {
  hb.precompile(source, part === 'html' ? OPTIONS : { ...OPTIONS, noEscape: true });
}

export function escapeHtml(value: string): string {
  return hb.Utils.escapeExpression(value);
}

/**
 * A value for an HTML template: escaped, and in a `<bdi>` when it holds right-to-left text or
 * bidirectional controls (docs/decisions.md, "Text that reaches a mail"); Handlebars inserts it as
 * is. Other values stay plain strings, escaped by the template as any `{{value}}`.
 */
export function htmlIsolated(value: string): string | Handlebars.SafeString {
  return needsIsolation(value) ? new hb.SafeString(bdiHtml(value)) : value;
}

/** `<bdi>` around the escaped value when it needs isolating, else the escaped value. */
export function bdiHtml(value: string): string {
  const escaped = hb.Utils.escapeExpression(value);
  return needsIsolation(value) ? `<bdi>${escaped}</bdi>` : escaped;
}
