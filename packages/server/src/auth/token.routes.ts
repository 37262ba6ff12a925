import { OAuthError, Ok, TokenData, TokenRequest } from '@assay/schema';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { ok } from '../http/envelope.js';
import { asOAuthFailure } from '../http/oauth-failure.js';
import { fieldsOf } from '../http/route-schema.js';
import type { FailureLimiter } from './rate-limit.js';
import { issueToken, OAuthFailure, unknownCode } from './token.service.js';
import type { TokenService } from './tokens.js';

interface Options {
  db: Kysely<Database>;
  tokens: TokenService;
  limiter: FailureLimiter;
}

/** POST {base_url}/auth/access_token: the only token endpoint. */
export async function tokenRoutes(app: FastifyInstance, { db, tokens, limiter }: Options) {
  // Form encoding is parsed in this scope only: everywhere else a form body is refused.
  await app.register(formbody);
  app.post(
    '/auth/access_token',
    {
      config: { guard: 'public' },
      schema: {
        summary: 'Request an access token (client_credentials); form encoded only',
        tags: ['auth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: {
          200: Ok(TokenData),
          400: OAuthError,
          401: OAuthError,
          413: OAuthError,
          429: OAuthError,
          500: OAuthError,
        },
      },
      // The body is read raw and checked by the grant, so that a JSON body gets an OAuth error.
      validatorCompiler: () => (value) => ({ value }),
      errorHandler: (error, request, reply) => {
        const refused = error instanceof OAuthFailure ? error : asOAuthFailure(error);
        // This endpoint has always said a refused code one way, and stays as it was: the cause the
        // RFC endpoint names (a client that cannot use the grant) is an unknown code here.
        const failure = refused.error === 'unauthorized_client' ? unknownCode() : refused;
        if (failure.error === 'server_error') request.log.error({ err: error }, 'token request failed');
        reply
          .code(failure.statusCode as 400)
          .headers({ ...failure.headers, 'cache-control': 'no-store' })
          .send({ error: failure.error, error_description: failure.message, message: failure.message });
      },
    },
    async (request, reply) => {
      const data = await issueToken(db, tokens, limiter, {
        contentType: (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
        body: fieldsOf(request.body),
        caller: request.ip,
        authorization: request.headers.authorization,
        accepts: 'body',
      });
      reply.header('cache-control', 'no-store');
      return ok(data);
    },
  );
}
