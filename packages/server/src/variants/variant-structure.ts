import { Checker, type Json, join } from './json-checks.js';
import {
  type Band,
  type ChoiceValue,
  type Dimension,
  LANGUAGES,
  type Language,
  MAIL_STAGES,
  type Question,
  REPORT_TYPES,
  type Role,
  type Scale,
  type VariantHeader,
} from './variant.types.js';

/** variant.json, checked on its own; questions carry no texts yet. */
export interface VariantStructure extends VariantHeader {
  readonly pages: readonly { readonly code: string; readonly questions: readonly Question[] }[];
}

export const ALIAS = /^[a-z][a-z0-9_]*$/;
export const CODE = /^[A-Za-z][A-Za-z0-9_]*$/;
const OPTION_VALUE = /^[A-Za-z0-9_-]+$/;

const ROOT_FIELDS = [
  'alias',
  'version',
  'languages',
  'defaultLanguage',
  'reportTypes',
  'scales',
  'roles',
  'dimensions',
  'bands',
  'pages',
  'itemBank',
];
const ROLE_FIELDS = ['role', 'mandatory', 'canaddparticipants', 'showintitle', 'hideinwizard', 'mailconfig'];
const QUESTION_FIELDS: Readonly<Record<Question['type'], readonly string[]>> = {
  likert: ['code', 'type', 'scale', 'keyed', 'dimension', 'facet', 'required'],
  choice: ['code', 'type', 'options', 'required'],
  text: ['code', 'type', 'required'],
};

export function parseVariantJson(file: string, json: Json): VariantStructure {
  const c = new Checker(file);
  const root = c.object(json, '(root)');
  c.fields(root, '', ROOT_FIELDS);
  const alias = c.string(root.alias, 'alias', ALIAS);
  const version = c.integer(root.version, 'version');
  if (version < 1) c.fail('version', 'must be 1 or more');

  const languages = listOf(c, root.languages, 'languages', (value, place) =>
    c.oneOf(value, place, LANGUAGES),
  );
  const defaultLanguage = c.string(root.defaultLanguage, 'defaultLanguage');
  if (!(languages as string[]).includes(defaultLanguage)) {
    c.fail('defaultLanguage', `${JSON.stringify(defaultLanguage)} is not one of languages`);
  }
  const reportTypes = listOf(c, root.reportTypes, 'reportTypes', (value, place) =>
    c.oneOf(value, place, REPORT_TYPES),
  );

  const scales: Record<string, Scale> = {};
  const scalesJson = c.object(root.scales, 'scales');
  for (const [code, value] of Object.entries(scalesJson)) {
    const place = join('scales', code);
    c.string(code, place, CODE);
    const scale = c.object(value, place);
    c.fields(scale, place, ['points']);
    const points: number[] = [];
    c.array(scale.points, join(place, 'points'), true).forEach((point, i) => {
      const n = c.integer(point, join(join(place, 'points'), i));
      if (i > 0 && !(n > (points[i - 1] as number))) {
        c.fail(join(join(place, 'points'), i), 'points must be strictly ascending');
      }
      points.push(n);
    });
    if (points.length < 2) c.fail(join(place, 'points'), 'needs at least two points');
    // Scoring keeps a lookup table over the range; a bound keeps a typo like 10000 from costing memory.
    if ((points[points.length - 1] as number) - (points[0] as number) > 1000) {
      c.fail(join(place, 'points'), 'spans more than 1000');
    }
    scales[code] = { code, points, min: points[0] as number, max: points[points.length - 1] as number };
  }

  const roles = listOf(
    c,
    root.roles,
    'roles',
    (value, place) => parseRole(c, value, place),
    (r) => r.role,
  );

  const facetOwner = new Map<string, string>();
  const dimensionCodes = new Map<string, string>();
  const dimensions = c.array(root.dimensions, 'dimensions').map((value, d): Dimension => {
    const place = join('dimensions', d);
    const dimension = c.object(value, place);
    c.fields(dimension, place, ['code', 'facets']);
    const code = c.string(dimension.code, join(place, 'code'), CODE);
    c.unique(dimensionCodes, code, join(place, 'code'));
    const facets = c.array(dimension.facets, join(place, 'facets')).map((facetValue, f) => {
      const facetPlace = join(join(place, 'facets'), f);
      const facet = c.object(facetValue, facetPlace);
      c.fields(facet, facetPlace, ['code']);
      const facetCode = c.string(facet.code, join(facetPlace, 'code'), CODE);
      c.unique(dimensionCodes, facetCode, join(facetPlace, 'code'));
      facetOwner.set(facetCode, code);
      return facetCode;
    });
    return { code, facets };
  });

  const bands = parseBands(c, root.bands);

  let itemBank: { adapter: string } | undefined;
  if (root.itemBank !== undefined) {
    const bank = c.object(root.itemBank, 'itemBank');
    c.fields(bank, 'itemBank', ['adapter']);
    itemBank = { adapter: c.string(bank.adapter, 'itemBank.adapter') };
  }

  const questionCodes = new Map<string, string>();
  const pageCodes = new Map<string, string>();
  const pagesJson =
    itemBank !== undefined && root.pages === undefined ? [] : c.array(root.pages, 'pages', !itemBank);
  const pages = pagesJson.map((value, p) => {
    const place = join('pages', p);
    const page = c.object(value, place);
    c.fields(page, place, ['code', 'questions']);
    const code = c.string(page.code, join(place, 'code'), CODE);
    c.unique(pageCodes, code, join(place, 'code'));
    const questions = c.array(page.questions, join(place, 'questions'), true).map((question, q) => {
      const questionPlace = join(join(place, 'questions'), q);
      const parsed = parseQuestion(c, question, questionPlace, code, { scales, dimensionCodes, facetOwner });
      c.unique(questionCodes, parsed.code, join(questionPlace, 'code'));
      return parsed;
    });
    return { code, questions };
  });

  return {
    alias,
    version,
    languages,
    defaultLanguage: defaultLanguage as Language,
    reportTypes,
    scales,
    roles,
    dimensions,
    bands,
    ...(itemBank === undefined ? {} : { itemBank }),
    pages,
  };
}

function listOf<T>(
  c: Checker,
  value: Json | undefined,
  place: string,
  item: (value: Json, place: string) => T,
  key: (item: T) => string = String,
): T[] {
  const seen = new Map<string, string>();
  return c.array(value, place, true).map((entry, i) => {
    const parsed = item(entry, join(place, i));
    c.unique(seen, key(parsed), join(place, i));
    return parsed;
  });
}

function parseRole(c: Checker, value: Json, place: string): Role {
  const role = c.object(value, place);
  c.fields(role, place, ROLE_FIELDS);
  const mailconfigJson = c.object(role.mailconfig, join(place, 'mailconfig'));
  const mailconfig: Record<string, string> = {};
  for (const [stage, template] of Object.entries(mailconfigJson)) {
    const stagePlace = join(join(place, 'mailconfig'), stage);
    c.oneOf(stage, stagePlace, MAIL_STAGES);
    mailconfig[stage] = c.string(template, stagePlace);
  }
  return {
    role: c.string(role.role, join(place, 'role'), ALIAS),
    mandatory: c.boolean(role.mandatory, join(place, 'mandatory')),
    canaddparticipants: c.boolean(role.canaddparticipants, join(place, 'canaddparticipants')),
    showintitle: c.boolean(role.showintitle, join(place, 'showintitle')),
    hideinwizard: c.boolean(role.hideinwizard, join(place, 'hideinwizard')),
    mailconfig,
  };
}

function parseBands(c: Checker, value: Json | undefined): Band[] {
  const seen = new Map<string, string>();
  const bands = c.array(value, 'bands', true).map((entry, i): Band => {
    const place = join('bands', i);
    const band = c.object(entry, place);
    c.fields(band, place, ['code', 'min', 'max']);
    const code = c.string(band.code, join(place, 'code'), CODE);
    c.unique(seen, code, join(place, 'code'));
    const min = c.number(band.min, join(place, 'min'));
    const max = c.number(band.max, join(place, 'max'));
    if (!(max > min)) c.fail(join(place, 'max'), `must be greater than min (${min})`);
    return { code, min, max };
  });
  bands.forEach((band, i) => {
    const expected = i === 0 ? 0 : (bands[i - 1] as Band).max;
    if (band.min !== expected) {
      c.fail(join(join('bands', i), 'min'), `must be ${expected}: bands run contiguously from 0 to 100`);
    }
  });
  const last = bands[bands.length - 1] as Band;
  if (last.max !== 100) c.fail(join(join('bands', bands.length - 1), 'max'), 'the last band must end at 100');
  return bands;
}

interface QuestionContext {
  readonly scales: Readonly<Record<string, Scale>>;
  readonly dimensionCodes: ReadonlyMap<string, string>;
  readonly facetOwner: ReadonlyMap<string, string>;
}

function parseQuestion(c: Checker, value: Json, place: string, page: string, ctx: QuestionContext): Question {
  const question = c.object(value, place);
  const type = c.oneOf(question.type, join(place, 'type'), ['likert', 'choice', 'text'] as const);
  c.fields(question, place, QUESTION_FIELDS[type]);
  const code = c.string(question.code, join(place, 'code'), CODE);
  const required = c.boolean(question.required, join(place, 'required'));
  const base = { code, page, required, texts: {} };
  if (type === 'text') return { ...base, type };
  if (type === 'choice') {
    const seen = new Map<string, string>();
    const options = c.array(question.options, join(place, 'options'), true).map((entry, i): ChoiceValue => {
      const optionPlace = join(join(place, 'options'), i);
      const option = c.object(entry, optionPlace);
      c.fields(option, optionPlace, ['value']);
      const optionValue = option.value;
      if (typeof optionValue === 'number' && Number.isInteger(optionValue)) {
        c.unique(seen, String(optionValue), join(optionPlace, 'value'));
        return optionValue;
      }
      if (typeof optionValue !== 'string')
        c.fail(join(optionPlace, 'value'), 'must be an integer or a string');
      c.string(optionValue, join(optionPlace, 'value'), OPTION_VALUE);
      c.unique(seen, optionValue, join(optionPlace, 'value'));
      return optionValue;
    });
    return { ...base, type, options };
  }
  const scale = c.string(question.scale, join(place, 'scale'));
  if (ctx.scales[scale] === undefined) c.fail(join(place, 'scale'), `unknown scale ${JSON.stringify(scale)}`);
  if (question.dimension === undefined) {
    if (question.facet !== undefined) c.fail(join(place, 'facet'), 'a facet needs its dimension');
    if (question.keyed !== undefined)
      c.fail(join(place, 'keyed'), 'only a scored question (with a dimension) is keyed');
    return { ...base, type, scale };
  }
  const dimension = c.string(question.dimension, join(place, 'dimension'));
  if (!ctx.dimensionCodes.has(dimension) || ctx.facetOwner.has(dimension)) {
    c.fail(join(place, 'dimension'), `unknown dimension ${JSON.stringify(dimension)}`);
  }
  if (question.keyed === undefined)
    c.fail(join(place, 'keyed'), 'missing: a scored question is keyed "+" or "-"');
  const keyed = c.oneOf(question.keyed, join(place, 'keyed'), ['+', '-'] as const);
  if (question.facet === undefined) return { ...base, type, scale, keyed, dimension };
  const facet = c.string(question.facet, join(place, 'facet'));
  const owner = ctx.facetOwner.get(facet);
  if (owner === undefined) c.fail(join(place, 'facet'), `unknown facet ${JSON.stringify(facet)}`);
  if (owner !== dimension) {
    c.fail(
      join(place, 'facet'),
      `facet ${JSON.stringify(facet)} belongs to dimension ${JSON.stringify(owner)}`,
    );
  }
  return { ...base, type, scale, keyed, dimension, facet };
}
