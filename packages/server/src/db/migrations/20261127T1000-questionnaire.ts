import type { Kysely } from 'kysely';

// Frozen in time: never imports application code. What the questionnaire pages keep: a campaign
// member's answers so far (saved on every page), and the links that no longer work with why, so
// that an old link says "reset" or "removed" rather than "unknown".

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('campaign_members')
    .addColumn('answers', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .createTable('retired_tokens')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    // reset (the member starts afresh under a new link) or removed (no longer in the campaign)
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    .addColumn('campaign_id', 'varchar(10)', (c) => c.references('campaigns.id').onDelete('set null'))
    .addColumn('retired', 'varchar(32)', (c) => c.notNull())
    .execute();
  // Facts about the instance itself, such as whether the first start's client was made (a
  // deleted last client must not come back with every scope at the next start).
  await db.schema
    .createTable('instance_facts')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('instance_facts').execute();
  await db.schema.dropTable('retired_tokens').execute();
  await db.schema.alterTable('campaign_members').dropColumn('answers').execute();
}
