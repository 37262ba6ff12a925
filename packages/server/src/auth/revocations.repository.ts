import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { preparedPerDb } from '../db/prepared.js';
import { formatDate } from '../util/dates.js';

/** Records that a token is revoked until it expires (`expiresAt`, seconds since the epoch); once is enough. */
export async function recordRevokedToken(
  db: Kysely<Database>,
  token: { jti: string; clientId: string; expiresAt: number },
  now: Date,
): Promise<void> {
  const revoked = formatDate(now);
  // Rows of tokens that have expired meanwhile stop nothing any more.
  await db.deleteFrom('oauth_revoked_tokens').where('expires', '<', revoked).execute();
  await db
    .insertInto('oauth_revoked_tokens')
    .values({
      jti: token.jti,
      client_id: token.clientId,
      expires: formatDate(new Date(token.expiresAt * 1000)),
      revoked,
    })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
}

const revokedQuery = preparedPerDb(1, (db, jti: string) =>
  db.selectFrom('oauth_revoked_tokens').select('jti').where('jti', '=', jti),
);

export async function isTokenRevoked(db: Kysely<Database>, jti: string): Promise<boolean> {
  return (await revokedQuery(db)(jti)).length > 0;
}
