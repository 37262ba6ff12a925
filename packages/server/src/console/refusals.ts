import type { Language } from '../variants/variant.types.js';
import { REFUSALS, type RefusalText } from './refusal-strings.js';

// A service's refusal is the API's message, in English: `field: text`, several problems joined by
// `; ` (`name: is required; email: must be a valid e-mail address`), or a text alone. The console
// shows it in the viewer's language: each problem's text translated, its field left as it is (the
// console's forms find the field by it).

/** The field in front of a problem: `email`, `config.selfregistration.group`, `--days`. */
const FIELD = /^((?:--)?[A-Za-z][A-Za-z0-9_.[\]-]*): /;
/** Where the next problem of a message starts: after `; `, at a field. */
const NEXT_PROBLEM = /; (?=(?:--)?[A-Za-z][A-Za-z0-9_.[\]-]*: )/;
const PLACEHOLDER = /\{([A-Za-z_]+)\}/g;

interface Compiled {
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly text: RefusalText;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Texts without a placeholder are looked up by their words; the others tried in turn. */
const exact = new Map<string, RefusalText>();
const patterns: Compiled[] = [];
for (const text of REFUSALS) {
  const names = [...text.en.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
  if (names.length === 0) {
    exact.set(text.en, text);
    continue;
  }
  const source = text.en
    .split(PLACEHOLDER)
    .map((part, index) => (index % 2 === 0 ? escapeRegExp(part) : '(.+?)'))
    .join('');
  patterns.push({ pattern: new RegExp(`^${source}$`, 's'), names, text });
}

/** One problem's text in `language`, or the text as it came when it is not one of REFUSALS. */
function translated(language: Exclude<Language, 'enUS'>, text: string): string {
  const known = exact.get(text);
  if (known) return known[language];
  for (const { pattern, names, text: refusal } of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const values = new Map(names.map((name, index) => [name, match[index + 1] as string]));
    return refusal[language].replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole);
  }
  return text;
}

/**
 * A problem's field and its words (`email: not an address` → `email`, `not an address`); a
 * problem that names no field has the field '' and all its words.
 */
export function splitProblem(problem: string): { field: string; text: string } {
  const field = FIELD.exec(problem)?.[1];
  return field === undefined
    ? { field: '', text: problem }
    : { field, text: problem.slice(field.length + 2) };
}

/** The problems of a refusal, each `field: text` (or a text alone), in the order the service gave them. */
export function problemsOf(message: string): string[] {
  return message.split(NEXT_PROBLEM);
}

/**
 * A service's refusal in the viewer's language: the text of each problem translated where
 * REFUSALS knows it, the field names and the values in it unchanged. In English, the message.
 */
export function refusalIn(language: Language, message: string): string {
  if (language === 'enUS') return message;
  return problemsOf(message)
    .map((problem) => {
      const { field, text } = splitProblem(problem);
      return (field === '' ? '' : `${field}: `) + translated(language, text);
    })
    .join('; ');
}
