import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Checker, readJsonFile } from './json-checks.js';
import { isLanguage, LANGUAGES, type Language, MAIL_STAGES, type Question } from './variant.types.js';
import type { VariantStructure } from './variant-structure.js';

export type TextsByLanguage = Partial<Record<Language, Readonly<Record<string, string>>>>;

const FIXED_KEYS = [
  'variant.name',
  'variant.description',
  'report.personal.title',
  'report.personal.intro',
  'report.group.title',
  'report.group.intro',
  'report.groupanon.title',
  'report.groupanon.intro',
  'report.condensed.title',
  'report.complete.title',
  'report.dimensions.heading',
  'report.facets.heading',
  'report.verbatims.heading',
  'report.score.label',
  'report.respondents.label',
  'report.footer',
  'questionnaire.intro',
  'questionnaire.thanks',
];

export const MAIL_PLACEHOLDERS = ['firstname', 'lastname', 'campaignname', 'link', 'end', 'sender'];

/** Every key docs/variants.md requires, in a stable order; `bankCodes` need no `q.<code>`. */
export function requiredTextKeys(
  structure: VariantStructure,
  pages: readonly { readonly code: string; readonly questions: readonly Question[] }[],
  bankCodes: ReadonlySet<string>,
): string[] {
  const keys = [...FIXED_KEYS];
  for (const role of structure.roles) keys.push(`role.${role.role}`);
  for (const scale of Object.values(structure.scales)) {
    for (const point of scale.points) keys.push(`scale.${scale.code}.${point}`);
  }
  for (const page of pages) {
    keys.push(`page.${page.code}.title`);
    for (const question of page.questions) {
      if (!bankCodes.has(question.code)) keys.push(`q.${question.code}`);
      if (question.type === 'choice') {
        for (const option of question.options) keys.push(`choice.${question.code}.${option}`);
      }
    }
  }
  for (const dimension of structure.dimensions) {
    keys.push(`dimension.${dimension.code}.name`, `dimension.${dimension.code}.description`);
    for (const band of structure.bands) keys.push(`dimension.${dimension.code}.band.${band.code}`);
    for (const facet of dimension.facets) keys.push(`facet.${facet}.name`, `facet.${facet}.description`);
  }
  for (const band of structure.bands) keys.push(`band.${band.code}`);
  for (const stage of MAIL_STAGES) keys.push(`mail.${stage}.subject`, `mail.${stage}.body`);
  return keys;
}

/**
 * Reads `texts/<lang>.json` for every language of the variant and checks that each holds every
 * required key, the same keys as the others, and no empty text.
 */
export function loadTexts(
  dir: string,
  languages: readonly Language[],
  required: readonly string[],
): TextsByLanguage {
  const textsDir = join(dir, 'texts');
  let entries: string[] = [];
  try {
    entries = readdirSync(textsDir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A missing folder is reported below as the first missing file; an unreadable one here.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') new Checker(textsDir).fail('folder', `unreadable (${code})`);
  }
  for (const name of entries.sort()) {
    const code = name.slice(0, -'.json'.length);
    if (!isLanguage(code)) {
      new Checker(join(textsDir, name)).fail(
        'file',
        `unknown language "${code}" (known: ${LANGUAGES.join(', ')})`,
      );
    } else if (!languages.includes(code)) {
      new Checker(join(textsDir, name)).fail('file', `language "${code}" is not in variant.json languages`);
    }
  }

  const texts: TextsByLanguage = {};
  for (const language of languages) {
    const file = join(textsDir, `${language}.json`);
    const c: Checker = new Checker(file);
    const json = c.object(readJsonFile(file), '(root)');
    const own: Record<string, string> = {};
    for (const [key, value] of Object.entries(json)) {
      const place = `key ${JSON.stringify(key)}`;
      const text = c.string(value, place);
      if (text.trim() === '') c.fail(place, 'empty');
      if (key.startsWith('mail.')) checkPlaceholders(c, place, text);
      own[key] = text;
    }
    texts[language] = own;
  }

  const presentIn = (key: string): Language | undefined =>
    languages.find((l) => texts[l]?.[key] !== undefined);
  const allKeys = new Set(required);
  for (const language of languages) for (const key of Object.keys(texts[language] ?? {})) allKeys.add(key);
  for (const language of languages) {
    const own = texts[language] ?? {};
    for (const key of allKeys) {
      if (own[key] !== undefined) continue;
      const other = presentIn(key);
      const problem = other === undefined ? 'missing' : `missing (present in ${other})`;
      new Checker(join(textsDir, `${language}.json`)).fail(`key ${JSON.stringify(key)}`, problem);
    }
  }
  return texts;
}

function checkPlaceholders(c: Checker, place: string, text: string): void {
  for (const match of text.matchAll(/\{([^{}]*)\}/g)) {
    const name = match[1] as string;
    if (!MAIL_PLACEHOLDERS.includes(name)) {
      c.fail(
        place,
        `unknown placeholder {${name}} (known: ${MAIL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
      );
    }
  }
}
