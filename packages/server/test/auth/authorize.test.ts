import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedClient } from '../../src/auth/auth.service.js';
import { createClient, createUser } from '../../src/auth/auth.service.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

const REDIRECT = 'https://app.example.test/callback';
const PASSWORD = 'correct horse battery staple';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

for (const dialect of dialects) {
  describe(`Authorization Code flow (${dialect})`, () => {
    let instance: Instance;
    let client: IssuedClient;
    let userEmail: string;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorizeQuery = (extra: Record<string, string> = {}) => ({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'members groups',
      state: 'xyz',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    const signIn = (fields: Record<string, string>) =>
      instance.inject({
        method: 'POST',
        url: '/api/v1/auth/authorize',
        headers: FORM,
        payload: form(fields),
      });
    /** The token request for a code; `redirect: false` leaves redirect_uri out. */
    const exchange = (fields: Record<string, string>, { redirect = true } = {}) =>
      instance.inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        headers: FORM,
        payload: form({
          grant_type: 'authorization_code',
          client_id: client.client_id,
          client_secret: client.client_secret,
          ...(redirect ? { redirect_uri: REDIRECT } : {}),
          ...fields,
        }),
      });
    const codeFrom = (location: unknown) => new URL(String(location)).searchParams.get('code') as string;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      const { hashPassword } = await import('../../src/auth/secrets.js');
      userEmail = 'signer@example.test';
      const user = await createUser(instance.db.kysely, {
        email: userEmail,
        firstname: 'Sig',
        lastname: 'Ner',
      });
      await instance.db.kysely
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', user.id)
        .execute();
      client = await createClient(instance.db.kysely, {
        name: 'Partner app',
        userId: user.id,
        scopes: ['members', 'groups', 'reports'],
        redirectUris: [REDIRECT],
      });
    });
    afterAll(() => instance.close());

    it('shows an accessible sign-in page that names the application and the scopes', async () => {
      const response = await instance.inject({
        method: 'GET',
        url: `/api/v1/auth/authorize?${form(authorizeQuery())}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.body).toContain('Partner app');
      expect(response.body).toContain('members, groups');
      expect(response.body).toContain('<label for="password">');
      expect(response.body).toContain('name="code_challenge"');
    });

    it('signs in, sends a code back with the state, and exchanges it once for a token of the approved scopes', async () => {
      const response = await signIn({
        ...authorizeQuery(),
        email: userEmail,
        password: PASSWORD,
        decision: 'approve',
      });
      // 303 after the credentials' POST (RFC 9700 section 4.12): the browser does not post them on.
      expect(response.statusCode).toBe(303);
      const location = new URL(String(response.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('state')).toBe('xyz');
      const code = codeFrom(response.headers.location);
      const token = await exchange({ code, code_verifier: verifier });
      expect(token.statusCode).toBe(200);
      expect(token.json.data).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'members groups',
      });
      const members = await instance.call('GET', '/members', {
        auth: `Bearer ${token.json.data.access_token}`,
      });
      expect(members.statusCode).toBe(200);
      const again = await exchange({ code, code_verifier: verifier });
      expect([again.statusCode, again.json.error]).toEqual([400, 'invalid_grant']);
    });

    it('refuses a wrong verifier, a wrong redirect_uri and a wrong client', async () => {
      const newCode = async () =>
        codeFrom(
          (await signIn({ ...authorizeQuery(), email: userEmail, password: PASSWORD, decision: 'approve' }))
            .headers.location,
        );
      expect((await exchange({ code: await newCode(), code_verifier: 'x'.repeat(43) })).json.error).toBe(
        'invalid_grant',
      );
      expect(
        (
          await exchange({
            code: await newCode(),
            code_verifier: verifier,
            redirect_uri: 'https://evil.example/cb',
          })
        ).json.error,
      ).toBe('invalid_grant');
      const other = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/access_token',
        headers: FORM,
        payload: form({
          grant_type: 'authorization_code',
          client_id: instance.client.client_id,
          client_secret: instance.client.client_secret,
          redirect_uri: REDIRECT,
          code: await newCode(),
          code_verifier: verifier,
        }),
      });
      expect(other.json.error).toBe('invalid_grant');
    });

    it('shows the page again with a message for a wrong password, and sends access_denied for a refusal', async () => {
      const wrong = await signIn({
        ...authorizeQuery(),
        email: userEmail,
        password: 'not it',
        decision: 'approve',
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('There is a problem');
      expect(wrong.body).toContain(`value="${userEmail}"`);
      const denied = await signIn({ ...authorizeQuery(), decision: 'deny' });
      expect(denied.statusCode).toBe(303);
      const location = new URL(String(denied.headers.location));
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('xyz');
    });

    it('never redirects to an unregistered address or for an unknown client', async () => {
      for (const query of [
        authorizeQuery({ redirect_uri: 'https://evil.example/cb' }),
        authorizeQuery({ client_id: 'nobody' }),
      ]) {
        const response = await instance.inject({
          method: 'GET',
          url: `/api/v1/auth/authorize?${form(query)}`,
        });
        expect(response.statusCode).toBe(400);
        expect(response.headers.location).toBeUndefined();
        expect(response.body).toContain('Cannot sign in');
      }
    });

    it('sends request errors back to the registered address', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ response_type: 'token' }, 'unsupported_response_type'],
        [{ scope: 'campaigns' }, 'invalid_scope'],
        [{ code_challenge_method: 'plain' }, 'invalid_request'],
        [{ response_type: '' }, 'invalid_request'],
      ];
      for (const [extra, error] of cases) {
        const response = await instance.inject({
          method: 'GET',
          url: `/api/v1/auth/authorize?${form(authorizeQuery(extra))}`,
        });
        expect(response.statusCode).toBe(302);
        expect(new URL(String(response.headers.location)).searchParams.get('error')).toBe(error);
      }
    });

    it('escapes what it shows back', async () => {
      const response = await instance.inject({
        method: 'GET',
        url: `/api/v1/auth/authorize?${form(authorizeQuery({ state: '"><script>alert(1)</script>' }))}`,
      });
      expect(response.body).not.toContain('<script>alert(1)</script>');
      expect(response.body).toContain('&#34;&#62;&#60;script&#62;');
    });

    it('refuses a parameter sent twice, and never redirects when it is redirect_uri', async () => {
      const twice = await instance.inject({
        method: 'GET',
        url: `/api/v1/auth/authorize?${form(authorizeQuery())}&scope=members`,
      });
      expect(twice.statusCode).toBe(302);
      const location = new URL(String(twice.headers.location));
      expect([location.searchParams.get('error'), location.searchParams.get('state')]).toEqual([
        'invalid_request',
        'xyz',
      ]);
      const redirect = await instance.inject({
        method: 'GET',
        url: `/api/v1/auth/authorize?${form(authorizeQuery())}&redirect_uri=${encodeURIComponent('https://evil.example/')}`,
      });
      expect(redirect.statusCode).toBe(400);
      expect(redirect.headers.location).toBeUndefined();
    });

    it('posts the form back to the address it was shown at, with or without a trailing slash', async () => {
      for (const path of ['/api/v1/auth/authorize', '/api/v1/auth/authorize/']) {
        const page = await instance.inject({ method: 'GET', url: `${path}?${form(authorizeQuery())}` });
        expect(page.body).toContain('<form method="post">');
        const posted = await instance.inject({
          method: 'POST',
          url: `${path}?${form(authorizeQuery())}`,
          headers: FORM,
          payload: form({ ...authorizeQuery(), email: userEmail, password: PASSWORD, decision: 'approve' }),
        });
        expect(posted.statusCode, path).toBe(303);
      }
      const headers = (
        await instance.inject({ method: 'GET', url: `/api/v1/auth/authorize?${form(authorizeQuery())}` })
      ).headers;
      expect(headers['content-security-policy']).toContain("form-action 'self'");
      expect(headers['x-content-type-options']).toBe('nosniff');
    });

    it('asks for redirect_uri at the token endpoint only when the authorization request named it', async () => {
      const { redirect_uri: _omitted, ...withoutRedirect } = authorizeQuery();
      const approved = await signIn({
        ...withoutRedirect,
        email: userEmail,
        password: PASSWORD,
        decision: 'approve',
      });
      const code = codeFrom(approved.headers.location);
      const response = await exchange({ code, code_verifier: verifier }, { redirect: false });
      expect(response.statusCode, response.body).toBe(200);
      // Named at authorization, it must be repeated.
      const named = codeFrom(
        (await signIn({ ...authorizeQuery(), email: userEmail, password: PASSWORD })).headers.location,
      );
      const missing = await exchange({ code: named, code_verifier: verifier }, { redirect: false });
      expect([missing.statusCode, missing.json.error]).toEqual([400, 'invalid_grant']);
    });

    it('refuses a verifier for a code issued without a challenge, and a malformed verifier', async () => {
      const { code_challenge: _c, code_challenge_method: _m, ...plain } = authorizeQuery();
      const noChallenge = codeFrom(
        (await signIn({ ...plain, email: userEmail, password: PASSWORD })).headers.location,
      );
      const downgrade = await exchange({ code: noChallenge, code_verifier: verifier });
      expect([downgrade.statusCode, downgrade.json.error]).toEqual([400, 'invalid_grant']);
      expect(downgrade.json.error_description).toContain('no code_challenge');

      const shortVerifier = 'short';
      const shortChallenge = createHash('sha256').update(shortVerifier).digest('base64url');
      const code = codeFrom(
        (
          await signIn({
            ...authorizeQuery({ code_challenge: shortChallenge }),
            email: userEmail,
            password: PASSWORD,
          })
        ).headers.location,
      );
      const malformed = await exchange({ code, code_verifier: shortVerifier });
      expect([malformed.statusCode, malformed.json.error]).toEqual([400, 'invalid_grant']);
    });

    it('limits password guesses on their own, without holding up the token endpoint', async () => {
      const limited = await startInstance(dialect, { env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '2' } });
      try {
        const { id } = await limited.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
        const own = await createClient(limited.db.kysely, {
          name: 'Limited app',
          userId: id,
          scopes: ['members'],
          redirectUris: [REDIRECT],
        });
        const guess = () =>
          limited.inject({
            method: 'POST',
            url: '/api/v1/auth/authorize',
            headers: FORM,
            payload: form({
              ...authorizeQuery({ client_id: own.client_id, scope: 'members' }),
              email: 'admin@example.test',
              password: 'wrong password',
            }),
          });
        for (let i = 0; i < 2; i++) expect((await guess()).statusCode).toBe(401);
        expect((await guess()).statusCode).toBe(429);
        // The machine client at the same address still gets its token.
        expect(await limited.token('members')).toMatch(/^ey/);
      } finally {
        await limited.close();
      }
    });

    it('forgets codes past their lifetime when it issues a new one', async () => {
      await instance.db.kysely
        .insertInto('oauth_codes')
        .values({
          code_hash: 'f'.repeat(64),
          client_id: client.client_id,
          user_id: (
            await instance.db.kysely
              .selectFrom('users')
              .select('id')
              .where('email', '=', userEmail)
              .executeTakeFirstOrThrow()
          ).id,
          redirect_uri: REDIRECT,
          redirect_given: 1,
          scopes: 'members',
          code_challenge: null,
          expires: '2020-01-01T00:00:00+00:00',
          used: null,
          created: '2020-01-01T00:00:00+00:00',
        })
        .execute();
      await signIn({ ...authorizeQuery(), email: userEmail, password: PASSWORD });
      const stale = await instance.db.kysely
        .selectFrom('oauth_codes')
        .select('code_hash')
        .where('code_hash', '=', 'f'.repeat(64))
        .execute();
      expect(stale).toEqual([]);
    });
  });
}
