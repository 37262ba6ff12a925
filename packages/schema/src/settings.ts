import Type, { type Static, type TSchema } from 'typebox';
import { ObjectOrEmptyArray } from './common.js';

const LANGUAGE = Type.Union([
  Type.Literal('enUS'),
  Type.Literal('nlNL'),
  Type.Literal('esES'),
  Type.Literal('frFR'),
]);
const REPORT_TYPE = Type.Union([
  Type.Literal('personal'),
  Type.Literal('group'),
  Type.Literal('groupanon'),
  Type.Literal('condensed'),
  Type.Literal('complete'),
]);

/** `data` of GET /settings/config/short: what a client needs to address the instance. */
export const ClientConfigShort = Type.Object(
  {
    name: Type.String({ description: 'Display name of the instance' }),
    url: Type.String({ description: 'Public address of the instance' }),
    apiurl: Type.String({ description: 'The API base: url followed by /api/v1' }),
    version: Type.String({ description: 'Assay version of the instance' }),
    languages: Type.Array(LANGUAGE, { description: 'Every language some variant offers' }),
    defaultlanguage: LANGUAGE,
  },
  { additionalProperties: false },
);
export type ClientConfigShort = Static<typeof ClientConfigShort>;

/** `data` of GET /settings/config: the short config plus what a client builds forms from. */
export const ClientConfig = Type.Object(
  {
    ...ClientConfigShort.properties,
    apiversion: Type.Literal('v1'),
    questionnaireurl: Type.String({
      description: 'Base of the participants’ links `{questionnaireurl}/q/<path>`',
    }),
    variants: Type.Array(Type.String(), { description: 'Aliases of the report variants, sorted' }),
    reporttypes: Type.Array(REPORT_TYPE),
    scopes: Type.Array(Type.String(), { description: 'Every OAuth scope the instance knows' }),
    mailstages: Type.Array(Type.String(), { description: 'The keys of a mailconfig' }),
    mailplaceholders: Type.Array(Type.String(), {
      description: 'Placeholders mail texts may use, as {name}',
    }),
  },
  { additionalProperties: false },
);
export type ClientConfig = Static<typeof ClientConfig>;

/** A participant role of a variant, as the spec's `extraParams` entry. */
export const VariantRole = Type.Object(
  {
    label: Type.String({ description: 'The text role.<role> in the variant’s default language' }),
    value: Type.String({ description: 'role=<role>' }),
    mandatory: Type.Boolean(),
    canaddparticipants: Type.Boolean(),
    showintitle: Type.Boolean(),
    hideinwizard: Type.Boolean(),
    mailconfig: ObjectOrEmptyArray(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);
export type VariantRole = Static<typeof VariantRole>;

/** One entry of GET /settings/reports. */
export const ReportVariant = Type.Object(
  {
    alias: Type.String(),
    version: Type.Integer(),
    name: Type.String({ description: 'In the variant’s default language' }),
    names: Type.Record(Type.String(), Type.String(), { description: 'Name per language of the variant' }),
    description: Type.String({ description: 'In the variant’s default language' }),
    languages: Type.Array(LANGUAGE),
    defaultlanguage: LANGUAGE,
    reporttypes: Type.Array(REPORT_TYPE),
    roles: Type.Array(VariantRole),
  },
  { additionalProperties: false },
);
export type ReportVariant = Static<typeof ReportVariant>;

/** `data` of GET /settings/reports, sorted by alias. */
export const ReportVariants = Type.Array(ReportVariant);
export type ReportVariants = Static<typeof ReportVariants>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A question of GET /settings/reports/{reportalias}/datastructure; fields that do not apply are null or []. */
export const DatastructureQuestion = Type.Object(
  {
    text: Type.String(),
    type: Type.Union([Type.Literal('likert'), Type.Literal('choice'), Type.Literal('text')]),
    page: Type.String(),
    required: Type.Boolean(),
    scale: Nullable(Type.String()),
    points: Type.Array(Type.Integer(), { description: 'The scale’s points; [] unless likert' }),
    keyed: Nullable(Type.Union([Type.Literal('+'), Type.Literal('-')])),
    dimension: Nullable(Type.String()),
    facet: Nullable(Type.String()),
    options: Type.Array(
      Type.Object(
        { value: Type.Union([Type.Integer(), Type.String()]), label: Type.String() },
        { additionalProperties: false },
      ),
      { description: '[] unless choice' },
    ),
  },
  { additionalProperties: false },
);
export type DatastructureQuestion = Static<typeof DatastructureQuestion>;

const Named = { code: Type.String(), name: Type.String(), description: Type.String() };

/** `data` of GET /settings/reports/{reportalias}/datastructure[?language=<lang>]. */
export const Datastructure = Type.Object(
  {
    alias: Type.String(),
    version: Type.Integer(),
    language: LANGUAGE,
    questions: Type.Record(Type.String(), DatastructureQuestion, { description: 'By question code' }),
    pages: Type.Array(
      Type.Object(
        { code: Type.String(), title: Type.String(), questions: Type.Array(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    scales: Type.Record(
      Type.String(),
      Type.Object(
        { points: Type.Array(Type.Integer()), labels: Type.Record(Type.String(), Type.String()) },
        { additionalProperties: false },
      ),
    ),
    dimensions: Type.Array(
      Type.Object(
        { ...Named, facets: Type.Array(Type.Object(Named, { additionalProperties: false })) },
        { additionalProperties: false },
      ),
    ),
    bands: Type.Array(
      Type.Object(
        { code: Type.String(), label: Type.String(), min: Type.Number(), max: Type.Number() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Datastructure = Static<typeof Datastructure>;

/** `data` of GET /settings/reports/{reportalias}/textkeys: sorted. */
export const TextKeys = Type.Array(Type.String());
export type TextKeys = Static<typeof TextKeys>;

/** `data` of GET /settings/reports/{reportalias}/{lang}/texts: text key -> text, keys sorted. */
export const Texts = Type.Record(Type.String(), Type.String());
export type Texts = Static<typeof Texts>;

/** Path parameters of the per-variant settings calls. */
export const ReportAliasParams = Type.Object({ reportalias: Type.String() });
export type ReportAliasParams = Static<typeof ReportAliasParams>;

/** Path parameters of GET /settings/reports/{reportalias}/{lang}/texts. */
export const ReportTextsParams = Type.Object({ reportalias: Type.String(), lang: Type.String() });
export type ReportTextsParams = Static<typeof ReportTextsParams>;

/** Query of GET /settings/reports/{reportalias}/datastructure: the language, default the variant’s own. */
export const DatastructureQuery = Type.Object({ language: Type.Optional(Type.String()) });
export type DatastructureQuery = Static<typeof DatastructureQuery>;
