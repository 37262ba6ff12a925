/**
 * The statuses of the OpenAPI document that no route schema lists: the real HTTP errors of the
 * guard and the error mapping (http/error-handler.ts), and the sign-in page's HTML answers.
 */

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI objects are untyped here by nature.
type Json = Record<string, any>;

const errorBody = { $ref: '#/components/schemas/HttpErrorBody' };
const jsonError = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: errorBody } },
});
const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** The real HTTP errors of the API, answered by the guard and the error mapping (http/error-handler.ts). */
export const RESPONSES: Json = {
  Unauthorized: jsonError('Missing, malformed, expired or revoked credentials'),
  Forbidden: jsonError(
    'The scope is not granted to these credentials, or read-only credentials (API key, Basic) asked for a write',
  ),
  NotFound: jsonError('Unknown id, variant or language'),
  PayloadTooLarge: jsonError('The request body is larger than the route allows'),
  TooManyRequests: jsonError(
    'Too many failed attempts from this address: wrong API keys or Basic credentials, or calls without credentials',
    {
      'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
    },
  ),
  ServiceUnavailable: jsonError('The database is unavailable; try again in a moment', {
    'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
  }),
};

/** Adds the statuses the server answers that a route schema does not list. */
export function completeResponses(operation: Json, method: string, path: string, guarded: boolean) {
  const responses: Json = operation.responses ?? {};
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const hasBody = method === 'post' || method === 'patch';
  if (guarded) {
    responses['401'] = ref('Unauthorized');
    responses['403'] = ref('Forbidden');
    responses['404'] = ref('NotFound');
    // Wrong API keys and Basic credentials count against the guessing limit, and so do calls
    // without credentials, on any route (auth/guard.ts).
    responses['429'] = ref('TooManyRequests');
    if (hasBody) responses['413'] = ref('PayloadTooLarge');
    responses['503'] = ref('ServiceUnavailable');
  }
  if (path === '/auth/authorize') {
    responses['200'] = html('The sign-in and approval page');
    responses['400'] = html(
      'The request names no known client, or a redirect URI it did not register (HTML)',
    );
    if (method === 'get') {
      responses['302'] = {
        description: 'Back to the redirect URI with an error, when the client can be told',
      };
    } else {
      responses['303'] = { description: 'Back to the redirect URI with the code, or with an error' };
      responses['401'] = html('The page again: the e-mail address or the password is not right (HTML)');
      responses['403'] = html('The sign-in form expired (its CSRF token): sign in again (HTML)');
      responses['429'] = html('The page again: too many failed sign-ins from this address (HTML)');
      operation.requestBody ??= {
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              description:
                'The sign-in form: the parameters of the GET, the form token, the credentials and the decision',
              properties: Object.fromEntries(
                [
                  'response_type',
                  'client_id',
                  'redirect_uri',
                  'scope',
                  'state',
                  'code_challenge',
                  'code_challenge_method',
                  'csrf',
                  'email',
                  'password',
                  'decision',
                ].map((name) => [name, { type: 'string' }]),
              ),
            },
          },
        },
      };
    }
  }
  operation.responses = responses;
}
