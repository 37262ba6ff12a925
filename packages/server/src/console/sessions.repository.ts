import type { Insertable, Kysely } from 'kysely';
import type { UserRow } from '../auth/auth.table.js';
import type { Database } from '../db/database.js';
import type { ConsoleSessionRow, ConsoleSignInLinkTable } from './console.table.js';

// The console's sessions and one-time sign-in links (console.table.ts). Nothing is cached in a
// process: a session ended here is ended for every process on the same database at once.

export async function insertSession(db: Kysely<Database>, row: ConsoleSessionRow): Promise<void> {
  await db.insertInto('console_sessions').values(row).execute();
}

/** A session with its user, by the hash of the cookie's value. */
export async function findSession(
  db: Kysely<Database>,
  idHash: string,
): Promise<{ session: ConsoleSessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id_hash',
      's.user_id',
      's.csrf',
      's.language',
      's.created as session_created',
      's.last_seen',
      'u.id',
      'u.email',
      'u.email_key',
      'u.firstname',
      'u.lastname',
      'u.color',
      'u.agencyname',
      'u.agencyfooter',
      'u.role',
      'u.password_hash',
      'u.created',
      'u.deactivated',
    ])
    .where('s.id_hash', '=', idHash)
    // A deactivated user's sessions open nothing, whatever process has not yet seen them end.
    .where('u.deactivated', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { id_hash, user_id, csrf, language, session_created, last_seen, ...user } = row;
  return {
    session: { id_hash, user_id, csrf, language, created: session_created, last_seen },
    user,
  };
}

/** Moves a session's last sight forward. */
export async function touchSession(db: Kysely<Database>, idHash: string, now: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen: now }).where('id_hash', '=', idHash).execute();
}

export async function setSessionLanguage(
  db: Kysely<Database>,
  idHash: string,
  language: string | null,
): Promise<void> {
  await db.updateTable('console_sessions').set({ language }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user but the one named (none: all of them); answers how many ended. */
export async function deleteUserSessions(
  db: Kysely<Database>,
  userId: string,
  except?: string,
): Promise<number> {
  let query = db.deleteFrom('console_sessions').where('user_id', '=', userId);
  if (except) query = query.where('id_hash', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Forgets sessions last seen at or before `before`. */
export async function sweepSessions(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('last_seen', '<=', before).execute();
}

export async function insertSignInLink(
  db: Kysely<Database>,
  row: Insertable<ConsoleSignInLinkTable>,
): Promise<void> {
  await db.insertInto('console_sign_in_links').values(row).execute();
}

/** The address of the user an unused sign-in link (unexpired at `now`) signs in; the link stays unused. */
export async function findSignInLink(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<{ email: string } | undefined> {
  return db
    .selectFrom('console_sign_in_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select('u.email')
    .where('l.token_hash', '=', tokenHash)
    .where('l.purpose', '=', 'sign-in')
    .where('l.used', 'is', null)
    .where('l.expires', '>', now)
    .executeTakeFirst();
}

/**
 * Uses a sign-in link once: answers its user id when the link was unused and not expired at `now`
 * (and marks it used in the same statement, so two processes cannot both take it).
 */
export async function consumeSignInLink(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('console_sign_in_links')
    .set({ used: now })
    .where('token_hash', '=', tokenHash)
    // An invitation's link sets a password first (invitations.service.ts): it never signs in alone.
    .where('purpose', '=', 'sign-in')
    .where('used', 'is', null)
    .where('expires', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** How many sessions a user has open. */
export async function countUserSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('console_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
