import type { Kysely } from 'kysely';
import { cliActor } from '../audit/actor.js';
import { type ApiKeyListing, listApiKeys, listClients } from '../auth/auth.repository.js';
import { deleteClient, revokeApiKey } from '../auth/auth.service.js';
import type { Database } from '../db/database.js';

/**
 * `assay apikeys list|revoke` and `assay clients delete`: each answers what the CLI prints.
 *
 * Neither needs a running server to be told: API keys are looked up on every call, and a server
 * drops its cached client rows whenever the database changes (see auth/client-cache.ts), so a
 * revoked key or a deleted client's tokens are refused from the next call on, in every process.
 */

/** `apikeys list`: every key, revoked ones too, oldest first; never the key itself. */
export async function apiKeys(db: Kysely<Database>): Promise<ApiKeyListing[]> {
  return listApiKeys(db);
}

/** One line a key: id, name, scopes, owner, created, and when it was revoked. */
export function apiKeyLines(keys: readonly ApiKeyListing[]): string[] {
  if (keys.length === 0) return ['no API keys'];
  const name = (key: ApiKeyListing) => key.name || '-';
  const nameWidth = Math.max(...keys.map((key) => name(key).length));
  const scopeWidth = Math.max(...keys.map((key) => key.scopes.length + 2));
  const emailWidth = Math.max(...keys.map((key) => key.user_email.length));
  return keys.map((key) =>
    [
      key.id,
      name(key).padEnd(nameWidth),
      `[${key.scopes}]`.padEnd(scopeWidth),
      key.user_email.padEnd(emailWidth),
      key.created,
      ...(key.revoked ? [`revoked ${key.revoked}`] : []),
    ]
      .join('  ')
      .trimEnd(),
  );
}

/** `apikeys revoke ID`. */
export async function revoke(db: Kysely<Database>, id: string): Promise<string> {
  const { revoked, before } = await revokeApiKey(db, 'operator', id, cliActor());
  return before
    ? `API key ${id} was already revoked (${revoked})`
    : `API key ${id} revoked: calls with it are refused from now on`;
}

/** `clients delete ID`: the lines to print. */
export async function removeClient(db: Kysely<Database>, id: string): Promise<string[]> {
  await deleteClient(db, 'operator', id, cliActor());
  const lines = [`client ${id} deleted: its secret and its tokens no longer work`];
  if ((await listClients(db)).length === 0) {
    lines.push(
      'that was the last client: `assay clients create` makes another (a start never makes one again)',
    );
  }
  return lines;
}
