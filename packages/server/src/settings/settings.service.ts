import { SCOPES } from '@assay/schema';
import {
  isLanguage,
  LANGUAGES,
  type Language,
  MAIL_STAGES,
  REPORT_TYPES,
  type ReportType,
  type Variant,
  type VariantRegistry,
} from '../variants/variant.types.js';
import { MAIL_PLACEHOLDERS } from '../variants/variant-texts.js';

// The shapes below are those of packages/schema/src/settings.ts (a test checks each against it).

export interface InstanceInfo {
  readonly publicUrl: string;
  readonly questionnaireUrl: string;
  readonly version: string;
  /** Display name; "Assay" when the operator sets none. */
  readonly name?: string;
}

export interface ClientConfigShortData {
  name: string;
  url: string;
  apiurl: string;
  version: string;
  languages: Language[];
  defaultlanguage: Language;
}

export interface ClientConfigData extends ClientConfigShortData {
  apiversion: 'v1';
  questionnaireurl: string;
  variants: string[];
  reporttypes: ReportType[];
  scopes: string[];
  mailstages: string[];
  mailplaceholders: string[];
}

export interface VariantRoleData {
  label: string;
  value: string;
  mandatory: boolean;
  canaddparticipants: boolean;
  showintitle: boolean;
  hideinwizard: boolean;
  /** `[]` when empty, the spec's rule for mailconfig. */
  mailconfig: Record<string, string> | [];
}

export interface ReportVariantData {
  alias: string;
  version: number;
  name: string;
  names: Record<string, string>;
  description: string;
  languages: Language[];
  defaultlanguage: Language;
  reporttypes: ReportType[];
  roles: VariantRoleData[];
}

export interface DatastructureQuestionData {
  text: string;
  type: 'likert' | 'choice' | 'text';
  page: string;
  required: boolean;
  scale: string | null;
  points: number[];
  keyed: '+' | '-' | null;
  dimension: string | null;
  facet: string | null;
  options: { value: number | string; label: string }[];
}

interface NamedData {
  code: string;
  name: string;
  description: string;
}

export interface DatastructureData {
  alias: string;
  version: number;
  language: Language;
  questions: Record<string, DatastructureQuestionData>;
  pages: { code: string; title: string; questions: string[] }[];
  scales: Record<string, { points: number[]; labels: Record<string, string> }>;
  dimensions: (NamedData & { facets: NamedData[] })[];
  bands: { code: string; label: string; min: number; max: number }[];
}

function apiUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/v1`;
}

/** Every language some variant offers, in Assay's order. */
function instanceLanguages(registry: VariantRegistry): Language[] {
  const offered = new Set(registry.list().flatMap((variant) => variant.languages));
  return LANGUAGES.filter((language) => offered.has(language));
}

/** `data` of GET /settings/config/short. */
export function clientConfigShort(registry: VariantRegistry, instance: InstanceInfo): ClientConfigShortData {
  const languages = instanceLanguages(registry);
  return {
    name: instance.name ?? 'Assay',
    url: instance.publicUrl,
    apiurl: apiUrl(instance.publicUrl),
    version: instance.version,
    languages,
    defaultlanguage: languages.includes('enUS') ? 'enUS' : (languages[0] ?? 'enUS'),
  };
}

/** `data` of GET /settings/config. */
export function clientConfig(registry: VariantRegistry, instance: InstanceInfo): ClientConfigData {
  return {
    ...clientConfigShort(registry, instance),
    apiversion: 'v1',
    questionnaireurl: instance.questionnaireUrl,
    variants: registry.list().map((variant) => variant.alias),
    reporttypes: [...REPORT_TYPES],
    scopes: [...SCOPES],
    mailstages: [...MAIL_STAGES],
    mailplaceholders: [...MAIL_PLACEHOLDERS],
  };
}

/** A text of the variant in a language; the loader guarantees every required key is present. */
function text(variant: Variant, language: Language, key: string): string {
  return variant.texts[language]?.[key] ?? '';
}

/** `data` of GET /settings/reports: every variant, labelled in its default language. */
export function reportVariants(registry: VariantRegistry): ReportVariantData[] {
  return registry.list().map((variant) => {
    const language = variant.defaultLanguage;
    return {
      alias: variant.alias,
      version: variant.version,
      name: text(variant, language, 'variant.name'),
      names: Object.fromEntries(variant.languages.map((l) => [l, text(variant, l, 'variant.name')])),
      description: text(variant, language, 'variant.description'),
      languages: [...variant.languages],
      defaultlanguage: language,
      reporttypes: [...variant.reportTypes],
      roles: variant.roles.map((role) => ({
        label: text(variant, language, `role.${role.role}`),
        value: `role=${role.role}`,
        mandatory: role.mandatory,
        canaddparticipants: role.canaddparticipants,
        showintitle: role.showintitle,
        hideinwizard: role.hideinwizard,
        mailconfig: Object.keys(role.mailconfig).length === 0 ? [] : { ...role.mailconfig },
      })),
    };
  });
}

/**
 * `data` of GET /settings/reports/{alias}/datastructure: each question code mapped to its text and
 * how it is answered and scored, in `lang` (default: the variant's own); undefined for a language
 * the variant does not offer.
 */
export function datastructure(variant: Variant, lang?: string): DatastructureData | undefined {
  const language = lang ?? variant.defaultLanguage;
  if (!isLanguage(language) || !variant.languages.includes(language)) return undefined;
  const t = (key: string): string => text(variant, language, key);
  const questions: Record<string, DatastructureQuestionData> = {};
  for (const question of variant.questions) {
    const likert = question.type === 'likert' ? question : undefined;
    questions[question.code] = {
      text: question.texts[language] ?? '',
      type: question.type,
      page: question.page,
      required: question.required,
      scale: likert?.scale ?? null,
      points: likert === undefined ? [] : [...(variant.scales[likert.scale]?.points ?? [])],
      keyed: likert?.keyed ?? null,
      dimension: likert?.dimension ?? null,
      facet: likert?.facet ?? null,
      options:
        question.type === 'choice'
          ? question.options.map((value) => ({ value, label: t(`choice.${question.code}.${value}`) }))
          : [],
    };
  }
  const named = (kind: 'dimension' | 'facet', code: string): NamedData => ({
    code,
    name: t(`${kind}.${code}.name`),
    description: t(`${kind}.${code}.description`),
  });
  return {
    alias: variant.alias,
    version: variant.version,
    language,
    questions,
    pages: variant.pages.map((page) => ({
      code: page.code,
      title: t(`page.${page.code}.title`),
      questions: page.questions.map((question) => question.code),
    })),
    scales: Object.fromEntries(
      Object.values(variant.scales).map((scale) => [
        scale.code,
        {
          points: [...scale.points],
          labels: Object.fromEntries(scale.points.map((p) => [String(p), t(`scale.${scale.code}.${p}`)])),
        },
      ]),
    ),
    dimensions: variant.dimensions.map((dimension) => ({
      ...named('dimension', dimension.code),
      facets: dimension.facets.map((facet) => named('facet', facet)),
    })),
    bands: variant.bands.map((band) => ({
      code: band.code,
      label: t(`band.${band.code}`),
      min: band.min,
      max: band.max,
    })),
  };
}

/** `data` of GET /settings/reports/{alias}/{lang}/texts; undefined for a language the variant does not offer. */
export function texts(variant: Variant, lang: string): Record<string, string> | undefined {
  if (!isLanguage(lang) || !variant.languages.includes(lang)) return undefined;
  const all: Record<string, string> = { ...variant.texts[lang] };
  // Item-bank questions have no q.<code> in the files; clients still find every question text here.
  for (const question of variant.questions) {
    const questionText = question.texts[lang];
    if (questionText !== undefined) all[`q.${question.code}`] = questionText;
  }
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(all).sort(compareKeys)) sorted[key] = all[key] as string;
  return sorted;
}

/** `data` of GET /settings/reports/{alias}/textkeys: the keys of every language, sorted. */
export function textKeys(variant: Variant): string[] {
  const keys = new Set(Object.keys(variant.texts[variant.defaultLanguage] ?? {}));
  for (const question of variant.questions) keys.add(`q.${question.code}`);
  return [...keys].sort(compareKeys);
}

// Code-unit order, the same on every machine (localeCompare is not).
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
