import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. RFC 7591 dynamic client registration: a client
// registered by itself is marked, `unclaimed` until a platform user first approves it on the
// sign-in page and `claimed` after (that user is then its owner); null for a client an operator
// made. Registered clients are public (token_endpoint_auth_method "none"): their `secret_hash` is
// the empty string, which no presented secret's hash ever equals.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('registration', 'varchar(16)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('registration').execute();
}
