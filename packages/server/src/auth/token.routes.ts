import { OAuthError, Ok, TokenData, TokenRequest } from '@assay/schema';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { ok } from '../http/envelope.js';
import type { FailureLimiter } from './rate-limit.js';
import { issueToken, OAuthFailure } from './token.service.js';
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
      schema: {
        summary: 'Request an access token (client_credentials); form encoded only',
        tags: ['auth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: { 200: Ok(TokenData), 400: OAuthError, 401: OAuthError, 429: OAuthError, 500: OAuthError },
      },
      // The body is read raw and checked by the grant, so that a JSON body gets an OAuth error.
      validatorCompiler: () => (value) => ({ value }),
      errorHandler: (error, request, reply) => {
        const failure =
          error instanceof OAuthFailure
            ? error
            : new OAuthFailure(
                400,
                'invalid_request',
                'The token request must be application/x-www-form-urlencoded',
              );
        if (failure.statusCode >= 500 && !(error instanceof OAuthFailure)) request.log.error({ err: error });
        reply
          .code(failure.statusCode as 400)
          .headers({ ...failure.headers, 'cache-control': 'no-store' })
          .send({ error: failure.error, error_description: failure.message, message: failure.message });
      },
    },
    async (request, reply) => {
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      const data = await issueToken(db, tokens, limiter, {
        contentType: (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
        body: body as Record<string, unknown>,
        caller: request.ip,
        sentAuthorizationHeader: request.headers.authorization !== undefined,
      });
      reply.header('cache-control', 'no-store');
      return ok(data);
    },
  );
}
