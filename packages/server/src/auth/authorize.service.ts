import { createHash, randomBytes } from 'node:crypto';
import { SCOPES } from '@assay/schema';
import type { Kysely } from 'kysely';
import { recordChange } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { formatDate } from '../util/dates.js';
import { isStorableText } from '../util/text.js';
import { claimClient, findClient, insertCode, parseRedirectUris } from './auth.repository.js';
import type { OAuthClientRow, UserRow } from './auth.table.js';
import { checkPassword } from './password-sign-in.js';
import type { FailureLimiter } from './rate-limit.js';
import { resourceProblem } from './resources.js';
import { adminOnlyProblem, type Role, scopesBeyond, scopesWithin } from './scope-rules.js';
import { hashSecret } from './secrets.js';

const CODE_LIFETIME_MS = 120_000;

/** The query of GET {base_url}/auth/authorize (and the hidden fields of its form). */
export interface AuthorizeParams {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  /** RFC 8707: the resource the token is for (an MCP client names the instance's /mcp). */
  resource?: string;
  /** A parameter given more than once. */
  repeated?: string;
}

/** What a checked authorization request allows: a page error, an error sent back, or a sign-in. */
export type AuthorizeCheck =
  | { kind: 'page-error'; message: string }
  | { kind: 'redirect'; location: string }
  | {
      kind: 'sign-in';
      client: OAuthClientRow;
      redirectUri: string;
      /** The scopes asked for, or the client's when the request names none (`scopesAsked` false). */
      scopes: string[];
      scopesAsked: boolean;
      params: AuthorizeParams;
    };

/** The redirect URI with the given parameters added to its query. */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

const text = (value: unknown) => (typeof value === 'string' && isStorableText(value) ? value : undefined);

const NAMES = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

/**
 * Reads only the known string parameters, whatever else the query or form holds; `repeated` names
 * one sent more than once, which RFC 6749 section 3.1 forbids.
 */
export function authorizeParams(input: unknown): AuthorizeParams {
  const source = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  return {
    repeated: NAMES.find((name) => Array.isArray(source[name])),
    response_type: text(source.response_type),
    client_id: text(source.client_id),
    redirect_uri: text(source.redirect_uri),
    scope: text(source.scope),
    state: text(source.state),
    code_challenge: text(source.code_challenge),
    code_challenge_method: text(source.code_challenge_method),
    resource: text(source.resource),
  };
}

/**
 * RFC 6749 section 4.1.2.1: an unknown client or a redirect URI that is not registered is shown on
 * the page (never redirected to); every other problem goes back to the client's redirect URI.
 */
export async function checkAuthorizeRequest(
  db: Kysely<Database>,
  params: AuthorizeParams,
  /** The RFC 8707 resources this instance issues tokens for (targetResources). */
  resources: readonly string[],
): Promise<AuthorizeCheck> {
  const client = params.client_id ? await findClient(db, params.client_id) : undefined;
  if (!client)
    return { kind: 'page-error', message: 'This sign-in link names no known application (client_id).' };
  const registered = parseRedirectUris(client.redirect_uris);
  const redirectUri = params.redirect_uri ?? (registered.length === 1 ? registered[0] : undefined);
  if (!redirectUri || !registered.includes(redirectUri) || params.repeated === 'redirect_uri') {
    return {
      kind: 'page-error',
      message: 'The return address (redirect_uri) is not registered for this application.',
    };
  }
  const back = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: redirectWith(redirectUri, { error, error_description: description, state: params.state }),
  });
  if (params.repeated) return back('invalid_request', `${params.repeated}: must be sent once`);
  if (!params.response_type) return back('invalid_request', 'response_type: is required');
  if (params.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
  const asked = [...new Set((params.scope ?? '').split(/[\s+]+/).filter(Boolean))];
  const enabled = client.scopes.split(' ');
  // RFC 6749 section 3.3: a request naming no scope gets a default, the client's scopes (of which
  // the approving user gets those their role may use, see `approvedScopes`).
  const scopesAsked = asked.length > 0;
  const scopes = scopesAsked ? asked : enabled;
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0)
    return back(
      'invalid_scope',
      `scope: unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(' ')}`,
    );
  if (scopes.some((scope) => !enabled.includes(scope)))
    return back('invalid_scope', 'scope: not enabled for this client');
  // A public client (registered by itself) has no secret: PKCE is what binds the code to it.
  if (client.registration && params.code_challenge === undefined)
    return back('invalid_request', 'code_challenge: is required for a public client (PKCE, S256)');
  if (params.code_challenge !== undefined) {
    if (params.code_challenge_method !== 'S256')
      return back('invalid_request', 'code_challenge_method must be S256');
    if (!/^[A-Za-z0-9_-]{43,128}$/.test(params.code_challenge))
      return back('invalid_request', 'code_challenge is malformed');
  }
  const problem = resourceProblem(params.resource, resources);
  if (problem) return back('invalid_target', problem);
  return { kind: 'sign-in', client, redirectUri, scopes, scopesAsked, params };
}

/**
 * The scopes a user of this role approves: those asked for, refused (naming them) when one is for
 * admins only and the user is not one; when none were asked, the client's that the role may use.
 */
export function approvedScopes(
  request: Pick<Extract<AuthorizeCheck, { kind: 'sign-in' }>, 'scopes' | 'scopesAsked'>,
  role: Role,
): { ok: true; scopes: string[] } | { ok: false; beyond: string[] } {
  const beyond = scopesBeyond(role, request.scopes);
  const scopes = scopesWithin(role, request.scopes);
  if (beyond.length > 0 && (request.scopesAsked || scopes.length === 0)) return { ok: false, beyond };
  return { ok: true, scopes };
}

export type Decision =
  /** `signedIn`: the user who proved their password just now (the page starts their session). */
  | { kind: 'redirect'; location: string; signedIn?: UserRow }
  | { kind: 'retry'; message: string; status: number };

/** The user's answer on the sign-in page: a code sent back to the client, a refusal, or try again. */
export async function decide(
  db: Kysely<Database>,
  limiter: FailureLimiter,
  request: Extract<AuthorizeCheck, { kind: 'sign-in' }>,
  answer: {
    email?: string;
    password?: string;
    approve: boolean;
    caller: string;
    /** The user already signed in on this browser (the console's session): no password needed. */
    session?: UserRow;
  },
): Promise<Decision> {
  const { redirectUri, params } = request;
  if (!answer.approve) {
    return {
      kind: 'redirect',
      location: redirectWith(redirectUri, { error: 'access_denied', state: params.state }),
    };
  }
  let user: UserRow;
  let signedIn: UserRow | undefined;
  if (answer.session && !answer.password) user = answer.session;
  else {
    const check = await checkPassword(db, limiter, answer);
    if (!check.ok) {
      return check.reason === 'wait'
        ? {
            kind: 'retry',
            status: 429,
            message: `Too many failed attempts: try again in ${check.seconds} seconds.`,
          }
        : { kind: 'retry', status: 401, message: 'The e-mail address or the password is not right.' };
    }
    user = check.user;
    signedIn = user;
  }
  const approved = approvedScopes(request, user.role);
  if (!approved.ok) {
    // Nothing is issued or claimed; another account (an admin's) may still allow it, or deny.
    return {
      kind: 'retry',
      status: 403,
      message: `You cannot allow this: ${adminOnlyProblem(approved.beyond)}. Sign in as an admin, or deny.`,
    };
  }
  const code = randomBytes(32).toString('base64url');
  const now = Date.now();
  await insertCode(db, {
    code_hash: hashSecret(code),
    client_id: request.client.id,
    user_id: user.id,
    redirect_uri: redirectUri,
    redirect_given: params.redirect_uri === undefined ? 0 : 1,
    scopes: approved.scopes.join(' '),
    code_challenge: params.code_challenge ?? null,
    expires: formatDate(new Date(now + CODE_LIFETIME_MS)),
    used: null,
    created: formatDate(new Date(now)),
  });
  // The first user to approve a registered client becomes its owner (docs/decisions.md).
  if (request.client.registration === 'unclaimed') {
    const clientId = request.client.id;
    await db.transaction().execute(async (trx) => {
      // Their client keeps what their role may use of what it registered with.
      const scopes = scopesWithin(user.role, request.client.scopes.split(' ')).join(' ');
      if (!(await claimClient(trx, clientId, user.id, scopes))) return;
      await recordChange(
        trx,
        { type: 'user', id: user.id, userId: user.id, channel: 'oauth', address: answer.caller },
        { resource: 'client', id: clientId, action: 'claim', fields: ['user_id'] },
      );
    });
  }
  return {
    kind: 'redirect',
    location: redirectWith(redirectUri, { code, state: params.state }),
    signedIn,
  };
}

/** PKCE S256: BASE64URL(SHA256(verifier)) must equal the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
