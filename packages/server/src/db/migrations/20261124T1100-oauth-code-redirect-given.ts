import type { Kysely } from 'kysely';

// RFC 6749 section 4.1.3: the token request must repeat redirect_uri only when the authorization
// request named it. A code remembers whether it did (1) or fell back to the single registered URI (0).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_codes')
    .addColumn('redirect_given', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_codes').dropColumn('redirect_given').execute();
}
