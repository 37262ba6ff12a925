import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import type { Database } from '../db/database.js';
import { findUserByEmail } from './auth.repository.js';
import { changePassword } from './auth.service.js';
import type { UserRow } from './auth.table.js';
import type { FailureLimiter } from './rate-limit.js';
import { hashPassword, passwordMatches } from './secrets.js';
import { MIN_PASSWORD_LENGTH, passwordProblem } from './user-rules.js';

/** How a password sign-in went: the user, or why not (the pages word it in their language). */
export type PasswordCheck =
  | { ok: true; user: UserRow }
  | { ok: false; reason: 'wait'; seconds: number }
  | { ok: false; reason: 'wrong' };

/**
 * The one password check of every sign-in page (the Authorization Code flow's and the console's):
 * the caller's guessing limit first, then the e-mail address and password. A failure counts against
 * the same `sign-in` budget whichever page it came from.
 */
export async function checkPassword(
  db: Kysely<Database>,
  limiter: FailureLimiter,
  answer: { email?: string; password?: string; caller: string },
): Promise<PasswordCheck> {
  const wait = await limiter.retryAfter(answer.caller);
  if (wait > 0) return { ok: false, reason: 'wait', seconds: wait };
  const user = answer.email ? await findUserByEmail(db, answer.email.trim()) : undefined;
  // The hash is checked even without a user, so that the time taken does not tell which e-mail
  // addresses have an account.
  const valid =
    (await passwordMatches(answer.password ?? '', user?.password_hash ?? (await decoyHash()))) &&
    Boolean(user?.password_hash && answer.password);
  // A deactivated user is refused as a wrong password would be: the page tells no one more.
  if (!user || !valid || user.deactivated !== null) {
    await limiter.fail(answer.caller);
    return { ok: false, reason: 'wrong' };
  }
  return { ok: true, user };
}

let decoy: Promise<string> | undefined;
/** A password hash no password is known for, made once. */
const decoyHash = () => {
  decoy ??= hashPassword(randomBytes(32).toString('base64url'));
  return decoy;
};

/** How a change of one's own password went. */
export type PasswordChange =
  | { ok: true }
  | { ok: false; reason: 'wait'; seconds: number }
  | { ok: false; reason: 'current-wrong' }
  | { ok: false; reason: 'too-short'; min: number };

/**
 * A signed-in user changes their own password: the current one first (a wrong one counts against
 * the caller's sign-in guessing limit, as on the sign-in page), then the new one by the password
 * rule of auth/user-rules.ts.
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  limiter: FailureLimiter,
  input: { user: UserRow; current: string; next: string; caller: string },
  actor: Actor,
): Promise<PasswordChange> {
  const wait = await limiter.retryAfter(input.caller);
  if (wait > 0) return { ok: false, reason: 'wait', seconds: wait };
  const stored = input.user.password_hash;
  const valid = stored !== null && input.current !== '' && (await passwordMatches(input.current, stored));
  if (!valid) {
    await limiter.fail(input.caller);
    return { ok: false, reason: 'current-wrong' };
  }
  if (passwordProblem(input.next)) return { ok: false, reason: 'too-short', min: MIN_PASSWORD_LENGTH };
  await changePassword(db, input.user.id, input.next, actor);
  return { ok: true };
}
