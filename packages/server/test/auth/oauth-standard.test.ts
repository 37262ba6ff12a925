import { readFileSync } from 'node:fs';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import type { IssuedClient } from '../../src/auth/auth.service.js';
import { createClient, createUser } from '../../src/auth/auth.service.js';
import { FailureLimiter } from '../../src/auth/rate-limit.js';
import { revokeToken } from '../../src/auth/revocation.service.js';
import { RevokedTokenCache } from '../../src/auth/revocations.js';
import { hashPassword } from '../../src/auth/secrets.js';
import { TokenService } from '../../src/auth/tokens.js';
import { SQLITE_STAMP_REUSE_MS } from '../../src/db/freshness.js';
import { dialects, type Instance, type Response, startInstance } from '../helpers/instance.js';

// Issue 22, item 2: OAuth 2.0 as the RFCs define it, beside the interface's own token endpoint.
// A standard client (oauth4webapi) over real HTTP for both grants, discovery and revocation; then
// every error of RFC 6749 section 5.2 by raw requests.

// https, as in production (a library refuses plain http): each request goes to the listening server.
const PUBLIC_URL = 'https://assay.example.test';
/** docs/integrating.md: its examples are run below as written. */
const INTEGRATING = readFileSync(new URL('../../../../docs/integrating.md', import.meta.url), 'utf8');
const REDIRECT = 'https://app.example.test/callback';
const PASSWORD = 'correct horse battery staple';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

for (const dialect of dialects) {
  describe(`OAuth 2.0 by the RFCs, with a standard client (${dialect})`, () => {
    let instance: Instance;
    let origin: string;
    let partner: IssuedClient;
    let machine: IssuedClient;
    let userEmail: string;
    /** Real HTTP to the listening server, for URLs of the configured public address. */
    const realFetch = globalThis.fetch;
    const http = (url: string, init?: RequestInit) => realFetch(url.replace(PUBLIC_URL, origin), init);
    const options = { [oauth.customFetch]: http };
    /** The server's RFC 8414 metadata as a standard client discovers it: each test finds its own. */
    const discover = async () => {
      const issuer = new URL(PUBLIC_URL);
      return oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
      );
    };
    /** An API call with a bearer token: its status. */
    const members = async (token: string) =>
      (await instance.call('GET', '/members', { auth: `Bearer ${token}` })).statusCode;

    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { ASSAY_PUBLIC_URL: PUBLIC_URL } });
      origin = await instance.app.listen({ port: 0, host: '127.0.0.1' });
      const user = await createUser(
        instance.db.kysely,
        {
          email: 'oauth@example.test',
          firstname: 'O',
          lastname: 'Auth',
        },
        cliActor(),
      );
      userEmail = user.email;
      await instance.db.kysely
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', user.id)
        .execute();
      partner = await createClient(
        instance.db.kysely,
        {
          name: 'Partner app',
          userId: user.id,
          scopes: ['members', 'groups', 'reports'],
          redirectUris: [REDIRECT],
        },
        cliActor(),
      );
      machine = await createClient(
        instance.db.kysely,
        {
          name: 'Machine',
          userId: user.id,
          scopes: ['members'],
        },
        cliActor(),
      );
    });
    afterAll(() => instance.close());

    it('publishes RFC 8414 metadata that a standard client discovers', async () => {
      expect(await discover()).toEqual({
        issuer: PUBLIC_URL,
        authorization_endpoint: `${PUBLIC_URL}/api/v1/auth/authorize`,
        token_endpoint: `${PUBLIC_URL}/oauth/token`,
        registration_endpoint: `${PUBLIC_URL}/oauth/register`,
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        revocation_endpoint: `${PUBLIC_URL}/oauth/revoke`,
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        scopes_supported: [
          'members',
          'groups',
          'campaigns',
          'reports',
          'settings',
          'samples',
          'webhooks',
          'audit',
        ],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        service_documentation: `${PUBLIC_URL}/api/docs`,
      });
    });

    it('gets a client_credentials token by client_secret_basic and by client_secret_post, plain JSON', async () => {
      const as = await discover();
      const client = { client_id: machine.client_id };
      for (const auth of [
        oauth.ClientSecretBasic(machine.client_secret),
        oauth.ClientSecretPost(machine.client_secret),
      ]) {
        const response = await oauth.clientCredentialsGrantRequest(
          as,
          client,
          auth,
          { scope: 'members' },
          options,
        );
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('pragma')).toBe('no-cache');
        const token = await oauth.processClientCredentialsResponse(as, client, response);
        expect(token).toEqual({
          access_token: expect.any(String),
          token_type: 'bearer',
          expires_in: 3600,
          scope: 'members',
        });
        expect(await members(token.access_token)).toBe(200);
      }
      // The same refusal as the interface's endpoint: a scope not enabled for the client.
      await expect(
        oauth.processClientCredentialsResponse(
          as,
          client,
          await oauth.clientCredentialsGrantRequest(
            as,
            client,
            oauth.ClientSecretPost(machine.client_secret),
            { scope: 'groups' },
            options,
          ),
        ),
      ).rejects.toMatchObject({ error: 'invalid_scope', status: 400 });
    });

    it('runs the client credentials example of docs/integrating.md as written', async () => {
      const block =
        [...INTEGRATING.matchAll(/```ts\n([\s\S]*?)```/g)]
          .map((match) => match[1] ?? '')
          .find((text) => text.includes("from 'oauth4webapi'")) ?? '';
      expect(block).toContain('oauth.clientCredentialsGrantRequest');
      const code = block
        .replace(/^import .*$/m, '')
        .replaceAll('https://assay.example.com', PUBLIC_URL)
        // TypeScript's non-null assertions, which plain JavaScript does not take.
        .replace(/!(?=\s*[);,}])/g, '');
      const run = new Function(
        'oauth',
        'process',
        `return (async () => {${code}\nreturn { status: members.status, access_token };})();`,
      );
      // The example calls the instance's public address with the global fetch: it goes to the listening server.
      globalThis.fetch = ((url: string | URL | Request, init?: RequestInit) =>
        http(String(url instanceof Request ? url.url : url), init)) as typeof fetch;
      let result: { status: number; access_token: string };
      try {
        result = await run(oauth, {
          env: { CLIENT_ID: partner.client_id, CLIENT_SECRET: partner.client_secret },
        });
      } finally {
        globalThis.fetch = realFetch;
      }
      // It listed the members with its token, then revoked it.
      expect(result.status).toBe(200);
      expect(await members(result.access_token)).toBe(401);
    });

    it('gets a token by the authorization code flow with PKCE, signing in with the form, and revokes it', async () => {
      const as = await discover();
      const client = { client_id: partner.client_id };
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const authorize = new URL(as.authorization_endpoint as string);
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: partner.client_id,
        redirect_uri: REDIRECT,
        scope: 'members groups',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }))
        authorize.searchParams.set(name, value);
      // The browser's part: open the sign-in page, post its form with the form token.
      const page = await http(authorize.href, { redirect: 'manual' });
      expect(page.status).toBe(200);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const html = await page.text();
      const hidden = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      expect(hidden.csrf).toBeTruthy();
      const posted = await http(`${PUBLIC_URL}/api/v1/auth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...FORM, cookie },
        body: form({
          ...Object.fromEntries(authorize.searchParams),
          csrf: hidden.csrf as string,
          email: userEmail,
          password: PASSWORD,
          decision: 'approve',
        }),
      });
      expect(posted.status).toBe(303);
      const callback = oauth.validateAuthResponse(
        as,
        client,
        new URL(posted.headers.get('location') as string),
        state,
      );
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(partner.client_secret),
        callback,
        REDIRECT,
        verifier,
        options,
      );
      const token = await oauth.processAuthorizationCodeResponse(as, client, response);
      expect(token).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'members groups' });
      expect(await members(token.access_token)).toBe(200);
      expect(await members(token.access_token)).toBe(200);

      // RFC 7009: revoked, it is refused at the next call, though this process had it cached.
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(
          as,
          client,
          oauth.ClientSecretPost(partner.client_secret),
          token.access_token,
          options,
        ),
      );
      expect(await members(token.access_token)).toBe(401);
      // Revoking it again, or a token that is not one, answers 200 as the RFC says.
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(
          as,
          client,
          oauth.ClientSecretBasic(partner.client_secret),
          token.access_token,
          options,
        ),
      );
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(
          as,
          client,
          oauth.ClientSecretBasic(partner.client_secret),
          'not-a-token',
          options,
        ),
      );
    });

    it('a token revoked by another process is refused at once here, and other tokens keep working', async () => {
      const as = await discover();
      const client = { client_id: machine.client_id };
      const get = async () =>
        oauth.processClientCredentialsResponse(
          as,
          client,
          await oauth.clientCredentialsGrantRequest(
            as,
            client,
            oauth.ClientSecretBasic(machine.client_secret),
            { scope: 'members' },
            options,
          ),
        );
      const revoked = (await get()).access_token;
      const kept = (await get()).access_token;
      for (let i = 0; i < 3; i++) expect([await members(revoked), await members(kept)]).toEqual([200, 200]);
      const other = instance.otherProcess();
      try {
        await revokeToken(
          other.kysely,
          new TokenService(other.kysely),
          new RevokedTokenCache(other.kysely, other.freshness),
          new FailureLimiter(20, () => new Date()),
          {
            contentType: 'application/x-www-form-urlencoded',
            body: { token: revoked, client_id: machine.client_id, client_secret: machine.client_secret },
            caller: 'other-process',
            authorization: undefined,
            accepts: 'basic-or-body',
          },
          new Date(),
        );
      } finally {
        await other.close();
      }
      if (dialect === 'sqlite') {
        await new Promise((resolve) => setTimeout(resolve, SQLITE_STAMP_REUSE_MS + 1));
        expect(await members(revoked)).toBe(401);
      } else {
        // The notification's arrival is the event; 20 s is only a safety net for a busy machine.
        await expect.poll(() => members(revoked), { timeout: 20_000, interval: 5 }).toBe(401);
      }
      expect(await members(kept)).toBe(200);
    });

    describe('every error of RFC 6749 section 5.2, by raw requests', () => {
      const post = (
        url: string,
        fields: Record<string, string> | string,
        headers: Record<string, string> = FORM,
      ) =>
        instance.inject({
          method: 'POST',
          url,
          headers,
          payload: typeof fields === 'string' ? fields : form(fields),
        });
      const credentials = () => ({ client_id: machine.client_id, client_secret: machine.client_secret });
      /** The RFC's error answer: JSON with exactly error and error_description, never cached. */
      const expectError = (response: Response, status: number, error: string, description: string) => {
        expect(response.statusCode, response.body).toBe(status);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers.pragma).toBe('no-cache');
        expect(response.json).toEqual({ error, error_description: description });
      };

      it('invalid_request: no grant_type, JSON, a parameter twice, two authentication methods, no token to revoke', async () => {
        expectError(
          await post('/oauth/token', credentials()),
          400,
          'invalid_request',
          'grant_type: is required',
        );
        expectError(
          await post('/oauth/token', JSON.stringify({ grant_type: 'client_credentials', ...credentials() }), {
            'content-type': 'application/json',
          }),
          400,
          'invalid_request',
          'The token request must be application/x-www-form-urlencoded',
        );
        expectError(
          await post(
            '/oauth/token',
            `grant_type=client_credentials&scope=members&scope=groups&${form(credentials())}`,
          ),
          400,
          'invalid_request',
          'scope: must be sent once',
        );
        expectError(
          await post(
            '/oauth/token',
            { grant_type: 'client_credentials', scope: 'members', ...credentials() },
            {
              ...FORM,
              authorization: basic(machine.client_id, machine.client_secret),
            },
          ),
          400,
          'invalid_request',
          'client_secret: send the credentials in the Authorization header or in the body, not both',
        );
        expectError(await post('/oauth/revoke', credentials()), 400, 'invalid_request', 'token: is required');
      });

      it('invalid_client: 401, with WWW-Authenticate when the client authenticated by header', async () => {
        const wrongBody = await post('/oauth/token', {
          grant_type: 'client_credentials',
          scope: 'members',
          client_id: machine.client_id,
          client_secret: 'wrong',
        });
        expectError(wrongBody, 401, 'invalid_client', 'Wrong client credentials');
        expect(wrongBody.headers['www-authenticate']).toBeUndefined();
        const wrongHeader = await post(
          '/oauth/token',
          { grant_type: 'client_credentials', scope: 'members' },
          {
            ...FORM,
            authorization: basic(machine.client_id, 'wrong'),
          },
        );
        expectError(wrongHeader, 401, 'invalid_client', 'Wrong client credentials');
        expect(wrongHeader.headers['www-authenticate']).toBe('Basic realm="assay"');
        const notBasic = await post(
          '/oauth/revoke',
          { token: 'x' },
          { ...FORM, authorization: 'Bearer abc' },
        );
        expectError(
          notBasic,
          401,
          'invalid_client',
          'The Authorization header must be Basic with the form-encoded client_id:client_secret',
        );
        expect(notBasic.headers['www-authenticate']).toBe('Basic realm="assay"');
        expectError(
          await post('/oauth/token', { grant_type: 'client_credentials', scope: 'members' }),
          401,
          'invalid_client',
          'client_id and client_secret are required (in a Basic Authorization header or in the request body)',
        );
      });

      it('invalid_grant, unauthorized_client, unsupported_grant_type and invalid_scope', async () => {
        const partnerBasic = { ...FORM, authorization: basic(partner.client_id, partner.client_secret) };
        expectError(
          await post(
            '/oauth/token',
            { grant_type: 'authorization_code', code: 'made-up', redirect_uri: REDIRECT },
            partnerBasic,
          ),
          400,
          'invalid_grant',
          'The code is unknown, already used or expired',
        );
        expectError(
          await post('/oauth/token', { grant_type: 'authorization_code', code: 'made-up', ...credentials() }),
          400,
          'unauthorized_client',
          'This client has no redirect URI registered, so it cannot use the authorization_code grant',
        );
        const theirs = (
          await post('/oauth/token', { grant_type: 'client_credentials', scope: 'members' }, partnerBasic)
        ).json.access_token;
        expectError(
          await post('/oauth/revoke', { token: theirs, ...credentials() }),
          400,
          'unauthorized_client',
          'token: was not issued to this client',
        );
        expect(await members(theirs)).toBe(200);
        expectError(
          await post('/oauth/token', {
            grant_type: 'password',
            username: 'a',
            password: 'b',
            ...credentials(),
          }),
          400,
          'unsupported_grant_type',
          'grant_type password: not supported',
        );
        expectError(
          await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x', ...credentials() }),
          400,
          'unsupported_grant_type',
          'grant_type refresh_token: refresh tokens are not issued: request a new token',
        );
        expectError(
          await post('/oauth/token', {
            grant_type: 'client_credentials',
            scope: 'members wishes',
            ...credentials(),
          }),
          400,
          'invalid_scope',
          'scope: unknown scope "wishes"; the scopes are members groups campaigns reports settings samples webhooks audit',
        );
        expectError(
          await post('/oauth/token', {
            grant_type: 'client_credentials',
            scope: 'members reports',
            ...credentials(),
          }),
          400,
          'invalid_scope',
          'scope: not enabled for this client: reports',
        );
      });

      it('leaves the interface endpoint as it was: JSend, credentials in the body only', async () => {
        const header = await post(
          '/api/v1/auth/access_token',
          { grant_type: 'client_credentials', scope: 'members' },
          {
            ...FORM,
            authorization: basic(machine.client_id, machine.client_secret),
          },
        );
        expect(header.statusCode).toBe(401);
        expect(header.json).toEqual({
          error: 'invalid_client',
          error_description:
            'client_id and client_secret are required (they go in the request body, not in a header)',
          message: 'client_id and client_secret are required (they go in the request body, not in a header)',
        });
        // A client that cannot use the code grant: the RFC endpoint says unauthorized_client, this
        // one the unknown code it always said.
        const code = await post('/api/v1/auth/access_token', {
          grant_type: 'authorization_code',
          code: 'made-up',
          ...credentials(),
        });
        expect([code.statusCode, code.json]).toEqual([
          400,
          {
            error: 'invalid_grant',
            error_description: 'The code is unknown, already used or expired',
            message: 'The code is unknown, already used or expired',
          },
        ]);
        const ok = await post('/api/v1/auth/access_token', {
          grant_type: 'client_credentials',
          scope: 'members',
          ...credentials(),
        });
        expect(ok.json).toEqual({
          status: 'OK',
          data: {
            access_token: expect.any(String),
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'members',
          },
        });
      });

      it('shares the guessing limit of the interface endpoint', async () => {
        // From an address of its own: the guesses use up that address's budget, not the one every
        // other test calls from, whatever their order.
        const guesser = (url: string, fields: Record<string, string>) =>
          instance.inject({
            method: 'POST',
            url,
            headers: FORM,
            payload: form(fields),
            remoteAddress: '192.0.2.1',
          });
        let response: Response | undefined;
        for (let i = 0; i < 25; i++) {
          response = await guesser('/oauth/revoke', {
            token: 'x',
            client_id: machine.client_id,
            client_secret: 'guess',
          });
          if (response.statusCode === 429) break;
        }
        expect(response?.statusCode).toBe(429);
        expect(response?.json.error).toBe('slow_down');
        expect(Number(response?.headers['retry-after'])).toBeGreaterThan(0);
        // The right secret waits too, at either endpoint.
        expect(
          (
            await guesser('/oauth/token', {
              grant_type: 'client_credentials',
              scope: 'members',
              ...credentials(),
            })
          ).statusCode,
        ).toBe(429);
        expect(
          (
            await guesser('/api/v1/auth/access_token', {
              grant_type: 'client_credentials',
              scope: 'members',
              ...credentials(),
            })
          ).statusCode,
        ).toBe(429);
      });
    });
  });
}
