import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { errorPage, signInPage } from './authorize.page.js';
import { authorizeParams, checkAuthorizeRequest, decide } from './authorize.service.js';

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(body);

/** {base_url}/auth/authorize: the Authorization Code flow, where a platform user signs in and approves. */
export async function authorizeRoutes(app: FastifyInstance, { db, signInLimiter }: AppContext) {
  // The sign-in page posts a form; the parser is registered in this scope only.
  await app.register(formbody);
  const schema = { tags: ['auth'], summary: 'Authorization Code flow: sign in and approve (HTML)' };
  const noValidation = { validatorCompiler: () => (value: unknown) => ({ value }) };

  app.get('/auth/authorize', { schema, ...noValidation }, async (request, reply) => {
    const check = await checkAuthorizeRequest(db, authorizeParams(request.query));
    if (check.kind === 'page-error') return html(reply, 400, errorPage(check.message));
    if (check.kind === 'redirect') return reply.headers(SECURITY_HEADERS).redirect(check.location, 302);
    return html(
      reply,
      200,
      signInPage({ clientName: check.client.name, scopes: check.scopes, params: check.params }),
    );
  });

  app.post('/auth/authorize', { schema, ...noValidation }, async (request, reply) => {
    const form = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    const check = await checkAuthorizeRequest(db, authorizeParams(form));
    if (check.kind === 'page-error') return html(reply, 400, errorPage(check.message));
    if (check.kind === 'redirect') return reply.headers(SECURITY_HEADERS).redirect(check.location, 303);
    const email = typeof form.email === 'string' ? form.email : undefined;
    const decision = await decide(db, signInLimiter, check, {
      email,
      password: typeof form.password === 'string' ? form.password : undefined,
      approve: form.decision !== 'deny',
      caller: request.ip,
    });
    if (decision.kind === 'redirect') return reply.headers(SECURITY_HEADERS).redirect(decision.location, 303);
    return html(
      reply,
      decision.status,
      signInPage({
        clientName: check.client.name,
        scopes: check.scopes,
        params: check.params,
        error: decision.message,
        email,
      }),
    );
  });
}
