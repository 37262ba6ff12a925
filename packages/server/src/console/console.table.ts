import type { Selectable } from 'kysely';

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

/** A one-time sign-in link (the first start prints one for the admin). */
export interface ConsoleSignInLinkTable {
  token_hash: string;
  user_id: string;
  expires: string;
  used: string | null;
  created: string;
}
