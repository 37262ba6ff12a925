import { type Kysely, PostgresAdapter, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from './database.js';

/** How a column's value is read out of the JSON on PostgreSQL (SQLite takes JSON's own types). */
export type JsonColumnType = 'text' | 'integer';

/** The columns of a bulk insert, in order, with their types. */
export type JsonColumns<Row> = readonly (readonly [keyof Row & string, JsonColumnType])[];

/** Rows one statement carries: one JSON parameter, whatever the count, well under any limit. */
export const JSON_ROWS_CHUNK = 5000;

/**
 * Many rows as ONE parameter: a SELECT of `columns` over the rows' JSON, which the database
 * unpacks (`json_to_recordset` on PostgreSQL, `json_each` on SQLite), for an
 * `insert into ... (columns) <this>`. A multi-row VALUES binds one parameter per column and row:
 * for thousands of rows, compiling, sending and parsing those parameters costs several times what
 * the insert itself does. The SELECT ends in `where true`: SQLite needs a WHERE clause before an
 * `on conflict` that follows it.
 */
export function jsonRowsSelect<Row>(
  db: Kysely<Database> | Transaction<Database>,
  columns: JsonColumns<Row>,
  rows: readonly Row[],
): { columns: RawBuilder<unknown>; select: RawBuilder<unknown> } {
  const names = sql.join(columns.map(([column]) => sql.ref(column)));
  const json = JSON.stringify(rows.map((row) => columns.map(([column]) => row[column as keyof Row] ?? null)));
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Rows as arrays (half the bytes of objects), read back by position.
    const values = sql.join(
      columns.map(([, type], index) => sql`(value->>${sql.lit(index)})::${sql.raw(type)}`),
    );
    return {
      columns: names,
      select: sql`select ${values} from json_array_elements(${json}::json) where true`,
    };
  }
  const values = sql.join(columns.map((_, index) => sql`json_extract(value, ${`$[${index}]`})`));
  return { columns: names, select: sql`select ${values} from json_each(${json}) where true` };
}

/** The rows in chunks of JSON_ROWS_CHUNK. */
export function* jsonRowChunks<Row>(rows: readonly Row[]): Generator<readonly Row[]> {
  for (let start = 0; start < rows.length; start += JSON_ROWS_CHUNK)
    yield rows.slice(start, start + JSON_ROWS_CHUNK);
}
