/**
 * Domain errors. Services throw these; `http/error-handler.ts` is the one place that maps them to
 * the wire: a business failure is HTTP 200 `{ status: "ERROR", data: message }`, the others are real
 * HTTP statuses with `{ error, message }`.
 */

/** A business failure: validation, duplicates, refused moves. The message names the field. */
export class BusinessError extends Error {
  override name = 'BusinessError';
}

/** A failure that has a real HTTP status (401, 403, 404, 405, 413, 429). */
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

export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);
export const unauthorized = (message: string) =>
  new HttpError(401, 'unauthorized', message, { 'www-authenticate': 'Bearer realm="assay"' });
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);

/** The answer to PATCH /members/{id} carrying a group field, word for word from the spec. */
export const accessDenied = () => new BusinessError('Access denied');
