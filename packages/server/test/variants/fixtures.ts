import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VariantDefinitionError } from '../../src/variants/variant.types.js';

type Json = unknown;

/** Parsed JSON that a test reaches deep into to break one thing. */
// biome-ignore lint/suspicious/noExplicitAny: tests mutate arbitrary paths of fixture JSON
export type Mutable = Record<string, any>;

/** A small variant that uses every feature of the format; tests break one thing at a time. */
export function tinyVariant(): Record<string, Json> {
  return {
    alias: 'tiny',
    version: 1,
    languages: ['enUS', 'nlNL'],
    defaultLanguage: 'enUS',
    reportTypes: ['personal', 'group'],
    scales: { agree5: { points: [1, 2, 3, 4, 5] } },
    roles: [
      {
        role: 'self',
        mandatory: true,
        canaddparticipants: false,
        showintitle: true,
        hideinwizard: false,
        mailconfig: {},
      },
      {
        role: 'peer',
        mandatory: false,
        canaddparticipants: true,
        showintitle: false,
        hideinwizard: true,
        mailconfig: { campaign_invitation: 'peer-invite' },
      },
    ],
    dimensions: [
      { code: 'TRUST', facets: [{ code: 'OPEN' }, { code: 'SAFE' }] },
      { code: 'FOCUS', facets: [] },
    ],
    bands: [
      { code: 'low', min: 0, max: 40 },
      { code: 'average', min: 40, max: 60 },
      { code: 'high', min: 60, max: 100 },
    ],
    pages: [
      {
        code: 'p1',
        questions: [
          {
            code: 'Q1',
            type: 'likert',
            scale: 'agree5',
            keyed: '+',
            dimension: 'TRUST',
            facet: 'OPEN',
            required: true,
          },
          {
            code: 'Q2',
            type: 'likert',
            scale: 'agree5',
            keyed: '-',
            dimension: 'TRUST',
            facet: 'SAFE',
            required: true,
          },
          { code: 'Q3', type: 'likert', scale: 'agree5', keyed: '+', dimension: 'FOCUS', required: true },
        ],
      },
      {
        code: 'p2',
        questions: [
          { code: 'Q4', type: 'likert', scale: 'agree5', required: false },
          {
            code: 'C1',
            type: 'choice',
            options: [{ value: 1 }, { value: 2 }, { value: 'other' }],
            required: false,
          },
          { code: 'Remarks1', type: 'text', required: false },
        ],
      },
    ],
  };
}

const MAIL_STAGES = [
  'campaign_invitation',
  'campaign_reminder',
  'confirmation_admin',
  'confirmation_member',
  'closing_notification',
  'campaign_reportdelivery',
];

/** The keys docs/variants.md requires whatever the structure, written out by hand. */
export function commonKeys(): string[] {
  return [
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
    'band.low',
    'band.average',
    'band.high',
    ...[1, 2, 3, 4, 5].map((p) => `scale.agree5.${p}`),
    ...MAIL_STAGES.flatMap((s) => [`mail.${s}.subject`, `mail.${s}.body`]),
  ];
}

function dimensionKeys(code: string): string[] {
  return [
    `dimension.${code}.name`,
    `dimension.${code}.description`,
    ...['low', 'average', 'high'].map((b) => `dimension.${code}.band.${b}`),
  ];
}

function facetKeys(code: string): string[] {
  return [`facet.${code}.name`, `facet.${code}.description`];
}

export function tinyKeys(): string[] {
  return [
    ...commonKeys(),
    'role.self',
    'role.peer',
    'page.p1.title',
    'page.p2.title',
    ...['Q1', 'Q2', 'Q3', 'Q4', 'C1', 'Remarks1'].map((q) => `q.${q}`),
    'choice.C1.1',
    'choice.C1.2',
    'choice.C1.other',
    ...dimensionKeys('TRUST'),
    ...dimensionKeys('FOCUS'),
    ...facetKeys('OPEN'),
    ...facetKeys('SAFE'),
  ];
}

export function bigfiveKeys(): string[] {
  const keys = [...commonKeys(), 'role.self'];
  for (let p = 1; p <= 6; p++) keys.push(`page.p${p}.title`);
  for (const d of 'NEOAC') {
    keys.push(...dimensionKeys(d));
    for (let f = 1; f <= 6; f++) keys.push(...facetKeys(`${d}${f}`));
  }
  return keys;
}

export function textsFor(keys: readonly string[], language: string): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, `${key} (${language})`]));
}

export interface TempDir {
  readonly root: string;
  remove(): void;
}

export function tempDir(): TempDir {
  const root = mkdtempSync(join(tmpdir(), 'assay-variants-'));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes a variant folder: variant.json as given, and one texts file per language. */
export function writeVariant(
  dir: string,
  folder: string,
  variant: Json,
  texts: Record<string, Record<string, string> | string>,
): string {
  const path = join(dir, folder);
  mkdirSync(join(path, 'texts'), { recursive: true });
  writeFileSync(
    join(path, 'variant.json'),
    typeof variant === 'string' ? variant : JSON.stringify(variant, null, 2),
  );
  for (const [language, content] of Object.entries(texts)) {
    writeFileSync(
      join(path, 'texts', `${language}.json`),
      typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    );
  }
  return path;
}

export function writeTiny(
  dir: string,
  variant: Json = tinyVariant(),
  keys: readonly string[] = tinyKeys(),
): string {
  return writeVariant(dir, 'tiny', variant, { enUS: textsFor(keys, 'enUS'), nlNL: textsFor(keys, 'nlNL') });
}

export const BIGFIVE_LANGUAGES = ['enUS', 'nlNL', 'esES', 'frFR'];

/** A copy of the built-in bigfive variant.json with generated texts, independent of the real texts. */
export function writeBigfive(
  dir: string,
  change: (variant: Mutable) => void = () => {},
  extraKeys: readonly string[] = [],
): string {
  const builtin = fileURLToPath(new URL('../../../../variants/bigfive/variant.json', import.meta.url));
  const variant = JSON.parse(readFileSync(builtin, 'utf8'));
  change(variant);
  const keys = [...bigfiveKeys(), ...extraKeys];
  const texts = Object.fromEntries(BIGFIVE_LANGUAGES.map((l) => [l, textsFor(keys, l)]));
  return writeVariant(dir, 'bigfive', variant, texts);
}

/** The VariantDefinitionError that `action` throws; fails when it throws none or another error. */
export function errorOf(action: () => unknown): VariantDefinitionError {
  try {
    action();
  } catch (error) {
    if (error instanceof VariantDefinitionError) return error;
    throw error;
  }
  throw new Error('expected a VariantDefinitionError');
}

/** The one-line message of the VariantDefinitionError that `action` throws. */
export function messageOf(action: () => unknown): string {
  return errorOf(action).message;
}
