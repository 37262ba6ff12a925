import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consoleActor } from '../audit/actor.js';
import { sessionCookieHeader, sessionSecretOf } from '../console/console-kit.js';
import { currentSession, startSession } from '../console/sessions.service.js';
import type { AppContext } from '../context.js';
import { fieldsOf } from '../http/route-schema.js';
import { checkCsrf, csrfToken, PAGE_CSP, setPageHeaders } from '../pages/security.js';
import type { UserRow } from './auth.table.js';
import { errorPage, expiredPage, signInAssets, signInPage } from './authorize.page.js';
import { type AuthorizeCheck, authorizeParams, checkAuthorizeRequest, decide } from './authorize.service.js';
import { targetResources } from './resources.js';

/** PAGE_CSP with more sources after `'self'` in one directive. */
const allowing = (csp: string, directive: string, sources: (string | undefined)[]) => {
  const extra = sources.filter((source): source is string => source !== undefined);
  return extra.length === 0
    ? csp
    : csp.replace(`${directive} 'self'`, `${directive} 'self' ${extra.join(' ')}`);
};

/**
 * The CSP source of where a redirect URI leads: its origin when that can be written as a CSP
 * host-source (letters, digits, dots and dashes, an optional port), else its scheme (`http:` for
 * an IPv6 literal, `com.example.app:` for a native app's own scheme).
 */
export function redirectSource(uri: string): string {
  const url = new URL(uri);
  return /^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/.test(url.origin) ? url.origin : url.protocol;
}

/** {base_url}/auth/authorize: the Authorization Code flow, where a platform user signs in and approves. */
export async function authorizeRoutes(
  app: FastifyInstance,
  { db, signInLimiter, config, clock }: AppContext,
) {
  // The sign-in page posts a form; the parser is registered in this scope only.
  await app.register(formbody);
  // Public: the page checks the client, the user's password and the CSRF token itself.
  const options = {
    schema: { tags: ['auth'], summary: 'Authorization Code flow: sign in and approve (HTML)' },
    config: { guard: 'public' as const },
    validatorCompiler: () => (value: unknown) => ({ value }),
  };
  const { assets, styleOrigin } = signInAssets(config);
  const secure = config.publicUrl.startsWith('https:');
  const idleMs = config.consoleIdleMinutes * 60_000;
  const pageCsp = allowing(PAGE_CSP, 'style-src', [styleOrigin]);
  const resources = targetResources(config.publicUrl);

  // The participant pages' headers on every answer of this scope, redirects included.
  app.addHook('onRequest', async (_request, reply) => {
    setPageHeaders(reply);
    reply.header('content-security-policy', pageCsp);
    // Applications often open the sign-in in a popup and wait on it through window.opener, which
    // a same-origin opener policy would cut: this page, unlike the participant pages, keeps it.
    reply.removeHeader('cross-origin-opener-policy');
  });

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').send(body);

  /** The user this browser is signed in as (the console's session), if any. */
  const sessionUser = async (request: FastifyRequest) =>
    (await currentSession(db, sessionSecretOf(request, secure), clock(), idleMs))?.user;

  const signIn = (
    reply: FastifyReply,
    status: number,
    check: Extract<AuthorizeCheck, { kind: 'sign-in' }>,
    csrf: string,
    retry?: { error: string; email?: string },
    signedIn?: Pick<UserRow, 'email' | 'role'>,
  ) => {
    // Chrome and Safari check form-action against the redirect a form's POST answers too, and this
    // form ends in a 303 to the application's registered redirect URI: that one address is allowed
    // beside 'self', or the browser would refuse to deliver the code (or the refusal).
    reply.header(
      'content-security-policy',
      allowing(pageCsp, 'form-action', [redirectSource(check.redirectUri)]),
    );
    return html(
      reply,
      status,
      signInPage(
        {
          clientName: check.client.name,
          registered: check.client.registration !== null,
          scopes: check.scopes,
          params: check.params,
          csrf,
          signedInAs: signedIn?.email,
          role: signedIn?.role,
          ...retry,
        },
        assets,
      ),
    );
  };

  app.get('/auth/authorize', options, async (request, reply) => {
    const check = await checkAuthorizeRequest(db, authorizeParams(request.query), resources);
    if (check.kind === 'page-error') return html(reply, 400, errorPage(check.message, assets));
    if (check.kind === 'redirect') return reply.redirect(check.location, 302);
    const user = await sessionUser(request);
    return signIn(reply, 200, check, csrfToken(request, reply, secure), undefined, user);
  });

  app.post('/auth/authorize', options, async (request, reply) => {
    const form = fieldsOf(request.body);
    const params = authorizeParams(form);
    // Before anything else: a form from another site (or an expired one) neither signs in, nor
    // counts as a guess, nor sends anything back to the application.
    if (!checkCsrf(request, form.csrf, secure)) return html(reply, 403, expiredPage(params, assets));
    const check = await checkAuthorizeRequest(db, params, resources);
    if (check.kind === 'page-error') return html(reply, 400, errorPage(check.message, assets));
    if (check.kind === 'redirect') return reply.redirect(check.location, 303);
    const email = typeof form.email === 'string' ? form.email : undefined;
    const session = await sessionUser(request);
    const decision = await decide(db, signInLimiter, check, {
      email,
      password: typeof form.password === 'string' && form.password !== '' ? form.password : undefined,
      approve: form.decision !== 'deny',
      caller: request.ip,
      session,
    });
    if (decision.kind === 'redirect') {
      // One sign-in for the whole instance: a password proved here opens the console too.
      if (decision.signedIn) {
        const secret = await startSession(db, consoleActor(decision.signedIn.id, request.ip), clock());
        reply.header('set-cookie', sessionCookieHeader(secure, secret));
      }
      return reply.redirect(decision.location, 303);
    }
    return signIn(reply, decision.status, check, csrfToken(request, reply, secure), {
      error: decision.message,
      email,
    });
  });
}
