import { SCOPES, type Scope } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import { withinTransaction } from '../db/within-transaction.js';
import { BusinessError, NotFound } from '../domain/errors.js';
import { nowText } from '../util/dates.js';
import { randomId, randomSecret } from '../util/ids.js';
import { lineProblem } from '../util/safe-text.js';
import { caseFold, isMailbox, isStorableText } from '../util/text.js';
import {
  type ApiKeyListing,
  type ClientListing,
  countUsers,
  deleteClientRow,
  findApiKey,
  findClient,
  findClientOwnerRole,
  findFirstAdmin,
  findInstanceFact,
  findUserByEmail,
  findUserById,
  findUserRole,
  insertApiKey,
  insertClient,
  insertUser,
  listApiKeys,
  listClientListings,
  listClients,
  listUsers,
  markApiKeyRevoked,
  recordInstanceFact,
  redirectUrisText,
  setUserDeactivated,
  setUserPassword,
  type UserChange,
  updateClient,
  updateUser,
} from './auth.repository.js';
import type { UserRow } from './auth.table.js';
import { type Role, ScopesBeyondRole, scopesBeyond } from './scope-rules.js';
import { hashPassword, hashSecret } from './secrets.js';
import { DEFAULT_BRAND_COLOR } from './user-rules.js';

/** Parses a space- or comma-separated scope list; throws on an unknown family. */
export function parseScopes(text: string): Scope[] {
  const names = text.split(/[\s,]+/).filter(Boolean);
  if (names.length === 0) throw new BusinessError(`scopes: name at least one (known: ${SCOPES.join(' ')})`);
  const unknown = names.filter((name) => !(SCOPES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new BusinessError(`scopes: unknown scope ${unknown.join(', ')} (known: ${SCOPES.join(' ')})`);
  return [...new Set(names)] as Scope[];
}

export interface NewUser {
  email: string;
  firstname: string;
  lastname: string;
  admin?: boolean;
  password?: string;
  /** The branding of the user's reports; checked by the caller. The defaults when left out. */
  color?: string;
  agencyname?: string;
  agencyfooter?: string;
}

/** The colour of a user's reports until one is set. */
export const DEFAULT_USER_COLOR = DEFAULT_BRAND_COLOR;

/** Creates a platform user; in the caller's transaction when given one (an invitation's). */
export async function createUser(db: Kysely<Database>, input: NewUser, actor: Actor): Promise<UserRow> {
  if (!isMailbox(input.email)) throw new BusinessError(`email: not an e-mail address: "${input.email}"`);
  if (await findUserByEmail(db, input.email))
    throw new BusinessError(`email: a user ${input.email} already exists`);
  const user: UserRow = {
    id: randomId(),
    email: input.email,
    email_key: caseFold(input.email),
    firstname: input.firstname,
    lastname: input.lastname,
    color: input.color ?? DEFAULT_USER_COLOR,
    agencyname: input.agencyname ?? '',
    agencyfooter: input.agencyfooter ?? '',
    role: input.admin ? 'admin' : 'user',
    password_hash: input.password ? await hashPassword(input.password) : null,
    created: nowText(),
    deactivated: null,
  };
  await withinTransaction(db, async (trx) => {
    await insertUser(trx, user);
    await recordChange(trx, actor, { resource: 'user', id: user.id, action: 'create' });
  });
  return user;
}

export interface IssuedClient {
  client_id: string;
  client_secret: string;
  scopes: string;
}

/** RFC 6749 section 3.1.2: an absolute URI without a fragment. */
function checkRedirectUri(uri: string): void {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw new BusinessError(`redirect-uri: not an absolute URI: "${uri}"`);
  }
  if (['javascript:', 'data:', 'vbscript:', 'file:'].includes(parsed.protocol)) {
    throw new BusinessError(`redirect-uri: the scheme ${parsed.protocol} cannot be a return address`);
  }
  if (parsed.hash !== '' || uri.includes('#')) {
    throw new BusinessError(`redirect-uri: must not have a fragment: "${uri}"`);
  }
}

/**
 * Refuses scopes the owner's role may not use (scope-rules.ts), the role read in the transaction
 * that grants them: every door that makes or changes a client or key (console, command line) comes here.
 */
function checkScopesOfRole(role: Role | undefined, scopes: readonly Scope[]): void {
  // An owner who is not there may use no more than a user.
  const beyond = scopesBeyond(role ?? 'user', scopes);
  if (beyond.length > 0) throw new ScopesBeyondRole(beyond);
}

const NAME_MAX = 255;
// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** A client's or key's name: one line of at most 255 characters, trimmed; required for a client. */
export function checkCredentialName(value: string, required: boolean): string {
  const name = value.trim();
  if (required && name === '') throw new BusinessError('name: must not be empty');
  if (CONTROL.test(name)) throw new BusinessError('name: must be one line, without control characters');
  const problem = lineProblem(name);
  if (problem !== undefined) throw new BusinessError(`name: ${problem}`);
  if ([...name].length > NAME_MAX) throw new BusinessError(`name: at most ${NAME_MAX} characters`);
  if (!isStorableText(name)) throw new BusinessError('name: contains a character that cannot be stored');
  return name;
}

/** Creates an OAuth client for a user; the secret is answered once and stored only as a hash. */
export async function createClient(
  db: Kysely<Database>,
  input: { name: string; userId: string; scopes: Scope[]; redirectUris?: string[] },
  actor: Actor,
): Promise<IssuedClient> {
  const name = checkCredentialName(input.name, true);
  for (const uri of input.redirectUris ?? []) checkRedirectUri(uri);
  const secret = randomSecret();
  const now = nowText();
  const client = {
    id: randomId(20),
    name,
    user_id: input.userId,
    secret_hash: hashSecret(secret),
    secret_version: 1,
    scopes: input.scopes.join(' '),
    redirect_uris: redirectUrisText(input.redirectUris ?? []),
    registration: null,
    created: now,
    updated: now,
  };
  await withinTransaction(db, async (trx) => {
    checkScopesOfRole(await findUserRole(trx, input.userId), input.scopes);
    await insertClient(trx, client);
    await recordChange(trx, actor, { resource: 'client', id: client.id, action: 'create' });
  });
  return { client_id: client.id, client_secret: secret, scopes: client.scopes };
}

/** Any change to a client issues a new secret: the old one and every token made with it stop working. */
export async function updateClientScopes(
  db: Kysely<Database>,
  by: CredentialManager,
  clientId: string,
  scopes: Scope[] | undefined,
  actor: Actor,
): Promise<IssuedClient> {
  const current = await findClient(db, clientId);
  if (current) checkManages(by, current.user_id, 'client');
  // A public client has no secret to replace, and its scopes are what it registered with.
  if (current?.registration) {
    throw new BusinessError(`client: ${clientId} registered itself and has no secret: delete it instead`);
  }
  const secret = randomSecret();
  const change = {
    secret_hash: hashSecret(secret),
    updated: nowText(),
    ...(scopes ? { scopes: scopes.join(' ') } : {}),
  };
  await withinTransaction(db, async (trx) => {
    if (!(await updateClient(trx, clientId, change)))
      throw new BusinessError(`client: ${clientId} not found`);
    // After the update, so that a client that is not there is not found; its owner's role decides.
    if (scopes) checkScopesOfRole(await findClientOwnerRole(trx, clientId), scopes);
    // A new secret with the same scopes is a rotation; with scopes given, an update of both.
    await recordChange(trx, actor, {
      resource: 'client',
      id: clientId,
      action: scopes ? 'update' : 'rotate',
      fields: scopes ? ['scopes', 'secret'] : ['secret'],
    });
  });
  const client = await findClient(db, clientId);
  return { client_id: clientId, client_secret: secret, scopes: client?.scopes ?? '' };
}

export async function createApiKey(
  db: Kysely<Database>,
  input: { userId: string; scopes: Scope[]; name?: string },
  actor: Actor,
): Promise<{ apikey: string }> {
  const name = checkCredentialName(input.name ?? '', false);
  const apikey = `ak_${randomSecret()}`;
  const id = randomId();
  await withinTransaction(db, async (trx) => {
    checkScopesOfRole(await findUserRole(trx, input.userId), input.scopes);
    await insertApiKey(trx, {
      id,
      user_id: input.userId,
      key_hash: hashSecret(apikey),
      name,
      scopes: input.scopes.join(' '),
      created: nowText(),
      revoked: null,
    });
    await recordChange(trx, actor, { resource: 'apikey', id, action: 'create' });
  });
  return { apikey };
}

/** An instance always has an admin user: the first setup creates one. */
export async function ensureAdmin(
  db: Kysely<Database>,
  adminEmail: string,
  actor: Actor,
): Promise<UserRow | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  try {
    return await createUser(
      db,
      { email: adminEmail, firstname: 'Admin', lastname: 'Assay', admin: true },
      actor,
    );
  } catch (error) {
    // Another process starting at the same moment made the admin first.
    if (isUniqueViolation(error) || error instanceof BusinessError) return undefined;
    throw error;
  }
}

/**
 * The very first start of an instance: a client with every scope for the first admin. Once only:
 * the instance remembers it (`instance_facts.initial_client`), so an operator who deletes the last
 * client does not get a new all-scopes one at the next start. An instance that already has clients
 * from before this was remembered counts as started.
 */
export async function bootstrapInstance(
  db: Kysely<Database>,
  adminEmail: string,
  actor: Actor,
): Promise<{ user: UserRow; client: IssuedClient } | undefined> {
  await ensureAdmin(db, adminEmail, actor);
  if ((await findInstanceFact(db, 'initial_client')) !== undefined) return undefined;
  const remember = () => recordInstanceFact(db, 'initial_client', new Date().toISOString());
  if ((await listClients(db)).length > 0) {
    await remember();
    return undefined;
  }
  // Two processes starting at once: only the one that records the fact makes the client.
  if (!(await remember())) return undefined;
  const user = await findFirstAdmin(db);
  if (!user) throw new Error('no admin user after ensureAdmin');
  const client = await createClient(
    db,
    { name: 'Initial client', userId: user.id, scopes: [...SCOPES] },
    actor,
  );
  return { user, client };
}

/**
 * Revokes an API key: every later call with it is refused. Answers when it was revoked, and
 * whether that was before this call (revoking twice is no error).
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  by: CredentialManager,
  id: string,
  actor: Actor,
): Promise<{ revoked: string; before: boolean }> {
  const held = await findApiKey(db, id);
  if (held) checkManages(by, held.user_id, 'apikey');
  const now = nowText();
  // Revoking a revoked key changes nothing, and is recorded as nothing.
  const marked = await withinTransaction(db, async (trx) => {
    if (!(await markApiKeyRevoked(trx, id, now))) return false;
    await recordChange(trx, actor, { resource: 'apikey', id, action: 'revoke' });
    return true;
  });
  if (marked) return { revoked: now, before: false };
  const key = await findApiKey(db, id);
  if (!key?.revoked) throw new BusinessError(`apikey: ${id} not found`);
  return { revoked: key.revoked, before: true };
}

/** Deletes an OAuth client: its secret and every token made with it stop working. */
export async function deleteClient(
  db: Kysely<Database>,
  by: CredentialManager,
  clientId: string,
  actor: Actor,
): Promise<void> {
  const current = await findClient(db, clientId);
  if (current) checkManages(by, current.user_id, 'client');
  await withinTransaction(db, async (trx) => {
    if (!(await deleteClientRow(trx, clientId))) throw new BusinessError(`client: ${clientId} not found`);
    await recordChange(trx, actor, { resource: 'client', id: clientId, action: 'delete' });
  });
}

/** Every platform user, oldest first (the console's users pages, the audit log's filter). */
export function platformUsers(db: Kysely<Database>): Promise<UserRow[]> {
  return listUsers(db);
}

/** One platform user; an unknown id is not found. */
export async function platformUser(db: Kysely<Database>, id: string): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user) throw new NotFound('user');
  return user;
}

/** Who manages clients and keys: an owner sees and changes their own, an admin everyone's. */
export interface Manager {
  id: string;
  role: 'admin' | 'user';
}

/**
 * Who changes a client or key: a platform user (their own; an admin, anyone's), or the instance's
 * operator at the command line, who works on the database itself and manages every one.
 */
export type CredentialManager = Manager | 'operator';

/** Refuses another user's client or key as not found, as the console's pages do. */
function checkManages(by: CredentialManager, ownerId: string, what: 'client' | 'apikey'): void {
  if (by === 'operator' || by.role === 'admin' || by.id === ownerId) return;
  throw new NotFound(what);
}

/** The clients a manager may see: their own, or every one for an admin. */
export async function clientsOf(db: Kysely<Database>, manager: Manager): Promise<ClientListing[]> {
  return listClientListings(db, manager.role === 'admin' ? undefined : manager.id);
}

/** One client the manager may change; another user's is not found, as a missing one. */
export async function clientFor(db: Kysely<Database>, manager: Manager, id: string): Promise<ClientListing> {
  const client = (await clientsOf(db, manager)).find((row) => row.id === id);
  if (!client) throw new NotFound('client');
  return client;
}

/** Splits the redirect URIs typed one a line (or space-separated); duplicates dropped. */
export function redirectUrisFromText(text: string): string[] {
  return [...new Set(text.split(/\s+/).filter(Boolean))];
}

/** The API keys a manager may see: their own, or every one for an admin. */
export async function apiKeysOf(db: Kysely<Database>, manager: Manager): Promise<ApiKeyListing[]> {
  return listApiKeys(db, manager.role === 'admin' ? undefined : manager.id);
}

/** One key the manager may revoke; another user's is not found, as a missing one. */
export async function apiKeyFor(db: Kysely<Database>, manager: Manager, id: string): Promise<ApiKeyListing> {
  const key = (await apiKeysOf(db, manager)).find((row) => row.id === id);
  if (!key) throw new NotFound('apikey');
  return key;
}

/** True when an admin other than this user is active: an instance is never left without one. */
async function anotherActiveAdmin(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await listUsers(db)).some(
    (other) => other.role === 'admin' && other.deactivated === null && other.id !== userId,
  );
}

/**
 * Deactivates a platform user: they cannot sign in, and their clients' tokens (issued before too)
 * and API keys are refused in every process. Never oneself, never the last active admin. Their
 * console sessions are ended by the caller (console/sessions.service.ts), which owns them.
 */
export async function deactivateUser(
  db: Kysely<Database>,
  /** Who deactivates (never themselves: the command line acts for no user). */
  actor: Actor,
  userId: string,
): Promise<UserRow> {
  if (actor.userId === userId) throw new BusinessError('user: you cannot deactivate yourself');
  const user = await findUserById(db, userId);
  if (!user) throw new NotFound('user');
  if (user.deactivated !== null) return user;
  if (user.role === 'admin' && !(await anotherActiveAdmin(db, userId)))
    throw new BusinessError('user: the only active admin cannot be deactivated');
  const deactivated = nowText();
  await withinTransaction(db, async (trx) => {
    await setUserDeactivated(trx, userId, deactivated);
    await recordChange(trx, actor, { resource: 'user', id: userId, action: 'deactivate' });
  });
  return { ...user, deactivated };
}

/** Makes a deactivated user active again: they can sign in; tokens issued before stay refused. */
export async function reactivateUser(db: Kysely<Database>, userId: string, actor: Actor): Promise<void> {
  await withinTransaction(db, async (trx) => {
    if (!(await setUserDeactivated(trx, userId, null))) throw new NotFound('user');
    await recordChange(trx, actor, { resource: 'user', id: userId, action: 'reactivate' });
  });
}

/** Gives or takes the admin role; never from the only admin (see updateUser). */
export async function setUserRole(
  db: Kysely<Database>,
  userId: string,
  role: 'admin' | 'user',
  actor: Actor,
): Promise<void> {
  if (!(await findUserById(db, userId))) throw new NotFound('user');
  if (role === 'user' && !(await anotherActiveAdmin(db, userId)))
    throw new BusinessError(
      'user: the only active admin cannot stop being admin: make another user admin first',
    );
  await changeUser(db, userId, { role }, actor, () => {
    throw new BusinessError('user: the only admin cannot stop being admin: make another user admin first');
  });
}

/**
 * Changes the given fields of a user and records their names, in one transaction; `refused` says
 * why when nothing was changed (no such user, or the only admin losing the role; see updateUser).
 * A change of nothing is no change, and leaves no entry.
 */
export async function changeUser(
  db: Kysely<Database>,
  userId: string,
  change: UserChange,
  actor: Actor,
  refused: () => never,
): Promise<void> {
  await withinTransaction(db, async (trx) => {
    if (!(await updateUser(trx, userId, change))) refused();
    const fields = Object.keys(change);
    if (fields.length > 0)
      await recordChange(trx, actor, { resource: 'user', id: userId, action: 'update', fields });
  });
}

/** Sets a user's password; the entry names the field `password`, never its value or hash. */
export async function changePassword(
  db: Kysely<Database>,
  userId: string,
  password: string,
  actor: Actor,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withinTransaction(db, async (trx) => {
    await setUserPassword(trx, userId, passwordHash);
    await recordChange(trx, actor, { resource: 'user', id: userId, action: 'update', fields: ['password'] });
  });
}
