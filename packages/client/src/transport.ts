import { basicAuthorization, type Credentials, TokenManager } from './auth.js';
import { AssayError, type CallInfo, HttpError } from './errors.js';
import { asIs, type Reader, tokenData } from './normalise.js';
import type { TokenData } from './types.js';

/** Everything but the credentials. */
export interface TransportOptions {
  /**
   * The instance address (`http://localhost:8080`) or the API base (`http://localhost:8080/api/v1`);
   * `/api/v1` is added when the address does not end with it.
   */
  baseUrl: string;
  /** The `fetch` to use (default: the platform's). */
  fetch?: typeof fetch;
  /** How many times a call answered 429 is repeated after waiting as `Retry-After` says (default 3). */
  retries?: number;
  /** The longest wait for a 429 the client accepts (ms, default 60,000); a longer `Retry-After` fails at once. */
  maxRetryDelayMs?: number;
  /** How long before `expires_in` runs out a token is renewed (seconds, default 60; at most half its lifetime). */
  renewBeforeSeconds?: number;
  /** The client's clock (ms since the epoch), for token lifetimes. Default `Date.now`. */
  now?: () => number;
  /**
   * Tolerant reading (default true): results are brought to the types the spec documents (see the
   * README). `false` gives `data` exactly as the server sent it.
   */
  tolerant?: boolean;
  /** Headers sent with every call (e.g. a `User-Agent` of your own). */
  headers?: Record<string, string>;
}

export type AssayClientOptions = TransportOptions & Credentials;

/** A request body: JSON (any value), or text with its content type (CSV). */
export type Body = { json: unknown } | { text: string; contentType: string };

export interface CallOptions {
  body?: Body;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

const API_SUFFIX = '/api/v1';
const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The API base (`…/api/v1`, no trailing slash) of an instance address or API base. */
export function apiBase(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith(API_SUFFIX) ? trimmed : `${trimmed}${API_SUFFIX}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a `Retry-After` asks for (seconds or an HTTP date); a backoff when there is none. */
export function retryDelay(header: string | null, attempt: number): number {
  if (header !== null && header.trim() !== '') {
    const seconds = Number(header.trim());
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/** Reads a body that failed: its JSON when it is JSON, else its text. */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Sends calls: credentials on each, 401 answered by one new token, 429 waited out, real HTTP
 * statuses turned into `HttpError`, and JSend envelopes unwrapped (`ERROR` into `AssayError`).
 */
export class Transport {
  readonly base: string;
  readonly tolerant: boolean;
  private readonly fetch: typeof fetch;
  private readonly retries: number;
  private readonly maxRetryDelayMs: number;
  private readonly headers: Record<string, string>;
  private readonly tokens: TokenManager | undefined;
  /** The fixed Authorization or X-API-Key header of read-only credentials. */
  private readonly fixedAuth: Record<string, string>;

  constructor(options: AssayClientOptions) {
    if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
      throw new TypeError('baseUrl: the instance address is required, e.g. http://localhost:8080');
    }
    this.base = apiBase(options.baseUrl);
    this.tolerant = options.tolerant !== false;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.retries = Math.max(0, options.retries ?? 3);
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.headers = { accept: 'application/json', ...options.headers };
    this.fixedAuth = {};
    if (typeof options.apiKey === 'string') {
      this.fixedAuth['x-api-key'] = options.apiKey;
    } else if (options.basic) {
      this.fixedAuth.authorization = basicAuthorization(options.basic.clientId, options.basic.clientSecret);
    } else if ('accessToken' in options) {
      if (typeof options.accessToken !== 'string' || options.accessToken.trim() === '')
        throw new TypeError('accessToken must be a non-empty string');
      this.fixedAuth.authorization = `Bearer ${options.accessToken.trim()}`;
    } else if ('clientId' in options || 'clientSecret' in options) {
      const { clientId, clientSecret } = options;
      if (
        typeof clientId !== 'string' ||
        clientId === '' ||
        typeof clientSecret !== 'string' ||
        clientSecret === ''
      ) {
        throw new TypeError(
          `clientId and clientSecret must be non-empty strings (clientId is ${clientId === '' ? 'empty' : String(clientId)}, clientSecret is ${clientSecret ? 'set' : 'missing'})`,
        );
      }
      this.tokens = new TokenManager({
        request: (scope) => this.requestToken(clientId, clientSecret, scope),
        scopes: options.scopes,
        now: options.now ?? Date.now,
        renewBeforeMs: (options.renewBeforeSeconds ?? 60) * 1000,
      });
    } else {
      throw new TypeError('credentials: give clientId and clientSecret, apiKey, basic, or accessToken');
    }
  }

  /** The token manager of client credentials (undefined for an API key or Basic). */
  get tokenManager(): TokenManager | undefined {
    return this.tokens;
  }

  /** A JSON call: the JSend envelope unwrapped, `data` read by `read` (when reading tolerantly). */
  async call<T>(method: string, path: string, read?: Reader<T>, options: CallOptions = {}): Promise<T> {
    const info = { method, path };
    const response = await this.send(method, path, options, true);
    return this.unwrap(response, info, this.tolerant && read ? read : (asIs as Reader<T>));
  }

  /**
   * A call whose success is not JSON (a PDF): the response itself, once its status is a success and
   * it is not a JSend `ERROR`.
   */
  async binary(method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const response = await this.send(method, path, options, true);
    const type = response.headers.get('content-type') ?? '';
    if (/\bjson\b/i.test(type)) {
      // A JSON answer where a file was expected: an ERROR envelope, or something unexpected.
      const info = { method, path };
      const data = await this.unwrap(response, info, asIs);
      throw new HttpError(response.status, data, info, response.headers, 'expected a file, got JSON');
    }
    return response;
  }

  /** Sends a request, with credentials, 401 renewal and 429 waits; answers a 2xx response. */
  private async send(method: string, path: string, options: CallOptions, authenticate: boolean) {
    let url = this.base + path;
    if (options.query) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(options.query)) {
        if (value !== undefined) query.set(key, String(value));
      }
      const text = query.toString();
      if (text) url += `?${text}`;
    }
    const headers: Record<string, string> = { ...this.headers, ...(authenticate ? this.fixedAuth : {}) };
    let payload: string | undefined;
    const body = options.body;
    if (body !== undefined) {
      if ('json' in body) {
        payload = JSON.stringify(body.json);
        headers['content-type'] = 'application/json';
      } else {
        payload = body.text;
        headers['content-type'] = body.contentType;
      }
    }
    const family = path.split('/')[1] ?? '';
    let renewed = false;
    let waited = 0;
    for (;;) {
      let token: string | undefined;
      if (authenticate && this.tokens) {
        token = this.tokens.current(family) ?? (await this.tokens.get(family));
        headers.authorization = `Bearer ${token}`;
      }
      const response = await this.fetch(url, { method, headers, body: payload, signal: options.signal });
      if (response.ok) return response;
      const info = { method, path };
      if (response.status === 401 && token !== undefined && !renewed) {
        // The token expired early or was revoked (its client changed): one new token, one retry.
        await response.body?.cancel();
        this.tokens?.drop(token);
        renewed = true;
        continue;
      }
      if (response.status === 429 && waited < this.retries) {
        const delay = retryDelay(response.headers.get('retry-after'), waited);
        if (delay <= this.maxRetryDelayMs) {
          await response.body?.cancel();
          waited++;
          await sleep(delay);
          continue;
        }
      }
      throw new HttpError(response.status, await errorBody(response), info, response.headers);
    }
  }

  /** Unwraps a JSend envelope: `OK` gives `data` through `read`, `ERROR` throws `AssayError`. */
  private async unwrap<T>(response: Response, info: CallInfo, read: Reader<T>): Promise<T> {
    const text = await response.text();
    // An empty success (204, or an instance that answers nothing) is the empty string of the spec.
    if (text === '') return read('');
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      throw new HttpError(response.status, text, info, response.headers, 'the answer is not JSON');
    }
    if (isRow(envelope)) {
      const status = envelope.status;
      if (status === 'OK') return read(envelope.data);
      if (status === 'ERROR') throw new AssayError(envelope.data, info);
      // Other spellings of JSend seen in the wild.
      const word = typeof status === 'string' ? status.toUpperCase() : '';
      if (word === 'OK' || word === 'SUCCESS') return read(envelope.data);
      if (word === 'ERROR' || word === 'FAIL') throw new AssayError(envelope.data ?? envelope.message, info);
    }
    throw new HttpError(
      response.status,
      envelope,
      info,
      response.headers,
      'the answer is not a JSend envelope',
    );
  }

  /** POST {base}/auth/access_token, form encoded, with the credentials in the body. */
  private async requestToken(clientId: string, clientSecret: string, scope: string): Promise<TokenData> {
    const path = '/auth/access_token';
    const info = { method: 'POST', path };
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope,
    });
    const response = await this.send(
      'POST',
      path,
      { body: { text: form.toString(), contentType: 'application/x-www-form-urlencoded' } },
      false,
    );
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(response.status, text, info, response.headers, 'the token answer is not JSON');
    }
    let data: unknown = body;
    if (isRow(body) && 'status' in body) {
      // The spec's JSend envelope; a plain RFC 6749 answer is read too.
      if (String(body.status).toUpperCase() !== 'OK') throw new AssayError(body.data ?? body.message, info);
      data = body.data;
    }
    if (!isRow(data) || typeof data.access_token !== 'string' || data.access_token === '') {
      throw new HttpError(
        response.status,
        body,
        info,
        response.headers,
        'the token answer has no access_token',
      );
    }
    tokenData(data);
    return data as unknown as TokenData;
  }
}
