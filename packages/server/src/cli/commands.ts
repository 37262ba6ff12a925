import type { Kysely } from 'kysely';
import { cliActor } from '../audit/actor.js';
import {
  findActiveSigningKey,
  findFirstAdmin,
  findUserByEmail,
  listClients,
} from '../auth/auth.repository.js';
import {
  bootstrapInstance,
  changePassword,
  createApiKey,
  createClient,
  ensureAdmin,
  type IssuedClient,
  parseScopes,
  updateClientScopes,
} from '../auth/auth.service.js';
import type { UserRow } from '../auth/auth.table.js';
import { generateSigningKey } from '../auth/tokens.js';
import { passwordProblem } from '../auth/user-rules.js';
import { createSignInLink } from '../console/sessions.service.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { BusinessError } from '../domain/errors.js';

/** Operator tasks, straight on the database; each answers what the CLI prints. */

export async function setup(
  db: Kysely<Database>,
  options: { keys: boolean; adminEmail: string },
): Promise<string[]> {
  const lines = (await migrateToLatest(db)).map((name) => `migrated: ${name}`);
  const admin = await ensureAdmin(db, options.adminEmail, cliActor());
  if (admin) lines.push(`admin user created: ${admin.email}`);
  if (options.keys && !(await findActiveSigningKey(db)))
    lines.push(`signing key created: ${await generateSigningKey(db)}`);
  return lines;
}

export async function generateKey(db: Kysely<Database>): Promise<string> {
  return generateSigningKey(db);
}

async function owner(db: Kysely<Database>, email: string | undefined): Promise<UserRow> {
  if (email) {
    const user = await findUserByEmail(db, email);
    if (!user) throw new BusinessError(`user: no user ${email}`);
    return user;
  }
  const admin = await findFirstAdmin(db);
  if (!admin)
    throw new BusinessError('user: there is no admin user yet: run `assay users create --admin` first');
  return admin;
}

export async function addClient(
  db: Kysely<Database>,
  input: { name: string; scopes: string; user?: string; redirectUris?: string[] },
): Promise<IssuedClient> {
  const user = await owner(db, input.user);
  return createClient(
    db,
    {
      name: input.name,
      userId: user.id,
      scopes: parseScopes(input.scopes),
      redirectUris: [...new Set(input.redirectUris ?? [])],
    },
    cliActor(),
  );
}

export async function changeClient(
  db: Kysely<Database>,
  id: string,
  scopes: string | undefined,
): Promise<IssuedClient> {
  return updateClientScopes(
    db,
    'operator',
    id,
    scopes === undefined ? undefined : parseScopes(scopes),
    cliActor(),
  );
}

export async function clients(db: Kysely<Database>) {
  return (await listClients(db)).map((client) => ({
    client_id: client.id,
    name: client.name,
    scopes: client.scopes,
    user_id: client.user_id,
    /** RFC 7591: `unclaimed` or `claimed` for a client that registered itself, else null. */
    registration: client.registration,
    created: client.created,
    updated: client.updated,
  }));
}

export async function addApiKey(
  db: Kysely<Database>,
  input: { scopes: string; user?: string; name?: string },
) {
  const user = await owner(db, input.user);
  return createApiKey(
    db,
    { userId: user.id, scopes: parseScopes(input.scopes), name: input.name },
    cliActor(),
  );
}

/**
 * A one-time link that signs a user in to the console (for 24 hours): what the first start prints
 * for the admin, and what `assay users sign-in-link` makes for anyone who has lost their way in.
 */
export async function signInLink(
  db: Kysely<Database>,
  publicUrl: string,
  email: string | undefined,
  now = new Date(),
): Promise<{ email: string; url: string }> {
  const user = await owner(db, email);
  const secret = await createSignInLink(db, user.id, now);
  return { email: user.email, url: `${publicUrl}/console/sign-in/link/${secret}` };
}

/**
 * The first start of an empty instance: an admin user and a client with every scope, made by
 * whoever started the process (`assay start`), as the command line's actor.
 */
export async function firstStart(db: Kysely<Database>, adminEmail: string) {
  return bootstrapInstance(db, adminEmail, cliActor());
}

/** Sets the password a user signs in with on the Authorization Code flow's page. */
export async function setPassword(db: Kysely<Database>, email: string, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new BusinessError(`password: ${problem}`);
  const user = await owner(db, email);
  await changePassword(db, user.id, password, cliActor());
}
