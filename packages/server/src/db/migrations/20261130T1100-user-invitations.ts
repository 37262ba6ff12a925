import { type Kysely, sql } from 'kysely';

// Frozen in time: never imports application code. A platform user can be invited by mail: the
// one-time links of console_sign_in_links gain a purpose (`sign-in`, the first start's and the
// CLI's links, which sign in; `invitation`, whose page sets a password first) and the language of
// the invitation (its page speaks it). Looked up by user: a user's pending invitation.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('console_sign_in_links')
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull().defaultTo('sign-in'))
    .execute();
  await db.schema.alterTable('console_sign_in_links').addColumn('language', 'varchar(8)').execute();
  await db.schema
    .createIndex('console_sign_in_links_user')
    .on('console_sign_in_links')
    .columns(['user_id', 'purpose'])
    .execute();
  // At most one open invitation a user, held by both engines: of two resends at the same moment,
  // one link wins and the other is refused, never two links alive.
  await db.schema
    .createIndex('console_sign_in_links_open_invitation')
    .on('console_sign_in_links')
    .column('user_id')
    .unique()
    .where(sql<boolean>`purpose = 'invitation' and used is null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('console_sign_in_links_open_invitation').execute();
  await db.schema.dropIndex('console_sign_in_links_user').execute();
  await db.schema.alterTable('console_sign_in_links').dropColumn('language').execute();
  await db.schema.alterTable('console_sign_in_links').dropColumn('purpose').execute();
}
