import type { Scope, TokenData } from '@assay/schema';
import { SCOPES } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { nowText } from '../util/dates.js';
import { isStorableText } from '../util/text.js';
import { consumeCode, findClient } from './auth.repository.js';
import type { OAuthClientRow } from './auth.table.js';
import { verifierMatches } from './authorize.service.js';
import type { FailureLimiter } from './rate-limit.js';
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

export interface TokenRequestInput {
  /** The request's Content-Type, without parameters. */
  contentType: string;
  body: Record<string, unknown>;
  /** Where the request came from, for the guessing limit. */
  caller: string;
  /** Whether an Authorization header was sent: the spec wants the credentials in the body. */
  sentAuthorizationHeader: boolean;
}

// A value that is not storable text cannot match anything stored: it is treated as absent.
const field = (body: Record<string, unknown>, name: string) => {
  const value = body[name];
  return typeof value === 'string' && isStorableText(value) ? value : undefined;
};

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
  if (input.contentType !== 'application/x-www-form-urlencoded') throw notFormEncoded();
  // RFC 6749 section 3.2: no parameter may be sent more than once (the form parser makes a list).
  const repeated = Object.keys(input.body).find((name) => Array.isArray(input.body[name]));
  if (repeated) throw new OAuthFailure(400, 'invalid_request', `${repeated}: must be sent once`);
  const grantType = field(input.body, 'grant_type');
  if (!grantType) throw new OAuthFailure(400, 'invalid_request', 'grant_type: is required');
  if (grantType !== 'client_credentials' && grantType !== 'authorization_code') {
    const why =
      grantType === 'refresh_token' ? 'refresh tokens are not issued: request a new token' : 'not supported';
    throw new OAuthFailure(400, 'unsupported_grant_type', `grant_type ${grantType}: ${why}`);
  }
  const client = await authenticateClient(db, limiter, input);
  const grant =
    grantType === 'client_credentials'
      ? clientCredentials(client, input.body)
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

async function authenticateClient(db: Kysely<Database>, limiter: FailureLimiter, input: TokenRequestInput) {
  const wait = await limiter.retryAfter(input.caller);
  if (wait > 0) {
    throw new OAuthFailure(429, 'slow_down', `Too many failed attempts: try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const clientId = field(input.body, 'client_id');
  const clientSecret = field(input.body, 'client_secret');
  // RFC 6749 section 5.2: a client that tried the Authorization header gets WWW-Authenticate.
  const challenge: Record<string, string> = input.sentAuthorizationHeader
    ? { 'www-authenticate': 'Basic realm="assay"' }
    : {};
  if (!clientId || !clientSecret) {
    await limiter.fail(input.caller);
    const where = input.sentAuthorizationHeader ? ' (they go in the request body, not in a header)' : '';
    throw new OAuthFailure(
      401,
      'invalid_client',
      `client_id and client_secret are required${where}`,
      challenge,
    );
  }
  const client = await findClient(db, clientId);
  if (!client || !secretMatches(clientSecret, client.secret_hash)) {
    await limiter.fail(input.caller);
    throw new OAuthFailure(401, 'invalid_client', 'Wrong client credentials', challenge);
  }
  return client;
}

/** The token acts as the client's owner and carries exactly the requested scopes. */
function clientCredentials(client: OAuthClientRow, body: Record<string, unknown>) {
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
  if (!grant || grant.client_id !== client.id) {
    throw new OAuthFailure(400, 'invalid_grant', 'The code is unknown, already used or expired');
  }
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
