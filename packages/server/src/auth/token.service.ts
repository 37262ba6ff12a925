import type { Scope, TokenData } from '@assay/schema';
import { SCOPES } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { nowText } from '../util/dates.js';
import { isStorableText } from '../util/text.js';
import { consumeCode, findClient, findUserRole, parseRedirectUris } from './auth.repository.js';
import type { OAuthClientRow } from './auth.table.js';
import { verifierMatches } from './authorize.service.js';
import type { FailureLimiter } from './rate-limit.js';
import { resourceProblem } from './resources.js';
import { adminOnlyProblem, scopesBeyond } from './scope-rules.js';
import { hashSecret, secretMatches } from './secrets.js';
import { TOKEN_LIFETIME_SECONDS, type TokenService } from './tokens.js';

/** An RFC 6749 section 5.2 error of the token endpoint. */
export class OAuthFailure extends Error {
  override name = 'OAuthFailure';
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The one answer to a token request in any encoding but a form (RFC 6749 section 4.4.2). */
export const notFormEncoded = () =>
  new OAuthFailure(400, 'invalid_request', 'The token request must be application/x-www-form-urlencoded');

/**
 * How an endpoint takes the client's credentials: the interface's token endpoint in the body only
 * (its spec says so), the RFC 6749 endpoints by `client_secret_basic` as well (section 2.3.1).
 */
export type ClientAuthentication = 'body' | 'basic-or-body';

export interface ClientCredentialsInput {
  body: Record<string, unknown>;
  /** Where the request came from, for the guessing limit. */
  caller: string;
  /** The Authorization header as sent, if any. */
  authorization: string | undefined;
  accepts: ClientAuthentication;
}

/** A code that is unknown, used, expired or another client's (RFC 6749 section 5.2). */
export const unknownCode = () =>
  new OAuthFailure(400, 'invalid_grant', 'The code is unknown, already used or expired');

export interface TokenRequestInput extends ClientCredentialsInput {
  /** The request's Content-Type, without parameters. */
  contentType: string;
  /**
   * The RFC 8707 `resource` values this endpoint takes (the RFC endpoint's, see targetResources);
   * undefined where the parameter is not part of the endpoint (the interface's own).
   */
  resources?: readonly string[];
}

// A value that is not storable text cannot match anything stored: it is treated as absent.
export const field = (body: Record<string, unknown>, name: string) => {
  const value = body[name];
  return typeof value === 'string' && isStorableText(value) ? value : undefined;
};

/** RFC 6749 sections 3.2 and 4.4.2 (RFC 7009 section 2.1 likewise): a form, each parameter once. */
export function checkForm(input: { contentType: string; body: Record<string, unknown> }): void {
  if (input.contentType !== 'application/x-www-form-urlencoded') throw notFormEncoded();
  // The form parser makes a list of a parameter sent more than once.
  const repeated = Object.keys(input.body).find((name) => Array.isArray(input.body[name]));
  if (repeated) throw new OAuthFailure(400, 'invalid_request', `${repeated}: must be sent once`);
}

/**
 * The token endpoint: the client_credentials grant, and the authorization_code grant of the
 * interactive flow, with every refusal the spec and RFC 6749 describe.
 */
export async function issueToken(
  db: Kysely<Database>,
  tokens: TokenService,
  limiter: FailureLimiter,
  input: TokenRequestInput,
): Promise<TokenData> {
  // RFC 8707 allows several `resource` parameters; one is all this server needs, so checkForm's
  // "each parameter once" applies to it too.
  checkForm(input);
  if (input.resources) {
    const problem = resourceProblem(input.body.resource, input.resources);
    if (problem) throw new OAuthFailure(400, 'invalid_target', problem);
  }
  const grantType = field(input.body, 'grant_type');
  if (!grantType) throw new OAuthFailure(400, 'invalid_request', 'grant_type: is required');
  if (grantType !== 'client_credentials' && grantType !== 'authorization_code') {
    const why =
      grantType === 'refresh_token' ? 'refresh tokens are not issued: request a new token' : 'not supported';
    throw new OAuthFailure(400, 'unsupported_grant_type', `grant_type ${grantType}: ${why}`);
  }
  const client = await authenticateClient(db, limiter, input);
  if (client.registration && grantType === 'client_credentials') {
    throw new OAuthFailure(
      400,
      'unauthorized_client',
      'A registered public client may use the authorization_code grant only',
    );
  }
  const grant =
    grantType === 'client_credentials'
      ? await clientCredentials(db, client, input.body)
      : await authorizationCode(db, client, input.body);
  const accessToken = await tokens.sign({
    userId: grant.userId,
    clientId: client.id,
    secretVersion: client.secret_version,
    scopes: grant.scopes as Scope[],
  });
  if (!accessToken) throw new OAuthFailure(500, 'server_error', 'Invalid key supplied');
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_SECONDS,
    scope: grant.scopes.join(' '),
  };
}

/** A client_secret_basic header's id and secret (RFC 6749 section 2.3.1), or undefined if it is not one. */
function basicCredentials(header: string): { clientId: string; clientSecret: string } | undefined {
  const space = header.indexOf(' ');
  if (space <= 0 || header.slice(0, space).toLowerCase() !== 'basic') return undefined;
  const encoded = header.slice(space + 1).trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  // Each part is form-encoded before the two are joined (section 2.3.1).
  const clientId = formDecoded(decoded.slice(0, colon));
  const clientSecret = formDecoded(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined) return undefined;
  return isStorableText(clientId) && isStorableText(clientSecret) ? { clientId, clientSecret } : undefined;
}

/** A form-encoded part, decoded; undefined when its %-escapes are not UTF-8 (a URIError). */
function formDecoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}

/**
 * Authenticates the client of a token or revocation request under the guessing limit: by the
 * body's client_id and client_secret, or (where the endpoint takes it) an HTTP Basic header.
 */
export async function authenticateClient(
  db: Kysely<Database>,
  limiter: FailureLimiter,
  input: ClientCredentialsInput,
): Promise<OAuthClientRow> {
  const wait = await limiter.retryAfter(input.caller);
  if (wait > 0) {
    throw new OAuthFailure(429, 'slow_down', `Too many failed attempts: try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const sentHeader = input.authorization !== undefined;
  // RFC 6749 section 5.2: a client that tried the Authorization header gets WWW-Authenticate.
  const challenge: Record<string, string> = sentHeader ? { 'www-authenticate': 'Basic realm="assay"' } : {};
  const refuse = async (message: string): Promise<never> => {
    await limiter.fail(input.caller);
    throw new OAuthFailure(401, 'invalid_client', message, challenge);
  };
  let clientId = field(input.body, 'client_id');
  let clientSecret = field(input.body, 'client_secret');
  if (input.accepts === 'basic-or-body' && input.authorization !== undefined) {
    const basic = basicCredentials(input.authorization);
    if (!basic) {
      return refuse('The Authorization header must be Basic with the form-encoded client_id:client_secret');
    }
    // Section 2.3: one authentication method per request.
    if (input.body.client_secret !== undefined) {
      throw new OAuthFailure(
        400,
        'invalid_request',
        'client_secret: send the credentials in the Authorization header or in the body, not both',
      );
    }
    if (clientId !== undefined && clientId !== basic.clientId) {
      throw new OAuthFailure(400, 'invalid_request', 'client_id: differs from the Authorization header');
    }
    clientId = basic.clientId;
    clientSecret = basic.clientSecret;
  }
  // token_endpoint_auth_method "none" (RFC 7591): a public client names itself by client_id alone,
  // at the RFC endpoints only; the interface's endpoint keeps requiring a secret, as it always has.
  if (
    input.accepts === 'basic-or-body' &&
    clientId &&
    clientSecret === undefined &&
    !sentHeader &&
    input.body.client_secret === undefined
  ) {
    const client = await findClient(db, clientId);
    if (client?.registration) return client;
  }
  if (!clientId || !clientSecret) {
    const where =
      input.accepts === 'body'
        ? sentHeader
          ? ' (they go in the request body, not in a header)'
          : ''
        : ' (in a Basic Authorization header or in the request body)';
    return refuse(`client_id and client_secret are required${where}`);
  }
  const client = await findClient(db, clientId);
  if (!client || !secretMatches(clientSecret, client.secret_hash)) return refuse('Wrong client credentials');
  return client;
}

/**
 * The token acts as the client's owner and carries exactly the requested scopes: enabled on the
 * client, and ones its owner's role may use now (an owner who stopped being an admin gets no audit).
 */
async function clientCredentials(
  db: Kysely<Database>,
  client: OAuthClientRow,
  body: Record<string, unknown>,
) {
  const requested = [...new Set((field(body, 'scope') ?? '').split(/[\s+]+/).filter(Boolean))];
  if (requested.length === 0) {
    throw new OAuthFailure(400, 'invalid_scope', 'scope: name the families to call, e.g. "members groups"');
  }
  const unknown = requested.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    throw new OAuthFailure(
      400,
      'invalid_scope',
      `scope: unknown scope ${unknown.map((scope) => `"${scope}"`).join(', ')}; the scopes are ${SCOPES.join(' ')}`,
    );
  }
  const enabled = client.scopes.split(' ');
  const refused = requested.filter((scope) => !enabled.includes(scope));
  if (refused.length > 0) {
    throw new OAuthFailure(400, 'invalid_scope', `scope: not enabled for this client: ${refused.join(' ')}`);
  }
  const beyond = scopesBeyond((await findUserRole(db, client.user_id)) ?? 'user', requested);
  if (beyond.length > 0) {
    throw new OAuthFailure(
      400,
      'invalid_scope',
      `scope: ${adminOnlyProblem(beyond)}, and this client's owner is not one`,
    );
  }
  return { userId: client.user_id, scopes: requested };
}

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The token acts as the user who approved, with the scopes approved; the code works once. */
async function authorizationCode(
  db: Kysely<Database>,
  client: OAuthClientRow,
  body: Record<string, unknown>,
) {
  const code = field(body, 'code');
  if (!code) throw new OAuthFailure(400, 'invalid_request', 'code: is required');
  const grant = await consumeCode(db, hashSecret(code), nowText());
  // A code issued to another client is that client's (invalid_grant); a client without a registered
  // redirect URI is never sent a code of its own, so it may not use this grant (section 5.2).
  if (!grant && parseRedirectUris(client.redirect_uris).length === 0) {
    throw new OAuthFailure(
      400,
      'unauthorized_client',
      'This client has no redirect URI registered, so it cannot use the authorization_code grant',
    );
  }
  if (!grant || grant.client_id !== client.id) throw unknownCode();
  // Required when the authorization request named it (RFC 6749 section 4.1.3); if sent, it must match.
  const redirectUri = field(body, 'redirect_uri');
  if ((grant.redirect_given === 1 || redirectUri !== undefined) && redirectUri !== grant.redirect_uri) {
    throw new OAuthFailure(
      400,
      'invalid_grant',
      'redirect_uri: must be the one of the authorization request',
    );
  }
  const verifier = field(body, 'code_verifier');
  // A public client's code is only ever issued with a challenge (see checkAuthorizeRequest).
  if (grant.code_challenge === null && client.registration) throw unknownCode();
  if (grant.code_challenge === null) {
    // A verifier for a code issued without a challenge is a downgrade attempt (RFC 9700 2.1.1).
    if (verifier !== undefined) {
      throw new OAuthFailure(
        400,
        'invalid_grant',
        'code_verifier: the authorization request had no code_challenge',
      );
    }
  } else if (!verifier || !VERIFIER.test(verifier) || !verifierMatches(verifier, grant.code_challenge)) {
    throw new OAuthFailure(400, 'invalid_grant', 'code_verifier: does not match the code_challenge');
  }
  const enabled = client.scopes.split(' ');
  return {
    userId: grant.user_id,
    scopes: grant.scopes.split(' ').filter((scope) => enabled.includes(scope)),
  };
}
