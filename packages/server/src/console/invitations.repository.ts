import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

// Invitations to become a platform user: one-time links of console_sign_in_links whose purpose is
// `invitation` (console.table.ts). A user has at most one open (unused) invitation: a new one
// replaces the old in the same transaction.

/** An invitation not used yet (it may have expired). */
export interface OpenInvitation {
  user_id: string;
  created: string;
  expires: string;
  language: string | null;
}

/** The open invitations of every user (or of one). */
export async function listOpenInvitations(db: Kysely<Database>, userId?: string): Promise<OpenInvitation[]> {
  let query = db
    .selectFrom('console_sign_in_links')
    .select(['user_id', 'created', 'expires', 'language'])
    .where('purpose', '=', 'invitation')
    .where('used', 'is', null);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('created').execute();
}

/** Forgets a user's open invitations: their links stop working. Answers how many. */
export async function deleteOpenInvitations(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db
    .deleteFrom('console_sign_in_links')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'invitation')
    .where('used', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The invitation a link's hash opens at `now`, with its user: unused, unexpired, the user active. */
export async function findUsableInvitation(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<
  | {
      user_id: string;
      expires: string;
      language: string | null;
      firstname: string;
      lastname: string;
      email: string;
    }
  | undefined
> {
  return db
    .selectFrom('console_sign_in_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.user_id', 'l.expires', 'l.language', 'u.firstname', 'u.lastname', 'u.email'])
    .where('l.token_hash', '=', tokenHash)
    .where('l.purpose', '=', 'invitation')
    .where('l.used', 'is', null)
    .where('l.expires', '>', now)
    .where('u.deactivated', 'is', null)
    .executeTakeFirst();
}

/**
 * Uses an invitation's link once: answers its user and language when it was usable at `now` (and
 * marks it used in the same statement, so two submissions cannot both take it).
 */
export async function consumeInvitation(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<{ user_id: string; language: string | null } | undefined> {
  return db
    .updateTable('console_sign_in_links')
    .set({ used: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', 'invitation')
    .where('used', 'is', null)
    .where('expires', '>', now)
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('deactivated', 'is', null))
    .returning(['user_id', 'language'])
    .executeTakeFirst();
}

/**
 * Removes a user who is still only invited (no password, an open invitation): a cancelled
 * invitation leaves nothing behind and frees the address. False when the user is not that.
 */
export async function deleteInvitedUser(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('id', '=', userId)
    .where('password_hash', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('console_sign_in_links')
          .select('token_hash')
          .where('console_sign_in_links.user_id', '=', userId)
          .where('purpose', '=', 'invitation')
          .where('used', 'is', null),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
