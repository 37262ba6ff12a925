/** Where a failed call went. */
export interface CallInfo {
  method: string;
  /** The path under the API base, e.g. `/members/AbCdEf1234`. */
  path: string;
}

/**
 * A business failure: the API answered `{ "status": "ERROR", "data": ... }` (HTTP 200). `message` is
 * the `data` message (`email: already exists`, `Access denied`, ...; sometimes empty, as for a
 * dupecheck); `data` is what the server sent, unchanged.
 */
export class AssayError extends Error {
  override name = 'AssayError';
  readonly method: string;
  readonly path: string;

  constructor(
    readonly data: unknown,
    call: CallInfo,
  ) {
    super(typeof data === 'string' ? data : data === undefined || data === null ? '' : JSON.stringify(data));
    this.method = call.method;
    this.path = call.path;
  }
}

/**
 * A real HTTP status (401, 403, 404, 405, 413, 429, 5xx; 400 and 401 from the token endpoint), or an
 * answer that is not a JSend envelope. `body` is the parsed JSON when the body was JSON, else its
 * text; `code` is the body's `error` field when it has one (`not_found`, `forbidden`,
 * `invalid_client`, `invalid_scope`, ...).
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly method: string;
  readonly path: string;
  readonly code: string | undefined;

  constructor(
    readonly status: number,
    readonly body: unknown,
    call: CallInfo,
    readonly headers: Headers = new Headers(),
    message?: string,
  ) {
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const text =
      message ??
      (typeof record.message === 'string'
        ? record.message
        : typeof record.error_description === 'string'
          ? record.error_description
          : typeof body === 'string' && body.length > 0 && body.length <= 200
            ? body
            : `HTTP ${status}`);
    super(`${call.method} ${call.path}: ${status} ${text}`);
    this.method = call.method;
    this.path = call.path;
    this.code = typeof record.error === 'string' ? record.error : undefined;
  }
}
