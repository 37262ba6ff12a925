import { createHash } from 'node:crypto';
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

/**
 * What an operation's parameters, body and answers accept, with every `$ref` put back in place and
 * the prose (descriptions) left out.
 */
function wireShapes(document: Json, operation: Json): unknown {
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string') {
      const [, kind = '', name = ''] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      return resolve(document.components[kind][name]);
    }
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
        .map(([key, value]) => [key, resolve(value)]),
    );
  };
  return resolve({
    parameters: operation.parameters,
    body: operation.requestBody,
    answers: operation.responses,
  });
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
      const named = OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      if (named) expect(operation.operationId, `${method} ${path}`).toBe(named);
      return operation.operationId as string;
    });
    expect(new Set(ids).size).toBe(ids.length);
    // Every id of the table names an operation of the document: none is stale.
    for (const id of Object.values(OPERATION_IDS)) expect(ids).toContain(id);
    // `membersList` is `client.members.list`: every family's id is a method of the typed client.
    const client = createClient({ baseUrl: 'http://assay.test', apiKey: 'unused' }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    for (const id of Object.values(OPERATION_IDS).filter((id) => !id.startsWith('auth'))) {
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

  it('documents the wire shapes it documented before it named them: a fingerprint per operation', () => {
    // Recorded when the document was made for generators, after checking that every shape it had
    // inline before is the same once its $refs are put back (only enums, readOnly, minItems, mail
    // stages and statuses were added). A change here changes what a request or an answer may be:
    // review it against the interface document before updating the snapshot.
    const fingerprints = Object.fromEntries(
      operationsOf(document)
        .filter(({ path }) => path !== '/auth/authorize')
        .map(({ method, path, operation }) => [
          `${method.toUpperCase()} ${path}`,
          createHash('sha256')
            .update(JSON.stringify(wireShapes(document, operation)))
            .digest('hex')
            .slice(0, 12),
        ]),
    );
    expect(fingerprints).toMatchInlineSnapshot(`
      {
        "DELETE /campaigns/{campaignid}": "1d1a0409ede4",
        "DELETE /campaigns/{campaignid}/members/all": "1d1a0409ede4",
        "DELETE /campaigns/{campaignid}/members/{memberid}": "f810fdebaf34",
        "DELETE /groups/{groupid}": "ab93ee3a5e7e",
        "DELETE /groups/{groupid}/members/{memberid}": "a6ea24dcd049",
        "DELETE /members/{memberid}": "ebd0db3d7db5",
        "DELETE /reports/{reportid}": "f14dbdf70e6c",
        "DELETE /webhooks/{webhookid}": "f89cd0828a8d",
        "GET /audit": "4f12254dc4a4",
        "GET /campaigns": "a379425441a4",
        "GET /campaigns/{campaignid}": "258b481d48d5",
        "GET /campaigns/{campaignid}/export": "a3ebe182131d",
        "GET /campaigns/{campaignid}/members": "33877ad18b2f",
        "GET /campaigns/{campaignid}/members/{memberid}": "98074010fe6b",
        "GET /campaigns/{campaignid}/members/{memberid}/reports": "0686b00fb40f",
        "GET /campaigns/{campaignid}/reports": "13926a348355",
        "GET /groups": "deb878cb9c98",
        "GET /groups/members": "d2b781f6d25e",
        "GET /groups/nogroup/members": "7be85f8df4cd",
        "GET /groups/{groupid}": "c89466c8531c",
        "GET /groups/{groupid}/members": "b9290fb6398d",
        "GET /groups/{groupid}/reports": "1bacc46b3262",
        "GET /groups/{groupid}/reports/counts": "35baa055e1ed",
        "GET /members": "c62a304efbf8",
        "GET /members/{memberid}": "2592910a2089",
        "GET /members/{memberid}/campaigns": "47c150f7c414",
        "GET /members/{memberid}/reports": "44f3842de0be",
        "GET /reports": "4aa4ab2b0f96",
        "GET /reports/counts": "84695a59c5ce",
        "GET /reports/filtered/{variant}/{entitytype}/{entityid}": "5d4a17cc650d",
        "GET /reports/search/{term}": "0cf01fad62c2",
        "GET /reports/summary/{variant}": "38d9295e1724",
        "GET /reports/verbatims": "a8edd28d5e3e",
        "GET /reports/{reportid}": "20f407c94dcf",
        "GET /reports/{reportid}/data": "4c0a01a51537",
        "GET /reports/{reportid}/short": "5ba9d2f4f305",
        "GET /reports/{reportid}/usage": "c8c647e74854",
        "GET /samples": "b7e8da0b3d3e",
        "GET /samples/{variant}/{language}": "2f9140b7e814",
        "GET /settings/config": "66420f6faab0",
        "GET /settings/config/short": "849d1ff5f98b",
        "GET /settings/reports": "931d963e2071",
        "GET /settings/reports/{reportalias}/datastructure": "97c9e0af2752",
        "GET /settings/reports/{reportalias}/textkeys": "d2126daa1f9b",
        "GET /settings/reports/{reportalias}/{lang}/texts": "16ff99abf700",
        "GET /webhooks": "da5aa9253740",
        "GET /webhooks/{webhookid}": "0930afc5df26",
        "GET /webhooks/{webhookid}/deliveries": "37552f436d87",
        "PATCH /campaigns/{campaignid}": "fb133316843e",
        "PATCH /campaigns/{campaignid}/members/{memberid}": "b343d2449453",
        "PATCH /campaigns/{campaignid}/members/{memberid}/reset": "95f65f346a05",
        "PATCH /groups/{groupid}": "069c4d404c70",
        "PATCH /members/{memberid}": "36a636cdc4fd",
        "PATCH /reports/{reportid}": "ab6514d5aac1",
        "PATCH /webhooks/{webhookid}": "7775a5430206",
        "POST /auth/access_token": "2637710e59b4",
        "POST /campaigns": "2457bf2ecb3b",
        "POST /campaigns/dupecheck": "d03ff2f7d509",
        "POST /campaigns/{campaignid}/members": "e4a745213d8f",
        "POST /campaigns/{campaignid}/members/invite": "bd005c288591",
        "POST /campaigns/{campaignid}/members/remind": "bd005c288591",
        "POST /campaigns/{campaignid}/members/{memberid}": "95f65f346a05",
        "POST /groups": "6cde62271f03",
        "POST /groups/dupecheck": "d03ff2f7d509",
        "POST /groups/{groupid}/member/{memberid}": "94b30cf860a3",
        "POST /groups/{groupid}/members/{memberid}": "94b30cf860a3",
        "POST /members": "9bac34d33b0b",
        "POST /members/dupecheck": "d03ff2f7d509",
        "POST /members/import": "db818b2f3199",
        "POST /reports": "4089b8527553",
        "POST /reports/import/{variant}": "be3864e24ad7",
        "POST /reports/summary": "2d6be267603d",
        "POST /reports/{reportid}/recalc": "b027c8e434fb",
        "POST /webhooks": "92c63d6a6c25",
        "POST /webhooks/{webhookid}/rotate": "4819827e1bee",
        "POST /webhooks/{webhookid}/test": "ef033f8738bb",
      }
    `);
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
    // 429 on every guarded route: a call without credentials counts against the guessing limit
    // as a wrong API key or Basic secret does, a write too.
    expect(document.paths['/members'].get.responses['429']).toBeDefined();
    expect(document.paths['/members'].post.responses['429']).toEqual({
      $ref: '#/components/responses/TooManyRequests',
    });
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
      expect(security[0], path).toEqual({ oauth2: [route.guard].flat() });
      expect(security.length, `${route.method} ${path}`).toBe(route.access === 'read' ? 3 : 1);
    }
    expect(document.paths['/reports/summary'].post.security).toHaveLength(3);
  });
});
