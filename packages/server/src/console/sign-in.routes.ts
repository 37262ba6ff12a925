import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { anonymousActor, consoleActor } from '../audit/actor.js';
import { checkPassword } from '../auth/password-sign-in.js';
import type { AppContext } from '../context.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { checkCsrf, csrfToken } from '../pages/security.js';
import { isLanguage } from '../variants/variant.types.js';
import {
  clearedSessionCookie,
  consoleActorOf,
  languageCookieHeader,
  languageOf,
  sessionCookieHeader,
  sessionCsrfMatches,
  showConsole,
  showWait,
  viewerOf,
} from './console-kit.js';
import {
  chooseLanguage,
  endSession,
  openSignInLink,
  recordRefusedSignIn,
  redeemSignInLink,
  startSession,
  sweepIdleSessions,
} from './sessions.service.js';
import { type ConsoleStrings, consoleStrings } from './strings.js';
import { consoleMessage, formExpiredView } from './views/console-view.js';
import { safeNext, signInLinkView, signInView, waitView } from './views/sign-in.view.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Signing in and out of the console, and its language. */
export async function signInRoutes(app: ApiInstance, { db, config, clock, signInLimiter }: AppContext) {
  const secure = config.publicUrl.startsWith('https:');
  const open = { config: { console: 'public' as const } };

  app.get(
    '/sign-in',
    { ...open, schema: { querystring: Type.Object({ next: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const next = safeNext(request.query.next);
      if (request.operator) return reply.redirect(next, 303);
      const csrf = csrfToken(request, reply, secure);
      return showConsole(reply, 200, signInView(viewerOf(request), { next, csrf }));
    },
  );

  app.post('/sign-in', open, async (request, reply) => {
    const form = fieldsOf(request.body);
    const next = safeNext(form.next);
    const viewer = viewerOf(request);
    // A form from another site (or an old one) neither signs in nor counts as a guess.
    if (!checkCsrf(request, form.csrf, secure)) {
      const back = (c: ConsoleStrings) => ({
        href: `/console/sign-in?${new URLSearchParams({ next })}`,
        text: c.signInAgain,
      });
      return showConsole(reply, 403, formExpiredView(viewer, back));
    }
    const email = text(form.email)?.slice(0, 320);
    const password = text(form.password);
    if (!password) {
      const csrf = csrfToken(request, reply, secure);
      return showConsole(
        reply,
        400,
        signInView(viewer, { next, csrf, email, problem: { kind: 'no-password' } }),
      );
    }
    const check = await checkPassword(db, signInLimiter, { email, password, caller: request.ip });
    if (!check.ok) {
      await recordRefusedSignIn(db, anonymousActor(request.ip, 'console'));
      const csrf = csrfToken(request, reply, secure);
      if (check.reason === 'wait') {
        const problem = { kind: 'wait' as const, seconds: check.seconds };
        return showWait(reply, check.seconds, signInView(viewer, { next, csrf, email, problem }));
      }
      return showConsole(reply, 401, signInView(viewer, { next, csrf, email, problem: { kind: 'wrong' } }));
    }
    // Sessions others left idle are forgotten now and then: here, where one is made.
    await sweepIdleSessions(db, clock(), config.consoleIdleMinutes * 60_000);
    const chosen = languageOf(request);
    const secret = await startSession(
      db,
      consoleActor(check.user.id, request.ip),
      clock(),
      isLanguage(chosen) ? chosen : null,
    );
    reply.header('set-cookie', sessionCookieHeader(secure, secret));
    return reply.redirect(next, 303);
  });

  /** The page of a one-time link that opens nothing (used, expired, made up). */
  const linkUsed = (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = viewerOf(request);
    const c = consoleStrings(viewer.language);
    return showConsole(
      reply,
      404,
      consoleMessage(viewer, c.linkUsedTitle, [c.linkUsedBody], { href: '/console/sign-in', text: c.signIn }),
    );
  };
  const linkOptions = {
    ...open,
    schema: { params: Type.Object({ secret: Type.String({ maxLength: 100 }) }) },
  };

  // The one-time link the first start prints: it signs the admin in once, within 24 hours. Its GET
  // only shows a button (mail and chat scanners fetch every link, and would use it up); the
  // button's POST uses it. On either, a link that opens nothing is a guess, counted against the
  // caller's sign-in budget as a wrong password.
  app.get('/sign-in/link/:secret', linkOptions, async (request, reply) => {
    const { secret } = request.params;
    const guess = await signInLimiter.guess(request.ip, () => openSignInLink(db, secret, clock()));
    if (guess.wait !== undefined) return showWait(reply, guess.wait, waitView(viewerOf(request), guess.wait));
    if (!guess.found) return linkUsed(request, reply);
    const action = `/console/sign-in/link/${encodeURIComponent(secret)}`;
    const csrf = csrfToken(request, reply, secure);
    return showConsole(
      reply,
      200,
      signInLinkView(viewerOf(request), { action, csrf, email: guess.found.email }),
    );
  });

  app.post('/sign-in/link/:secret', linkOptions, async (request, reply) => {
    const { secret } = request.params;
    // A form from another site (or an old one) neither uses the link nor counts as a guess.
    if (!checkCsrf(request, fieldsOf(request.body).csrf, secure)) {
      const back = (c: ConsoleStrings) => ({
        href: `/console/sign-in/link/${encodeURIComponent(secret)}`,
        text: c.signIn,
      });
      return showConsole(reply, 403, formExpiredView(viewerOf(request), back));
    }
    const guess = await signInLimiter.guess(request.ip, () => redeemSignInLink(db, secret, clock()));
    if (guess.wait !== undefined) return showWait(reply, guess.wait, waitView(viewerOf(request), guess.wait));
    const userId = guess.found;
    if (!userId) return linkUsed(request, reply);
    const session = await startSession(db, consoleActor(userId, request.ip), clock(), null);
    reply.header('set-cookie', sessionCookieHeader(secure, session));
    return reply.redirect('/console', 303);
  });

  // Ends the session in the database: every process stops honouring it at once.
  app.post('/sign-out', async (request, reply) => {
    if (request.operator) await endSession(db, request.operator.session, consoleActorOf(request));
    reply.header('set-cookie', clearedSessionCookie(secure));
    return reply.redirect('/console/signed-out', 303);
  });

  app.get('/signed-out', open, async (request, reply) => {
    const viewer = viewerOf(request);
    const c = consoleStrings(viewer.language);
    return showConsole(
      reply,
      200,
      consoleMessage(viewer, c.signedOutTitle, [c.signedOutBody], {
        href: '/console/sign-in',
        text: c.signInAgain,
      }),
    );
  });

  // The console's language: kept with the session, and in a cookie for the sign-in page.
  app.post('/language', open, async (request, reply) => {
    const form = fieldsOf(request.body);
    const next = safeNext(form.next);
    const trusted = request.operator
      ? sessionCsrfMatches(request, form.csrf)
      : checkCsrf(request, form.csrf, secure);
    const language = form.language;
    if (trusted && isLanguage(language)) {
      if (request.operator) await chooseLanguage(db, request.operator.session, language);
      reply.header('set-cookie', languageCookieHeader(secure, language));
    }
    return reply.redirect(next, 303);
  });
}
