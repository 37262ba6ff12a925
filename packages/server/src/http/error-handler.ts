import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { isDatabaseUnavailable, outageDetails } from '../db/database.js';
import {
  BusinessError,
  DomainError,
  Forbidden,
  NotFound,
  TooManyAttempts,
  Unauthenticated,
} from '../domain/errors.js';
import { failure } from './envelope.js';
import { HttpError } from './errors.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function sendHttpError(reply: FastifyReply, error: HttpError) {
  send(reply, httpAnswer(error));
}

/** What the wire answers for an error: a status, headers and a JSON body. */
export interface WireAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: { status: 'ERROR'; data: string } | { error: string; message: string };
}

const httpAnswer = (error: HttpError): WireAnswer => ({
  statusCode: error.statusCode,
  headers: error.headers,
  body: { error: error.code, message: error.message },
});

/**
 * The one mapping of domain errors to the wire: a business failure is HTTP 200 with the `ERROR`
 * envelope, the others real statuses with `{ error, message }`.
 */
export function wireAnswer(error: DomainError | HttpError): WireAnswer {
  if (error instanceof HttpError) return httpAnswer(error);
  if (error instanceof BusinessError) return { statusCode: 200, headers: {}, body: failure(error.message) };
  if (error instanceof NotFound) return httpAnswer(new HttpError(404, 'not_found', error.message));
  if (error instanceof Forbidden) return httpAnswer(new HttpError(403, 'forbidden', error.message));
  if (error instanceof Unauthenticated) {
    return httpAnswer(
      new HttpError(401, 'unauthorized', error.message, { 'www-authenticate': 'Bearer realm="assay"' }),
    );
  }
  if (error instanceof TooManyAttempts) {
    return httpAnswer(
      new HttpError(429, 'too_many_requests', error.message, {
        'retry-after': String(error.retryAfterSeconds),
      }),
    );
  }
  // A domain error this mapping does not know yet is a bug: never shown, as any other.
  return httpAnswer(new HttpError(500, 'internal_error', 'Internal server error'));
}

/**
 * The HTTP status of an error on a page that has no envelope: a domain error's (not a business
 * failure's, whose wire status 200 is the envelope's) or an HTTP error's own, else the framework's.
 */
export function pageStatusOf(error: unknown): number | undefined {
  if ((error instanceof DomainError && !(error instanceof BusinessError)) || error instanceof HttpError) {
    return wireAnswer(error).statusCode;
  }
  return (error as { statusCode?: number }).statusCode;
}

function send(reply: FastifyReply, answer: WireAnswer) {
  if (answer.statusCode === 200) return reply.code(200).send(answer.body);
  return reply
    .code(answer.statusCode)
    .headers({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...answer.headers })
    .send(answer.body);
}

/** Seconds a request the database could not serve should wait before it is tried again. */
export const DATABASE_RETRY_AFTER = '2';

/** The answer to a request the database could not serve: nothing was wrong with it, try again soon. */
export const databaseUnavailable = () =>
  new HttpError(503, 'service_unavailable', 'The database is unavailable; try again in a moment', {
    'retry-after': DATABASE_RETRY_AFTER,
  });

/** Maps every error to the wire: never a stack trace, never a 5xx with internals. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  // A path no route serves is 404 (or 405) whatever its body, an oversized one too: the route is
  // decided first.
  if (request.is404) return (request.server as unknown as Unrouted).answerUnrouted(request, reply);
  if (error instanceof DomainError || error instanceof HttpError) {
    const answer = wireAnswer(error);
    if (answer.statusCode === 500) request.log.error({ err: error }, 'request failed');
    return send(reply, answer);
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply.code(200).send(failure('body: Content-Type must be application/json'));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendHttpError(reply, new HttpError(413, 'payload_too_large', 'The request body is too large'));
  }
  // PostgreSQL's data exceptions (class 22: a value it cannot take) are the request's fault. The
  // edges refuse such values already; this keeps any that slip through from becoming a 500.
  if (typeof fastifyError.code === 'string' && /^22[0-9A-Z]{3}$/.test(fastifyError.code)) {
    request.log.warn({ err: error }, 'a value reached the database that it cannot store');
    return reply.code(200).send(failure('request: has a value that cannot be stored'));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: outageDetails(error) }, 'database unavailable');
    return sendHttpError(reply, databaseUnavailable());
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendHttpError(reply, new HttpError(status, 'bad_request', fastifyError.message));
  }
  request.log.error({ err: error }, 'request failed');
  return sendHttpError(reply, new HttpError(500, 'internal_error', 'Internal server error'));
}

/** Errors the router meets before any route: a path it cannot decode, a segment over its length. */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendHttpError(reply, new HttpError(404, 'not_found', 'No such resource'));
  }
  return handleError(error, request, reply);
}

/** The app's answer to a request no route serves, for errors raised before a route would run. */
interface Unrouted {
  answerUnrouted(request: FastifyRequest, reply: FastifyReply): void;
}

const pathOf = (url: string) => {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
};

const methodNotAllowed = (reply: FastifyReply, method: string, allowed: readonly string[]) =>
  sendHttpError(
    reply,
    new HttpError(405, 'method_not_allowed', `${method} is not allowed on this path`, {
      allow: allowed.join(', '),
    }),
  );

/**
 * 404 for a path no route knows, 405 with `Allow` for a known path asked with another method.
 * A second router mirrors the registered routes so the concrete path can be matched per method.
 * A path written out in full by a route (`/groups/dupecheck`) is that route's path only: `Allow`
 * lists its methods, not those of `/groups/:groupid`, which would answer 404 for it. The returned
 * hook goes first on the routes with parameters, where such a path would otherwise land.
 */
export function installMethodRules(app: FastifyInstance) {
  const mirror = FindMyWay({ ignoreTrailingSlash: true });
  const literal = new Map<string, string[]>();
  // Routes with parameters whose last segment is written out (`/campaigns/:id/members/invite`):
  // that word is theirs, never an id for `/campaigns/:id/members/:memberid`.
  const tails = FindMyWay({ ignoreTrailingSlash: true });
  const tailWords = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as string[];
    for (const method of methods) {
      if (!mirror.hasRoute(method as 'GET', route.url)) mirror.on(method as 'GET', route.url, () => {});
    }
    const last = route.url.slice(route.url.lastIndexOf('/') + 1);
    if (route.url.includes(':') && !last.startsWith(':') && last !== '') {
      tailWords.add(last);
      for (const method of methods) {
        if (!tails.hasRoute(method as 'GET', route.url)) tails.on(method as 'GET', route.url, () => {});
      }
    }
    if (!route.url.includes(':') && !route.url.includes('*')) {
      const path = pathOf(route.url);
      const known = new Set([...(literal.get(path) ?? []), ...methods]);
      literal.set(
        path,
        METHODS.filter((method) => known.has(method)),
      );
    }
  });
  /** The methods of a written-out path, or undefined when no route writes this path out. */
  const writtenOut = (path: string): string[] | undefined => {
    const known = literal.get(path);
    if (known !== undefined) return known;
    if (!tailWords.has(path.slice(path.lastIndexOf('/') + 1))) return undefined;
    const methods = METHODS.filter((method) => tails.find(method, path) !== null);
    return methods.length > 0 ? methods : undefined;
  };
  const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request.url);
    const allowed = writtenOut(path) ?? METHODS.filter((method) => mirror.find(method, path) !== null);
    if (allowed.length > 0) return methodNotAllowed(reply, request.method, allowed);
    return sendHttpError(reply, new HttpError(404, 'not_found', 'No such resource'));
  };
  app.setNotFoundHandler(unrouted);
  // A decoration, so that every plugin scope's instance (request.server) finds it.
  app.decorate('answerUnrouted', unrouted);
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const allowed = writtenOut(pathOf(request.url));
    if (allowed === undefined || allowed.includes(request.method)) return done();
    methodNotAllowed(reply, request.method, allowed);
  };
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'The request took too long to arrive',
  ],
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers_too_large',
    'The request headers are too large',
  ],
};

/**
 * A request Node's parser refuses before Fastify sees it (a wrong Content-Length, headers over the
 * limit, a timeout): answered in the same `{ error, message }` shape as every other HTTP error.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'bad_request',
    'The request is not valid HTTP',
  ];
  const body = JSON.stringify({ error: code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
