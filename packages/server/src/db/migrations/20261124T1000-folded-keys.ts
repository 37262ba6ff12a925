import { type Kysely, sql } from 'kysely';
import { caseFold } from '../../util/text.js';

// Uniqueness without regard to case was a unique index on `lower(column)`. SQLite's lower() folds
// A-Z only and PostgreSQL's follows the database's collation, while the application folded with
// JavaScript: `ÉLODIE@…` and `élodie@…` could both be stored, and a look-up could miss a stored
// address and then collide with it. Each such column now has a key column, folded by the
// application (`caseFold`) the same way on every engine, and the unique index is on the key.

const FOLDED = [
  { table: 'members', column: 'email', key: 'email_key', index: 'members_email_key' },
  { table: 'users', column: 'email', key: 'email_key', index: 'users_email_key' },
  { table: 'groups', column: 'name', key: 'name_key', index: 'groups_name_key' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, column, key, index } of FOLDED) {
    await db.schema
      .alterTable(table)
      .addColumn(key, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    // lower() is right for the usual, ASCII values; the rows where it is not are set one by one.
    await db
      .updateTable(table)
      .set({ [key]: sql`lower(${sql.ref(column)})` })
      .execute();
    const rows = (await db
      .selectFrom(table)
      .select(['id', `${column} as value`, `${key} as key`])
      .orderBy('created')
      .orderBy('id')
      .execute()) as { id: string; value: string; key: string }[];
    const taken = new Set<string>();
    for (const row of rows) {
      let folded = caseFold(row.value);
      // Rows the old index let through as different keep their value, but only the oldest holds
      // the key itself; the others stay readable and editable, and a new row cannot take the key.
      if (taken.has(folded)) folded = `${folded}#duplicate:${row.id}`;
      taken.add(folded);
      if (folded !== row.key) {
        await db
          .updateTable(table)
          .set({ [key]: folded })
          .where('id', '=', row.id)
          .execute();
      }
    }
    await db.schema.dropIndex(index).execute();
    await db.schema.createIndex(index).on(table).unique().column(key).execute();
  }
  // The detail shape gives title and middlename as strings: an unset one is stored empty.
  await db.updateTable('members').set({ title: '' }).where('title', 'is', null).execute();
  await db.updateTable('members').set({ middlename: '' }).where('middlename', 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, column, key, index } of FOLDED) {
    await db.schema.dropIndex(index).execute();
    await db.schema
      .createIndex(index)
      .on(table)
      .unique()
      .expression(sql`lower(${sql.ref(column)})`)
      .execute();
    await db.schema.alterTable(table).dropColumn(key).execute();
  }
}
