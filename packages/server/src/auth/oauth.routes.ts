import { SCOPES } from '@assay/schema';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { asOAuthFailure } from '../http/oauth-failure.js';
import { fieldsOf } from '../http/route-schema.js';
import { OAUTH_PATHS } from './oauth-paths.js';
import { FailureLimiter } from './rate-limit.js';
import { REGISTRATION_BODY_MAX, registerClient } from './registration.service.js';
import { targetResources } from './resources.js';
import { revokeToken } from './revocation.service.js';
import { issueToken, OAuthFailure, type TokenRequestInput } from './token.service.js';

/**
 * The client authentication methods of both endpoints (RFC 6749 section 2.3.1), and `none`: a
 * public client (registered by itself, RFC 7591) sends its client_id only.
 */
const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/** Registrations one address may make a minute. */
const REGISTRATIONS_PER_MINUTE = 10;

/** RFC 8414 authorization server metadata: what a standard client discovers the server by. */
export function authorizationServerMetadata(publicUrl: string, registration = false) {
  return {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}/api/v1/auth/authorize`,
    token_endpoint: `${publicUrl}${OAUTH_PATHS.token}`,
    ...(registration ? { registration_endpoint: `${publicUrl}${OAUTH_PATHS.register}` } : {}),
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint: `${publicUrl}${OAUTH_PATHS.revoke}`,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    service_documentation: `${publicUrl}/api/docs`,
  };
}

/** What an RFC endpoint is given of a request. */
const requestInput = (request: FastifyRequest, resources?: readonly string[]): TokenRequestInput => ({
  resources,
  contentType: (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
  body: fieldsOf(request.body),
  caller: request.ip,
  authorization: request.headers.authorization,
  accepts: 'basic-or-body',
});

/** An RFC 6749 section 5.2 error, as the RFC writes it (no JSend, no extra members). */
function sendFailure(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const failure = error instanceof OAuthFailure ? error : asOAuthFailure(error);
  if (failure.error === 'server_error') request.log.error({ err: error }, 'OAuth request failed');
  return reply
    .code(failure.statusCode)
    .headers(failure.headers)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: failure.error, error_description: failure.message }));
}

/**
 * OAuth 2.0 as the RFCs define it, for standard client libraries: the token endpoint of RFC 6749
 * section 5 (plain JSON), revocation (RFC 7009) and the server's metadata (RFC 8414). The same
 * clients, grants, scopes and tokens as the interface's endpoint: both call issueToken, and only
 * the wire differs. Beside them, dynamic client registration (RFC 7591) of public clients.
 */
export async function oauthRoutes(
  app: FastifyInstance,
  { db, dialect, tokens, revoked, limiter, config, clock }: AppContext,
) {
  // Form encoding is parsed in this scope only, as in the interface's token endpoint's.
  await app.register(formbody);
  // RFC 6749 section 5.1: no answer of these endpoints is kept by a cache on the way.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    if (request.url.startsWith('/oauth/'))
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  });
  // The body is read raw and checked by the grant, so that a JSON body gets an OAuth error.
  const options = {
    schema: { hide: true },
    validatorCompiler: () => (value: unknown) => ({ value }),
    errorHandler: sendFailure,
  };

  const resources = targetResources(config.publicUrl);
  const metadata = JSON.stringify(authorizationServerMetadata(config.publicUrl, config.oauthRegistration));
  app.get(OAUTH_PATHS.metadata, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(metadata),
  );

  app.post(OAUTH_PATHS.token, options, async (request, reply) => {
    const data = await issueToken(db, tokens, limiter, requestInput(request, resources));
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(data));
  });

  app.post(OAUTH_PATHS.revoke, options, async (request, reply) => {
    await revokeToken(db, tokens, revoked, limiter, requestInput(request), clock());
    // Section 2.2: 200, and the body is ignored by the client.
    return reply.code(200).send();
  });

  // RFC 7591 dynamic client registration, unless the operator switched it off (then 404).
  if (config.oauthRegistration) {
    const registrations = new FailureLimiter(REGISTRATIONS_PER_MINUTE, clock).share(
      db,
      dialect,
      'registration',
    );
    app.post(
      OAUTH_PATHS.register,
      {
        schema: { hide: true },
        bodyLimit: REGISTRATION_BODY_MAX,
        validatorCompiler: () => (value: unknown) => ({ value }),
        errorHandler: (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) =>
          sendFailure(asRegistrationFailure(error), request, reply),
      },
      async (request, reply) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
        if (type !== 'application/json') throw notJson();
        const registered = await registerClient(db, registrations, {
          body: request.body,
          caller: request.ip,
          now: clock(),
        });
        return reply.code(201).type('application/json; charset=utf-8').send(JSON.stringify(registered));
      },
    );
  }
}

const notJson = () =>
  new OAuthFailure(400, 'invalid_client_metadata', 'The registration must be application/json');

/** A body the parsers refused, as RFC 7591 section 3.2.2 answers it. */
function asRegistrationFailure(error: FastifyError | Error): OAuthFailure {
  if (error instanceof OAuthFailure) return error;
  switch ((error as FastifyError).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new OAuthFailure(
        413,
        'invalid_client_metadata',
        `The registration must be at most ${REGISTRATION_BODY_MAX} bytes`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return notJson();
  }
  if (error instanceof BusinessError)
    return new OAuthFailure(400, 'invalid_client_metadata', 'The registration is not valid JSON');
  return new OAuthFailure(500, 'server_error', 'The client could not be registered; try again');
}
