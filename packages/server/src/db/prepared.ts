import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * A shorter way to run the reads compiled once below, outside any transaction: on SQLite the
 * statement runs at once while the connection is free (SqliteServerDialect.readNow); on
 * PostgreSQL it is a named statement, parsed and planned once per connection. `prepare` is called
 * once per query; the function it answers gives undefined when the caller must go through Kysely.
 */
export interface FastReads {
  prepare(sql: string): (parameters: readonly unknown[]) => unknown[] | Promise<unknown[]> | undefined;
}

const fastReads = new WeakMap<Kysely<Database>, FastReads>();

/** Lets prepared queries on this handle (not on its transactions) skip Kysely's executor. */
export function registerFastReads(db: Kysely<Database>, reads: FastReads): void {
  fastReads.set(db, reads);
}

/** A sentinel that stands for the n-th argument while the query is compiled once. */
const slot = (index: number) => `\u0000assay-arg-${index}\u0000`;

/**
 * Compiles a query once and binds new arguments on each call, for the few queries on the path of
 * every request (building and compiling a Kysely query costs more than running it on SQLite).
 * `build` must use each argument only as a bound value, never to shape the SQL.
 */
export function prepared<A extends unknown[], R>(
  db: Kysely<Database>,
  arity: A['length'],
  build: (...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  const compiled = build(...(Array.from({ length: arity }, (_, i) => slot(i)) as A)).compile();
  const binding = compiled.parameters.map((parameter) => {
    const index =
      typeof parameter === 'string'
        ? Array.from({ length: arity }, (_, i) => slot(i)).indexOf(parameter)
        : -1;
    return index >= 0 ? { arg: index } : { value: parameter };
  });
  const fast = fastReads.get(db)?.prepare(compiled.sql);
  return (...args: A) => {
    const parameters = binding.map((bound) => ('arg' in bound ? args[bound.arg as number] : bound.value));
    const rows = fast?.(parameters);
    if (rows) return Promise.resolve(rows as R[] | Promise<R[]>);
    return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>).then((result) => result.rows);
  };
}

/** One prepared query per database handle, made on first use. */
export function preparedPerDb<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>) => (...args: A) => Promise<R[]> {
  const byDb = new WeakMap<Kysely<Database>, (...args: A) => Promise<R[]>>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) {
      query = prepared<A, R>(db, arity, (...args) => build(db, ...args));
      byDb.set(db, query);
    }
    return query;
  };
}
