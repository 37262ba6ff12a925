import * as shapes from '@assay/schema';
import { GROUP_REPORT_TYPES, MAIL_STAGES, SCOPES } from '@assay/schema';
import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.js';
import type { VariantRegistry } from '../variants/variant.types.js';
import { VERSION } from '../version.js';
import { madeOperationId, OPERATION_IDS, TAGS } from './openapi-operations.js';
import { completeResponses, RESPONSES } from './openapi-statuses.js';
import { type Access, familiesOf, type GuardedRoute } from './route-guard.js';
import { API_PREFIX } from './route-schema.js';

/**
 * The OpenAPI document, made from the routes' own schemas. Everything here is documentation only:
 * the schemas that validate a route are never changed (the document is built from copies), and
 * answers are serialised with JSON.stringify, not from a response schema. So the document can
 * name its shapes (`$ref` to components), list allowed values (`enum`), mark fields a PATCH
 * cannot change (`readOnly`) and name every status without a byte of any answer changing.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and OpenAPI objects are untyped here by nature.
type Json = Record<string, any>;

/** Marks a copy of a named shape until the document is finished, where it becomes a `$ref`. */
const NAME = 'x-assay-component';
const SCHEMAS = '#/components/schemas/';

/** Component names that read better than the export's (the interface's own words). */
const RENAMED: Record<string, string> = { MemberListItem: 'Member', CampaignListItem: 'Campaign' };

/** Every object shape `@assay/schema` exports, by identity, with its component name. */
const NAMED = new Map<object, string>(
  Object.entries(shapes)
    .filter(
      ([, value]) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        (value as Json).type === 'object',
    )
    .map(([name, value]) => [value as object, RENAMED[name] ?? name]),
);

const SCOPE_DESCRIPTIONS: Record<(typeof SCOPES)[number], string> = {
  members: '/members and everything under it',
  groups: '/groups, their members and their reports',
  campaigns: '/campaigns, their members, mails and reports',
  reports: '/reports (lists, PDFs, answers, summaries, imports)',
  settings: '/settings (variants, questions, texts)',
  samples: '/samples (sample report PDFs)',
  webhooks: '/webhooks (subscriptions to signed events, their secrets and deliveries)',
  audit: '/audit (reading the audit log: who changed what, when and through which door)',
};

/** Documentation-only keywords added to a copy of a schema, by the schema's identity. */
function refinements(variants: VariantRegistry): Map<object, Json> {
  const aliases = variants.list().map((variant) => variant.alias);
  const languages = [...new Set(variants.list().flatMap((variant) => variant.languages))].sort();
  const fixed = 'Fixed at create: a PATCH carrying it answers ERROR and changes nothing.';
  const refused = 'Refused: a PATCH carrying it answers ERROR `Access denied` and changes nothing.';
  return new Map<object, Json>([
    [shapes.CampaignCreate.properties.variant, { enum: aliases }],
    [shapes.CampaignCreate.properties.language, { enum: languages }],
    [shapes.CampaignPatch.properties.variant, { readOnly: true, description: fixed }],
    [shapes.CampaignPatch.properties.language, { readOnly: true, description: fixed }],
    [shapes.MemberPatch.properties.group, { readOnly: true, description: refused }],
    [shapes.MemberPatch.properties.groupid, { readOnly: true, description: refused }],
    [shapes.MailConfigWrite, { propertyNames: { enum: [...MAIL_STAGES] } }],
    [shapes.ReportCreate.properties.reportType, { enum: [...GROUP_REPORT_TYPES] }],
    [shapes.ReportCreate.properties.type, { enum: [...GROUP_REPORT_TYPES] }],
    [shapes.ReportCreate.properties.variant, { enum: aliases }],
    [shapes.ReportCreate.properties.language, { enum: languages }],
    [
      shapes.ReportPatch.properties.name,
      {
        description:
          "A group report's name; a personal report's name is its subject's and cannot change (ERROR).",
      },
    ],
    [shapes.ReportPatch.properties.language, { enum: languages }],
    [shapes.ReportImport.properties.reports, { minItems: 1 }],
    [shapes.SummaryRequest.properties.variant, { enum: aliases }],
    [shapes.SummaryRequest.properties.language, { enum: languages }],
  ]);
}

/** A copy of a route schema: named shapes marked, refinements applied; the original is untouched. */
function copy(value: unknown, refine: Map<object, Json>): unknown {
  if (Array.isArray(value)) return value.map((item) => copy(item, refine));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) out[key] = copy(item, refine);
  const name = NAMED.get(value);
  if (name) out[NAME] = name;
  const extra = refine.get(value);
  if (extra) Object.assign(out, extra);
  return out;
}

/** The path as the document writes it: `/members/{memberid}`. */
const documentedPath = (url: string) =>
  (url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url).replace(/:(\w+)/g, '{$1}');

/**
 * Who may call an operation: the OAuth scopes of its families (all of them); API keys and Basic
 * only where it changes nothing.
 */
function securityOf(guard: GuardedRoute['guard'] | undefined, access: Access): Record<string, string[]>[] {
  const families = [...familiesOf(guard)];
  if (families.length === 0) return [];
  return access === 'read' ? [{ oauth2: families }, { apiKey: [] }, { basic: [] }] : [{ oauth2: families }];
}

/** Lifts every marked copy into `components.schemas` and puts a `$ref` in its place. */
function liftComponents(document: Json) {
  const components: Json = document.components.schemas;
  const lift = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(lift);
    if (typeof node !== 'object' || node === null) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) if (key !== NAME) out[key] = lift(value);
    const name = (node as Json)[NAME];
    if (typeof name !== 'string') return out;
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(out)) {
      throw new Error(`OpenAPI: the shape ${name} is documented in two different ways`);
    }
    components[name] = out;
    return { $ref: `${SCHEMAS}${name}` };
  };
  document.paths = lift(document.paths);
}

/** Allowed values of path and query parameters known when the document is served. */
function parameterEnums(document: Json, variants: VariantRegistry) {
  const aliases = variants.list().map((variant) => variant.alias);
  const languages = [...new Set(variants.list().flatMap((variant) => variant.languages))].sort();
  const enums: Record<string, string[]> = {
    variant: aliases,
    reportalias: aliases,
    language: languages,
    lang: languages,
  };
  for (const item of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(item)) {
      for (const parameter of operation.parameters ?? []) {
        const values = enums[parameter.name];
        if (values && parameter.schema?.type === 'string') parameter.schema.enum = values;
      }
    }
  }
}

/** The options of @fastify/swagger for this instance: the document of every route under /api/v1. */
export function openapiOptions(config: Config, variants: VariantRegistry, routes: readonly GuardedRoute[]) {
  const refine = refinements(variants);
  const routeOf = (method: string, path: string) =>
    routes.find((route) => route.method === method.toUpperCase() && documentedPath(route.url) === path);
  const origin = config.publicUrl.replace(/\/+$/, '');
  const scopes = Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]]));
  const options: SwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Assay API',
        version: VERSION,
        description:
          'The assessment platform API. Every JSON answer is a JSend envelope; business failures are HTTP 200 with status ERROR. ' +
          'API keys and Basic authentication may call every operation that changes nothing; every other one needs an OAuth 2.0 access token.',
        contact: { name: 'The operator of this Assay instance', url: origin },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the reference page's "Try it out" calls the address the page was opened at,
      // whatever the configured public URL (which the page's CSP would otherwise block).
      servers: [{ url: API_PREFIX, description: `this instance (${origin}${API_PREFIX})` }],
      tags: TAGS,
      components: {
        securitySchemes: {
          // Absolute paths (a leading slash), which resolve against the instance's root, not
          // under the server URL /api/v1 (RFC 3986 section 5.2, as OpenAPI 3.1 resolves URLs).
          oauth2: {
            type: 'oauth2',
            description: 'An access token from the token endpoint; each scope opens one family of paths.',
            flows: {
              clientCredentials: { tokenUrl: '/oauth/token', scopes },
              authorizationCode: {
                authorizationUrl: `${API_PREFIX}/auth/authorize`,
                tokenUrl: '/oauth/token',
                scopes,
              },
            },
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'Read-only: operations that change nothing, within the scopes of the key.',
          },
          basic: {
            type: 'http',
            scheme: 'basic',
            description: "Read-only, with a client's id and secret: operations that change nothing.",
          },
        },
        responses: RESPONSES,
      },
    },
    transform: ({ schema, url, route }) => {
      const path = documentedPath(url);
      const method = [route.method].flat()[0] ?? 'GET';
      const seen = routeOf(method, path);
      const guard = seen?.guard;
      const access: Access = seen?.access ?? 'write';
      const families = familiesOf(guard);
      const summary = (schema as { summary?: string } | undefined)?.summary;
      const description = [
        (schema as { description?: string } | undefined)?.description ?? summary,
        families.length > 0
          ? `${families.length > 1 ? 'Scopes (all of them)' : 'Scope'}: ${families.map((family) => `\`${family}\``).join(' and ')}${access === 'write' ? ' (an OAuth 2.0 access token: API keys and Basic only read)' : ''}.`
          : undefined,
      ]
        .filter(Boolean)
        .join('\n\n');
      const documented = copy(schema ?? {}, refine) as Json;
      const outside = !url.startsWith(API_PREFIX);
      return {
        schema: {
          ...documented,
          operationId:
            documented.operationId ?? OPERATION_IDS[`${method} ${path}`] ?? madeOperationId(method, path),
          // A route beside the API (not under /api/v1) is served from the instance's root.
          ...(outside ? { servers: [{ url: origin, description: 'the instance root' }] } : {}),
          security: securityOf(guard, access),
          ...(description ? { description } : {}),
        },
        url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url,
      };
    },
    transformObject: (documentObject) => {
      const document = (documentObject as { openapiObject: Json }).openapiObject;
      document.components.schemas ??= {};
      liftComponents(document);
      parameterEnums(document, variants);
      for (const [path, item] of Object.entries<Json>(document.paths)) {
        for (const [method, operation] of Object.entries<Json>(item)) {
          const seen = routeOf(method, path);
          completeResponses(operation, method, path, familiesOf(seen?.guard).length > 0);
        }
      }
      delete document.security;
      return document;
    },
  };
  return options;
}
