import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import type { UserRow } from '../auth/auth.table.js';
import { hashSecret } from '../auth/secrets.js';
import type { Database } from '../db/database.js';
import { withinTransaction } from '../db/within-transaction.js';
import { formatDate } from '../util/dates.js';
import type { ConsoleSessionRow } from './console.table.js';
import * as repo from './sessions.repository.js';

/** A session's last sight is written at most this often: a page view is not a write. */
const TOUCH_EVERY_MS = 60_000;
/** A first start's sign-in link works once, for this long. */
export const SIGN_IN_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The cookie's value: 256 random bits. Only its hash is stored. */
const newSecret = () => randomBytes(32).toString('base64url');
export const SESSION_SECRET = /^[A-Za-z0-9_-]{43}$/;

export interface SignedIn {
  session: ConsoleSessionRow;
  user: UserRow;
}

/**
 * Starts a session for a user who just proved who they are (the actor, whose user it is); answers
 * the cookie's value. The audit entry names the user, never the session's secret or its hash.
 */
export async function startSession(
  db: Kysely<Database>,
  actor: Actor,
  now: Date,
  language: string | null = null,
): Promise<string> {
  const userId = actor.userId;
  if (userId === null) throw new Error("a console session is always a user's");
  const secret = newSecret();
  const moment = formatDate(now);
  await withinTransaction(db, async (trx) => {
    await repo.insertSession(trx, {
      id_hash: hashSecret(secret),
      user_id: userId,
      csrf: newSecret(),
      language,
      created: moment,
      last_seen: moment,
    });
    await recordChange(trx, actor, { resource: 'session', id: userId, action: 'sign-in' });
  });
  return secret;
}

/**
 * Records a refused sign-in, outside any transaction (nothing was changed to roll back): who tried
 * is not known, so the entry names no one, and never the e-mail address typed.
 */
export async function recordRefusedSignIn(db: Kysely<Database>, actor: Actor): Promise<void> {
  await recordChange(db, actor, { resource: 'session', id: null, action: 'sign-in', outcome: 'denied' });
}

/**
 * The session a cookie's value opens at `now`, or undefined: unknown, or idle for longer than
 * `idleMs` (then it is ended). A session in use has its last sight moved forward.
 */
export async function currentSession(
  db: Kysely<Database>,
  secret: string | undefined,
  now: Date,
  idleMs: number,
): Promise<SignedIn | undefined> {
  if (!secret || !SESSION_SECRET.test(secret)) return undefined;
  const idHash = hashSecret(secret);
  const found = await repo.findSession(db, idHash);
  if (!found) return undefined;
  const lastSeen = Date.parse(found.session.last_seen);
  if (!(now.getTime() - lastSeen < idleMs)) {
    await repo.deleteSession(db, idHash);
    return undefined;
  }
  if (now.getTime() - lastSeen >= TOUCH_EVERY_MS) await repo.touchSession(db, idHash, formatDate(now));
  return found;
}

/** Signs out: the session ends for every process at once (nothing caches it). */
export async function endSession(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  actor: Actor,
): Promise<void> {
  await withinTransaction(db, async (trx) => {
    await repo.deleteSession(trx, session.id_hash);
    await recordChange(trx, actor, { resource: 'session', id: session.user_id, action: 'sign-out' });
  });
}

/**
 * Ends a user's other sessions (or all of them); answers how many ended. One entry for them all,
 * when there were any: the user signed out elsewhere.
 */
export async function endOtherSessions(
  db: Kysely<Database>,
  userId: string,
  actor: Actor,
  keep?: ConsoleSessionRow,
): Promise<number> {
  return withinTransaction(db, async (trx) => {
    const ended = await repo.deleteUserSessions(trx, userId, keep?.id_hash);
    if (ended > 0) await recordChange(trx, actor, { resource: 'session', id: userId, action: 'sign-out' });
    return ended;
  });
}

export async function chooseLanguage(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  language: string | null,
): Promise<void> {
  await repo.setSessionLanguage(db, session.id_hash, language);
}

/** Forgets sessions idle for longer than `idleMs` (the scheduler's housekeeping). */
export async function sweepIdleSessions(db: Kysely<Database>, now: Date, idleMs: number): Promise<void> {
  await repo.sweepSessions(db, formatDate(new Date(now.getTime() - idleMs)));
}

/** A one-time sign-in link's secret for a user (the first start prints it for the admin). */
export async function createSignInLink(db: Kysely<Database>, userId: string, now: Date): Promise<string> {
  const secret = newSecret();
  await repo.insertSignInLink(db, {
    token_hash: hashSecret(secret),
    user_id: userId,
    expires: formatDate(new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS)),
    used: null,
    created: formatDate(now),
  });
  return secret;
}

/** What a sign-in link's page shows (the address it signs in) while the link works; it stays unused. */
export async function openSignInLink(
  db: Kysely<Database>,
  secret: string,
  now: Date,
): Promise<{ email: string } | undefined> {
  if (!SESSION_SECRET.test(secret)) return undefined;
  return repo.findSignInLink(db, hashSecret(secret), formatDate(now));
}

/** Uses a sign-in link: the user it signs in, once, before it expires. */
export async function redeemSignInLink(
  db: Kysely<Database>,
  secret: string,
  now: Date,
): Promise<string | undefined> {
  if (!SESSION_SECRET.test(secret)) return undefined;
  return repo.consumeSignInLink(db, hashSecret(secret), formatDate(now));
}

/** How many sessions a user has open, this one included. */
export async function openSessions(db: Kysely<Database>, userId: string): Promise<number> {
  return repo.countUserSessions(db, userId);
}
