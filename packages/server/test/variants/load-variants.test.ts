import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadVariants } from '../../src/variants/load-variants.js';
import {
  commonKeys,
  errorOf,
  type Mutable,
  type TempDir,
  tempDir,
  textsFor,
  tinyKeys,
  tinyVariant,
  writeTiny,
  writeVariant,
} from './fixtures.js';

let tmp: TempDir;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

describe('loadVariants', () => {
  it('loads a variant with its structure, question texts and scoring plan', () => {
    writeTiny(tmp.root);
    const registry = loadVariants([tmp.root]);
    expect(registry.list().map((v) => v.alias)).toEqual(['tiny']);
    const tiny = registry.get('tiny');
    expect(tiny?.dir).toBe(join(tmp.root, 'tiny'));
    expect(tiny?.languages).toEqual(['enUS', 'nlNL']);
    expect(tiny?.questions.map((q) => q.code)).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'C1', 'Remarks1']);
    expect(tiny?.questions[1]).toEqual({
      code: 'Q2',
      page: 'p1',
      type: 'likert',
      scale: 'agree5',
      keyed: '-',
      dimension: 'TRUST',
      facet: 'SAFE',
      required: true,
      texts: { enUS: 'q.Q2 (enUS)', nlNL: 'q.Q2 (nlNL)' },
    });
    expect(tiny?.scales.agree5).toEqual({ code: 'agree5', points: [1, 2, 3, 4, 5], min: 1, max: 5 });
    expect(tiny?.roles[1]?.mailconfig).toEqual({ campaign_invitation: 'peer-invite' });
    expect(tiny?.texts.nlNL?.['band.high']).toBe('band.high (nlNL)');
    expect(registry.get('nope')).toBeUndefined();
  });

  it('lets a later dir replace a variant and add others, listing by alias', () => {
    const builtin = join(tmp.root, 'builtin');
    const customer = join(tmp.root, 'customer');
    writeTiny(builtin);
    const replaced = { ...tinyVariant(), version: 7 };
    writeTiny(customer, replaced);
    const added = { ...tinyVariant(), alias: 'added' };
    writeVariant(customer, 'added', added, {
      enUS: textsFor(tinyKeys(), 'enUS'),
      nlNL: textsFor(tinyKeys(), 'nlNL'),
    });
    mkdirSync(join(customer, '.hidden'));
    writeFileSync(join(customer, 'README.md'), 'not a variant');
    const registry = loadVariants([builtin, customer]);
    expect(registry.list().map((v) => [v.alias, v.version])).toEqual([
      ['added', 1],
      ['tiny', 7],
    ]);
    expect(registry.get('tiny')?.dir).toBe(join(customer, 'tiny'));
  });

  it('accepts the example of docs/variants.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../../docs/variants.md', import.meta.url)), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(doc)?.[1] ?? 'null');
    const keys = [
      ...commonKeys(),
      'role.self',
      'page.p1.title',
      'q.Q1',
      'q.Q2',
      'q.Remarks1',
      'dimension.TRUST.name',
      'dimension.TRUST.description',
      'dimension.TRUST.band.low',
      'dimension.TRUST.band.average',
      'dimension.TRUST.band.high',
    ];
    const texts = Object.fromEntries(example.languages.map((l: string) => [l, textsFor(keys, l)]));
    writeVariant(tmp.root, example.alias, example, texts);
    expect(
      loadVariants([tmp.root])
        .get('teamscan')
        ?.questions.map((q) => q.code),
    ).toEqual(['Q1', 'Q2', 'Remarks1']);
  });

  it('names a missing dir', () => {
    const missing = join(tmp.root, 'nowhere');
    expect(errorOf(() => loadVariants([missing])).message).toBe(`${missing}: folder: missing`);
  });
});

describe('loadVariants rejects a broken variant.json', () => {
  const cases: [string, (v: Mutable) => void, string][] = [
    ['an unknown field', (v) => (v.colour = 'red'), 'colour: unknown field'],
    ['a missing field', (v) => delete v.version, 'version: missing'],
    ['a bad alias', (v) => (v.alias = 'Tiny'), 'alias: "Tiny" does not match [a-z][a-z0-9_]*'],
    [
      'an alias unlike its folder',
      (v) => (v.alias = 'other'),
      'alias: "other" does not match the folder name "tiny"',
    ],
    ['a version of 0', (v) => (v.version = 0), 'version: must be 1 or more'],
    [
      'an unknown language',
      (v) => (v.languages = ['enUS', 'deDE']),
      'languages[1]: "deDE" is not one of enUS, nlNL, esES, frFR',
    ],
    [
      'a language twice',
      (v) => (v.languages = ['enUS', 'enUS']),
      'languages[1]: duplicate "enUS" (first at languages[0])',
    ],
    ['no languages', (v) => (v.languages = []), 'languages: must not be empty'],
    [
      'a default not offered',
      (v) => (v.defaultLanguage = 'frFR'),
      'defaultLanguage: "frFR" is not one of languages',
    ],
    [
      'an unknown report type',
      (v) => (v.reportTypes = ['personal', 'summary']),
      'reportTypes[1]: "summary" is not one of personal, group, groupanon, condensed, complete',
    ],
    [
      'scale points out of order',
      (v) => (v.scales.agree5.points = [1, 3, 2]),
      'scales.agree5.points[2]: points must be strictly ascending',
    ],
    [
      'a one-point scale',
      (v) => (v.scales.agree5.points = [1]),
      'scales.agree5.points: needs at least two points',
    ],
    [
      'a scale too wide',
      (v) => (v.scales.agree5.points = [1, 5, 10000]),
      'scales.agree5.points: spans more than 1000',
    ],
    [
      'a dimension nothing counts for',
      (v) => v.dimensions.push({ code: 'GRIT', facets: [] }),
      'dimensions[2].code: no question counts for "GRIT"',
    ],
    [
      'a facet nothing counts for',
      (v) => v.dimensions[1].facets.push({ code: 'CALM' }),
      'dimensions[1].facets[0].code: no question counts for "CALM"',
    ],
    ['no roles', (v) => (v.roles = []), 'roles: must not be empty'],
    ['a role flag missing', (v) => delete v.roles[0].hideinwizard, 'roles[0].hideinwizard: missing'],
    [
      'a role flag not boolean',
      (v) => (v.roles[0].mandatory = 'yes'),
      'roles[0].mandatory: must be true or false',
    ],
    [
      'an unknown mail stage',
      (v) => (v.roles[1].mailconfig = { invite: 'x' }),
      'roles[1].mailconfig.invite: "invite" is not one of campaign_invitation, campaign_reminder, confirmation_admin, confirmation_member, closing_notification, campaign_reportdelivery',
    ],
    ['a role twice', (v) => (v.roles[1].role = 'self'), 'roles[1]: duplicate "self" (first at roles[0])'],
    [
      'a facet code reused as a dimension',
      (v) => (v.dimensions[1].code = 'OPEN'),
      'dimensions[1].code: duplicate "OPEN" (first at dimensions[0].facets[0].code)',
    ],
    [
      'a band gap',
      (v) => (v.bands[1].min = 45),
      'bands[1].min: must be 40: bands run contiguously from 0 to 100',
    ],
    [
      'bands not from 0',
      (v) => (v.bands[0].min = 10),
      'bands[0].min: must be 0: bands run contiguously from 0 to 100',
    ],
    ['bands short of 100', (v) => (v.bands[2].max = 90), 'bands[2].max: the last band must end at 100'],
    ['an empty band', (v) => (v.bands[1].max = 40), 'bands[1].max: must be greater than min (40)'],
    ['no pages', (v) => (v.pages = []), 'pages: must not be empty'],
    [
      'a question on an unknown scale',
      (v) => (v.pages[0].questions[1].scale = 'agree7'),
      'pages[0].questions[1].scale: unknown scale "agree7"',
    ],
    [
      'a facet of another dimension',
      (v) => (v.pages[0].questions[2].facet = 'OPEN'),
      'pages[0].questions[2].facet: facet "OPEN" belongs to dimension "TRUST"',
    ],
    [
      'an unknown dimension',
      (v) => (v.pages[0].questions[2].dimension = 'GRIT'),
      'pages[0].questions[2].dimension: unknown dimension "GRIT"',
    ],
    [
      'a scored question without keying',
      (v) => delete v.pages[0].questions[0].keyed,
      'pages[0].questions[0].keyed: missing: a scored question is keyed "+" or "-"',
    ],
    [
      'a bad keying',
      (v) => (v.pages[0].questions[0].keyed = 'x'),
      'pages[0].questions[0].keyed: "x" is not one of +, -',
    ],
    [
      'a facet without dimension',
      (v) => (v.pages[1].questions[0].facet = 'OPEN'),
      'pages[1].questions[0].facet: a facet needs its dimension',
    ],
    [
      'a question code twice',
      (v) => (v.pages[1].questions[2].code = 'Q1'),
      'pages[1].questions[2].code: duplicate "Q1" (first at pages[0].questions[0].code)',
    ],
    [
      'a question code that collides with a score',
      (v) => (v.pages[1].questions[2].code = 'TRUST_mean'),
      'pages[1].questions[2].code: "TRUST_mean" collides with a score key of processed answers',
    ],
    [
      'a field of another type',
      (v) => (v.pages[1].questions[2].scale = 'agree5'),
      'pages[1].questions[2].scale: unknown field',
    ],
    [
      'an unknown type',
      (v) => (v.pages[1].questions[2].type = 'essay'),
      'pages[1].questions[2].type: "essay" is not one of likert, choice, text',
    ],
    [
      'a choice without options',
      (v) => (v.pages[1].questions[1].options = []),
      'pages[1].questions[1].options: must not be empty',
    ],
    [
      'a choice option twice',
      (v) => v.pages[1].questions[1].options.push({ value: 2 }),
      'pages[1].questions[1].options[3].value: duplicate "2" (first at pages[1].questions[1].options[1].value)',
    ],
    [
      'an unknown item bank',
      (v) => (v.itemBank = { adapter: 'mbti' }),
      'itemBank.adapter: unknown item bank "mbti" (known: bigfive-org)',
    ],
  ];
  it.each(cases)('rejects %s', (_name, mutate, expected) => {
    const variant = tinyVariant() as Mutable;
    mutate(variant);
    writeTiny(tmp.root, variant);
    const error = errorOf(() => loadVariants([tmp.root]));
    expect(error.message).toBe(`${join(tmp.root, 'tiny', 'variant.json')}: ${expected}`);
    expect(error.message).not.toContain('\n');
  });

  it('gives the line and column of a JSON syntax error', () => {
    writeTiny(tmp.root, '{\n  "alias": "tiny",\n  "version" 1\n}');
    const file = join(tmp.root, 'tiny', 'variant.json');
    expect(errorOf(() => loadVariants([tmp.root])).message).toBe(
      `${file}: line 3, column 13: invalid JSON: Unexpected number`,
    );
  });

  it('places truncated JSON at its end', () => {
    writeTiny(tmp.root, '{\n"alias":');
    const file = join(tmp.root, 'tiny', 'variant.json');
    expect(errorOf(() => loadVariants([tmp.root])).message).toBe(
      `${file}: line 2, column 9: invalid JSON: Unexpected end of JSON input`,
    );
  });

  it('names a folder without variant.json', () => {
    mkdirSync(join(tmp.root, 'empty'));
    expect(errorOf(() => loadVariants([tmp.root])).message).toBe(
      `${join(tmp.root, 'empty', 'variant.json')}: file: missing`,
    );
  });
});
