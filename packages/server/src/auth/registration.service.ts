import { SCOPES } from '@assay/schema';
import type { Kysely } from 'kysely';
import { anonymousActor, SYSTEM_ACTOR } from '../audit/actor.js';
import { recordChange, recordChanges } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import { isStorableText } from '../util/text.js';
import {
  deleteUnclaimedRegistrations,
  findFirstAdmin,
  insertClient,
  redirectUrisText,
} from './auth.repository.js';
import { checkCredentialName } from './auth.service.js';
import type { FailureLimiter } from './rate-limit.js';
import { OAuthFailure } from './token.service.js';

/** At most this many redirect URIs, each at most this long: a registration is small. */
export const REDIRECT_URIS_MAX = 10;
export const REDIRECT_URI_LENGTH_MAX = 2000;
/** The largest registration request accepted, in bytes. */
export const REGISTRATION_BODY_MAX = 16 * 1024;
/** A registered client no user has approved within this time is deleted (at a later registration). */
export const UNCLAIMED_LIFETIME_MS = 24 * 3600_000;
/** The name shown for a client that registered without one. */
const UNNAMED = 'Unnamed application';

/** The grants a registration may ask for; only the first is granted (no refresh tokens are issued). */
const GRANTS = ['authorization_code', 'refresh_token'];

/** What RFC 7591 section 3.2.1 answers: the client's id and its metadata as registered. */
export interface Registered {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope: string;
}

const metadataProblem = (message: string) => new OAuthFailure(400, 'invalid_client_metadata', message);
const redirectProblem = (message: string) => new OAuthFailure(400, 'invalid_redirect_uri', message);

/** Loopback hosts, where a native app listens on plain http (RFC 8252 section 7.3). */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A redirect URI a self-registered client may have: absolute, https, or http on a loopback address
 * (RFC 8252 section 7.3), without a fragment (RFC 6749 section 3.1.2) or user information.
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '') return 'each must be a non-empty string';
  if (uri.length > REDIRECT_URI_LENGTH_MAX || !isStorableText(uri))
    return `at most ${REDIRECT_URI_LENGTH_MAX} characters of text`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `not an absolute URI: ${JSON.stringify(uri)}`;
  }
  if (uri.includes('#')) return `must not have a fragment: ${JSON.stringify(uri)}`;
  if (url.username !== '' || url.password !== '')
    return `must not hold a user name or password: ${JSON.stringify(uri)}`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return `must be https, or http on a loopback address (127.0.0.1, [::1], localhost): ${JSON.stringify(uri)}`;
}

/** A list of strings, or undefined when left out; anything else is a problem with the field. */
function stringList(body: Record<string, unknown>, name: string): string[] | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw metadataProblem(`${name}: must be an array of strings`);
  return value;
}

/** Checks a registration request (RFC 7591 section 2) and says what would be registered. */
export function checkRegistration(body: unknown): Omit<Registered, 'client_id' | 'client_id_issued_at'> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw metadataProblem('The registration must be a JSON object of client metadata');
  const fields = body as Record<string, unknown>;

  const uris = fields.redirect_uris;
  if (uris === undefined) throw redirectProblem('redirect_uris: is required');
  if (!Array.isArray(uris) || uris.length === 0)
    throw redirectProblem('redirect_uris: must be an array of at least one URI');
  if (uris.length > REDIRECT_URIS_MAX) throw redirectProblem(`redirect_uris: at most ${REDIRECT_URIS_MAX}`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw redirectProblem(`redirect_uris: ${problem}`);
  }

  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw metadataProblem(
      `token_endpoint_auth_method: only "none" (a public client using PKCE) can be registered here; a client with a secret is made by an operator`,
    );
  }
  const grants = stringList(fields, 'grant_types') ?? ['authorization_code'];
  const unknownGrant = grants.find((grant) => !GRANTS.includes(grant));
  if (unknownGrant !== undefined || !grants.includes('authorization_code')) {
    throw metadataProblem(
      `grant_types: a registered client uses "authorization_code" only${unknownGrant ? ` (not "${unknownGrant}")` : ''}`,
    );
  }
  const responses = stringList(fields, 'response_types') ?? ['code'];
  if (responses.length === 0 || responses.some((type) => type !== 'code'))
    throw metadataProblem('response_types: only "code"');

  let name = UNNAMED;
  if (fields.client_name !== undefined) {
    if (typeof fields.client_name !== 'string') throw metadataProblem('client_name: must be a string');
    try {
      name = checkCredentialName(fields.client_name, false) || UNNAMED;
    } catch (error) {
      if (error instanceof BusinessError)
        throw metadataProblem(`client_name: ${error.message.replace(/^name: /, '')}`);
      throw error;
    }
  }

  let scopes: string[] = [...SCOPES];
  if (fields.scope !== undefined) {
    if (typeof fields.scope !== 'string') throw metadataProblem('scope: must be a string of scopes');
    scopes = [...new Set(fields.scope.split(' ').filter(Boolean))];
    const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0 || scopes.length === 0)
      throw metadataProblem(
        `scope: ${unknown.length > 0 ? `unknown scope ${unknown.map((s) => `"${s.slice(0, 40)}"`).join(', ')}` : 'name at least one'}; the scopes are ${SCOPES.join(' ')}`,
      );
  }
  return {
    client_name: name,
    redirect_uris: [...new Set(uris as string[])],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: scopes.join(' '),
  };
}

/**
 * RFC 7591 dynamic client registration of a public client. No user is asked: the client is held by
 * the first admin, `unclaimed`, until a platform user approves it on the sign-in page and becomes
 * its owner. Each caller may register `limiter`'s budget a minute; unclaimed registrations older
 * than a day go.
 */
export async function registerClient(
  db: Kysely<Database>,
  limiter: FailureLimiter,
  input: { body: unknown; caller: string; now: Date },
): Promise<Registered> {
  const wait = await limiter.take(input.caller);
  if (wait > 0) {
    throw new OAuthFailure(429, 'slow_down', `Too many registrations: try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const metadata = checkRegistration(input.body);
  const holder = await findFirstAdmin(db);
  if (!holder) throw new OAuthFailure(500, 'server_error', 'The instance has no admin user yet');
  const created = formatDate(input.now);
  const id = randomId(20);
  await db.transaction().execute(async (trx) => {
    // Registrations nobody approved within a day go; the housekeeping's, not this caller's.
    const expired = await deleteUnclaimedRegistrations(
      trx,
      formatDate(new Date(input.now.getTime() - UNCLAIMED_LIFETIME_MS)),
    );
    await recordChanges(
      trx,
      SYSTEM_ACTOR,
      expired.map((row) => ({ resource: 'client', id: row.id, action: 'delete' })),
    );
    await insertClient(trx, {
      id,
      name: metadata.client_name,
      user_id: holder.id,
      // No secret: the empty string is never the hash of one.
      secret_hash: '',
      secret_version: 1,
      scopes: metadata.scope,
      redirect_uris: redirectUrisText(metadata.redirect_uris),
      created,
      updated: created,
      registration: 'unclaimed',
    });
    // Nobody is known yet: the registration is the caller's, by its address.
    await recordChange(trx, anonymousActor(input.caller, 'oauth'), {
      resource: 'client',
      id,
      action: 'register',
    });
  });
  return { client_id: id, client_id_issued_at: Math.floor(input.now.getTime() / 1000), ...metadata };
}
