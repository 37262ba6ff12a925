import type { ColumnType, Selectable } from 'kysely';

/** A signed-in operator's session (the cookie holds the value whose hash is the key). */
export interface ConsoleSessionTable {
  id_hash: string;
  user_id: string;
  /** The form token every console form carries. */
  csrf: string;
  /** The console language chosen; null: the browser's. */
  language: string | null;
  created: string;
  last_seen: string;
}
export type ConsoleSessionRow = Selectable<ConsoleSessionTable>;

/**
 * A one-time link: `sign-in` (the first start prints one for the admin) signs in; `invitation`
 * (mailed to an invited user) leads to a page that sets their password, then signs in.
 */
export interface ConsoleSignInLinkTable {
  token_hash: string;
  user_id: string;
  expires: string;
  used: string | null;
  created: string;
  purpose: ColumnType<SignInLinkPurpose, SignInLinkPurpose | undefined, SignInLinkPurpose>;
  /** The language of an invitation (its mail and page); null for a sign-in link. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
}
export type SignInLinkPurpose = 'sign-in' | 'invitation';
export type ConsoleSignInLinkRow = Selectable<ConsoleSignInLinkTable>;
