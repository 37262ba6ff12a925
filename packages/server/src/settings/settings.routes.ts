import {
  ClientConfig,
  ClientConfigShort,
  Datastructure,
  DatastructureQuery,
  ReportAliasParams,
  ReportTextsParams,
  ReportVariants,
  TextKeys,
  Texts,
} from '@assay/schema';
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { ok } from '../http/envelope.js';
import { type ApiInstance, responses } from '../http/route-schema.js';
import { lookupVariant } from '../variants/variant-lookup.js';
import { VERSION } from '../version.js';
import * as settings from './settings.service.js';

const tags = ['settings'];

/** The settings family: discovering variants, their languages, questions and texts. */
export async function settingsRoutes(app: ApiInstance, { config, variants }: AppContext) {
  const instance = {
    publicUrl: config.publicUrl,
    questionnaireUrl: config.questionnaireUrl,
    version: VERSION,
  };
  const variant = (alias: string) => {
    const lookup = lookupVariant(variants, alias);
    if (!lookup.found) throw notFound('report variant');
    return lookup.variant;
  };

  app.get(
    '/settings/config',
    {
      config: { guard: 'settings' },
      schema: { tags, summary: 'The full client configuration', response: responses(ClientConfig) },
    },
    async () => ok(settings.clientConfig(variants, instance)),
  );
  app.get(
    '/settings/config/short',
    {
      config: { guard: 'settings' },
      schema: { tags, summary: 'The shortened client configuration', response: responses(ClientConfigShort) },
    },
    async () => ok(settings.clientConfigShort(variants, instance)),
  );
  app.get(
    '/settings/reports',
    {
      config: { guard: 'settings' },
      schema: {
        tags,
        summary: 'The report variants: languages, report types, roles',
        response: responses(ReportVariants),
      },
    },
    async () => ok(settings.reportVariants(variants)),
  );
  app.get(
    '/settings/reports/:reportalias/datastructure',
    {
      config: { guard: 'settings' },
      schema: {
        tags,
        summary: 'Questions and answers of a variant: question codes mapped to question texts',
        params: ReportAliasParams,
        querystring: DatastructureQuery,
        response: responses(Datastructure),
      },
    },
    async (request) => {
      const { reportalias } = request.params;
      const { language } = request.query;
      // `?language=` with no value is no choice: the variant's default language.
      const data = settings.datastructure(variant(reportalias), language || undefined);
      if (!data) throw notFound('language');
      return ok(data);
    },
  );
  app.get(
    '/settings/reports/:reportalias/textkeys',
    {
      config: { guard: 'settings' },
      schema: {
        tags,
        summary: 'The text keys of a variant',
        params: ReportAliasParams,
        response: responses(TextKeys),
      },
    },
    async (request) => ok(settings.textKeys(variant(request.params.reportalias))),
  );
  app.get(
    '/settings/reports/:reportalias/:lang/texts',
    {
      config: { guard: 'settings' },
      schema: {
        tags,
        summary: 'The texts of a variant in one language',
        params: ReportTextsParams,
        response: responses(Texts),
      },
    },
    async (request) => {
      const { reportalias, lang } = request.params;
      const data = settings.texts(variant(reportalias), lang);
      if (!data) throw notFound('language');
      return ok(data);
    },
  );
}
