import type { TokenData } from './types.js';

/** OAuth 2.0 client credentials: read and write. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /**
   * The families to put in every token (`['members', 'groups']` or `'members groups'`). Left out, the
   * client asks for the families as it calls them: the first call of a new family gets a token that
   * adds that family to those used so far, so a client that has only some scopes enabled works for
   * those without configuration.
   */
  scopes?: readonly string[] | string;
  apiKey?: never;
  basic?: never;
  accessToken?: never;
}

/** An API key (`X-API-Key`): read-only. */
export interface ApiKeyCredentials {
  apiKey: string;
  clientId?: never;
  clientSecret?: never;
  scopes?: never;
  basic?: never;
  accessToken?: never;
}

/** HTTP Basic with a client's id and secret: read-only. */
export interface BasicCredentials {
  basic: { clientId: string; clientSecret: string };
  clientId?: never;
  clientSecret?: never;
  scopes?: never;
  apiKey?: never;
  accessToken?: never;
}

/**
 * An access token obtained elsewhere (a standard OAuth library, the authorization code flow, an
 * MCP request): sent as it is with every call, never renewed; its scopes are what it may do.
 */
export interface AccessTokenCredentials {
  accessToken: string;
  clientId?: never;
  clientSecret?: never;
  scopes?: never;
  apiKey?: never;
  basic?: never;
}

export type Credentials = ClientCredentials | ApiKeyCredentials | BasicCredentials | AccessTokenCredentials;

interface Held {
  token: string;
  data: TokenData;
  /** The families the token was requested with. */
  scopes: ReadonlySet<string>;
  /** When the token is renewed (client clock, ms): shortly before it expires. */
  renewAt: number;
}

export interface TokenManagerOptions {
  /** Asks the token endpoint for a token with these space-separated scopes. */
  request: (scope: string) => Promise<TokenData>;
  scopes: readonly string[] | string | undefined;
  now: () => number;
  /** How long before `expires_in` runs out a token is renewed (ms). */
  renewBeforeMs: number;
}

/**
 * Holds one access token for a block of calls and renews it shortly before it expires, by asking
 * for a new one with the client credentials (there is no refresh token). Concurrent calls that need
 * a token share one token request.
 */
export class TokenManager {
  private held: Held | undefined;
  private pending: { readonly scopes: ReadonlySet<string>; promise: Promise<Held> } | undefined;
  private readonly fixed: ReadonlySet<string> | undefined;
  /** Auto mode: every family a token was granted for so far. */
  private readonly known = new Set<string>();

  constructor(private readonly options: TokenManagerOptions) {
    const scopes = options.scopes;
    if (scopes !== undefined) {
      const list = typeof scopes === 'string' ? scopes.split(/\s+/) : scopes;
      this.fixed = new Set(list.filter(Boolean));
    }
  }

  /** The token to use now for a call of this family, if one is held and fresh. */
  current(family: string): string | undefined {
    const held = this.held;
    if (held && this.options.now() < held.renewAt && (this.fixed || held.scopes.has(family))) {
      return held.token;
    }
    return undefined;
  }

  /** A fresh token for a call of this family: the one held, or a new one. */
  async get(family: string): Promise<string> {
    return (await this.acquire(family)).token;
  }

  /** The token data of a fresh token for this family (for inspection and tests). */
  async acquire(family: string): Promise<TokenData & { token: string }> {
    for (;;) {
      const held = this.held;
      if (held && this.current(family) !== undefined) return { ...held.data, token: held.token };
      const pending = this.pending;
      if (pending) {
        if (this.fixed || pending.scopes.has(family)) {
          const got = await pending.promise;
          return { ...got.data, token: got.token };
        }
        // A request under way for other families: wait for it, then ask for one covering both.
        await pending.promise.catch(() => undefined);
        continue;
      }
      this.start(family);
    }
  }

  /** Forgets a token the server refused (401), so that the next call gets a new one. */
  drop(token: string): void {
    if (this.held?.token === token) this.held = undefined;
  }

  /** Forgets the token held: the next call asks for a new one. */
  reset(): void {
    this.held = undefined;
  }

  private start(family: string): void {
    const scopes = this.fixed ?? new Set([...this.known, family]);
    const startedAt = this.options.now();
    const entry = { scopes, promise: Promise.resolve() as unknown as Promise<Held> };
    this.pending = entry;
    entry.promise = (async (): Promise<Held> => {
      // Nothing runs before `pending` is in place, so every waiter sees this request's outcome.
      await undefined;
      try {
        const data = await this.options.request([...scopes].join(' '));
        const seconds = typeof data.expires_in === 'number' && data.expires_in > 0 ? data.expires_in : 3600;
        const lifetime = seconds * 1000;
        const margin = Math.min(this.options.renewBeforeMs, lifetime / 2);
        const held: Held = { token: data.access_token, data, scopes, renewAt: startedAt + lifetime - margin };
        for (const scope of scopes) this.known.add(scope);
        this.held = held;
        return held;
      } finally {
        if (this.pending === entry) this.pending = undefined;
      }
    })();
  }
}

/** The value of an `Authorization: Basic` header: base64 of `id:secret` in UTF-8. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
