import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_PATHS } from '../auth/oauth-paths.js';
import { API_PREFIX } from './route-schema.js';

/**
 * CORS for the surfaces an integrator's web page calls with a token: the API, the OAuth endpoints
 * and their metadata, and /mcp (browser-based MCP clients). Only for the origins the operator
 * names (ASSAY_CORS_ORIGINS); none by default, and never `*`. Never with credentials: these
 * surfaces take a bearer token, an API key or client credentials, not cookies, so a page of an
 * allowed origin can do no more than a script of its own with the same token. The console, the
 * participant pages and the authorization page (cookies, forms) never answer another origin.
 */
const METHODS = 'GET, POST, PUT, PATCH, DELETE';
const REQUEST_HEADERS =
  'authorization, content-type, x-api-key, mcp-protocol-version, mcp-session-id, last-event-id';
const EXPOSED_HEADERS = 'www-authenticate, retry-after, content-disposition, etag, mcp-session-id';
/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_SECONDS = 600;

const EXACT_PATHS = new Set<string>([
  '/mcp',
  OAUTH_PATHS.token,
  OAUTH_PATHS.revoke,
  OAUTH_PATHS.register,
  OAUTH_PATHS.metadata,
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
]);
/** The interface's consent page: a page with a form and a session cookie, not an API call. */
const AUTHORIZE_PAGE = `${API_PREFIX}/auth/authorize`;

/** Whether a path (without its query) is one of the surfaces above. */
export function crossOriginPath(url: string): boolean {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (EXACT_PATHS.has(path)) return true;
  return (
    path.startsWith(`${API_PREFIX}/`) && path !== AUTHORIZE_PAGE && !path.startsWith(`${AUTHORIZE_PAGE}/`)
  );
}

/** Whether a request comes from a web page of an origin the operator allows (for /mcp's check). */
export function allowedOrigin(origins: ReadonlySet<string>, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origins.has(origin);
}

/**
 * Adds the CORS answers: a preflight (OPTIONS with Access-Control-Request-Method) from an allowed
 * origin is answered 204 before any route; any other request from it gets the allowing headers on
 * whatever its route answers. A request from another origin gets none, and its browser keeps the
 * answer from the page.
 */
export function allowCrossOrigin(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (!allowedOrigin(allowed, request) || !crossOriginPath(request.url)) return done();
    reply.header('access-control-allow-origin', request.headers.origin as string).header('vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply
        .code(204)
        .header('access-control-allow-methods', METHODS)
        .header('access-control-allow-headers', REQUEST_HEADERS)
        .header('access-control-max-age', String(PREFLIGHT_SECONDS))
        .send();
      return;
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    done();
  });
}
