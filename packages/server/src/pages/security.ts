import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The headers of every HTML page: nothing but our own stylesheet may load, no inline script or style
 * anywhere, no framing, and no Referer (the participation token is in the path).
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function setPageHeaders(reply: FastifyReply): void {
  reply
    .header('content-security-policy', PAGE_CSP)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .header('cross-origin-opener-policy', 'same-origin');
}

/**
 * The cookie's name. Over https it is `__Host-` prefixed: the browser then takes it only with
 * `Secure`, `Path=/` and no `Domain`, so a sibling subdomain cannot plant one of its choosing (and
 * with it a form token it knows). Over plain http a browser refuses any `__Host-` cookie, so the
 * instance served without TLS (a laptop, a test) keeps the plain name.
 */
const csrfCookie = (secure: boolean) => (secure ? '__Host-assay_csrf' : 'assay_csrf');

/** A cookie the request carries, by name. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The form token of this browser (double-submit): a random value in an HttpOnly, SameSite=Lax
 * cookie, repeated in every form. A page from another site can neither read the cookie nor make the
 * browser send it with a cross-site POST, so it cannot forge a form that passes `checkCsrf`.
 */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = cookieValue(request, csrfCookie(secure));
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.header(
    'set-cookie',
    `${csrfCookie(secure)}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
  return token;
}

/** True when the form carries this browser's token (`secure` as for `csrfToken`). */
export function checkCsrf(request: FastifyRequest, formToken: unknown, secure: boolean): boolean {
  const cookie = cookieValue(request, csrfCookie(secure));
  if (!cookie || typeof formToken !== 'string' || formToken.length !== cookie.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(formToken));
}
