import type { FastifyError } from 'fastify';
import { notFormEncoded, OAuthFailure } from '../auth/token.service.js';
import { BusinessError } from '../domain/errors.js';

/** What the body parsers and the database may throw, said the way RFC 6749 section 5.2 says it. */
export function asOAuthFailure(error: FastifyError | Error): OAuthFailure {
  switch ((error as FastifyError).code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return notFormEncoded();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new OAuthFailure(413, 'invalid_request', 'The request body is too large');
  }
  // A body the JSON parser refused: the token endpoint speaks form encoding only.
  if (error instanceof BusinessError) return notFormEncoded();
  return new OAuthFailure(500, 'server_error', 'The token could not be issued; try again');
}
