import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import type { IssuedClient } from '../../src/auth/auth.service.js';
import { createClient, createUser } from '../../src/auth/auth.service.js';
import { redirectSource } from '../../src/auth/authorize.routes.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

const REDIRECT = 'https://app.example.test/callback';
/** The participant pages' CSP, with the application's redirect origin allowed as a form's destination. */
const SIGN_IN_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' https://app.example.test; frame-ancestors 'none'; base-uri 'none'";
const PASSWORD = 'correct horse battery staple';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const CREDENTIALS = new Set(['email', 'password', 'decision']);

/** What a browser keeps from the sign-in page: the form-token cookie and the form's own copy. */
interface Browser {
  cookie: string;
  csrf: string;
}

/** Opens the sign-in page for the request's parameters, as a browser would before posting the form. */
async function openPage(target: Instance, fields: Record<string, string>, path = '/api/v1/auth/authorize') {
  const query = Object.fromEntries(Object.entries(fields).filter(([name]) => !CREDENTIALS.has(name)));
  const page = await target.inject({ method: 'GET', url: `${path}?${form(query)}` });
  expect(page.statusCode, page.body).toBe(200);
  const cookie = String(page.headers['set-cookie']).split(';')[0] as string;
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
  expect(cookie).toMatch(/^assay_csrf=[A-Za-z0-9_-]{43}$/);
  expect(csrf).toBe(cookie.slice('assay_csrf='.length));
  return { page, browser: { cookie, csrf } as Browser };
}

/** Posts the sign-in form with the browser's cookie and form token. */
const post = (
  target: Instance,
  browser: Browser,
  fields: Record<string, string>,
  url = '/api/v1/auth/authorize',
) =>
  target.inject({
    method: 'POST',
    url,
    headers: { ...FORM, cookie: browser.cookie },
    payload: form({ ...fields, csrf: browser.csrf }),
  });

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
    /** Opens the sign-in page, then posts its form. */
    const signIn = async (fields: Record<string, string>) =>
      post(instance, (await openPage(instance, fields)).browser, fields);
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
      const user = await createUser(
        instance.db.kysely,
        {
          email: userEmail,
          firstname: 'Sig',
          lastname: 'Ner',
        },
        cliActor(),
      );
      await instance.db.kysely
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', user.id)
        .execute();
      client = await createClient(
        instance.db.kysely,
        {
          name: 'Partner app',
          userId: user.id,
          scopes: ['members', 'groups', 'reports'],
          redirectUris: [REDIRECT],
        },
        cliActor(),
      );
    });
    afterAll(() => instance.close());

    /** The stylesheet link of a page, as the browser reads it. */
    const stylesheetOf = (body: string) =>
      (/<link rel="stylesheet" href="([^"]+)">/.exec(body)?.[1] ?? '').replaceAll('&#x3D;', '=');
    const codeCount = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('oauth_codes')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

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
      expect(response.body).toMatch(/<label class="label" for="password">Password<\/label>/);
      expect(response.body).toMatch(/<input [^>]*id="password" name="password" type="password"/);
      expect(response.body).toContain('>Sign in and allow</button>');
      expect(response.body).toContain('>Deny</button>');
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
      expect(wrong.body).toContain('<title>Error: Sign in – Assay</title>');
      expect(wrong.body).toContain(
        '<a href="#password">The e-mail address or the password is not right.</a>',
      );
      expect(wrong.body).toContain(`value="${userEmail}"`);
      const denied = await signIn({ ...authorizeQuery(), decision: 'deny' });
      expect(denied.statusCode).toBe(303);
      const location = new URL(String(denied.headers.location));
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('xyz');
    });

    it('answers with the page headers: no inline style, no framing, no referrer, forms to itself and the application', async () => {
      const { page } = await openPage(instance, authorizeQuery());
      expect(page.headers['content-security-policy']).toBe(SIGN_IN_CSP);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).not.toMatch(/<style|style=|<script/i);
      const unknown = await instance.inject({
        method: 'GET',
        url: `/api/v1/auth/authorize?${form(authorizeQuery({ client_id: 'nobody' }))}`,
      });
      expect(unknown.statusCode).toBe(400);
      const csp = String(unknown.headers['content-security-policy']);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("form-action 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(unknown.body).not.toMatch(/<style|style=/i);
      const wrong = await signIn({ ...authorizeQuery(), email: userEmail, password: 'not it' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['content-security-policy']).toBe(SIGN_IN_CSP);
    });

    it('links a stylesheet that the instance serves', async () => {
      const { page } = await openPage(instance, authorizeQuery());
      const href = stylesheetOf(page.body);
      expect(href).toMatch(/^\/assets\/assay\.css\?v=[0-9a-f]{12}$/);
      const css = await instance.inject({ method: 'GET', url: href });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toContain('text/css');
    });

    it("refuses a form without this browser's token with 403, and changes nothing", async () => {
      const { browser } = await openPage(instance, authorizeQuery());
      // Another browser: the page opened without a cookie, so with a token of its own.
      const { browser: other } = await openPage(instance, authorizeQuery());
      expect(other.csrf).not.toBe(browser.csrf);
      const before = await codeCount();
      const approve = { ...authorizeQuery(), email: userEmail, password: PASSWORD, decision: 'approve' };
      const attempts = [
        { headers: FORM, payload: form(approve) },
        { headers: { ...FORM, cookie: browser.cookie }, payload: form(approve) },
        { headers: FORM, payload: form({ ...approve, csrf: browser.csrf }) },
        { headers: { ...FORM, cookie: browser.cookie }, payload: form({ ...approve, csrf: other.csrf }) },
        { headers: { ...FORM, cookie: browser.cookie }, payload: form({ ...approve, csrf: '' }) },
        {
          headers: { ...FORM, cookie: browser.cookie },
          payload: `${form({ ...approve, csrf: browser.csrf })}&csrf=${browser.csrf}`,
        },
        { headers: FORM, payload: form({ ...authorizeQuery(), decision: 'deny' }) },
      ];
      for (const [index, attempt] of attempts.entries()) {
        const response = await instance.inject({ method: 'POST', url: '/api/v1/auth/authorize', ...attempt });
        expect(response.statusCode, `attempt ${index}`).toBe(403);
        expect(response.headers.location, `attempt ${index}`).toBeUndefined();
        expect(response.headers['content-type']).toContain('text/html');
        expect(response.headers['content-security-policy']).not.toContain('unsafe-inline');
        expect(response.body).toContain('<h1 class="heading-l">The sign-in form has expired</h1>');
        expect(response.body).toContain('>Go back to the sign-in page</a>');
      }
      expect(await codeCount()).toBe(before);
      // The link opens the same request's sign-in page again.
      const last = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/authorize',
        headers: FORM,
        payload: form(approve),
      });
      const link = (/<a class="link" href="([^"]+)">/.exec(last.body)?.[1] ?? '')
        .replaceAll('&#x3D;', '=')
        .replaceAll('&amp;', '&');
      expect(link.startsWith('?')).toBe(true);
      const again = await instance.inject({ method: 'GET', url: `/api/v1/auth/authorize${link}` });
      expect(again.statusCode).toBe(200);
      expect(again.body).toContain(`name="code_challenge" value="${challenge}"`);
      // With the token, the same form goes through.
      expect((await post(instance, browser, approve)).statusCode).toBe(303);
      expect(await codeCount()).toBe(before + 1);
    });

    it('links the stylesheet on the questionnaire address when that is another origin or path', async () => {
      for (const [questionnaireUrl, expected, styleSrc] of [
        [
          'https://survey.example.test/take/',
          /^https:\/\/survey\.example\.test\/take\/assets\/assay\.css\?v=[0-9a-f]{12}$/,
          "style-src 'self' https://survey.example.test;",
        ],
        ['http://localhost:8080/take', /^\/take\/assets\/assay\.css\?v=[0-9a-f]{12}$/, "style-src 'self';"],
      ] as const) {
        const other = await startInstance(dialect, { env: { ASSAY_QUESTIONNAIRE_URL: questionnaireUrl } });
        try {
          const { id } = await other.db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
          const own = await createClient(
            other.db.kysely,
            {
              name: 'Styled app',
              userId: id,
              scopes: ['members'],
              redirectUris: [REDIRECT],
            },
            cliActor(),
          );
          const { page } = await openPage(
            other,
            authorizeQuery({ client_id: own.client_id, scope: 'members' }),
          );
          expect(String(page.headers['content-security-policy'])).toContain(styleSrc);
          const href = stylesheetOf(page.body);
          expect(href).toMatch(expected);
          const url = new URL(href, questionnaireUrl);
          const css = await other.inject({
            method: 'GET',
            url: `${url.pathname}${url.search}`,
            headers: { host: url.host },
          });
          expect(css.statusCode, questionnaireUrl).toBe(200);
          expect(css.headers['content-type']).toContain('text/css');
        } finally {
          await other.close();
        }
      }
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
      expect(response.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
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
        const { page, browser } = await openPage(instance, authorizeQuery(), path);
        expect(page.body).toContain('<form method="post">');
        const posted = await post(
          instance,
          browser,
          { ...authorizeQuery(), email: userEmail, password: PASSWORD, decision: 'approve' },
          `${path}?${form(authorizeQuery())}`,
        );
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
        const own = await createClient(
          limited.db.kysely,
          {
            name: 'Limited app',
            userId: id,
            scopes: ['members'],
            redirectUris: [REDIRECT],
          },
          cliActor(),
        );
        const query = authorizeQuery({ client_id: own.client_id, scope: 'members' });
        const { browser } = await openPage(limited, query);
        // Forms without the token are refused before the password is looked at: no guess counted.
        for (let i = 0; i < 3; i++) {
          const forged = await limited.inject({
            method: 'POST',
            url: '/api/v1/auth/authorize',
            headers: FORM,
            payload: form({ ...query, email: 'admin@example.test', password: 'wrong password' }),
          });
          expect(forged.statusCode).toBe(403);
        }
        const guess = () =>
          post(limited, browser, { ...query, email: 'admin@example.test', password: 'wrong password' });
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

describe('the form-action source of a redirect URI', () => {
  it('is the origin, or the scheme when the origin is no CSP host-source', () => {
    expect(redirectSource('https://app.example.test/callback?x=1')).toBe('https://app.example.test');
    expect(redirectSource('http://127.0.0.1:5000/cb')).toBe('http://127.0.0.1:5000');
    expect(redirectSource('https://App.Example.test:443/cb')).toBe('https://app.example.test');
    expect(redirectSource('http://[::1]:8080/cb')).toBe('http:');
    expect(redirectSource('https://a;b.example/cb')).toBe('https:');
    expect(redirectSource('com.example.app:/oauth')).toBe('com.example.app:');
  });
});
