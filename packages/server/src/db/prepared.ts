import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';

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
  return async (...args: A) => {
    const parameters = binding.map((bound) => ('arg' in bound ? args[bound.arg as number] : bound.value));
    const result = await db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
    return result.rows;
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
