import { SCOPES, type Scope } from '@assay/schema';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import { type AuthServices, authenticate, authenticateFromCache, type Principal } from '../auth/guard.js';

/**
 * What guards a route under /api/v1: the scope family a caller needs (DESIGN.md: the route's
 * first path segment), or `public` (the token, authorize and document routes, which check what
 * they need themselves). A route that also hands out another family's data lists its families,
 * the path's first: `['campaigns', 'reports']` (the campaign export carries reports' scores), and
 * the caller needs every one of them.
 */
export type Guard = Scope | 'public' | readonly [Scope, ...Scope[]];

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: set by the guard of a scoped route (unset on public routes). */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /**
     * What guards the route (http/route-guard.ts). Every route under /api/v1 must say it: one
     * that does not stops the server at start-up.
     */
    guard?: Guard;
    /**
     * The route changes nothing although its method is not GET or HEAD (a read that takes a body:
     * a dupecheck, a summary). Read-only credentials (API keys, Basic) may call it, as they may
     * call every GET (docs/decisions.md, "Read-only credentials").
     */
    changesNothing?: true;
  }
}

/** An API route with what guards it, as registered. */
export interface GuardedRoute {
  method: string;
  url: string;
  guard: Guard;
  /** What the route does: `read` (changes nothing: read-only credentials may call it) or `write`. */
  access: Access;
}

/** Whether a route changes nothing (`read`) or may change something (`write`). */
export type Access = 'read' | 'write';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * What a route declares it does: GET and HEAD change nothing by definition (HTTP's safe methods),
 * any other method writes unless the route declares `config.changesNothing`.
 */
export function declaredAccess(route: Pick<RouteOptions, 'method' | 'config'>): Access {
  const safe = [route.method].flat().every((method) => SAFE_METHODS.has(method));
  return safe || route.config?.changesNothing === true ? 'read' : 'write';
}

const GUARDS = new Set<unknown>([...SCOPES, 'public']);
const isScope = (value: unknown): value is Scope => value !== 'public' && GUARDS.has(value);
const isGuard = (value: unknown): value is Guard =>
  GUARDS.has(value) ||
  (Array.isArray(value) && value.length > 0 && value.every(isScope) && new Set(value).size === value.length);

/** The guard a route declares; a route that declares none is refused, by method and URL. */
export function declaredGuard(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): Guard {
  const guard = route.config?.guard;
  if (isGuard(guard)) return guard;
  const method = [route.method].flat().join(',');
  const problem =
    guard === undefined ? 'declares no guard' : `declares an unknown guard ${JSON.stringify(guard)}`;
  throw new Error(
    `${method} ${route.url} ${problem}: give it config.guard, its scope family (${SCOPES.join(', ')}), a list of different families or 'public'`,
  );
}

/**
 * The scope families a declared guard needs, the path's own first; none for a public route (or a
 * route outside the API).
 */
export const familiesOf = (guard: Guard | undefined): readonly Scope[] =>
  guard === undefined || guard === 'public' ? [] : typeof guard === 'string' ? [guard] : guard;

/**
 * Guards every route registered in `api` from now on, failing closed: a route must declare its
 * guard (config.guard) or its registration throws, which stops start-up. A scoped route gets an
 * onRequest hook, its families and access fixed now, that checks the credentials; every route is added to
 * `seen`. On a route with path parameters `wrongMethod` runs first: `/groups/:groupid` also
 * matches `GET /groups/dupecheck`, a wrong method on a known path (405), decided before the
 * credentials as for any other path.
 */
export function guardRoutes(
  api: FastifyInstance,
  auth: AuthServices,
  { wrongMethod, seen }: { wrongMethod: onRequestHookHandler; seen: GuardedRoute[] },
) {
  api.addHook('onRoute', (route) => {
    const guard = declaredGuard(route);
    const access = declaredAccess(route);
    for (const method of [route.method].flat()) seen.push({ method, url: route.url, guard, access });
    const families = familiesOf(guard);
    if (families.length === 0) return;
    // Callback style, so that the common case (a cached token) goes on without a promise.
    const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const cached = authenticateFromCache(auth, request, families);
      if (cached) {
        request.principal = cached;
        return done();
      }
      authenticate(auth, request, families, access).then((principal) => {
        request.principal = principal;
        done();
      }, done);
    };
    const existing = route.onRequest ?? [];
    const hooks = Array.isArray(existing) ? existing : [existing];
    route.onRequest = route.url.includes(':') ? [wrongMethod, check, ...hooks] : [check, ...hooks];
  });
}
