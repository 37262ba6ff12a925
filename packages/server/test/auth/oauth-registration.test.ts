import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { listAuditRows } from '../../src/audit/audit.repository.js';
import { clientsOf, createUser, updateClientScopes } from '../../src/auth/auth.service.js';
import { hashPassword } from '../../src/auth/secrets.js';
import * as commands from '../../src/cli/commands.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { dialects, type Instance, type Response, startInstance } from '../helpers/instance.js';

// Issue 22, item 3: RFC 7591 dynamic client registration of public clients, and what such a client
// may do at the authorize and token endpoints; every bad input answered by the RFCs' errors and
// changing nothing. The MCP SDK's own client drives the whole flow in test/mcp/mcp-oauth.test.ts.

const PUBLIC_URL = 'https://assay.example.test';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const PASSWORD = 'correct horse battery staple';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
let address = 0;
/** A caller address of its own, so that one test's registrations do not count against another's. */
const nextCaller = () => `10.0.0.${++address}`;

for (const dialect of dialects) {
  describe(`OAuth dynamic client registration (${dialect})`, () => {
    let instance: Instance;
    let offsetMs = 0;
    let userEmail: string;

    const register = (body: unknown, caller = nextCaller(), headers: Record<string, string> = JSON_TYPE) =>
      instance.inject({
        method: 'POST',
        url: '/oauth/register',
        headers,
        remoteAddress: caller,
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const countClients = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('oauth_clients')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      instance.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { ...FORM, ...headers },
        remoteAddress: nextCaller(),
        payload: new URLSearchParams(
          Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ).toString(),
      });

    beforeAll(async () => {
      instance = await startInstance(dialect, {
        env: { ASSAY_PUBLIC_URL: PUBLIC_URL },
        clock: () => new Date(Date.now() + offsetMs),
      });
      const user = await createUser(
        instance.db.kysely,
        {
          email: 'registrar@example.test',
          firstname: 'R',
          lastname: 'User',
        },
        cliActor(),
      );
      userEmail = user.email;
      await instance.db.kysely
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', user.id)
        .execute();
    });
    afterAll(() => instance?.close());

    /** The authorize page's form, posted as the user: the redirect's URL (or the page's answer). */
    async function approve(query: Record<string, string>): Promise<{ page: Response; location?: URL }> {
      const url = `/api/v1/auth/authorize?${new URLSearchParams(query)}`;
      const page = await instance.inject({ method: 'GET', url });
      if (page.statusCode !== 200) {
        const location = page.headers.location as string | undefined;
        return { page, location: location ? new URL(location) : undefined };
      }
      const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] as string;
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
      const posted = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/authorize',
        headers: { ...FORM, cookie },
        payload: new URLSearchParams({
          ...query,
          csrf,
          email: userEmail,
          password: PASSWORD,
          decision: 'approve',
        }).toString(),
      });
      return { page, location: new URL(posted.headers.location as string) };
    }
    const pkce = () => {
      const verifier = randomBytes(32).toString('base64url');
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
    };

    it('registers a public client: 201, the metadata as registered, no secret, not cached', async () => {
      const before = await countClients();
      const answer = await register({
        redirect_uris: [REDIRECT, 'https://app.example.test/cb', REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        client_uri: 'https://app.example.test',
      });
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.json).toEqual({
        client_id: expect.any(String),
        client_id_issued_at: expect.any(Number),
        client_name: 'Unnamed application',
        redirect_uris: [REDIRECT, 'https://app.example.test/cb'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'members groups campaigns reports settings samples webhooks audit',
      });
      expect(Math.abs(answer.json.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);
      expect(await countClients()).toBe(before + 1);
      // Listed as registered for an admin, with the admin holding it until a user approves it.
      const admin = await instance.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      const listed = (await clientsOf(instance.db.kysely, admin)).find((c) => c.id === answer.json.client_id);
      expect(listed?.registration).toBe('unclaimed');
      const cli = (await commands.clients(instance.db.kysely)).find(
        (c) => c.client_id === answer.json.client_id,
      );
      expect(cli?.registration).toBe('unclaimed');
      // It has no secret to rotate.
      await expect(
        updateClientScopes(instance.db.kysely, 'operator', answer.json.client_id, undefined, cliActor()),
      ).rejects.toThrow(/registered itself and has no secret/);
    });

    it('publishes the registration endpoint and the "none" method in the metadata', async () => {
      const metadata = (
        await instance.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })
      ).json;
      expect(metadata.registration_endpoint).toBe(`${PUBLIC_URL}/oauth/register`);
      expect(metadata.token_endpoint_auth_methods_supported).toContain('none');
    });

    it('refuses every bad registration with the RFC 7591 error, storing nothing', async () => {
      const before = await countClients();
      const uris = { redirect_uris: [REDIRECT] };
      const cases: [unknown, string, RegExp, Record<string, string>?][] = [
        ['not json', 'invalid_client_metadata', /not valid JSON/],
        ['{"redirect_uris":', 'invalid_client_metadata', /not valid JSON/],
        [uris, 'invalid_client_metadata', /must be application\/json/, FORM],
        [[REDIRECT], 'invalid_client_metadata', /JSON object/],
        ['null', 'invalid_client_metadata', /JSON object/],
        [{}, 'invalid_redirect_uri', /redirect_uris: is required/],
        [{ redirect_uris: [] }, 'invalid_redirect_uri', /at least one/],
        [{ redirect_uris: REDIRECT }, 'invalid_redirect_uri', /array/],
        [
          { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.test/${i}`) },
          'invalid_redirect_uri',
          /at most 10/,
        ],
        [
          { redirect_uris: ['http://app.example.test/cb'] },
          'invalid_redirect_uri',
          /https, or http on a loopback/,
        ],
        [{ redirect_uris: ['https://app.example.test/cb#x'] }, 'invalid_redirect_uri', /fragment/],
        [{ redirect_uris: ['https://u:p@app.example.test/cb'] }, 'invalid_redirect_uri', /user name/],
        [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri', /https/],
        [{ redirect_uris: ['/callback'] }, 'invalid_redirect_uri', /not an absolute URI/],
        [{ redirect_uris: [42] }, 'invalid_redirect_uri', /non-empty string/],
        [{ redirect_uris: [`https://a.test/${'x'.repeat(2001)}`] }, 'invalid_redirect_uri', /at most 2000/],
        [
          { ...uris, token_endpoint_auth_method: 'client_secret_basic' },
          'invalid_client_metadata',
          /only "none"/,
        ],
        [
          { ...uris, token_endpoint_auth_method: 'private_key_jwt' },
          'invalid_client_metadata',
          /only "none"/,
        ],
        [{ ...uris, grant_types: ['client_credentials'] }, 'invalid_client_metadata', /"client_credentials"/],
        [{ ...uris, grant_types: ['refresh_token'] }, 'invalid_client_metadata', /authorization_code/],
        [{ ...uris, grant_types: 'authorization_code' }, 'invalid_client_metadata', /array of strings/],
        [{ ...uris, response_types: ['token'] }, 'invalid_client_metadata', /only "code"/],
        [{ ...uris, client_name: 7 }, 'invalid_client_metadata', /client_name: must be a string/],
        [{ ...uris, client_name: 'two\nlines' }, 'invalid_client_metadata', /client_name: must be one line/],
        [{ ...uris, client_name: 'x'.repeat(256) }, 'invalid_client_metadata', /client_name: at most 255/],
        [{ ...uris, scope: 'members admin' }, 'invalid_client_metadata', /unknown scope "admin"/],
        [{ ...uris, scope: ' ' }, 'invalid_client_metadata', /name at least one/],
        [{ ...uris, scope: ['members'] }, 'invalid_client_metadata', /scope: must be a string/],
      ];
      for (const [body, error, description, headers] of cases) {
        const answer = await register(body, nextCaller(), headers);
        expect({ body, status: answer.statusCode, error: answer.json.error }).toEqual({
          body,
          status: 400,
          error,
        });
        expect(answer.json.error_description).toMatch(description);
        expect(Object.keys(answer.json)).toEqual(['error', 'error_description']);
      }
      const large = await register({ ...uris, client_name: 'x'.repeat(20_000) });
      expect(large.statusCode).toBe(413);
      expect(large.json.error).toBe('invalid_client_metadata');
      expect(await countClients()).toBe(before);
    });

    it('limits registrations per caller address', async () => {
      const caller = nextCaller();
      for (let i = 0; i < 10; i++)
        expect((await register({ redirect_uris: [REDIRECT] }, caller)).statusCode).toBe(201);
      const refused = await register({ redirect_uris: [REDIRECT] }, caller);
      expect(refused.statusCode).toBe(429);
      expect(refused.json.error).toBe('slow_down');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await register({ redirect_uris: [REDIRECT] })).statusCode).toBe(201);
    });

    it('a public client: PKCE required, client_id alone at the token endpoint, resource checked', async () => {
      const registered = (
        await register({ redirect_uris: [REDIRECT], client_name: 'Agent', scope: 'members groups' })
      ).json;
      const base = {
        response_type: 'code',
        client_id: registered.client_id,
        redirect_uri: REDIRECT,
        scope: 'members',
        state: 's1',
      };
      // No code_challenge: sent back with invalid_request, no page.
      const bare = await approve(base);
      expect(bare.page.statusCode).toBe(302);
      expect(bare.location?.searchParams.get('error')).toBe('invalid_request');
      expect(bare.location?.searchParams.get('error_description')).toMatch(/code_challenge: is required/);
      const { verifier, challenge } = pkce();
      const withPkce = { ...base, code_challenge: challenge, code_challenge_method: 'S256' };
      // A resource other than this instance's.
      const elsewhere = await approve({ ...withPkce, resource: 'https://other.example.test/mcp' });
      expect(elsewhere.location?.searchParams.get('error')).toBe('invalid_target');
      // A scope the client did not register.
      const wider = await approve({ ...withPkce, scope: 'reports' });
      expect(wider.location?.searchParams.get('error')).toBe('invalid_scope');

      const approved = await approve({ ...withPkce, resource: `${PUBLIC_URL}/mcp` });
      expect(approved.page.body).toContain('registered itself with Assay');
      const code = approved.location?.searchParams.get('code') as string;
      expect(code).toBeTruthy();
      const grant = {
        grant_type: 'authorization_code',
        client_id: registered.client_id,
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        resource: `${PUBLIC_URL}/mcp`,
      };
      // Every refusal before the good request: none of them uses the code up.
      const refusals: [Record<string, string>, Record<string, string>, number, string][] = [
        [{ ...grant, resource: 'https://other.example.test/mcp' }, {}, 400, 'invalid_target'],
        [{ ...grant, client_secret: 'guess' }, {}, 401, 'invalid_client'],
        [{ ...grant, client_id: 'unknown-client' }, {}, 401, 'invalid_client'],
        // A Basic header with no secret: a public client sends none at all.
        [
          { ...grant, client_id: undefined as unknown as string },
          { authorization: `Basic ${Buffer.from(`${registered.client_id}:`).toString('base64')}` },
          401,
          'invalid_client',
        ],
        [
          { grant_type: 'client_credentials', client_id: registered.client_id, scope: 'members' },
          {},
          400,
          'unauthorized_client',
        ],
      ];
      for (const [fields, headers, status, error] of refusals) {
        const answer = await token(fields, headers);
        expect({ fields, status: answer.statusCode, error: answer.json.error }).toEqual({
          fields,
          status,
          error,
        });
      }
      // The interface's own token endpoint keeps requiring a secret: a public client is not its.
      const iface = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        headers: FORM,
        remoteAddress: nextCaller(),
        payload: new URLSearchParams({ ...grant, resource: '' }).toString(),
      });
      expect(iface.statusCode).toBe(401);
      const wrongVerifier = await token({ ...grant, code_verifier: pkce().verifier });
      expect(wrongVerifier.json.error).toBe('invalid_grant');
      // The wrong verifier used the code up (a code works once, whatever the answer).
      const again = await token(grant);
      expect(again.json.error).toBe('invalid_grant');

      const second = pkce();
      const next = await approve({
        ...base,
        code_challenge: second.challenge,
        code_challenge_method: 'S256',
      });
      const issued = await token({
        ...grant,
        code: next.location?.searchParams.get('code') as string,
        code_verifier: second.verifier,
      });
      expect(issued.statusCode).toBe(200);
      expect(issued.json).toMatchObject({ token_type: 'Bearer', scope: 'members' });
      expect(
        (await instance.call('GET', '/members', { auth: `Bearer ${issued.json.access_token}` })).statusCode,
      ).toBe(200);
      // The approving user owns it now, and it is listed as theirs.
      const user = await instance.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('email', '=', userEmail)
        .executeTakeFirstOrThrow();
      const mine = await clientsOf(instance.db.kysely, user);
      expect(mine.map((c) => [c.id, c.registration])).toContainEqual([registered.client_id, 'claimed']);
      // The claim is the approving user's, through the OAuth door, and names the field only.
      const claims = await listAuditRows(instance.db.kysely, {
        limit: 10,
        resourceType: 'client',
        resourceId: registered.client_id,
      });
      expect(
        claims
          .filter((row) => row.action === 'claim')
          .map((row) => [row.actor_type, row.actor_id, row.channel, row.fields]),
      ).toEqual([['user', user.id, 'oauth', 'user_id']]);
      // Revocation takes client_id alone as well (RFC 7009 with a public client).
      const revoked = await instance.inject({
        method: 'POST',
        url: '/oauth/revoke',
        headers: FORM,
        payload: new URLSearchParams({
          token: issued.json.access_token,
          client_id: registered.client_id,
        }).toString(),
      });
      expect(revoked.statusCode).toBe(200);
      expect(
        (await instance.call('GET', '/members', { auth: `Bearer ${issued.json.access_token}` })).statusCode,
      ).toBe(401);
    });

    it('drops registrations no one approved within a day, at a later registration', async () => {
      const old = (await register({ redirect_uris: [REDIRECT] })).json.client_id;
      offsetMs = 25 * 3600_000;
      try {
        await register({ redirect_uris: [REDIRECT] });
      } finally {
        offsetMs = 0;
      }
      const left = await instance.db.kysely
        .selectFrom('oauth_clients')
        .select('id')
        .where('id', '=', old)
        .executeTakeFirst();
      expect(left).toBeUndefined();
      // In the audit log: registered by its caller, dropped by the housekeeping.
      const entries = await listAuditRows(instance.db.kysely, {
        limit: 10,
        resourceType: 'client',
        resourceId: old,
      });
      expect(entries.map((row) => [row.action, row.actor_type, row.channel]).reverse()).toEqual([
        ['register', 'anonymous', 'oauth'],
        ['delete', 'system', 'scheduler'],
      ]);
    });
  });
}

describe('switching registration off', () => {
  it('reads ASSAY_OAUTH_REGISTRATION: on by default, off, or a clear error', () => {
    expect(loadConfig({}).oauthRegistration).toBe(true);
    expect(loadConfig({ ASSAY_OAUTH_REGISTRATION: 'off' }).oauthRegistration).toBe(false);
    expect(() => loadConfig({ ASSAY_OAUTH_REGISTRATION: 'no' })).toThrow(ConfigError);
    expect(() => loadConfig({ ASSAY_OAUTH_REGISTRATION: 'no' })).toThrow(/must be on or off, got "no"/);
  });

  it('answers 404 and leaves the endpoint out of the metadata when off', async () => {
    const instance = await startInstance('sqlite', { env: { ASSAY_OAUTH_REGISTRATION: 'off' } });
    try {
      const answer = await instance.inject({
        method: 'POST',
        url: '/oauth/register',
        headers: JSON_TYPE,
        payload: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
      expect(answer.statusCode).toBe(404);
      const metadata = (
        await instance.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })
      ).json;
      expect(metadata).not.toHaveProperty('registration_endpoint');
    } finally {
      await instance.close();
    }
  });
});
