import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type Actor, consoleActor } from '../audit/actor.js';
import { BusinessError } from '../domain/errors.js';
import { renderPage } from '../pages/render.js';
import { cookieValue } from '../pages/security.js';
import { acceptedLanguage } from '../questionnaire/page-kit.js';
import { isLanguage, type Language } from '../variants/variant.types.js';
import { refusalIn } from './refusals.js';
import type { SignedIn } from './sessions.service.js';
import type { ConsoleView, Viewer } from './views/console-view.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator of a console request (console.plugin.ts), or null. */
    operator: SignedIn | null;
  }
  interface FastifyContextConfig {
    /**
     * Who may open a console route: by default a signed-in operator (a route that says nothing is
     * closed); `public` for the sign-in pages, which still see who is signed in; `asset` for
     * anyone too, and answered the same to everyone (the stylesheet, the script), so no session is
     * looked up; `admin` for a platform admin only.
     */
    console?: ConsoleAccess;
  }
}

/** Who may open a console route (`config.console`); a route that says nothing is an operator's. */
export type ConsoleAccess = 'public' | 'asset' | 'admin';

/** Where the console's own stylesheet and script are served (same origin, no outside asset). */
export const CONSOLE_ASSETS = '/console/assets';

/**
 * The session cookie's name: `__Host-` prefixed over https (the browser then takes it only with
 * `Secure`, `Path=/` and no `Domain`), the plain name over http, where browsers refuse `__Host-`.
 */
export const sessionCookie = (secure: boolean) => (secure ? '__Host-assay_session' : 'assay_session');
/** The language chosen before signing in (not a secret). */
const LANGUAGE_COOKIE = 'assay_console_language';

export function sessionCookieHeader(secure: boolean, value: string): string {
  return `${sessionCookie(secure)}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookie(secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

export function languageCookieHeader(secure: boolean, language: Language): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/console; SameSite=Lax; Max-Age=31536000${secure ? '; Secure' : ''}`;
}

/** The session cookie's value on a request. */
export const sessionSecretOf = (request: FastifyRequest, secure: boolean) =>
  cookieValue(request, sessionCookie(secure));

/** The console language chosen at the foot of a page (the session's, else the cookie's), if any. */
export function chosenLanguage(request: FastifyRequest): Language | undefined {
  const chosen = request.operator?.session.language ?? cookieValue(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : undefined;
}

/** The console language of a request: the session's choice, the cookie's, else the browser's. */
export function languageOf(request: FastifyRequest): Language {
  return chosenLanguage(request) ?? acceptedLanguage(request.headers['accept-language']);
}

/**
 * A service's refusal, for the form it comes back to, in the viewer's language (refusals.ts).
 * Anything but a BusinessError is thrown on, to the console's error page.
 */
export function refusalOf(request: FastifyRequest, error: unknown): string {
  if (!(error instanceof BusinessError)) throw error;
  return refusalIn(languageOf(request), error.message);
}

/** Who is looking at a console page, for the views. */
export function viewerOf(request: FastifyRequest): Viewer {
  const operator = request.operator;
  return {
    language: languageOf(request),
    user: operator?.user,
    csrf: operator?.session.csrf,
    path: request.url.length <= 2000 ? request.url : '/console',
  };
}

/** True when a posted form carries the session's form token. */
export function sessionCsrfMatches(request: FastifyRequest, formToken: unknown): boolean {
  const expected = request.operator?.session.csrf;
  if (!expected || typeof formToken !== 'string' || formToken.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(formToken));
}

/** Sends a console view as an HTML page. */
export function showConsole(reply: FastifyReply, status: number, view: ConsoleView) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(renderPage(view.template, view.model, CONSOLE_ASSETS));
}

/**
 * Sends a page that shows a new secret (a client's, an API key, a webhook's): the answer to its
 * POST, never stored by a cache to be shown again.
 */
export function showSecret(reply: FastifyReply, status: number, view: ConsoleView) {
  return showConsole(reply.header('cache-control', 'no-store'), status, view);
}

/** Sends the page of a caller at a guessing limit: 429, and when to try again (`Retry-After`). */
export function showWait(reply: FastifyReply, seconds: number, view: ConsoleView) {
  return showConsole(reply.header('retry-after', String(seconds)), 429, view);
}

/**
 * A word for the page a form redirects to ("The client X has been deleted"), carried in its query
 * with a signature of the session's form token: a link from elsewhere cannot make a console page
 * show a text of its choosing. Answers the query (`done=...&sig=...`).
 */
export function signedDone(request: FastifyRequest, text: string): string {
  return new URLSearchParams({ done: text, sig: doneSignature(request, text) }).toString();
}

/** The text of a `signedDone` query, or undefined when it is missing or not signed for this session. */
export function doneText(
  request: FastifyRequest,
  query: { done?: string; sig?: string },
): string | undefined {
  if (query.done === undefined || query.sig === undefined) return undefined;
  const expected = Buffer.from(doneSignature(request, query.done));
  const given = Buffer.from(query.sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? query.done : undefined;
}

const doneSignature = (request: FastifyRequest, text: string) =>
  createHmac('sha256', request.operator?.session.csrf ?? '')
    .update(text)
    .digest('base64url');

/**
 * A mail's HTML part opened on its own (the outbox's mails, the wizard's previews): nothing in it
 * may run, load or be framed, whatever it holds (it is ours, but it carries what people typed).
 */
const MAIL_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** Sends a mail's HTML part as a page of its own, under MAIL_HTML_CSP. */
export function sendMailHtml(reply: FastifyReply, html: string) {
  return reply
    .code(200)
    .header('content-security-policy', MAIL_HTML_CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}

/** A console route as it was registered: its methods, its full path and the access it declares. */
export interface ConsoleRoute {
  readonly methods: readonly string[];
  /** With the `/console` prefix and its `:params`, e.g. `/console/access/users/:id`. */
  readonly url: string;
  readonly access: ConsoleAccess | 'operator';
}

// Per server (every encapsulated scope of one app shares its `server`), so that several apps in one
// process keep their own lists.
const registry = new WeakMap<object, ConsoleRoute[]>();

/** Records a route from the console plugin's `onRoute` hook. */
export function recordConsoleRoute(app: FastifyInstance, route: RouteOptions): void {
  const list = registry.get(app.server) ?? [];
  registry.set(app.server, list);
  list.push({
    methods: [route.method].flat(),
    url: route.url,
    access: route.config?.console ?? 'operator',
  });
}

/**
 * Every console route of an app and the access it declares (`config.console`), read from the app
 * itself: what a test walks to check that each admin page refuses other users.
 */
export function consoleRoutes(app: FastifyInstance): readonly ConsoleRoute[] {
  return registry.get(app.server) ?? [];
}

/**
 * The actor of a console request: the signed-in operator (a route behind the sign-in has one) at
 * the caller's address. Throws on a public page, which must name its own actor.
 */
export function consoleActorOf(request: FastifyRequest): Actor {
  if (!request.operator) throw new Error(`${request.method} ${request.url}: no signed-in operator to audit`);
  return consoleActor(request.operator.user.id, request.ip);
}
