import type { ColumnType, Insertable, Selectable } from 'kysely';

export interface UserTable {
  id: string;
  email: string;
  /** `caseFold(email)`: what makes an address unique regardless of case. */
  email_key: string;
  firstname: string;
  lastname: string;
  color: string;
  agencyname: string;
  agencyfooter: string;
  role: 'admin' | 'user';
  password_hash: string | null;
  created: string;
  /** When the user was deactivated (no sign-in, their clients' tokens and API keys refused); null: active. */
  deactivated: ColumnType<string | null, string | null | undefined, string | null>;
}
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;

export interface OAuthClientTable {
  id: string;
  name: string;
  user_id: string;
  /** SHA-256 of the secret: secrets are 256 random bits, so a slow hash adds nothing (see docs/security.md). */
  secret_hash: string;
  /** Raised on every change; tokens carry it, so tokens from before a change stop working. */
  secret_version: number;
  /** Space-separated enabled scopes. */
  scopes: string;
  /** JSON array of registered redirect URIs (Authorization Code flow). */
  redirect_uris: string;
  created: string;
  updated: string;
  /**
   * RFC 7591: `unclaimed` for a client that registered itself and no user has approved yet (its
   * `user_id` is then the admin who holds it meanwhile), `claimed` once the first user to approve it
   * became its owner; null for a client an operator made. Registered clients are public: no secret.
   */
  registration: 'unclaimed' | 'claimed' | null;
}
export type OAuthClientRow = Selectable<OAuthClientTable>;

export interface ApiKeyTable {
  id: string;
  user_id: string;
  key_hash: string;
  name: string;
  scopes: string;
  created: string;
  revoked: string | null;
}
export type ApiKeyRow = Selectable<ApiKeyTable>;

export interface SigningKeyTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created: string;
  retired: string | null;
}
export type SigningKeyRow = Selectable<SigningKeyTable>;

export interface OAuthCodeTable {
  /** SHA-256 of the code: the code itself is only ever in the redirect. */
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  /** 1 when the authorization request named redirect_uri, 0 when it fell back to the registered one. */
  redirect_given: number;
  scopes: string;
  /** The PKCE S256 challenge, when the client sent one. */
  code_challenge: string | null;
  expires: string;
  used: string | null;
  created: string;
}
export type OAuthCodeRow = Selectable<OAuthCodeTable>;

/** An access token its client revoked (RFC 7009), kept until the token would have expired. */
export interface OAuthRevokedTokenTable {
  /** The token's `jti` claim. */
  jti: string;
  client_id: string;
  /** When the token expires: past it the row is of no more use and goes. */
  expires: string;
  revoked: string;
}
