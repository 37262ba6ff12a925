import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code. Dates are stored as text in the wire
// form (`2026-11-22T11:46:36+00:00`), which sorts correctly and reads the same on both engines;
// booleans as 0/1 integers for the same reason; JSON objects as text.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('firstname', 'varchar(255)', (c) => c.notNull())
    .addColumn('lastname', 'varchar(255)', (c) => c.notNull())
    .addColumn('color', 'varchar(32)', (c) => c.notNull().defaultTo('#1d70b8'))
    .addColumn('agencyname', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('agencyfooter', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
    .addColumn('password_hash', 'text')
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email_key').on('users').unique().expression(sql`lower(email)`).execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(10)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('secret_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(10)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('alg', 'varchar(16)', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('retired', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('parent_id', 'varchar(10)', (c) => c.references('groups.id'))
    .addColumn('type', 'varchar(16)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('creator', 'varchar(10)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('groups_alias_key')
    .on('groups')
    .unique()
    .expression(sql`lower(alias)`)
    .execute();
  await db.schema.createIndex('groups_name_key').on('groups').unique().expression(sql`lower(name)`).execute();
  await db.schema.createIndex('groups_parent_idx').on('groups').column('parent_id').execute();

  await db.schema
    .createTable('members')
    .addColumn('id', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('title', 'varchar(100)')
    .addColumn('firstname', 'varchar(255)', (c) => c.notNull())
    .addColumn('middlename', 'varchar(255)')
    .addColumn('lastname', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('phone', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('company', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('jobtitle', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)')
    .addColumn('level', 'varchar(32)')
    .addColumn('testuser', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('group_id', 'varchar(10)', (c) => c.references('groups.id').onDelete('set null'))
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('members_email_key')
    .on('members')
    .unique()
    .expression(sql`lower(email)`)
    .execute();
  await db.schema.createIndex('members_group_idx').on('members').column('group_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['members', 'groups', 'signing_keys', 'api_keys', 'oauth_clients', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
