import { sql } from 'kysely';
import type { Instance } from './instance.js';

/** Every row of every table of the instance's database, each table's rows as sorted JSON lines. */
export type DatabaseSnapshot = ReadonlyMap<string, readonly string[]>;

/**
 * What the database holds now, every table of it (read from the catalogue, so a table added later is
 * in it too). `leave` names columns to leave out (`table.column`): what changes with time alone, as a
 * session's last sight.
 */
export async function databaseSnapshot(
  instance: Instance,
  leave: readonly string[] = [],
): Promise<DatabaseSnapshot> {
  const db = instance.db.kysely;
  const tables =
    instance.dialect === 'sqlite'
      ? await sql<{ name: string }>`
          select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`
          select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const snapshot = new Map<string, string[]>();
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    snapshot.set(
      name,
      rows.rows
        .map((row) => {
          const kept = { ...row };
          for (const column of Object.keys(kept))
            if (leave.includes(`${name}.${column}`)) delete kept[column];
          return JSON.stringify(kept);
        })
        .sort(),
    );
  }
  return snapshot;
}

/** What changed between two snapshots, a line a table: the rows that appeared and those that went. */
export function snapshotChanges(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
  const changes: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name) ?? [];
    const now = after.get(name) ?? [];
    const added = now.filter((row) => !was.includes(row));
    const removed = was.filter((row) => !now.includes(row));
    if (added.length > 0 || removed.length > 0)
      changes.push(`${name}: +${JSON.stringify(added)} -${JSON.stringify(removed)}`);
  }
  return changes;
}
