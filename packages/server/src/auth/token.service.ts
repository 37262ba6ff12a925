import type { Scope, TokenData } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { findClient } from './auth.repository.js';
import type { FailureLimiter } from './rate-limit.js';
import { secretMatches } from './secrets.js';
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

export interface TokenRequestInput {
  /** The request's Content-Type, without parameters. */
  contentType: string;
  body: Record<string, unknown>;
  /** Where the request came from, for the guessing limit. */
  caller: string;
  /** Whether an Authorization header was sent: the spec wants the credentials in the body. */
  sentAuthorizationHeader: boolean;
}

const field = (body: Record<string, unknown>, name: string) =>
  typeof body[name] === 'string' ? (body[name] as string) : undefined;

/** The client_credentials grant, with every refusal the spec and RFC 6749 describe. */
export async function issueToken(
  db: Kysely<Database>,
  tokens: TokenService,
  limiter: FailureLimiter,
  input: TokenRequestInput,
): Promise<TokenData> {
  if (input.contentType !== 'application/x-www-form-urlencoded') {
    throw new OAuthFailure(
      400,
      'invalid_request',
      'The token request must be application/x-www-form-urlencoded',
    );
  }
  const grantType = field(input.body, 'grant_type');
  if (!grantType) throw new OAuthFailure(400, 'invalid_request', 'grant_type: is required');
  if (grantType !== 'client_credentials') {
    const why =
      grantType === 'refresh_token' ? 'refresh tokens are not issued: request a new token' : 'not supported';
    throw new OAuthFailure(400, 'unsupported_grant_type', `grant_type ${grantType}: ${why}`);
  }
  const wait = limiter.retryAfter(input.caller);
  if (wait > 0) {
    throw new OAuthFailure(429, 'slow_down', `Too many failed attempts: try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const clientId = field(input.body, 'client_id');
  const clientSecret = field(input.body, 'client_secret');
  if (!clientId || !clientSecret) {
    limiter.fail(input.caller);
    const where = input.sentAuthorizationHeader ? ' (they go in the request body, not in a header)' : '';
    throw new OAuthFailure(401, 'invalid_client', `client_id and client_secret are required${where}`);
  }
  const client = await findClient(db, clientId);
  if (!client || !secretMatches(clientSecret, client.secret_hash)) {
    limiter.fail(input.caller);
    throw new OAuthFailure(401, 'invalid_client', 'Wrong client credentials');
  }
  const requested = [...new Set((field(input.body, 'scope') ?? '').split(/[\s+]+/).filter(Boolean))];
  if (requested.length === 0) {
    throw new OAuthFailure(400, 'invalid_scope', 'scope: name the families to call, e.g. "members groups"');
  }
  const enabled = client.scopes.split(' ');
  const refused = requested.filter((scope) => !enabled.includes(scope));
  if (refused.length > 0) {
    throw new OAuthFailure(400, 'invalid_scope', `scope: not enabled for this client: ${refused.join(' ')}`);
  }
  const accessToken = await tokens.sign({
    userId: client.user_id,
    clientId: client.id,
    secretVersion: client.secret_version,
    scopes: requested as Scope[],
  });
  if (!accessToken) throw new OAuthFailure(500, 'server_error', 'Invalid key supplied');
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: TOKEN_LIFETIME_SECONDS,
    scope: requested.join(' '),
  };
}
