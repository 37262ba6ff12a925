import type { Scope } from '@assay/schema';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Credential } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { forbidden, TooManyAttempts, Unauthenticated, unauthorized } from '../domain/errors.js';
import { isStorableText } from '../util/text.js';
import { findApiKeyByHash, findClient, findUserRole } from './auth.repository.js';
import type { ClientVersionCache } from './client-cache.js';
import type { FailureLimiter } from './rate-limit.js';
import type { RevokedTokenCache } from './revocations.js';
import { isAdminScope, scopesWithin } from './scope-rules.js';
import { hashSecret, secretMatches } from './secrets.js';
import type { TokenService } from './tokens.js';

/** Who is calling, and what they may do. */
export interface Principal {
  userId: string;
  scopes: readonly string[];
  /** API key and Basic credentials may only read. */
  readOnly: boolean;
  /** What it authenticated with: the audit log names the client or the key, not only the user. */
  credential: Credential;
}

/** What checking credentials needs. */
export interface AuthServices {
  db: Kysely<Database>;
  tokens: TokenService;
  clients: ClientVersionCache;
  /** The tokens revoked one by one (RFC 7009), checked on every bearer call. */
  revoked: RevokedTokenCache;
  /** The token endpoint's guessing limit: a secret or key guessed here counts the same. */
  limiter: FailureLimiter;
}

/**
 * Authenticates a request to the API and checks its families' scopes (the path's family, and any
 * other the route declares it needs): a bearer token (OAuth 2.0), or, read-only, an `X-API-Key` or
 * HTTP Basic with a client's id and secret. Read-only credentials may call any route whose
 * declared access is `read` (it changes nothing), whatever its method.
 */
export async function authenticate(
  auth: AuthServices,
  request: FastifyRequest,
  families: readonly Scope[],
  access: 'read' | 'write',
): Promise<Principal> {
  const principal = await identify(auth, request);
  // Known before its scopes are checked: a refusal's audit entry names who was refused
  // (http/audit-refusals.ts). The route never runs unless every check below passes.
  request.principal = principal;
  if (principal.readOnly && access === 'write') {
    throw forbidden('These credentials are read-only: every write needs an OAuth 2.0 access token');
  }
  const missing = families.find((family) => !principal.scopes.includes(family));
  if (missing !== undefined) {
    throw forbidden(`The scope "${missing}" is not granted to these credentials`);
  }
  // A family only an admin may use is checked against the user's role now, not when the token or
  // key was made: its user may have stopped being an admin since (scope-rules.ts).
  const adminOnly = families.find(isAdminScope);
  if (adminOnly !== undefined && (await findUserRole(auth.db, principal.userId)) !== 'admin') {
    throw forbidden(
      `Only an admin may use the scope "${adminOnly}": these credentials act for a user who is not one`,
    );
  }
  return principal;
}

/**
 * The principal's scopes that its user's role lets them use now: what `/mcp` offers tools for. The
 * role is read only when the credentials hold a family for admins only.
 */
export async function scopesInUse(db: Kysely<Database>, principal: Principal): Promise<readonly string[]> {
  if (!principal.scopes.some(isAdminScope)) return principal.scopes;
  return scopesWithin((await findUserRole(db, principal.userId)) ?? 'user', principal.scopes);
}

/**
 * The common case answered without waiting: a bearer token verified before, whose client is in
 * the cache and unchanged, granted the families, none of them for admins only (whose use asks the
 * database for the user's role). Answers undefined for everything else, which `authenticate` then
 * decides (and refuses with the right error).
 */
export function authenticateFromCache(
  { tokens, clients, revoked }: AuthServices,
  request: FastifyRequest,
  families: readonly Scope[],
): Principal | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined;
  const claims = tokens.cachedClaims(header.slice(7).trim());
  if (!claims || !families.every((family) => claims.scopes.includes(family) && !isAdminScope(family)))
    return undefined;
  const client = clients.cached(claims.clientId);
  if (!client || client.secret_version !== claims.secretVersion) return undefined;
  if (revoked.cached(claims.tokenId) !== false) return undefined;
  return {
    userId: claims.userId,
    scopes: claims.scopes,
    readOnly: false,
    credential: { kind: 'client', id: claims.clientId },
  };
}

/** Runs a check of a client secret or an API key under the guessing limit of the caller's address. */
async function guessable<T>(limiter: FailureLimiter, caller: string, check: () => Promise<T>): Promise<T> {
  const wait = await limiter.retryAfter(caller);
  if (wait > 0) {
    throw new TooManyAttempts(`Too many failed attempts: try again in ${wait} s`, wait);
  }
  try {
    return await check();
  } catch (error) {
    if (error instanceof Unauthenticated) await limiter.fail(caller);
    throw error;
  }
}

/**
 * Who is calling (any scheme), before any scope is checked: `authenticate` and `/mcp` start here.
 * A request without usable credentials counts against the guessing limit as a wrong secret does,
 * so that refusing it is no cheaper to repeat (and, at the limit, is a 429 before anything else),
 * unless `missing` is `free`: MCP clients discover how to authenticate by calling without any.
 */
export async function identify(
  { db, tokens, clients, revoked, limiter }: AuthServices,
  request: FastifyRequest,
  { missing = 'counted' }: { missing?: 'counted' | 'free' } = {},
): Promise<Principal> {
  const header = request.headers.authorization;
  const apiKey = request.headers['x-api-key'];
  const refuse = (message: string): Promise<never> => {
    if (missing === 'free') throw unauthorized(message);
    return guessable(limiter, request.ip, async () => {
      throw unauthorized(message);
    });
  };
  if (typeof header === 'string' && header.length > 0) {
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const value = header.slice(space + 1).trim();
    if (space > 0 && scheme === 'bearer') return fromBearer(tokens, clients, revoked, value);
    if (space > 0 && scheme === 'basic') return guessable(limiter, request.ip, () => fromBasic(db, value));
    return refuse('The Authorization header must be "Bearer <token>" or "Basic <credentials>"');
  }
  if (typeof apiKey === 'string' && apiKey.length > 0) {
    return guessable(limiter, request.ip, async () => {
      const key = await findApiKeyByHash(db, hashSecret(apiKey));
      if (!key) throw unauthorized('Unknown or revoked API key');
      return {
        userId: key.user_id,
        scopes: key.scopes.split(' '),
        readOnly: true,
        credential: { kind: 'apikey', id: key.id },
      };
    });
  }
  return refuse('Missing credentials: send Authorization: Bearer <token>');
}

async function fromBearer(
  tokens: TokenService,
  clients: ClientVersionCache,
  revoked: RevokedTokenCache,
  token: string,
): Promise<Principal> {
  const claims = await tokens.verify(token);
  if (!claims) throw unauthorized('The access token is malformed, expired or not ours');
  // A client changed since the token was issued (new secret or scopes) revokes the token.
  const client = await clients.get(claims.clientId);
  if (!client || client.secret_version !== claims.secretVersion)
    throw unauthorized('The access token was revoked');
  // Revoked on its own by its client (RFC 7009).
  if (await revoked.isRevoked(claims.tokenId)) throw unauthorized('The access token was revoked');
  return {
    userId: claims.userId,
    scopes: claims.scopes,
    readOnly: false,
    credential: { kind: 'client', id: claims.clientId },
  };
}

async function fromBasic(db: Kysely<Database>, encoded: string): Promise<Principal> {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || !isStorableText(decoded))
    throw unauthorized('Basic credentials must be client_id:client_secret');
  const client = await findClient(db, decoded.slice(0, colon));
  if (!client || !secretMatches(decoded.slice(colon + 1), client.secret_hash)) {
    throw unauthorized('Wrong client credentials');
  }
  return {
    userId: client.user_id,
    scopes: client.scopes.split(' '),
    readOnly: true,
    credential: { kind: 'client', id: client.id },
  };
}
