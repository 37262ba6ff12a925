import type { JWK } from 'jose';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { preparedPerDb } from '../db/prepared.js';
import { canonicalEmail } from '../util/safe-text.js';
import { caseFold } from '../util/text.js';
import type {
  ApiKeyRow,
  NewUserRow,
  OAuthClientRow,
  OAuthCodeRow,
  SigningKeyRow,
  UserRow,
} from './auth.table.js';

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertUser(db: Kysely<Database>, user: NewUserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email_key', '=', caseFold(canonicalEmail(email)))
    .executeTakeFirst();
}

/** The first admin user, the owner of what the command line creates without naming a user. */
export async function findFirstAdmin(db: Kysely<Database>): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'admin')
    .orderBy('created')
    .orderBy('id')
    .executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user's role, or undefined when there is no such user. */
export async function findUserRole(db: Kysely<Database>, id: string): Promise<UserRow['role'] | undefined> {
  return (await db.selectFrom('users').select('role').where('id', '=', id).executeTakeFirst())?.role;
}

/** The role of a client's owner (of the admin holding a registered one no one has claimed yet). */
export async function findClientOwnerRole(
  db: Kysely<Database>,
  clientId: string,
): Promise<UserRow['role'] | undefined> {
  const row = await db
    .selectFrom('oauth_clients')
    .innerJoin('users', 'users.id', 'oauth_clients.user_id')
    .select('users.role')
    .where('oauth_clients.id', '=', clientId)
    .executeTakeFirst();
  return row?.role;
}

export async function insertClient(db: Kysely<Database>, client: OAuthClientRow): Promise<void> {
  await db.insertInto('oauth_clients').values(client).execute();
}

/** The ids of the users who are not deactivated: only their clients and keys are honoured. */
const activeUserIds = (db: Kysely<Database>) =>
  db.selectFrom('users').select('users.id').where('users.deactivated', 'is', null);

/**
 * A client whose owner is active (a deactivated owner's clients get no token and sign no one in).
 * A registered client no one has claimed yet has no owner of its own: the admin holding it meanwhile
 * does not matter.
 */
export async function findClient(db: Kysely<Database>, id: string): Promise<OAuthClientRow | undefined> {
  return db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('user_id', 'in', activeUserIds(db)), eb('registration', '=', 'unclaimed')]))
    .executeTakeFirst();
}

/**
 * The first user to approve a registered client becomes its owner; true when this call made them
 * so (of two approvals at once, one wins). `scopes`, when given, become the client's: those of its
 * registration that its owner's role may use.
 */
export async function claimClient(
  db: Kysely<Database>,
  id: string,
  userId: string,
  scopes?: string,
): Promise<boolean> {
  const result = await db
    .updateTable('oauth_clients')
    .set({ user_id: userId, registration: 'claimed', ...(scopes === undefined ? {} : { scopes }) })
    .where('id', '=', id)
    .where('registration', '=', 'unclaimed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const clientVersionQuery = preparedPerDb(1, (db, id: string) =>
  db.selectFrom('oauth_clients').select(['secret_version', 'scopes']).where('id', '=', id),
);

/** The fields a bearer token is checked against on every call. */
export async function findClientVersion(
  db: Kysely<Database>,
  id: string,
): Promise<{ secret_version: number; scopes: string } | undefined> {
  return (await clientVersionQuery(db)(id))[0];
}

export async function listClients(db: Kysely<Database>): Promise<OAuthClientRow[]> {
  return db.selectFrom('oauth_clients').selectAll().orderBy('created').orderBy('id').execute();
}

/** A client as the console lists it: never its secret's hash, with its owner's e-mail. */
export interface ClientListing {
  id: string;
  name: string;
  scopes: string;
  redirect_uris: string[];
  user_id: string;
  user_email: string;
  created: string;
  updated: string;
  /** Set for a client that registered itself (RFC 7591); see OAuthClientTable. */
  registration: 'unclaimed' | 'claimed' | null;
}

/** Clients oldest first: every one, or only those of one owner. */
export async function listClientListings(db: Kysely<Database>, ownerId?: string): Promise<ClientListing[]> {
  let query = db
    .selectFrom('oauth_clients')
    .innerJoin('users', 'users.id', 'oauth_clients.user_id')
    .select([
      'oauth_clients.id',
      'oauth_clients.name',
      'oauth_clients.scopes',
      'oauth_clients.redirect_uris',
      'oauth_clients.user_id',
      'users.email as user_email',
      'oauth_clients.created',
      'oauth_clients.updated',
      'oauth_clients.registration',
    ]);
  if (ownerId !== undefined) query = query.where('oauth_clients.user_id', '=', ownerId);
  const rows = await query.orderBy('oauth_clients.created').orderBy('oauth_clients.id').execute();
  return rows.map((row) => ({ ...row, redirect_uris: parseRedirectUris(row.redirect_uris) }));
}

/** Replaces the secret (and optionally the scopes) and raises the version that tokens carry. */
export async function updateClient(
  db: Kysely<Database>,
  id: string,
  change: { secret_hash: string; scopes?: string; updated: string },
): Promise<boolean> {
  const result = await db
    .updateTable('oauth_clients')
    .set((eb) => ({ ...change, secret_version: eb('secret_version', '+', 1) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertApiKey(db: Kysely<Database>, key: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export async function findApiKeyByHash(db: Kysely<Database>, hash: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('key_hash', '=', hash)
    .where('revoked', 'is', null)
    .where('user_id', 'in', activeUserIds(db))
    .executeTakeFirst();
}

export async function insertSigningKey(db: Kysely<Database>, key: SigningKeyRow): Promise<void> {
  await db.insertInto('signing_keys').values(key).execute();
}

export async function findActiveSigningKey(db: Kysely<Database>): Promise<SigningKeyRow | undefined> {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where('retired', 'is', null)
    .orderBy('created', 'desc')
    .orderBy('kid', 'desc')
    .executeTakeFirst();
}

export async function findSigningKey(db: Kysely<Database>, kid: string): Promise<SigningKeyRow | undefined> {
  return db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
}

/** Stores a new code; codes past their lifetime, used or not, are of no more use and go. */
export async function insertCode(db: Kysely<Database>, code: OAuthCodeRow): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires', '<', code.created).execute();
  await db.insertInto('oauth_codes').values(code).execute();
}

/**
 * Marks a code used and answers it, only if it was unused and unexpired: one statement, so a code
 * presented twice at once is honoured once.
 */
export async function consumeCode(
  db: Kysely<Database>,
  codeHash: string,
  now: string,
): Promise<OAuthCodeRow | undefined> {
  const claimed = await db
    .updateTable('oauth_codes')
    .set({ used: now })
    .where('code_hash', '=', codeHash)
    .where('used', 'is', null)
    .where('expires', '>', now)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

export async function setUserPassword(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

/**
 * Deactivates a user (when given a moment) or makes them active again (null): false when there is
 * no such user. On deactivation the versions of the user's clients go up, so every process drops
 * its cached rows and every token issued before is refused. Two statements: the caller runs them
 * in its transaction (auth.service.ts, which records the change in the same one).
 */
export async function setUserDeactivated(
  trx: Kysely<Database>,
  id: string,
  deactivated: string | null,
): Promise<boolean> {
  const result = await trx.updateTable('users').set({ deactivated }).where('id', '=', id).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  if (deactivated !== null) {
    await trx
      .updateTable('oauth_clients')
      .set((eb) => ({ secret_version: eb('secret_version', '+', 1), updated: deactivated }))
      .where('user_id', '=', id)
      .execute();
  }
  return true;
}

/** Every platform user, oldest first. */
export async function listUsers(db: Kysely<Database>): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('created').orderBy('id').execute();
}

/** What `updateUser` may change: a user's names, role and the branding of their reports. */
export type UserChange = Partial<
  Pick<UserRow, 'firstname' | 'lastname' | 'color' | 'agencyname' | 'agencyfooter' | 'role'>
>;

/**
 * Changes the given fields of a user in one statement. A change to the `user` role applies only
 * while another admin exists, so an instance is never left without one; false when nothing was
 * changed (no such user, or the only admin).
 */
export async function updateUser(db: Kysely<Database>, id: string, change: UserChange): Promise<boolean> {
  if (Object.keys(change).length === 0) return (await findUserById(db, id)) !== undefined;
  let query = db.updateTable('users').set(change).where('id', '=', id);
  if (change.role === 'user') {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users as other')
          .select('other.id')
          .where('other.role', '=', 'admin')
          .where('other.id', '!=', id),
      ),
    );
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An API key as the command line lists it: never its hash, with its owner's e-mail. */
export interface ApiKeyListing {
  id: string;
  name: string;
  scopes: string;
  user_email: string;
  created: string;
  revoked: string | null;
}

/** Every API key (or one owner's), revoked ones too, oldest first. */
export async function listApiKeys(db: Kysely<Database>, ownerId?: string): Promise<ApiKeyListing[]> {
  let query = db.selectFrom('api_keys');
  if (ownerId !== undefined) query = query.where('api_keys.user_id', '=', ownerId);
  return query
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.scopes',
      'users.email as user_email',
      'api_keys.created',
      'api_keys.revoked',
    ])
    .orderBy('api_keys.created')
    .orderBy('api_keys.id')
    .execute();
}

export async function findApiKey(db: Kysely<Database>, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Marks a key revoked, only if it was not: false when there is no such key or it was revoked
 * before. Keys are looked up on every call (`findApiKeyByHash`), so the next call with it fails.
 */
export async function markApiKeyRevoked(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked: now })
    .where('id', '=', id)
    .where('revoked', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes a client (its unused authorization codes go with it). Servers drop their cached client
 * rows on the change (see ClientVersionCache), so its tokens stop working at once.
 */
export async function deleteClientRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** A fact the instance remembers about itself (`initial_client`: when the first client was made). */
export async function findInstanceFact(db: Kysely<Database>, key: string): Promise<string | undefined> {
  return (await db.selectFrom('instance_facts').select('value').where('key', '=', key).executeTakeFirst())
    ?.value;
}

/** Records a fact once: true for the one caller that recorded it, false when it was there already. */
export async function recordInstanceFact(db: Kysely<Database>, key: string, value: string): Promise<boolean> {
  const recorded = await db
    .insertInto('instance_facts')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(recorded.numInsertedOrUpdatedRows ?? 0) > 0;
}

// The JSON columns of the auth tables, read and written only through these codecs.

/** `oauth_clients.redirect_uris`: the client's registered redirect URIs. */
export const parseRedirectUris = (text: string): string[] => JSON.parse(text) as string[];
export const redirectUrisText = (uris: readonly string[]): string => JSON.stringify(uris);

/** `signing_keys.private_jwk` and `public_jwk`: one half of the key pair as a JWK. */
export const parseJwk = (text: string): JWK => JSON.parse(text) as JWK;
export const jwkText = (jwk: JWK): string => JSON.stringify(jwk);

/** Deletes the self-registered clients nobody claimed that were made before `before`; answers their ids. */
export function deleteUnclaimedRegistrations(
  db: Kysely<Database> | Transaction<Database>,
  before: string,
): Promise<{ id: string }[]> {
  return db
    .deleteFrom('oauth_clients')
    .where('registration', '=', 'unclaimed')
    .where('created', '<', before)
    .returning('id')
    .execute();
}
