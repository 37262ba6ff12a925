import Type from 'typebox';
import { Nullable } from '../shapes.js';
import { type Tool, tool } from '../tool.js';

export const variantTools: Tool[] = [
  tool({
    name: 'listVariants',
    title: 'List questionnaires (variants)',
    description:
      'Lists the questionnaires the instance offers ("report variants", e.g. bigfive, leadership360, ' +
      'teamscan), each with its languages, its default language, the report types it can make and, for ' +
      'a 360 questionnaire, the participant roles. Use the `variant` alias with createCampaign and ' +
      'getQuestions.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({
      variants: Type.Array(
        Type.Object({
          variant: Type.String({ description: 'The alias to use in other tools.' }),
          name: Type.String(),
          names: Type.Record(Type.String(), Type.String(), { description: 'The name in each language.' }),
          description: Type.String(),
          languages: Type.Array(Type.String()),
          defaultLanguage: Type.String(),
          reportTypes: Type.Array(Type.String()),
          roles: Type.Array(
            Type.Object({
              role: Type.String(),
              label: Type.String(),
              mandatory: Type.Boolean(),
              canAddParticipants: Type.Boolean({ description: 'This role nominates the raters (360 self).' }),
            }),
          ),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['settings'],
    async run(_args, { client }) {
      const variants = await client.settings.reportVariants();
      return {
        structured: {
          variants: variants.map((variant) => ({
            variant: variant.alias,
            name: variant.name,
            names: variant.names,
            description: variant.description,
            languages: variant.languages,
            defaultLanguage: variant.defaultlanguage,
            reportTypes: variant.reporttypes,
            roles: variant.roles.map((role) => ({
              role: new URLSearchParams(role.value).get('role') ?? role.label,
              label: role.label,
              mandatory: role.mandatory,
              canAddParticipants: role.canaddparticipants,
            })),
          })),
        },
      };
    },
  }),

  tool({
    name: 'getQuestions',
    title: 'Read the questions of a questionnaire',
    description:
      'Gives the questions of a questionnaire (variant) in a language: each with its code (as used in ' +
      'report answers), its text, its type (likert scale, choice, free text), its page, and the ' +
      'dimension and facet it counts towards; and the dimensions with their facets.',
    input: Type.Object(
      {
        variant: Type.String({ minLength: 1, description: 'A variant alias from listVariants.' }),
        language: Type.Optional(Type.String({ description: "Default: the variant's default language." })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      variant: Type.String(),
      language: Type.String(),
      questions: Type.Array(
        Type.Object({
          code: Type.String(),
          text: Type.String(),
          type: Type.String({ description: '`likert`, `choice` or `text`.' }),
          page: Type.String(),
          required: Type.Boolean(),
          dimension: Nullable(Type.String()),
          facet: Nullable(Type.String()),
          reversed: Type.Boolean({ description: 'A likert item scored in reverse.' }),
          answers: Type.Array(
            Type.Object({ value: Type.Union([Type.Integer(), Type.String()]), label: Type.String() }),
            {
              description: 'The possible answers of a likert or choice question; [] for free text.',
            },
          ),
        }),
      ),
      dimensions: Type.Array(
        Type.Object({
          code: Type.String(),
          name: Type.String(),
          description: Type.String(),
          facets: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['settings'],
    async run({ variant, language }, { client }) {
      const structure = await client.settings.datastructure(variant, language ? { language } : {});
      const questions = Object.entries(structure.questions).map(([code, question]) => {
        const labels = question.scale ? (structure.scales[question.scale]?.labels ?? {}) : {};
        const answers =
          question.type === 'choice'
            ? question.options
            : question.points.map((point) => ({
                value: point,
                label: labels[String(point)] ?? String(point),
              }));
        return {
          code,
          text: question.text,
          type: question.type,
          page: question.page,
          required: question.required,
          dimension: question.dimension,
          facet: question.facet,
          reversed: question.keyed === '-',
          answers,
        };
      });
      return {
        structured: {
          variant: structure.alias,
          language: structure.language,
          questions,
          dimensions: structure.dimensions.map((dimension) => ({
            code: dimension.code,
            name: dimension.name,
            description: dimension.description,
            facets: dimension.facets.map((facet) => ({ code: facet.code, name: facet.name })),
          })),
        },
      };
    },
  }),
];
