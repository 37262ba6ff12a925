/**
 * Domain errors: what services, the scheduler and the CLI commands throw when a request cannot be
 * done. They know nothing of HTTP or Fastify. Two places map them, each in one function:
 * `http/error-handler.ts` (`wireAnswer`) to the wire's statuses and envelopes, and `cli/errors.ts`
 * (`cliFailure`) to the command line's message and exit code.
 */

/** The root of every domain error, so an adapter can tell them from bugs. */
export abstract class DomainError extends Error {}

/**
 * A business failure: validation, duplicates, refused moves. On the wire HTTP 200
 * `{ status: "ERROR", data: message }`; the message names the field (`email: is required`).
 */
export class BusinessError extends DomainError {
  override name = 'BusinessError';
}

/** A thing the caller named (by id, alias or token) does not exist, or not for this caller. */
export class NotFound extends DomainError {
  override name = 'NotFound';
  constructor(readonly what: string) {
    super(`${what} not found`);
  }
}

/** The caller is known but may not do this (a scope not granted, read-only credentials). */
export class Forbidden extends DomainError {
  override name = 'Forbidden';
}

/** The caller could not be identified: no, wrong, expired or revoked credentials. */
export class Unauthenticated extends DomainError {
  override name = 'Unauthenticated';
}

/** Too many failed attempts from one caller: refused until `retryAfterSeconds` have passed. */
export class TooManyAttempts extends DomainError {
  override name = 'TooManyAttempts';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new NotFound(what);
export const unauthorized = (message: string) => new Unauthenticated(message);
export const forbidden = (message: string) => new Forbidden(message);

/** The answer to PATCH /members/{id} carrying a group field, word for word from the spec. */
export const accessDenied = () => new BusinessError('Access denied');
