import { ErrorEnvelope, HttpErrorBody, Ok } from '@assay/schema';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import Type, { type Static, type TSchema } from 'typebox';
import { BusinessError } from '../domain/errors.js';
import { okArrayStream } from './json-stream.js';
import { validate } from './validator.js';

/** Where the interface's API lives: every route of the families is below it. */
export const API_PREFIX = '/api/v1';

/**
 * The instance a routes plugin is given: each handler's params, query and body are typed from its
 * route's TypeBox schemas (the ones that validate them), never cast. A route that turns validation
 * off (its own validatorCompiler) is typed from its schemas all the same: pass such a body on as
 * `unknown` to what checks it.
 */
export type ApiInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The documented answers of an API route: its data in the envelope, a business ERROR, the HTTP errors. */
export function responses(data: TSchema, description?: string) {
  return {
    200: Type.Union([Ok(data), ErrorEnvelope], { description: description ?? 'JSend envelope' }),
    401: HttpErrorBody,
    403: HttpErrorBody,
    404: HttpErrorBody,
  };
}

/**
 * A list answer streamed as its rows are read (`{"status":"OK","data":[...]}` written a batch at a
 * time). The route's response schema documents it; a stream is not typed by it, hence the plain reply.
 */
export function sendOkArray<T>(
  reply: FastifyReply,
  batches: AsyncIterable<T[]>,
  map: (row: T) => unknown,
): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(okArrayStream(batches, map));
}

/** A path parameter that is an id; an unknown or malformed one answers 404. */
export const idParams = <K extends string>(...names: K[]) =>
  Type.Object(
    Object.fromEntries(
      names.map((name) => [
        name,
        Type.String({ pattern: '^[0-9A-Za-z]{10}$', description: 'a 10-character id' }),
      ]),
    ) as {
      [P in K]: ReturnType<typeof Type.String>;
    },
  );

/**
 * The fields of a body a handler reads one by one (a form, or whatever was sent to a route that
 * checks its body itself): the object sent, or none.
 */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return isObject(body) ? body : {};
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The spec: "the body must be empty". An empty JSON object (or `null`) is taken as empty too. */
export function requireEmptyBody(body: unknown): void {
  const empty =
    body === undefined ||
    body === null ||
    body === '' ||
    (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) throw new BusinessError('body: must be empty');
}

/**
 * A request part that the handler validates itself (an optional body, a body that is JSON or CSV),
 * checked and typed by the same schema as any other part.
 */
export function validated<T extends TSchema>(schema: T, value: unknown, part: 'body' | 'query'): Static<T> {
  // The validator answers the value coerced to the schema, or throws.
  return validate(schema, value, part) as Static<T>;
}
