import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Actor, consoleActor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import { findUserById, setUserPassword } from '../auth/auth.repository.js';
import { createUser } from '../auth/auth.service.js';
import type { UserRow } from '../auth/auth.table.js';
import { hashPassword, hashSecret } from '../auth/secrets.js';
import { checkPersonName, passwordProblem } from '../auth/user-rules.js';
import type { Config } from '../config.js';
import { type Database, isUniqueViolation } from '../db/database.js';
import { BusinessError, NotFound } from '../domain/errors.js';
import type { PlatformMailParams } from '../mail/mail.types.js';
import { type QueuedMail, queueMails } from '../mail/outbox.repository.js';
import { mailFromParts, messageIdDomain } from '../mail/outbox.service.js';
import { formatDate } from '../util/dates.js';
import { checkEmail } from '../util/safe-text.js';
import { isLanguage, type Language } from '../variants/variant.types.js';
import * as repo from './invitations.repository.js';
import { insertSignInLink } from './sessions.repository.js';
import { SESSION_SECRET } from './sessions.service.js';

/** An invitation's link works once, for this long. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** What an invitation needs from the app. */
export interface InvitationDeps {
  db: Kysely<Database>;
  config: Pick<Config, 'publicUrl' | 'mailFrom'>;
  clock: () => Date;
  /** Wakes the mail worker once the invitation's mail is committed. */
  mailQueued: () => void;
}

/** What the "Invite a user" form gives. */
export interface InvitationInput {
  email: string;
  firstname: string;
  lastname: string;
  admin: boolean;
  language: string;
}

export type InvitationField = 'email' | 'firstname' | 'lastname' | 'language';

/** An invitation not used yet, as the users pages show it. */
export interface PendingInvitation {
  sent: string;
  expires: string;
  language: Language;
  /** True once `expires` has passed: the link no longer works, resend makes a new one. */
  expired: boolean;
}

/**
 * What is wrong with an invitation, field by field, as the words after the field's name: the rules
 * of `assay users create` (auth/user-rules.ts, util/safe-text.ts) and a console language.
 */
export function invitationProblems(input: InvitationInput): { field: InvitationField; text: string }[] {
  const problems: { field: InvitationField; text: string }[] = [];
  const address = checkEmail(input.email.trim());
  if (input.email.trim() === '') problems.push({ field: 'email', text: 'is required' });
  else if (!address.ok) problems.push({ field: 'email', text: address.problem });
  for (const field of ['firstname', 'lastname'] as const) {
    const name = checkPersonName(input[field]);
    if (!name.ok) problems.push({ field, text: name.problem });
  }
  if (!isLanguage(input.language))
    problems.push({ field: 'language', text: 'must be one of enUS, nlNL, esES, frFR' });
  return problems;
}

const newSecret = () => randomBytes(32).toString('base64url');

/** The link an invitation's mail carries. */
export const invitationUrl = (publicUrl: string, secret: string) =>
  `${publicUrl}/console/invitation/${secret}`;

/**
 * A new invitation link for a user and its mail, in the caller's transaction: the mail exists
 * exactly when the link does. Any open invitation of the user is replaced (its link stops working).
 */
async function issue(
  deps: InvitationDeps,
  trx: Kysely<Database>,
  user: UserRow,
  inviter: UserRow | undefined,
  language: Language,
): Promise<void> {
  const now = deps.clock();
  const secret = newSecret();
  const tokenHash = hashSecret(secret);
  const expires = formatDate(new Date(now.getTime() + INVITATION_LIFETIME_MS));
  await repo.deleteOpenInvitations(trx, user.id);
  await insertSignInLink(trx, {
    token_hash: tokenHash,
    user_id: user.id,
    expires,
    used: null,
    created: formatDate(now),
    purpose: 'invitation',
    language,
  });
  const { name, address } = mailFromParts(deps.config.mailFrom);
  const params: PlatformMailParams = {
    stage: 'user_invitation',
    language,
    template: 'platform',
    recipient: { firstname: user.firstname, lastname: user.lastname, email: user.email },
    link: invitationUrl(deps.config.publicUrl, secret),
    sender: inviter?.agencyname || name || address,
    inviter: inviter
      ? { firstname: inviter.firstname, lastname: inviter.lastname, email: inviter.email }
      : null,
    expires,
  };
  const mail: QueuedMail<PlatformMailParams> = {
    // One mail a link: a resent invitation is a new link, so a new mail.
    dedupeKey: `${user.id}.${tokenHash.slice(0, 12)}:user_invitation:0`,
    campaignId: null,
    memberId: null,
    stage: 'user_invitation',
    sequence: 0,
    recipient: user.email,
    params,
  };
  await queueMails(trx, [mail], {
    now: formatDate(now),
    messageIdDomain: messageIdDomain(deps.config.mailFrom),
  });
}

/**
 * Invites a platform user: the user is made by the users service of `assay users create`
 * (`createUser`, with no password yet) and mailed a one-time link to choose one, in one
 * transaction. A bad field or an address already in use is refused with its message; nothing is
 * written then.
 */
export async function inviteUser(
  deps: InvitationDeps,
  inviterId: string,
  input: InvitationInput,
  actor: Actor,
): Promise<UserRow> {
  const [problem] = invitationProblems(input);
  if (problem) throw new BusinessError(`${problem.field}: ${problem.text}`);
  const address = checkEmail(input.email.trim());
  if (!address.ok) throw new BusinessError(`email: ${address.problem}`);
  const language = input.language as Language;
  const inviter = await findUserById(deps.db, inviterId);
  try {
    const user = await deps.db.transaction().execute(async (trx) => {
      const made = await createUser(
        trx,
        {
          email: address.value,
          firstname: input.firstname.trim(),
          lastname: input.lastname.trim(),
          admin: input.admin,
        },
        actor,
      );
      await issue(deps, trx, made, inviter, language);
      await recordChange(trx, actor, { resource: 'user', id: made.id, action: 'invite' });
      return made;
    });
    deps.mailQueued();
    return user;
  } catch (error) {
    // Another admin invited the same address at the same moment: the same refusal as createUser's.
    if (isUniqueViolation(error)) throw new BusinessError(`email: a user ${address.value} already exists`);
    throw error;
  }
}

/** A user's open invitation, or undefined (they accepted it, or were never invited). */
export async function pendingInvitation(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<PendingInvitation | undefined> {
  return (await pendingInvitations(db, now, userId)).get(userId);
}

/** The open invitations by user. */
export async function pendingInvitations(
  db: Kysely<Database>,
  now: Date,
  userId?: string,
): Promise<Map<string, PendingInvitation>> {
  const rows = await repo.listOpenInvitations(db, userId);
  return new Map(
    rows.map((row) => [
      row.user_id,
      {
        sent: row.created,
        expires: row.expires,
        language: isLanguage(row.language) ? row.language : 'enUS',
        expired: Date.parse(row.expires) <= now.getTime(),
      },
    ]),
  );
}

/**
 * Sends a user's invitation again: a new link (and mail, in the language of the first), the old
 * link dead at once. Only while the invitation is open, and never to a deactivated user.
 */
export async function resendInvitation(
  deps: InvitationDeps,
  inviterId: string,
  userId: string,
  actor: Actor,
): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new NotFound('user');
  const open = await pendingInvitation(deps.db, userId, deps.clock());
  if (!open) throw new BusinessError('invitation: this user has no open invitation');
  if (user.deactivated !== null)
    throw new BusinessError('invitation: the user is deactivated: reactivate them first');
  const inviter = await findUserById(deps.db, inviterId);
  try {
    await deps.db.transaction().execute(async (trx) => {
      await issue(deps, trx, user, inviter, open.language);
      await recordChange(trx, actor, { resource: 'user', id: user.id, action: 'invite' });
    });
  } catch (error) {
    // Another resend at the same moment won (one open invitation a user, by a unique index).
    if (isUniqueViolation(error)) throw new BusinessError('invitation: it has just been sent again');
    throw error;
  }
  deps.mailQueued();
}

/**
 * Cancels an open invitation: its link stops working and the user, who never chose a password, is
 * removed (their address is free again). Refused once they have set a password.
 */
export async function cancelInvitation(db: Kysely<Database>, actor: Actor, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw new NotFound('user');
  if (user.id === actor.userId) throw new BusinessError('invitation: you cannot cancel your own account');
  await db.transaction().execute(async (trx) => {
    if (!(await repo.deleteInvitedUser(trx, userId)))
      throw new BusinessError('invitation: this user has no open invitation');
    await recordChange(trx, actor, { resource: 'user', id: userId, action: 'delete' });
  });
  return user;
}

/** The invitation a link opens at `now`, for its page: whom it is for and in which language. */
export async function openInvitation(
  db: Kysely<Database>,
  secret: string,
  now: Date,
): Promise<{ userId: string; name: string; email: string; language: Language; expires: string } | undefined> {
  if (!SESSION_SECRET.test(secret)) return undefined;
  const found = await repo.findUsableInvitation(db, hashSecret(secret), formatDate(now));
  if (!found) return undefined;
  return {
    userId: found.user_id,
    name: [found.firstname, found.lastname].filter(Boolean).join(' ') || found.email,
    email: found.email,
    language: isLanguage(found.language) ? found.language : 'enUS',
    expires: found.expires,
  };
}

/**
 * Accepts an invitation: the password (checked by the 12-character rule) becomes the user's, and
 * the link is used, once. Answers the user and the invitation's language, or undefined when the
 * link was used, expired, replaced or its user deactivated (nothing changes then).
 */
export async function acceptInvitation(
  db: Kysely<Database>,
  secret: string,
  password: string,
  now: Date,
  /** The invitee's network address: the change is theirs, as a console user's. */
  address: string | null,
): Promise<{ userId: string; language: Language } | undefined> {
  const problem = passwordProblem(password);
  if (problem) throw new BusinessError(`password: ${problem}`);
  if (!SESSION_SECRET.test(secret)) return undefined;
  // A link that opens nothing costs no scrypt: made-up links cannot make the server hash for them.
  if (!(await repo.findUsableInvitation(db, hashSecret(secret), formatDate(now)))) return undefined;
  // Hashed before the transaction: scrypt takes a while, and a write lock should not wait on it.
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const used = await repo.consumeInvitation(trx, hashSecret(secret), formatDate(now));
    if (!used) return undefined;
    await setUserPassword(trx, used.user_id, passwordHash);
    await recordChange(trx, consoleActor(used.user_id, address), {
      resource: 'user',
      id: used.user_id,
      action: 'update',
      fields: ['password'],
    });
    // A resend that crossed this one leaves no second link alive.
    await repo.deleteOpenInvitations(trx, used.user_id);
    return { userId: used.user_id, language: isLanguage(used.language) ? used.language : 'enUS' };
  });
}
