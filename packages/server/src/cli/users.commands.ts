import type { Kysely } from 'kysely';
import { cliActor } from '../audit/actor.js';
import { findUserByEmail, findUserById, listUsers, type UserChange } from '../auth/auth.repository.js';
import { changeUser, createUser, deactivateUser, reactivateUser } from '../auth/auth.service.js';
import type { UserRow } from '../auth/auth.table.js';
import {
  type Checked,
  checkBrandColor,
  checkAgencyName as checkBrandName,
  checkAgencyFooter as checkFooter,
} from '../auth/branding.js';
import { checkPersonName, passwordProblem } from '../auth/user-rules.js';
import { pendingInvitations } from '../console/invitations.service.js';
import { endOtherSessions } from '../console/sessions.service.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { canonicalEmail, checkEmail } from '../util/safe-text.js';

/**
 * `assay users create|update|list`: each answers what the CLI prints. Every value is checked
 * before anything is written, and a bad one is refused with one line naming its flag.
 *
 * - `--color`: `#rgb` or `#rrggbb`, any case; stored as lowercase `#rrggbb` (`#ABC` is `#aabbcc`);
 *   refused below 4.5:1 against white (WCAG AA for text), with the ratio in the message.
 * - `--agency-name`: one line, at most 255 characters; surrounding white space is dropped; empty
 *   clears it (mail then goes out under the name in MAIL_FROM).
 * - `--agency-footer`: at most 1000 characters; may span lines (real line breaks, e.g. bash's
 *   `$'Street 1\nCity'`; a typed backslash-n is kept as those two characters); CRLF becomes LF,
 *   surrounding white space is dropped; empty clears it.
 * - `--firstname`, `--lastname`: one line, not empty, at most 255 characters.
 *
 * Characters are Unicode code points, as PostgreSQL counts them for `varchar(255)`.
 */

/** A platform user as `--json` prints it. */
export interface UserJson {
  id: string;
  email: string;
  role: 'admin' | 'user';
  firstname: string;
  lastname: string;
  color: string;
  agencyname: string;
  agencyfooter: string;
  /** `active`, `deactivated`, or (in `users list`) `invited` while a console invitation is open. */
  status: 'active' | 'deactivated' | 'invited';
}

export const userJson = (user: UserRow): UserJson => ({
  id: user.id,
  email: user.email,
  role: user.role,
  firstname: user.firstname,
  lastname: user.lastname,
  color: user.color,
  agencyname: user.agencyname,
  agencyfooter: user.agencyfooter,
  status: user.deactivated === null ? 'active' : 'deactivated',
});

/** The flags `users create` and `users update` read, as parseArgs answers them. */
export interface UserFlags {
  firstname?: string;
  lastname?: string;
  color?: string;
  'agency-name'?: string;
  'agency-footer'?: string;
  admin?: boolean;
  'no-admin'?: boolean;
}

const refuse = (flag: string, message: string) => new BusinessError(`--${flag}: ${message}`);

/** A checked value, or the refusal naming its flag. */
function unwrap(flag: string, checked: Checked): string {
  if (!checked.ok) throw refuse(flag, checked.problem);
  return checked.value;
}

/** `#rgb` or `#rrggbb` with 4.5:1 against white (auth/branding.ts), as lowercase `#rrggbb`. */
export const checkColor = (value: string): string => unwrap('color', checkBrandColor(value));

/** A first or last name: one line, not empty (auth/user-rules.ts, which the console's invitation checks too). */
export const checkName = (flag: string, value: string): string => unwrap(flag, checkPersonName(value));

/** The agency name: one line, possibly empty. */
export const checkAgencyName = (value: string): string => unwrap('agency-name', checkBrandName(value));

/** The agency footer: lines (LF), possibly empty. */
export const checkAgencyFooter = (value: string): string => unwrap('agency-footer', checkFooter(value));

/** The changes the given flags ask for, each checked; empty when none was given. */
export function changeFromFlags(flags: UserFlags): UserChange {
  const change: UserChange = {};
  if (flags.firstname !== undefined) change.firstname = checkName('firstname', flags.firstname);
  if (flags.lastname !== undefined) change.lastname = checkName('lastname', flags.lastname);
  if (flags['agency-name'] !== undefined) change.agencyname = checkAgencyName(flags['agency-name']);
  if (flags['agency-footer'] !== undefined) change.agencyfooter = checkAgencyFooter(flags['agency-footer']);
  if (flags.color !== undefined) change.color = checkColor(flags.color);
  if (flags.admin) change.role = 'admin';
  if (flags['no-admin']) change.role = 'user';
  return change;
}

/** `users create`: a platform user, with the branding of their reports when given. */
export async function create(
  db: Kysely<Database>,
  input: { email: string; firstname: string; lastname: string; password?: string } & UserFlags,
): Promise<UserJson> {
  const change = changeFromFlags(input);
  const problem = input.password === undefined ? undefined : passwordProblem(input.password);
  if (problem) throw refuse('password', problem);
  // Invisible, bidirectional and look-alike characters refused; the domain normalised, as for members.
  const address = checkEmail(input.email.trim());
  if (!address.ok) throw new BusinessError(`email: ${address.problem}`);
  const user = await createUser(
    db,
    {
      email: address.value,
      firstname: change.firstname ?? input.firstname,
      lastname: change.lastname ?? input.lastname,
      admin: Boolean(input.admin),
      password: input.password,
      color: change.color,
      agencyname: change.agencyname,
      agencyfooter: change.agencyfooter,
    },
    cliActor(),
  );
  return userJson(user);
}

/**
 * `users update`: changes only the given fields of the user with that e-mail. Refuses to take the
 * admin role from the only admin: the commands that create clients and API keys without `--user`
 * act for the first admin.
 */
export async function update(db: Kysely<Database>, email: string, change: UserChange): Promise<UserJson> {
  const user = await findUserByEmail(db, canonicalEmail(email));
  if (!user) throw new BusinessError(`user: no user ${email}`);
  const onlyAdmin = () =>
    refuse('no-admin', `${user.email} is the only admin user: make another user admin first`);
  // A role the user already has is no change (and needs no other admin).
  const { role, ...rest } = change;
  const effective: UserChange = role === undefined || role === user.role ? rest : change;
  // Found a moment ago: a refused role change is the only admin's.
  await changeUser(db, user.id, effective, cliActor(), () => {
    if (effective.role === 'user') throw onlyAdmin();
    throw new BusinessError(`user: no user ${email}`);
  });
  const updated = await findUserById(db, user.id);
  if (!updated) throw new BusinessError(`user: no user ${email}`);
  return userJson(updated);
}

/** A user as `users list` shows them: with when they were deactivated or until when they are invited. */
export interface ListedUserJson extends UserJson {
  /** When they were deactivated; null while active. */
  deactivated: string | null;
  /** Their open invitation (console, "Invite a user"), or null. */
  invitation: { sent: string; expires: string; expired: boolean } | null;
}

/** `users list`: every platform user, oldest first; deactivated and invited ones as such. */
export async function list(db: Kysely<Database>, now = new Date()): Promise<ListedUserJson[]> {
  const invitations = await pendingInvitations(db, now);
  return (await listUsers(db)).map((user) => {
    const open = invitations.get(user.id);
    const json = userJson(user);
    return {
      ...json,
      status: json.status === 'active' && open ? 'invited' : json.status,
      deactivated: user.deactivated,
      invitation: open ? { sent: open.sent, expires: open.expires, expired: open.expired } : null,
    };
  });
}

/** The lines `users list` prints: id, e-mail, role, name, agency name, then a state unless active. */
export function listLines(users: ListedUserJson[]): string[] {
  const width = Math.max(0, ...users.map((user) => user.email.length));
  const state = (user: ListedUserJson) =>
    user.deactivated !== null
      ? [`(deactivated ${user.deactivated})`]
      : user.invitation === null
        ? []
        : user.invitation.expired
          ? [`(invited; the invitation expired ${user.invitation.expires})`]
          : [`(invited; the invitation expires ${user.invitation.expires})`];
  return users.map((user) =>
    [user.id, user.email.padEnd(width), user.role.padEnd(5), `${user.firstname} ${user.lastname}`]
      .concat(user.agencyname === '' ? [] : [`[${user.agencyname}]`])
      .concat(state(user))
      .join('  '),
  );
}

/** The user with this e-mail address, or the one-line refusal. */
async function byEmail(db: Kysely<Database>, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, canonicalEmail(email));
  if (!user) throw new BusinessError(`user: no user ${email}`);
  return user;
}

/**
 * `users deactivate`: the console's deactivation (`deactivateUser`): no sign-in, their clients'
 * tokens and API keys refused, and their console sessions ended. Never the last active admin.
 * Answers the user and whether they were deactivated before.
 */
export async function deactivate(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: UserJson; before: boolean }> {
  const user = await byEmail(db, email);
  const before = user.deactivated !== null;
  const changed = await deactivateUser(db, cliActor(), user.id);
  await endOtherSessions(db, user.id, cliActor());
  return { user: userJson(changed), before };
}

/** `users reactivate`: they can sign in again (`reactivateUser`); tokens issued before stay refused. */
export async function reactivate(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: UserJson; before: boolean }> {
  const user = await byEmail(db, email);
  if (user.deactivated !== null) await reactivateUser(db, user.id, cliActor());
  return { user: userJson({ ...user, deactivated: null }), before: user.deactivated === null };
}
