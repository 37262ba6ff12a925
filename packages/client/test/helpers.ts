import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dialect } from '../../server/src/db/database.js';
import { type Instance, startInstance } from '../../server/test/helpers/instance.js';
import { type AssayClientOptions, createClient } from '../src/index.js';

/** An Assay instance on a real database, listening on a real port. */
export interface Served {
  instance: Instance;
  /** The instance address, e.g. http://127.0.0.1:40123 (the client adds /api/v1). */
  url: string;
  close(): Promise<void>;
}

export async function serve(dialect: Dialect): Promise<Served> {
  const instance = await startInstance(dialect);
  const address = await instance.app.listen({ port: 0, host: '127.0.0.1' });
  return { instance, url: address, close: () => instance.close() };
}

/** A client of a served instance with its admin client's credentials. */
export function adminClient(served: Served, options: Partial<AssayClientOptions> = {}) {
  return createClient({
    baseUrl: served.url,
    clientId: served.instance.client.client_id,
    clientSecret: served.instance.client.client_secret,
    ...options,
  } as AssayClientOptions);
}

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A `fetch` that records every request it sends. */
export function recordingFetch() {
  const requests: { method: string; url: string; body: string | undefined }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    requests.push({
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    return fetch(input, init);
  };
  const tokenRequests = () => requests.filter((request) => request.url.endsWith('/auth/access_token'));
  return { fetch: wrapped, requests, tokenRequests };
}

/** A small local HTTP server whose answers the test writes. */
export async function fakeServer(handler: (request: Seen, response: http.ServerResponse) => unknown) {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      Promise.resolve(handler(entry, response)).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Answers JSON. */
export function json(response: http.ServerResponse, body: unknown, status = 200, headers = {}) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

/** The answer of a fake token endpoint. */
export function tokenAnswer(token = 'tok-1', expiresIn: number | string = 3600, scope = 'members') {
  return { status: 'OK', data: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope } };
}

/** leadership360 answers: every likert item `value`, the remarks as given. */
export function answers360(value: number, remarks: Record<string, string> = {}) {
  const result: Record<string, number | string> = {};
  for (let i = 1; i <= 24; i++) result[`Q${i}`] = value;
  return { ...result, ...remarks };
}

let counter = 0;
/** A unique e-mail address. */
export function email(prefix = 'c'): string {
  counter++;
  return `${prefix}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.test`;
}

export const PAST = '2026-01-01T09:00:00+00:00';

/** What a promise rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
