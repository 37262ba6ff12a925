import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { updateClientScopes } from '../../src/auth/auth.service.js';
import { generateSigningKey } from '../../src/auth/tokens.js';
import { ALL_SCOPES, dialects, type Instance, startInstance } from '../helpers/instance.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A client_credentials request with the instance's own client. */
const clientToken = (target: Instance, scope: string) =>
  target.inject({
    method: 'POST',
    url: '/api/v1/auth/access_token',
    headers: FORM,
    payload: form({
      grant_type: 'client_credentials',
      client_id: target.client.client_id,
      client_secret: target.client.client_secret,
      scope,
    }),
  });

for (const dialect of dialects) {
  describe(`token endpoint (${dialect})`, () => {
    let instance: Instance;
    const request = (payload: string, headers: Record<string, string> = FORM) =>
      instance.inject({ method: 'POST', url: '/api/v1/auth/access_token', headers, payload });
    const credentials = () => ({
      grant_type: 'client_credentials',
      client_id: instance.client.client_id,
      client_secret: instance.client.client_secret,
    });

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('answers a JSend token for the requested scopes, in the order requested', async () => {
      const response = await request(form({ ...credentials(), scope: 'groups members' }));
      expect(response.statusCode).toBe(200);
      expect(response.json.status).toBe('OK');
      expect(Object.keys(response.json.data).sort()).toEqual([
        'access_token',
        'expires_in',
        'scope',
        'token_type',
      ]);
      expect(response.json.data).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'groups members',
      });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('limits the token to the scopes requested: other families answer 403, these keep working', async () => {
      const token = (await request(form({ ...credentials(), scope: 'members' }))).json.data.access_token;
      const members = await instance.call('GET', '/members', { auth: `Bearer ${token}` });
      const groups = await instance.call('GET', '/groups', { auth: `Bearer ${token}` });
      expect(members.statusCode).toBe(200);
      expect(groups.statusCode).toBe(403);
      expect(groups.json).toEqual({ error: 'forbidden', message: expect.stringContaining('groups') });
    });

    it('refuses a JSON body with invalid_request', async () => {
      const response = await request(JSON.stringify({ ...credentials(), scope: 'members' }), {
        'content-type': 'application/json',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json.error).toBe('invalid_request');
      expect(response.json).not.toHaveProperty('status');
    });

    it('refuses other encodings with invalid_request and an oversized body with 413', async () => {
      for (const [type, payload] of [
        ['text/plain', form({ ...credentials(), scope: 'members' })],
        ['application/json', '{not json'],
        ['application/xml', '<a/>'],
      ]) {
        const response = await request(payload as string, { 'content-type': type as string });
        expect([response.statusCode, response.json.error], type).toEqual([400, 'invalid_request']);
      }
      const huge = await request(
        form({ ...credentials(), scope: 'members', pad: 'x'.repeat(2 * 1024 * 1024) }),
      );
      expect(huge.statusCode).toBe(413);
      expect(huge.json).toEqual({
        error: 'invalid_request',
        error_description: 'The request body is too large',
        message: 'The request body is too large',
      });
    });

    it('refuses a missing grant_type, a refresh_token grant and an unknown grant', async () => {
      const missing = await request(form({ client_id: 'x', client_secret: 'y' }));
      expect([missing.statusCode, missing.json.error]).toEqual([400, 'invalid_request']);
      const refresh = await request(form({ grant_type: 'refresh_token', refresh_token: 'abc' }));
      expect([refresh.statusCode, refresh.json.error]).toEqual([400, 'unsupported_grant_type']);
      const password = await request(form({ grant_type: 'password', username: 'a', password: 'b' }));
      expect([password.statusCode, password.json.error]).toEqual([400, 'unsupported_grant_type']);
      const twice = await request(
        `${form({ ...credentials(), scope: 'members' })}&grant_type=client_credentials`,
      );
      expect([twice.statusCode, twice.json.error, twice.json.error_description]).toEqual([
        400,
        'invalid_request',
        'grant_type: must be sent once',
      ]);
    });

    it('answers 401 invalid_client for a wrong secret, an unknown client and credentials in a Basic header', async () => {
      const wrong = await request(form({ ...credentials(), client_secret: 'nope', scope: 'members' }));
      expect([wrong.statusCode, wrong.json.error]).toEqual([401, 'invalid_client']);
      const unknown = await request(form({ ...credentials(), client_id: 'nobody', scope: 'members' }));
      expect([unknown.statusCode, unknown.json.error]).toEqual([401, 'invalid_client']);
      const basic = Buffer.from(`${instance.client.client_id}:${instance.client.client_secret}`).toString(
        'base64',
      );
      const header = await request(form({ grant_type: 'client_credentials', scope: 'members' }), {
        ...FORM,
        authorization: `Basic ${basic}`,
      });
      expect([header.statusCode, header.json.error]).toEqual([401, 'invalid_client']);
      expect(header.json.error_description).toContain('request body');
      // RFC 6749 section 5.2: a client that tried the Authorization header is told its scheme failed.
      expect(header.headers['www-authenticate']).toBe('Basic realm="assay"');
      expect(wrong.headers['www-authenticate']).toBeUndefined();
    });

    it('answers invalid_scope for a scope not enabled, an unknown one, or none', async () => {
      const admin = await instance.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const { createClient } = await import('../../src/auth/auth.service.js');
      const narrow = await createClient(
        instance.db.kysely,
        {
          name: 'narrow',
          userId: admin.id,
          scopes: ['members'],
        },
        cliActor(),
      );
      const base = {
        grant_type: 'client_credentials',
        client_id: narrow.client_id,
        client_secret: narrow.client_secret,
      };
      for (const scope of ['members groups', 'everything', '']) {
        const response = await request(form({ ...base, scope }));
        expect([response.statusCode, response.json.error]).toEqual([400, 'invalid_scope']);
      }
      expect((await request(form({ ...base, scope: 'members' }))).statusCode).toBe(200);
      // A misspelt scope is named as unknown, with the scopes there are.
      expect((await request(form({ ...base, scope: 'member' }))).json.error_description).toBe(
        'scope: unknown scope "member"; the scopes are members groups campaigns reports settings samples webhooks audit',
      );
    });

    it('makes the old secret and the tokens issued before a client update fail', async () => {
      const admin = await instance.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const { createClient } = await import('../../src/auth/auth.service.js');
      const client = await createClient(
        instance.db.kysely,
        {
          name: 'rotating',
          userId: admin.id,
          scopes: ['members', 'groups'],
        },
        cliActor(),
      );
      const old = {
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope: 'members',
      };
      const token = (await request(form(old))).json.data.access_token;
      expect((await instance.call('GET', '/members', { auth: `Bearer ${token}` })).statusCode).toBe(200);

      const renewed = await updateClientScopes(
        instance.db.kysely,
        'operator',
        client.client_id,
        ['members'],
        cliActor(),
      );
      expect(renewed.client_secret).not.toBe(client.client_secret);
      expect((await request(form(old))).statusCode).toBe(401);
      // Another process learns of the change through the database's notification (PostgreSQL) or
      // data_version (SQLite): at once on SQLite, within moments on PostgreSQL (20 s is only a
      // safety net for a busy machine).
      await expect
        .poll(async () => (await instance.call('GET', '/members', { auth: `Bearer ${token}` })).statusCode, {
          timeout: 20_000,
          interval: 5,
        })
        .toBe(401);
      const fresh = await request(form({ ...old, client_secret: renewed.client_secret }));
      expect(fresh.statusCode).toBe(200);
      expect(
        (await request(form({ ...old, client_secret: renewed.client_secret, scope: 'groups' }))).json.error,
      ).toBe('invalid_scope');
    });

    it('refuses expired, tampered, foreign and malformed tokens with 401', async () => {
      const key = await instance.db.kysely.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow();
      const privateKey = await importJWK(JSON.parse(key.private_jwk) as JWK, 'EdDSA');
      const claims = { cid: instance.client.client_id, sv: 1, scope: ALL_SCOPES };
      const expired = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt' })
        .setSubject('x')
        .setIssuer('assay')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(privateKey);
      const good = await instance.token();
      const tampered = `${good.slice(0, -4)}AAAA`;
      for (const auth of [
        `Bearer ${expired}`,
        `Bearer ${tampered}`,
        'Bearer abc.def.ghi',
        'Bearer',
        'Token xyz',
      ]) {
        const response = await instance.call('GET', '/members', { auth });
        expect(response.statusCode, auth).toBe(401);
        expect(Object.keys(response.json).sort()).toEqual(['error', 'message']);
      }
    });

    it('slows down guessing: after the allowed failures an address gets 429', async () => {
      const limited = await startInstance(dialect, { env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '3' } });
      try {
        const bad = form({
          grant_type: 'client_credentials',
          client_id: limited.client.client_id,
          client_secret: 'guess',
          scope: 'members',
        });
        for (let i = 0; i < 3; i++) {
          const response = await limited.inject({
            method: 'POST',
            url: '/api/v1/auth/access_token',
            headers: FORM,
            payload: bad,
          });
          expect(response.statusCode).toBe(401);
        }
        const blocked = await limited.inject({
          method: 'POST',
          url: '/api/v1/auth/access_token',
          headers: FORM,
          payload: bad,
        });
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await limited.close();
      }
    });

    it('counts the forwarded address behind a trusted proxy, and only then', async () => {
      /** A failing token request said to come, through a proxy, from `forwardedFor`. */
      const guessOn = (target: Instance) => async (forwardedFor: string) =>
        (
          await target.inject({
            method: 'POST',
            url: '/api/v1/auth/access_token',
            headers: { ...FORM, 'x-forwarded-for': forwardedFor },
            payload: form({
              grant_type: 'client_credentials',
              client_id: 'x',
              client_secret: 'y',
              scope: 'members',
            }),
          })
        ).statusCode;
      const limit = { ASSAY_TOKEN_FAILURES_PER_MINUTE: '2' };
      const proxied = await startInstance(dialect, { env: { ...limit, ASSAY_TRUST_PROXY: '127.0.0.1' } });
      try {
        const guess = guessOn(proxied);
        for (let i = 0; i < 2; i++) expect(await guess('203.0.113.7')).toBe(401);
        expect(await guess('203.0.113.7')).toBe(429);
        // Another caller behind the same proxy is not held up by the first one's guesses.
        expect(await guess('203.0.113.8')).toBe(401);
      } finally {
        await proxied.close();
      }
      const direct = await startInstance(dialect, { env: limit });
      try {
        const guess = guessOn(direct);
        // Without a trusted proxy a forged header changes nothing: the connection's address counts.
        for (let i = 0; i < 2; i++) expect(await guess(`198.51.100.${i}`)).toBe(401);
        expect(await guess('198.51.100.9')).toBe(429);
      } finally {
        await direct.close();
      }
    });
  });

  describe(`a token endpoint whose database fails (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('answers 500 server_error, not a fault of the request', async () => {
      await instance.db.kysely.schema.alterTable('oauth_clients').renameTo('oauth_clients_gone').execute();
      const response = await clientToken(instance, 'members');
      expect(response.statusCode).toBe(500);
      expect(response.json).toEqual({
        error: 'server_error',
        error_description: 'The token could not be issued; try again',
        message: 'The token could not be issued; try again',
      });
      expect(response.body).not.toMatch(/oauth_clients|at .*\.js/);
    });
  });

  describe(`an instance without a key pair (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect, { keys: false });
    });
    afterAll(() => instance.close());

    it('answers 500 Invalid key supplied for every scope, and the same credentials work once keys exist', async () => {
      for (const scope of ['members', 'groups', ALL_SCOPES]) {
        const response = await clientToken(instance, scope);
        expect(response.statusCode).toBe(500);
        expect(response.json.message).toBe('Invalid key supplied');
      }
      await generateSigningKey(instance.db.kysely);
      expect(await instance.token('members')).toMatch(/^ey/);
    });
  });
}
