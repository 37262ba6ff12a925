import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * The rules for text that reaches a mail, a page or another person's screen (docs/decisions.md,
 * "Text that reaches a mail"):
 *
 * - one-line text (names, titles, a campaign's name, a mail subject) refuses line breaks, control
 *   characters, bidirectional controls and invisible characters: `lineProblem`;
 * - free text meant to hold line breaks (descriptions, an agency footer) keeps its line breaks and
 *   tabs and loses every other control character: `cleanLines`;
 * - an e-mail address refuses all of those, look-alike characters (fullwidth and other compatibility
 *   forms) and a mix of scripts in one part; its domain loses a trailing dot and a Unicode domain is
 *   stored as its ASCII (punycode) form: `checkEmail`;
 * - what is shown keeps right-to-left text inside its own isolate: `needsIsolation`, `isolate`.
 */

const NOT_ASCII = /[^\p{ASCII}]/u;
const isAscii = (value: string) => !NOT_ASCII.test(value);

/** A code point as messages name it: U+200B. */
export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

// Line breaks: LF, VT, FF, CR, NEL and the Unicode line and paragraph separators.
const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/u;
// C0 (tab and line breaks included), DEL and C1.
const CONTROL = /\p{Cc}/u;
// ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
const BIDI_CONTROL = /\p{Bidi_Control}/u;
// Characters that draw nothing: soft hyphen, zero-width space, word joiner, BOM, Hangul fillers,
// tag characters, variation selectors and the rest of Unicode's default-ignorable code points.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
// The invisible characters a name in some scripts needs: ZWNJ and ZWJ (Persian, Indic scripts,
// emoji sequences), variation selectors (emoji, CJK) and Mongolian's free variation selectors and
// vowel separator.
const NAME_JOINERS = /\u200C|\u200D|[\uFE00-\uFE0F\u180B-\u180F\u{E0100}-\u{E01EF}]/u;
const INVISIBLE_NOT_JOINER = new RegExp(`(?!${NAME_JOINERS.source})${INVISIBLE.source}`, 'u');

/**
 * Why a one-line text is refused, or undefined when it is fine. Line breaks and other control
 * characters, bidirectional controls and invisible characters (other than the joiners real names
 * need) are refused: stripping them would store something the caller did not send.
 */
export function lineProblem(value: string): string | undefined {
  const control = CONTROL.exec(value)?.[0];
  if (control !== undefined) {
    return LINE_BREAK.test(control)
      ? 'must be one line (it contains a line break)'
      : `contains a control character (${codePoint(control)})`;
  }
  const separator = /[\u2028\u2029]/.exec(value)?.[0];
  if (separator !== undefined) return 'must be one line (it contains a line break)';
  const bidi = BIDI_CONTROL.exec(value)?.[0];
  if (bidi !== undefined) return `contains a bidirectional control character (${codePoint(bidi)})`;
  const invisible = INVISIBLE_NOT_JOINER.exec(value)?.[0];
  if (invisible !== undefined) return `contains an invisible character (${codePoint(invisible)})`;
  return undefined;
}

// Every control character but LF and tab (CR and the other line breaks are turned into LF first).
const CONTROL_BUT_LF_TAB = /[^\P{Cc}\n\t]/gu;

/**
 * Free text that may span lines: CRLF, CR, NEL and the Unicode line and paragraph separators become
 * LF; tabs stay; every other control character is removed. Bidirectional marks stay (mixed-direction
 * prose may need them): where such text is shown it is isolated.
 */
export function cleanLines(value: string): string {
  return value.replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n').replace(CONTROL_BUT_LF_TAB, '');
}

/**
 * Text shown inside a sentence of another direction: one line, whatever it holds (values stored
 * before these rules, or from a source that never checked them). Line breaks and control
 * characters become a space and runs of blanks one space.
 */
export function asOneLine(value: string): string {
  if (!/[\p{Cc}\u2028\u2029]/u.test(value)) return value;
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

// Letters of right-to-left scripts (the blocks whose default direction is R or AL: Hebrew, Arabic,
// Syriac, Thaana, NKo, Samaritan, Mandaic, their presentation forms, and the historic and modern RTL
// blocks of the supplementary planes) and the bidirectional controls themselves.
const NEEDS_ISOLATION =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}\p{Bidi_Control}]/u;

/**
 * True when a value could reorder the text around it: it holds a right-to-left letter or a
 * bidirectional control. Text of left-to-right letters, digits and punctuation cannot, inside the
 * left-to-right sentences of our templates.
 */
export function needsIsolation(value: string): boolean {
  return NEEDS_ISOLATION.test(value);
}

/** FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE. */
export const FSI = '\u2068';
export const PDI = '\u2069';

/**
 * A value for a plain-text sentence (a text part, a subject): on one line, and between FSI and PDI
 * when it holds right-to-left text or bidirectional controls, so that it takes its own direction
 * and an unclosed override in it ends with it. Other values are left as they are.
 */
export function isolate(value: string): string {
  const line = asOneLine(value);
  return needsIsolation(line) ? `${FSI}${line}${PDI}` : line;
}

// Scripts told apart in one part of an address. Characters of the Common and Inherited scripts
// (digits, punctuation, combining marks) belong to none.
const SCRIPTS: readonly [string, RegExp][] = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Khmer',
  'Mongolian',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Hangul',
  'Coptic',
  'Runic',
  'Ogham',
  'Tifinagh',
  'Vai',
  'Lisu',
  'Osage',
].map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')]);
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** The mixes of scripts one language writes together (UTS #39, "highly restrictive"). */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

function scriptOf(char: string): string | undefined {
  if (NO_SCRIPT.test(char)) return undefined;
  for (const [name, pattern] of SCRIPTS) if (pattern.test(char)) return name;
  return 'another script';
}

/** The scripts of `part` when they are a mix no language writes, else undefined. */
export function mixedScripts(part: string): string[] | undefined {
  if (isAscii(part)) return undefined;
  const scripts = new Set<string>();
  for (const char of part) {
    const script = scriptOf(char);
    if (script !== undefined) scripts.add(script);
  }
  if (scripts.size < 2) return undefined;
  const all = [...scripts];
  if (ALLOWED_MIXES.some((mix) => all.every((script) => mix.includes(script)))) return undefined;
  // In a fixed order (Latin first), whichever came first in the text.
  const rank = (name: string) => {
    const index = SCRIPTS.findIndex(([script]) => script === name);
    return index < 0 ? SCRIPTS.length : index;
  };
  return all.sort((a, b) => rank(a) - rank(b));
}

const listed = (names: string[]) =>
  names.length === 2 ? `${names[0]} and ${names[1]}` : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

// Fullwidth forms of ASCII, and of the signs ¢ £ ¬ ¯ ¦ ¥ ₩; the ideographic space.
const FULLWIDTH = /[\uFF01-\uFF5E\uFFE0-\uFFE6\u3000]/u;

export type EmailCheck =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: string };

const refused = (problem: string): EmailCheck => ({ ok: false, problem });

/**
 * Checks the characters of an e-mail address and answers it normalised: the domain without its
 * trailing dot, and a domain with non-ASCII letters (or already in punycode) as its ASCII form
 * (IDNA, node:url's domainToASCII), lowercase. An ASCII domain keeps its case (the key under which
 * addresses are unique folds it anyway); the local part is kept as written. The shape of the
 * address (`local@domain`, a dot in the domain) is the caller's to check.
 *
 * Refused, with the problem named: control characters, bidirectional controls, invisible
 * characters, fullwidth and other compatibility forms of letters (`ｅ`, `ﬁ`, `𝐞`), and a mix of
 * scripts in the local part or in one label of the domain (a Cyrillic `е` among Latin letters).
 */
export function checkEmail(value: string): EmailCheck {
  const control = CONTROL.exec(value)?.[0];
  if (control !== undefined) return refused(`contains a control character (${codePoint(control)})`);
  const bidi = BIDI_CONTROL.exec(value)?.[0];
  if (bidi !== undefined) return refused(`contains a bidirectional control character (${codePoint(bidi)})`);
  const invisible = INVISIBLE.exec(value)?.[0];
  if (invisible !== undefined) return refused(`contains an invisible character (${codePoint(invisible)})`);
  if (FULLWIDTH.test(value)) return refused('contains fullwidth characters');
  if (!isAscii(value)) {
    for (const char of value) {
      const plain = char.normalize('NFKC');
      if (plain !== char.normalize('NFC')) {
        return refused(`contains a look-alike character (${codePoint(char)}, which reads as "${plain}")`);
      }
    }
  }
  const at = value.lastIndexOf('@');
  if (at < 0) return { ok: true, value };
  const local = value.slice(0, at);
  let domain = value.slice(at + 1);
  // `example.com.` is the fully qualified spelling of `example.com`: the same mailbox.
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) {
    return refused('must be a valid e-mail address (the domain has an empty label)');
  }
  let unicode = domain;
  if (!isAscii(domain) || /(^|\.)xn--/i.test(domain)) {
    const ascii = domainToASCII(domain);
    if (ascii === '') return refused('the domain is not a valid internationalised domain name');
    domain = ascii;
    unicode = domainToUnicode(ascii);
  }
  const localMix = mixedScripts(local);
  if (localMix) return refused(`mixes scripts (${listed(localMix)})`);
  for (const label of unicode.split('.')) {
    const mix = mixedScripts(label);
    if (mix) return refused(`mixes scripts (${listed(mix)})`);
  }
  return { ok: true, value: `${local}@${domain}` };
}

/** The address as stored: normalised by checkEmail when it passes, else as given. */
export function canonicalEmail(value: string): string {
  const checked = checkEmail(value.trim());
  return checked.ok ? checked.value : value.trim();
}
