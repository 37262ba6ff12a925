/**
 * Answers that belong to HTTP itself, not to the domain: 405 with `Allow`, 413, 429 with
 * `Retry-After`, 503, the router's 404. Domain errors live in `domain/errors.ts`; the error handler
 * maps both to the wire in one place (`wireAnswer`).
 */

/** A failure that has a real HTTP status, answered `{ error: code, message }`. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
