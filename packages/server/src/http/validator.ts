import { BusinessError, notFound } from '../domain/errors.js';
import { compileValidator, type Schema } from '../validation/validator.js';

/** The validator itself is framework-neutral; routes that call it by hand find it here too. */
export { validate } from '../validation/validator.js';

type Validation = { value: unknown } | { error: Error };

/**
 * Fastify's validator compiler: the schema that documents a route part validates it. A path
 * that names no resource that could exist (a malformed id, an unknown alias) is 404.
 */
export function routeValidatorCompiler({ schema, httpPart }: { schema: unknown; httpPart?: string }) {
  if (httpPart === 'headers') return (value: unknown): Validation => ({ value });
  const part = httpPart === 'querystring' ? 'query' : httpPart === 'params' ? 'params' : 'body';
  const check = compileValidator(schema as Schema, part);
  return (value: unknown): Validation => {
    try {
      return { value: check(value) };
    } catch (error) {
      if (part === 'params' && error instanceof BusinessError) return { error: notFound('resource') };
      return { error: error as Error };
    }
  };
}

/** As routeValidatorCompiler, but the body reaches the handler as sent (it checks it itself). */
export function bodyUncheckedCompiler(route: { schema: unknown; httpPart?: string }) {
  return route.httpPart === 'body'
    ? (value: unknown): Validation => ({ value })
    : routeValidatorCompiler(route);
}
