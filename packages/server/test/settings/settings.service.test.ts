import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientConfig,
  ClientConfigShort,
  Datastructure,
  ReportVariants,
  TextKeys,
  Texts,
} from '../../../schema/src/settings.js';
import {
  clientConfig,
  clientConfigShort,
  datastructure,
  reportVariants,
  textKeys,
  texts,
} from '../../src/settings/settings.service.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import type { Variant, VariantRegistry } from '../../src/variants/variant.types.js';
import { type TempDir, tempDir, tinyKeys, writeBigfive, writeTiny } from '../variants/fixtures.js';

let tmp: TempDir;
let registry: VariantRegistry;
let tiny: Variant;
let bigfive: Variant;
beforeAll(() => {
  tmp = tempDir();
  writeTiny(tmp.root);
  writeBigfive(tmp.root);
  registry = loadVariants([tmp.root]);
  tiny = registry.get('tiny') as Variant;
  bigfive = registry.get('bigfive') as Variant;
});
afterAll(() => tmp.remove());

function expectValid(schema: TSchema, value: unknown): void {
  expect([...Value.Errors(schema, value)].map((e) => JSON.stringify(e))).toEqual([]);
}

const instance = {
  publicUrl: 'https://assay.example.org/',
  questionnaireUrl: 'https://q.example.org',
  version: '0.1.0',
};

describe('client config', () => {
  it('gives the short config', () => {
    const short = clientConfigShort(registry, instance);
    expect(short).toEqual({
      name: 'Assay',
      url: 'https://assay.example.org/',
      apiurl: 'https://assay.example.org/api/v1',
      version: '0.1.0',
      languages: ['enUS', 'nlNL', 'esES', 'frFR'],
      defaultlanguage: 'enUS',
    });
    expectValid(ClientConfigShort, short);
  });

  it('gives the full config', () => {
    const config = clientConfig(registry, { ...instance, name: 'Acme assessments' });
    expect(config).toMatchObject({
      name: 'Acme assessments',
      apiversion: 'v1',
      questionnaireurl: 'https://q.example.org',
      variants: ['bigfive', 'tiny'],
      reporttypes: ['personal', 'group', 'groupanon', 'condensed', 'complete'],
      scopes: ['members', 'groups', 'campaigns', 'reports', 'settings', 'samples', 'webhooks', 'audit'],
      mailstages: [
        'campaign_invitation',
        'campaign_reminder',
        'confirmation_admin',
        'confirmation_member',
        'closing_notification',
        'campaign_reportdelivery',
      ],
      mailplaceholders: ['firstname', 'lastname', 'campaignname', 'link', 'end', 'sender'],
    });
    expectValid(ClientConfig, config);
  });
});

describe('reportVariants', () => {
  it('lists every variant with its roles as extraParams, empty mailconfig as []', () => {
    const variants = reportVariants(registry);
    expectValid(ReportVariants, variants);
    expect(variants.map((v) => v.alias)).toEqual(['bigfive', 'tiny']);
    expect(variants[1]).toEqual({
      alias: 'tiny',
      version: 1,
      name: 'variant.name (enUS)',
      names: { enUS: 'variant.name (enUS)', nlNL: 'variant.name (nlNL)' },
      description: 'variant.description (enUS)',
      languages: ['enUS', 'nlNL'],
      defaultlanguage: 'enUS',
      reporttypes: ['personal', 'group'],
      roles: [
        {
          label: 'role.self (enUS)',
          value: 'role=self',
          mandatory: true,
          canaddparticipants: false,
          showintitle: true,
          hideinwizard: false,
          mailconfig: [],
        },
        {
          label: 'role.peer (enUS)',
          value: 'role=peer',
          mandatory: false,
          canaddparticipants: true,
          showintitle: false,
          hideinwizard: true,
          mailconfig: { campaign_invitation: 'peer-invite' },
        },
      ],
    });
  });
});

describe('datastructure', () => {
  it('maps question codes to texts and structure in the language asked', () => {
    const data = datastructure(tiny, 'nlNL');
    expectValid(Datastructure, data);
    expect(data?.language).toBe('nlNL');
    expect(data?.questions.Q2).toEqual({
      text: 'q.Q2 (nlNL)',
      type: 'likert',
      page: 'p1',
      required: true,
      scale: 'agree5',
      points: [1, 2, 3, 4, 5],
      keyed: '-',
      dimension: 'TRUST',
      facet: 'SAFE',
      options: [],
    });
    expect(data?.questions.C1).toMatchObject({
      type: 'choice',
      scale: null,
      points: [],
      keyed: null,
      options: [
        { value: 1, label: 'choice.C1.1 (nlNL)' },
        { value: 2, label: 'choice.C1.2 (nlNL)' },
        { value: 'other', label: 'choice.C1.other (nlNL)' },
      ],
    });
    expect(data?.pages[1]).toEqual({
      code: 'p2',
      title: 'page.p2.title (nlNL)',
      questions: ['Q4', 'C1', 'Remarks1'],
    });
    expect(data?.scales.agree5?.labels['5']).toBe('scale.agree5.5 (nlNL)');
    expect(data?.dimensions[0]?.facets[1]).toEqual({
      code: 'SAFE',
      name: 'facet.SAFE.name (nlNL)',
      description: 'facet.SAFE.description (nlNL)',
    });
    expect(data?.bands[1]).toEqual({ code: 'average', label: 'band.average (nlNL)', min: 40, max: 60 });
  });

  it('defaults to the variant language, refuses one it does not offer, includes item-bank texts', () => {
    expect(datastructure(tiny)?.language).toBe('enUS');
    expect(datastructure(tiny, 'frFR')).toBeUndefined();
    expect(datastructure(tiny, 'xx')).toBeUndefined();
    const data = datastructure(bigfive, 'esES');
    expectValid(Datastructure, data);
    expect(Object.keys(data?.questions ?? {})).toHaveLength(120);
    expect(data?.questions.Q1).toMatchObject({
      text: 'Me preocupo por las cosas',
      dimension: 'N',
      facet: 'N1',
      keyed: '+',
    });
  });
});

describe('text keys and texts', () => {
  it('lists every key sorted, with q.<code> for item-bank questions too', () => {
    expect(textKeys(tiny)).toEqual([...tinyKeys()].sort());
    const keys = textKeys(bigfive);
    expectValid(TextKeys, keys);
    expect(keys).toContain('q.Q120');
    expect(keys).toEqual([...keys].sort());
  });

  it('gives every text of a language, item-bank questions included, and nothing for others', () => {
    const french = texts(bigfive, 'frFR');
    expectValid(Texts, french);
    expect(french?.['q.Q1']).toBe("Je m'inquiète à propos de choses");
    expect(Object.keys(french ?? {})).toEqual(textKeys(bigfive));
    expect(texts(tiny, 'nlNL')?.['variant.name']).toBe('variant.name (nlNL)');
    expect(texts(tiny, 'esES')).toBeUndefined();
  });
});

describe('the built-in variants', () => {
  it('give settings data that matches the schemas in every language', () => {
    const builtins = loadVariants([builtinVariantsDir()]);
    expectValid(ReportVariants, reportVariants(builtins));
    expectValid(ClientConfig, clientConfig(builtins, instance));
    for (const variant of builtins.list()) {
      expectValid(TextKeys, textKeys(variant));
      for (const language of variant.languages) {
        const data = datastructure(variant, language);
        expectValid(Datastructure, data);
        expect(Object.keys(data?.questions ?? {})).toEqual(variant.questions.map((q) => q.code));
        expect(Object.keys(texts(variant, language) ?? {})).toEqual(textKeys(variant));
      }
    }
  });
});
