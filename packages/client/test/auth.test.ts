import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addClient } from '../../server/src/cli/commands.js';
import { dialects } from '../../server/test/helpers/instance.js';
import { AssayError, createClient, HttpError } from '../src/index.js';
import {
  adminClient,
  email,
  failure,
  fakeServer,
  json,
  recordingFetch,
  type Served,
  serve,
  tokenAnswer,
} from './helpers.js';

const form = (body: string | undefined) => Object.fromEntries(new URLSearchParams(body ?? ''));

for (const dialect of dialects) {
  describe(`authentication against a real server (${dialect})`, () => {
    let served: Served;

    beforeAll(async () => {
      served = await serve(dialect);
    });
    afterAll(async () => {
      await served?.close();
    });

    it('reuses one token for a block of calls, and concurrent first calls share one token request', async () => {
      const recorder = recordingFetch();
      const client = adminClient(served, { fetch: recorder.fetch, scopes: 'members groups' });
      await Promise.all(Array.from({ length: 10 }, () => client.members.list()));
      expect(recorder.tokenRequests()).toHaveLength(1);
      for (let i = 0; i < 5; i++) await client.groups.list();
      await client.members.create({ email: email(), firstname: 'T', lastname: 'R' });
      expect(recorder.tokenRequests()).toHaveLength(1);
      expect(recorder.requests).toHaveLength(17);
      const sent = form(recorder.tokenRequests()[0]?.body);
      expect(sent).toEqual({
        grant_type: 'client_credentials',
        client_id: served.instance.client.client_id,
        client_secret: served.instance.client.client_secret,
        scope: 'members groups',
      });
    });

    it('renews the token shortly before expires_in runs out, with a new client_credentials request', async () => {
      const recorder = recordingFetch();
      let now = Date.parse('2026-06-01T00:00:00Z');
      const client = adminClient(served, { fetch: recorder.fetch, scopes: ['members'], now: () => now });
      await client.members.list();
      const first = await client.auth.token();
      expect(first.expires_in).toBe(3600);
      // Well inside the lifetime: the same token.
      now += 3_500_000;
      await client.members.list();
      expect(recorder.tokenRequests()).toHaveLength(1);
      // Within the last minute of its hour: a new token before the old one runs out.
      now += 50_000;
      await client.members.list();
      expect(recorder.tokenRequests()).toHaveLength(2);
      await client.members.list();
      expect(recorder.tokenRequests()).toHaveLength(2);
      // Never a refresh token: every token request is client_credentials.
      for (const request of recorder.tokenRequests()) {
        expect(form(request.body).grant_type).toBe('client_credentials');
        expect(form(request.body).refresh_token).toBeUndefined();
      }
    });

    it('asks for the families as it calls them when no scopes are given', async () => {
      const recorder = recordingFetch();
      const client = adminClient(served, { fetch: recorder.fetch });
      await client.members.list();
      await client.members.list();
      await client.groups.list();
      await client.members.list();
      await client.settings.configShort();
      expect(recorder.tokenRequests().map((request) => form(request.body).scope)).toEqual([
        'members',
        'members groups',
        'members groups settings',
      ]);

      // A client with some scopes enabled works for those, and says which scope it lacks.
      const limited = await addClient(served.instance.db.kysely, { name: 'limited', scopes: 'members' });
      const narrow = createClient({
        baseUrl: served.url,
        clientId: limited.client_id,
        clientSecret: limited.client_secret,
      });
      expect(Array.isArray(await narrow.members.list())).toBe(true);
      const refused = await failure(narrow.groups.list());
      expect(refused).toBeInstanceOf(HttpError);
      expect((refused as HttpError).status).toBe(400);
      expect((refused as HttpError).code).toBe('invalid_scope');
      expect((refused as HttpError).path).toBe('/auth/access_token');
      expect(Array.isArray(await narrow.members.list())).toBe(true);
    });

    it('gives 403 as an HttpError when the token lacks the family, and 401 for wrong credentials', async () => {
      const client = adminClient(served, { scopes: ['members'] });
      const forbidden = await failure(client.groups.list());
      expect(forbidden).toBeInstanceOf(HttpError);
      expect((forbidden as HttpError).status).toBe(403);
      expect((forbidden as HttpError).code).toBe('forbidden');
      expect((forbidden as HttpError).message).toMatch(/^GET \/groups: 403 /);

      const wrong = createClient({ baseUrl: served.url, clientId: 'nosuchclient', clientSecret: 'nope' });
      const denied = await failure(wrong.members.list());
      expect(denied).toBeInstanceOf(HttpError);
      expect((denied as HttpError).status).toBe(401);
      expect((denied as HttpError).code).toBe('invalid_client');
      expect((denied as HttpError).body).toMatchObject({ error: 'invalid_client' });
    });

    it('reads with an API key (X-API-Key) and with Basic, and may not write with them', async () => {
      const apiKey = await served.instance.apiKey('members reports');
      const byKey = createClient({ baseUrl: `${served.url}/api/v1/`, apiKey });
      expect(Array.isArray(await byKey.members.list())).toBe(true);
      expect(await byKey.reports.counts()).toBeTypeOf('object');
      const write = await failure(byKey.members.create({ email: email(), firstname: 'A', lastname: 'B' }));
      expect((write as HttpError).status).toBe(403);
      expect(((await failure(byKey.groups.list())) as HttpError).status).toBe(403);
      const badKey = createClient({ baseUrl: served.url, apiKey: 'wrong' });
      expect(((await failure(badKey.members.list())) as HttpError).status).toBe(401);

      const basic = createClient({
        baseUrl: served.url,
        basic: {
          clientId: served.instance.client.client_id,
          clientSecret: served.instance.client.client_secret,
        },
      });
      expect(Array.isArray(await basic.groups.list())).toBe(true);
      const basicWrite = await failure(basic.groups.create({ name: 'No', alias: 'no' }));
      expect((basicWrite as HttpError).status).toBe(403);
      await expect(basic.auth.token()).rejects.toThrow(TypeError);
    });

    it('calls with an access token got elsewhere, as it is: what its scopes allow, and no renewal', async () => {
      const { access_token } = await adminClient(served, { scopes: 'members' }).auth.token();
      const recorder = recordingFetch();
      const holder = createClient({ baseUrl: served.url, accessToken: access_token, fetch: recorder.fetch });
      const created = await holder.members.create({ email: email(), firstname: 'Token', lastname: 'Holder' });
      expect((await holder.members.get(created.memberid)).firstname).toBe('Token');
      expect(((await failure(holder.groups.list())) as HttpError).status).toBe(403);
      const wrong = createClient({ baseUrl: served.url, accessToken: 'not-a-token', fetch: recorder.fetch });
      expect(((await failure(wrong.members.list())) as HttpError).status).toBe(401);
      expect(recorder.tokenRequests()).toHaveLength(0);
      expect(
        recorder.requests.every(
          (request) => request.url.includes('/members') || request.url.includes('/groups'),
        ),
      ).toBe(true);
      await expect(holder.auth.token()).rejects.toThrow(TypeError);
      expect(() => createClient({ baseUrl: served.url, accessToken: ' ' })).toThrow(
        'accessToken must be a non-empty string',
      );
    });
  });
}

describe('authentication against a fake instance', () => {
  it('answers a 401 with one new token and one retry, then gives up', async () => {
    let tokens = 0;
    const server = await fakeServer((request, response) => {
      if (request.url === '/api/v1/auth/access_token') {
        tokens++;
        return json(response, tokenAnswer(`tok-${tokens}`));
      }
      // The first token is refused (revoked); the second works; `bad` paths refuse every token.
      if (request.url.startsWith('/api/v1/bad') || request.headers.authorization === 'Bearer tok-1') {
        return json(response, { error: 'unauthorized', message: 'revoked' }, 401);
      }
      return json(response, { status: 'OK', data: [] });
    });
    try {
      const client = createClient({
        baseUrl: server.url,
        clientId: 'id',
        clientSecret: 'secret',
        scopes: 'members',
      });
      expect(await client.members.list()).toEqual([]);
      expect(tokens).toBe(2);
      const refused = await failure(client.request('GET', '/bad'));
      expect((refused as HttpError).status).toBe(401);
      expect(tokens).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('reads a plain RFC 6749 token answer, expires_in as a string, and a token ERROR envelope', async () => {
    let mode: 'plain' | 'error' = 'plain';
    const server = await fakeServer((request, response) => {
      if (request.url === '/api/v1/auth/access_token') {
        if (mode === 'error') return json(response, { status: 'ERROR', data: 'Invalid key supplied' });
        return json(response, { access_token: 'plain', token_type: 'bearer', expires_in: '120' });
      }
      return json(response, { status: 'OK', data: request.headers.authorization });
    });
    try {
      const client = createClient({
        baseUrl: server.url,
        clientId: 'id',
        clientSecret: 'secret',
        scopes: 'members',
      });
      expect(await client.request('GET', '/members')).toBe('Bearer plain');
      expect((await client.auth.token()).expires_in).toBe(120);
      mode = 'error';
      client.auth.reset();
      const error = await failure(client.request('GET', '/members'));
      expect(error).toBeInstanceOf(AssayError);
      expect((error as AssayError).message).toBe('Invalid key supplied');
    } finally {
      await server.close();
    }
  });

  it('shares a failed token request between the calls that waited on it', async () => {
    const server = await fakeServer((request, response) => {
      if (request.url === '/api/v1/auth/access_token') {
        return json(response, { error: 'server_error', message: 'Invalid key supplied' }, 500);
      }
      return json(response, { status: 'OK', data: [] });
    });
    try {
      const client = createClient({
        baseUrl: server.url,
        clientId: 'id',
        clientSecret: 'secret',
        scopes: 'members',
      });
      const errors = await Promise.all([1, 2, 3].map(() => failure(client.members.list())));
      for (const error of errors) {
        expect(error).toBeInstanceOf(HttpError);
        expect((error as HttpError).status).toBe(500);
        expect((error as HttpError).message).toContain('Invalid key supplied');
      }
      expect(server.seen.filter((request) => request.url.endsWith('/access_token'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
