import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadVariants } from '../../src/variants/load-variants.js';
import {
  messageOf,
  type TempDir,
  tempDir,
  textsFor,
  tinyKeys,
  tinyVariant,
  writeVariant,
} from './fixtures.js';

let tmp: TempDir;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

type Texts = Record<string, Record<string, unknown>>;

function writeWith(change: (texts: Texts) => void): string {
  const texts: Texts = { enUS: textsFor(tinyKeys(), 'enUS'), nlNL: textsFor(tinyKeys(), 'nlNL') };
  change(texts);
  return writeVariant(tmp.root, 'tiny', tinyVariant(), texts as Record<string, Record<string, string>>);
}

describe('loadVariants checks the texts', () => {
  const cases: [string, string, (t: Texts) => void, string][] = [
    [
      'a key missing in one language',
      'nlNL',
      (t) => delete t.nlNL?.['dimension.TRUST.band.high'],
      'key "dimension.TRUST.band.high": missing (present in enUS)',
    ],
    [
      'a required key missing everywhere',
      'enUS',
      (t) => {
        delete t.enUS?.['facet.SAFE.description'];
        delete t.nlNL?.['facet.SAFE.description'];
      },
      'key "facet.SAFE.description": missing',
    ],
    [
      'a choice label missing',
      'enUS',
      (t) => {
        delete t.enUS?.['choice.C1.other'];
        delete t.nlNL?.['choice.C1.other'];
      },
      'key "choice.C1.other": missing',
    ],
    [
      'an extra key in one language only',
      'nlNL',
      (t) => {
        if (t.enUS) t.enUS['report.extra.note'] = 'Note';
      },
      'key "report.extra.note": missing (present in enUS)',
    ],
    [
      'an empty text',
      'nlNL',
      (t) => {
        if (t.nlNL) t.nlNL['variant.name'] = '  ';
      },
      'key "variant.name": empty',
    ],
    [
      'a text that is not a string',
      'enUS',
      (t) => {
        if (t.enUS) t.enUS['variant.name'] = 3;
      },
      'key "variant.name": must be a string',
    ],
    [
      'an unknown mail placeholder',
      'enUS',
      (t) => {
        if (t.enUS) t.enUS['mail.campaign_reminder.body'] = 'Dear {first_name}, {link}';
      },
      'key "mail.campaign_reminder.body": unknown placeholder {first_name} (known: {firstname}, {lastname}, {campaignname}, {link}, {end}, {sender})',
    ],
    ['a missing language file', 'nlNL', (t) => delete t.nlNL, 'file: missing'],
    ['a file that is not an object', 'enUS', (t) => (t.enUS = [] as never), '(root): must be an object'],
    [
      'a file for an unknown language',
      'deDE',
      (t) => (t.deDE = {}),
      'file: unknown language "deDE" (known: enUS, nlNL, esES, frFR)',
    ],
    [
      'a file for a language not offered',
      'frFR',
      (t) => (t.frFR = {}),
      'file: language "frFR" is not in variant.json languages',
    ],
  ];
  it.each(cases)('rejects %s', (_name, language, change, expected) => {
    writeWith(change);
    const file = join(tmp.root, 'tiny', 'texts', `${language}.json`);
    expect(messageOf(() => loadVariants([tmp.root]))).toBe(`${file}: ${expected}`);
  });

  it('gives the line and column of a JSON error in a text file', () => {
    const dir = writeWith(() => {});
    const file = join(dir, 'texts', 'nlNL.json');
    writeFileSync(file, '{\n  "variant.name": "Klein",\n}\n');
    expect(messageOf(() => loadVariants([tmp.root]))).toBe(
      `${file}: line 3, column 1: invalid JSON: Expected double-quoted property name`,
    );
  });

  it('accepts placeholders and extra keys present in every language', () => {
    writeWith((t) => {
      for (const language of ['enUS', 'nlNL']) {
        const texts = t[language] as Record<string, unknown>;
        texts['mail.campaign_invitation.body'] =
          'Dear {firstname} {lastname},\n\n{link} until {end}. {sender}';
        texts['report.extra.note'] = 'Note';
      }
    });
    expect(loadVariants([tmp.root]).get('tiny')?.texts.nlNL?.['report.extra.note']).toBe('Note');
  });
});
