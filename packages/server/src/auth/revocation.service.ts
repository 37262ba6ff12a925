import type { Kysely } from 'kysely';
import { apiActor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import type { FailureLimiter } from './rate-limit.js';
import type { RevokedTokenCache } from './revocations.js';
import { recordRevokedToken } from './revocations.repository.js';
import {
  authenticateClient,
  checkForm,
  field,
  OAuthFailure,
  type TokenRequestInput,
} from './token.service.js';
import type { TokenService } from './tokens.js';

/**
 * RFC 7009 token revocation: the client authenticates as at the token endpoint and names one of
 * its access tokens, which every process refuses from then on (auth/revocations.ts). A token that
 * is unknown, malformed or already expired is answered as done (section 2.2): there is nothing
 * left to revoke. Refresh tokens are not issued, so a `token_type_hint` changes nothing: the token
 * is always looked up as an access token (section 2.1 says to look beyond the hint).
 */
export async function revokeToken(
  db: Kysely<Database>,
  tokens: TokenService,
  revoked: RevokedTokenCache,
  limiter: FailureLimiter,
  input: TokenRequestInput,
  now: Date,
): Promise<void> {
  checkForm(input);
  const client = await authenticateClient(db, limiter, input);
  const token = field(input.body, 'token');
  if (!token) throw new OAuthFailure(400, 'invalid_request', 'token: is required');
  const claims = await tokens.verify(token);
  if (!claims) return;
  // Section 2.1: a client may revoke only its own tokens.
  if (claims.clientId !== client.id) {
    throw new OAuthFailure(400, 'unauthorized_client', 'token: was not issued to this client');
  }
  // The entry names the client that revoked one of its tokens, never the token or its id.
  const actor = apiActor(
    { userId: client.user_id, credential: { kind: 'client', id: client.id } },
    input.caller,
    'oauth',
  );
  await db.transaction().execute(async (trx) => {
    await recordRevokedToken(
      trx,
      { jti: claims.tokenId, clientId: client.id, expiresAt: claims.expiresAt },
      now,
    );
    await recordChange(trx, actor, { resource: 'client', id: client.id, action: 'revoke-token' });
  });
  // This process refuses it from its next call, before PostgreSQL's notice of the insert comes back.
  revoked.revokedNow(claims.tokenId, claims.expiresAt);
}
