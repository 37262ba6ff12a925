import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import createFetchClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { email, type Instance, startInstance } from '../helpers/instance.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A program an integrator writes against the generated types: it must type-check, and only it. */
const USAGE = `
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './assay-api.js';

type Member = components['schemas']['Member'];
const client = createClient<paths>({ baseUrl: 'http://assay.test/api/v1' });

export async function firstNames(): Promise<string[]> {
  const { data } = await client.GET('/members');
  if (!data || data.status !== 'OK') return [];
  return data.data.map((member: Member) => member.firstname);
}

export async function detail(memberid: string) {
  const { data } = await client.GET('/members/{memberid}', { params: { path: { memberid } } });
  return data?.status === 'OK' ? data.data.createdon : undefined;
}

export type Summary = operations['reportsSummary']['requestBody'];

// @ts-expect-error the Member shape has no such field: the types are real, not any.
export const wrong = (member: Member) => member.nosuch;
`;

// Generators read the document, not the database: SQLite only.
describe('a client generated from the document (openapi-typescript with openapi-fetch)', () => {
  let instance: Instance;
  let document: Record<string, unknown>;
  let baseUrl: string;
  beforeAll(async () => {
    instance = await startInstance('sqlite');
    document = (await instance.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json;
    baseUrl = `${await instance.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
  });
  afterAll(() => instance?.close());

  it('generates named types and operations that type-check in an integrator program', async () => {
    const generated = astToString(await openapiTS(document as never));
    expect(generated).toMatch(/\n\s+Member: \{/);
    expect(generated).toMatch(/\n\s+membersList: \{/);
    const dir = fs.mkdtempSync(path.join(here, '.generated-'));
    try {
      fs.writeFileSync(path.join(dir, 'assay-api.ts'), generated);
      fs.writeFileSync(path.join(dir, 'usage.ts'), USAGE);
      const program = ts.createProgram([path.join(dir, 'usage.ts')], {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        skipLibCheck: true,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(problems).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('calls the running instance through the generated paths, with a token and with an API key', async () => {
    const token = await instance.token();
    const client = createFetchClient<Record<string, never>>({
      baseUrl,
      headers: { authorization: `Bearer ${token}` },
    }) as unknown as {
      GET(path: string, init?: object): Promise<{ data?: { status: string; data: unknown } }>;
      POST(path: string, init?: object): Promise<{ data?: { status: string; data: unknown } }>;
    };
    const address = email();
    const created = await client.POST('/members', {
      body: { email: address, firstname: 'Gen', lastname: 'Rated' },
    });
    expect(created.data?.status).toBe('OK');
    const memberid = (created.data?.data as { memberid: string } | undefined)?.memberid ?? '';
    const read = await client.GET('/members/{memberid}', { params: { path: { memberid } } });
    expect(read.data).toMatchObject({ status: 'OK', data: { memberid, email: address } });
    const keyed = createFetchClient({
      baseUrl,
      headers: { 'x-api-key': await instance.apiKey() },
    }) as unknown as typeof client;
    expect((await keyed.POST('/members/dupecheck', { body: { value: address } })).data).toEqual({
      status: 'ERROR',
      data: '',
    });
  });
});
