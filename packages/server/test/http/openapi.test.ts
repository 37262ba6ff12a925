import { createRequire } from 'node:module';
import { createClient } from '@assay/client';
import * as shapes from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/http/openapi-operations.js';
import { type Instance, startInstance } from '../helpers/instance.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is untyped JSON here.
type Json = Record<string, any>;

const require = createRequire(import.meta.url);

/** Spectral with the `spectral:oas` ruleset: every result, as `severity code path: message`. */
async function spectral(text: string): Promise<string[]> {
  const { Spectral, Document } = require('@stoplight/spectral-core');
  const { oas } = require('@stoplight/spectral-rulesets');
  const Parsers = require('@stoplight/spectral-parsers');
  const linter = new Spectral();
  linter.setRuleset({ extends: [[oas, 'recommended']] });
  const results: Json[] = await linter.run(new Document(text, Parsers.Json, 'openapi.json'));
  return results.map((r) => `${r.severity} ${r.code} ${r.path.join('.')}: ${r.message}`);
}

/** Redocly's `recommended` rules: every problem, as `severity rule pointer: message`. */
async function redocly(text: string): Promise<string[]> {
  const core = await import('@redocly/openapi-core');
  const config = await core.createConfig({ extends: ['recommended'] });
  const problems = await core.lintDocument({
    document: core.makeDocumentFromString(text, 'openapi.json'),
    config,
    externalRefResolver: new core.BaseResolver(),
  });
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
}

const operationsOf = (document: Json) =>
  Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, operation]) => ({ method, path, operation })),
  );

// The document does not depend on the database: SQLite only.
describe('the OpenAPI document', () => {
  let instance: Instance;
  let text: string;
  let document: Json;
  const before = JSON.stringify(Object.entries(shapes));
  beforeAll(async () => {
    instance = await startInstance('sqlite');
    text = (await instance.inject({ method: 'GET', url: '/api/v1/openapi.json' })).body;
    document = JSON.parse(text);
  });
  afterAll(() => instance?.close());

  it('is served at /api/docs/json too, and making it changed none of the schemas that validate', async () => {
    expect((await instance.inject({ method: 'GET', url: '/api/docs/json' })).body).toBe(text);
    expect(JSON.stringify(Object.entries(shapes))).toBe(before);
  });

  it('passes Spectral (spectral:oas) with no error and no warning', async () => {
    expect((await spectral(text)).filter((line) => /^[01] /.test(line))).toEqual([]);
  }, 30_000);

  it("passes Redocly's recommended rules with no problem but the interface's own ambiguous paths", async () => {
    expect((await redocly(text)).filter((line) => !line.includes(' no-ambiguous-paths '))).toEqual([]);
  }, 30_000);

  it('names every operation with the typed client words, once each', () => {
    const ids = operationsOf(document).map(({ method, path, operation }) => {
      expect(operation.operationId, `${method} ${path}`).toBe(
        OPERATION_IDS[`${method.toUpperCase()} ${path}`],
      );
      return operation.operationId as string;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(Object.keys(OPERATION_IDS).length);
    // `membersList` is `client.members.list`: every family's id is a method of the typed client.
    const client = createClient({ baseUrl: 'http://assay.test', apiKey: 'unused' }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    for (const id of ids.filter((id) => !id.startsWith('auth'))) {
      const [, family = '', method = ''] = /^([a-z]+)([A-Z]\w*)$/.exec(id) ?? [];
      const name = method[0]?.toLowerCase() + method.slice(1);
      expect(typeof client[family]?.[name], id).toBe('function');
    }
  });

  it('refers to named shapes by $ref, and defines the tags it uses', () => {
    const { schemas } = document.components;
    for (const name of [
      'Member',
      'MemberDetail',
      'Group',
      'Campaign',
      'CampaignDetail',
      'CampaignMember',
      'Report',
      'ReportData',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    const data = (path: string, method = 'get') =>
      document.paths[path][method].responses['200'].content['application/json'].schema.anyOf[0].properties
        .data;
    expect(data('/members').items).toEqual({ $ref: '#/components/schemas/Member' });
    expect(data('/members/{memberid}')).toEqual({ $ref: '#/components/schemas/MemberDetail' });
    expect(data('/reports/{reportid}/data')).toEqual({ $ref: '#/components/schemas/ReportData' });
    // No component is copied inline anywhere: its properties appear only in components.
    expect(JSON.stringify(document.paths)).not.toContain('"activeusersession"');
    const tags = new Set(document.tags.map((tag: Json) => tag.name));
    for (const tag of document.tags) expect(tag.description, tag.name).toBeTruthy();
    for (const { operation } of operationsOf(document))
      for (const tag of operation.tags) expect(tags).toContain(tag);
    expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(document.info.contact.url).toBe(instance.config.publicUrl.replace(/\/+$/, ''));
  });

  it('lists allowed values, minItems and readOnly where the server holds them', () => {
    const { schemas } = document.components;
    const installed = ['bigfive', 'leadership360', 'teamscan'];
    expect(schemas.CampaignCreate.properties.variant.enum).toEqual(installed);
    expect(schemas.CampaignCreate.properties.language.enum).toEqual(['enUS', 'esES', 'frFR', 'nlNL']);
    expect(schemas.ReportCreate.properties.reportType.enum).toEqual([...shapes.GROUP_REPORT_TYPES]);
    expect(schemas.Report.properties.type.enum).toEqual([...shapes.REPORT_TYPES]);
    expect(schemas.MailConfigWrite.propertyNames.enum).toEqual([...shapes.MAIL_STAGES]);
    expect(schemas.ReportImport.properties.reports.minItems).toBe(1);
    expect(schemas.CampaignPatch.properties.variant.readOnly).toBe(true);
    expect(schemas.MemberPatch.properties.groupid.readOnly).toBe(true);
    const params = document.paths['/samples/{variant}/{language}'].get.parameters;
    expect(params.map((p: Json) => p.schema.enum)).toEqual([installed, ['enUS', 'esES', 'frFR', 'nlNL']]);
  });

  it('names every status: 404s, the HTML of the sign-in page, and the real HTTP errors', () => {
    for (const [path, method] of [
      ['/reports/{reportid}', 'get'],
      ['/samples/{variant}/{language}', 'get'],
      ['/reports/{reportid}/recalc', 'post'],
    ] as const) {
      expect(document.paths[path][method].responses['404'], path).toEqual({
        $ref: '#/components/responses/NotFound',
      });
    }
    const authorize = document.paths['/auth/authorize'];
    expect(Object.keys(authorize.get.responses['400'].content)).toEqual(['text/html']);
    expect(Object.keys(authorize.post.responses['403'].content)).toEqual(['text/html']);
    // 429 where API keys and Basic are taken (their guesses are limited), never on a write.
    expect(document.paths['/members'].get.responses['429']).toBeDefined();
    expect(document.paths['/members'].post.responses['429']).toBeUndefined();
    expect(document.paths['/members'].post.responses['413']).toBeDefined();
  });

  it('offers OAuth 2.0 (client credentials and authorization code, each scope described), API keys and Basic', () => {
    const { oauth2, apiKey, basic } = document.components.securitySchemes;
    expect(oauth2.flows.clientCredentials.tokenUrl).toBe('/oauth/token');
    expect(oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: '/api/v1/auth/authorize',
      tokenUrl: '/oauth/token',
    });
    // An absolute path: it resolves against the instance's root, not under the server URL.
    expect(new URL(oauth2.flows.clientCredentials.tokenUrl, 'http://assay.test/api/v1').href).toBe(
      'http://assay.test/oauth/token',
    );
    for (const flow of Object.values<Json>(oauth2.flows)) {
      expect(Object.keys(flow.scopes).sort()).toEqual([...shapes.SCOPES].sort());
      for (const description of Object.values(flow.scopes)) expect(description).toBeTruthy();
    }
    expect(apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(basic).toMatchObject({ type: 'http', scheme: 'basic' });
    // What the guard allows, the document says: read-only credentials exactly where a route changes nothing.
    for (const route of instance.app.apiRoutes) {
      if (route.method === 'HEAD' || route.guard === 'public') continue;
      const path = route.url.slice('/api/v1'.length).replace(/:(\w+)/g, '{$1}');
      const security = document.paths[path][route.method.toLowerCase()].security;
      expect(security[0], path).toEqual({ oauth2: [route.guard] });
      expect(security.length, `${route.method} ${path}`).toBe(route.access === 'read' ? 3 : 1);
    }
    expect(document.paths['/reports/summary'].post.security).toHaveLength(3);
  });
});
