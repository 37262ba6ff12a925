/**
 * MCP served by the instance at `/mcp` (Streamable HTTP, stateless, JSON answers), authorized as the
 * MCP authorization specification says: the instance is the OAuth 2.0 protected resource, its
 * metadata (RFC 9728) at `/.well-known/oauth-protected-resource/mcp` names the instance's own
 * authorization server, and a request without credentials gets `401` with a `WWW-Authenticate`
 * pointing there.
 *
 * The tools are `@assay/mcp`'s, the same as `assay-mcp` serves over stdio, run over a typed client
 * whose calls go through this app in process (`app.inject`) with the caller's own credentials: a
 * tool can do exactly what the API lets the caller do, checked by the same guard. The tools listed
 * are those the credentials' scopes cover, only the read tools for read-only credentials.
 */

import { createClient } from '@assay/client';
import { createAssayMcpServer } from '@assay/mcp';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { identify, type Principal, scopesInUse } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { BusinessError, TooManyAttempts, Unauthenticated } from '../domain/errors.js';
import { allowedOrigin } from '../http/cross-origin.js';
import { inProcessFetch } from '../http/in-process-fetch.js';

/** Where the protected resource's metadata is, under the instance's public URL. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * RFC 9728 section 2: what an MCP client needs to find the authorization server. No
 * `scopes_supported` (optional): an MCP client asks for every scope listed there, and a user who is
 * not an admin may not allow the admins' families (auth/scope-rules.ts); asking for none, it gets
 * the scopes of the user who allows it (docs/decisions.md, "Authorization Code flow").
 */
export function resourceMetadata(publicUrl: string) {
  return {
    resource: `${publicUrl}/mcp`,
    authorization_servers: [publicUrl],
    bearer_methods_supported: ['header'],
    resource_name: 'Assay MCP',
    resource_documentation: `${publicUrl}/api/docs`,
  };
}

/** The caller's credentials as the typed client sends them again, for the calls of the tools. */
function credentialsOf(request: FastifyRequest) {
  const header = request.headers.authorization ?? '';
  const space = header.indexOf(' ');
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === 'bearer') return { accessToken: value };
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return { basic: { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) } };
  }
  return { apiKey: String(request.headers['x-api-key']) };
}

export async function mcpRoutes(app: FastifyInstance, context: AppContext) {
  const { publicUrl } = context.config;
  // Web pages of the instance's own origin and of those the operator allows (ASSAY_CORS_ORIGINS).
  const origins = new Set([new URL(publicUrl).origin, ...context.config.corsOrigins]);
  const challenge = (error?: string) =>
    `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${publicUrl}${RESOURCE_METADATA_PATH}"`;

  // Errors of this scope are JSON-RPC errors, as an MCP client reads them, never the API's envelope.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send(rpcError(-32600, 'Request too large'));
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.code(415).send(rpcError(-32600, 'The body must be JSON (Content-Type: application/json)'));
    // The app's JSON parser refuses a body it cannot read with a business error.
    if (error instanceof BusinessError || (error.statusCode ?? 500) < 500)
      return reply.code(400).send(rpcError(-32700, 'Parse error: the body is not JSON'));
    request.log.error({ err: error }, 'MCP request failed');
    return reply.code(500).send(rpcError(-32603, 'Internal error'));
  });

  for (const url of [RESOURCE_METADATA_PATH, '/.well-known/oauth-protected-resource']) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return resourceMetadata(publicUrl);
    });
  }

  const notPost = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(rpcError(-32000, 'Method not allowed: this MCP server is stateless, POST only'));
  app.get('/mcp', { schema: { hide: true } }, notPost);
  app.delete('/mcp', { schema: { hide: true } }, notPost);

  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // DNS rebinding: a web page of another origin is refused (MCP, "Security Warning").
    if (request.headers.origin !== undefined && !allowedOrigin(origins, request)) {
      return reply
        .code(403)
        .send(rpcError(-32000, 'Forbidden: requests from web pages of other origins are refused'));
    }
    let principal: Principal;
    try {
      // The first call of an MCP client carries no credentials: its 401 says where to get them.
      principal = await identify(context, request, { missing: 'free' });
    } catch (error) {
      if (error instanceof TooManyAttempts) {
        return reply
          .code(429)
          .header('retry-after', String(error.retryAfterSeconds))
          .send(rpcError(-32000, error.message));
      }
      if (!(error instanceof Unauthenticated)) throw error;
      const given = request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
      return reply
        .code(401)
        .header('www-authenticate', challenge(given ? 'invalid_token' : undefined))
        .send(rpcError(-32001, `Unauthorized: ${error.message}`));
    }

    const client = createClient({
      baseUrl: publicUrl,
      ...credentialsOf(request),
      fetch: inProcessFetch(app, request.ip),
      // A 429 of the API is the caller's to see, at once.
      retries: 0,
    });
    const server = createAssayMcpServer({
      client,
      readOnly: principal.readOnly,
      // A family for admins only is offered while the user is one (auth/scope-rules.ts).
      scopes: await scopesInUse(context.db, principal),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The transport writes the answer itself: the headers set so far (cache-control, and CORS for
    // an allowed web page, http/cross-origin.ts) go onto the raw response first.
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
}
