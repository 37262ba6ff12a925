import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../../src/db/database.js';

let made = 0;

/**
 * Makes the database itself refuse every row inserted into `table` whose `column` is `value` (a
 * trigger that raises), so that a test sees a real failure at one step of a change, on either
 * engine, without mocking any of our code. Answers how to remove it.
 */
export async function refuseInserts(
  db: Kysely<Database>,
  dialect: Dialect,
  refused: { table: keyof Database; column: string; value: string },
): Promise<() => Promise<void>> {
  // Names and values are written into the statement (DDL takes no parameters): keep them plain.
  for (const part of [refused.table, refused.column, refused.value])
    if (!/^[A-Za-z0-9_]+$/.test(part)) throw new Error(`refuseInserts: ${part} is not a plain name`);
  const name = `refuse_${refused.table}_${++made}_${process.pid}`;
  const table = sql.raw(refused.table);
  const trigger = sql.raw(name);
  const condition = sql.raw(`new.${refused.column} = '${refused.value}'`);
  if (dialect === 'sqlite') {
    await sql`create trigger ${trigger} before insert on ${table} when ${condition}
      begin select raise(abort, 'refused by the test'); end`.execute(db);
    return async () => {
      await sql`drop trigger ${trigger}`.execute(db);
    };
  }
  await sql`create function ${trigger}() returns trigger language plpgsql as
    $$ begin raise exception 'refused by the test'; end $$`.execute(db);
  await sql`create trigger ${trigger} before insert on ${table} for each row when (${condition})
    execute function ${trigger}()`.execute(db);
  return async () => {
    await sql`drop trigger ${trigger} on ${table}`.execute(db);
    await sql`drop function ${trigger}()`.execute(db);
  };
}
