import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Database, Dialect } from './database.js';

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

/**
 * A sentinel that stands for the n-th argument while the query is compiled once. Mixed case and
 * padded, so that a case change or a trim done on it inside the builder changes it too, and is seen.
 */
const slot = (index: number) => ` \u0000Assay-Arg-${index}\u0000 `;
/** Whether a compiled value or SQL text still holds a sentinel in any form. */
const holdsSlot = (text: string) => text.toLowerCase().includes('assay-arg-');

/**
 * The query compiled with a sentinel for each argument, and how to bind the arguments of a call.
 * Each sentinel must come out as a parameter of its own, unchanged: an argument the builder
 * transformed (`email.toLowerCase()`), embedded in a longer value (`` `%${term}%` ``), used to shape
 * the SQL, or not used at all would otherwise be frozen into the statement as a constant, and every
 * later call would silently run with the first call's value. Such a query is refused here, once,
 * when it is compiled.
 */
function compileOnce<A extends unknown[], R>(arity: number, build: (...args: A) => Compilable<R>) {
  const slots = Array.from({ length: arity }, (_, i) => slot(i));
  const compiled = build(...(slots as A)).compile();
  const binding = compiled.parameters.map((parameter) => {
    const index = typeof parameter === 'string' ? slots.indexOf(parameter) : -1;
    return index >= 0 ? { arg: index } : { value: parameter };
  });
  const bound = new Set(binding.flatMap((b) => ('arg' in b ? [b.arg] : [])));
  const stray = binding.some((b) => 'value' in b && typeof b.value === 'string' && holdsSlot(b.value));
  const unbound = slots.map((_, i) => i).filter((i) => !bound.has(i));
  if (stray || unbound.length > 0 || holdsSlot(compiled.sql)) {
    const which = unbound.length > 0 ? `argument ${unbound.map((i) => i + 1).join(', ')}` : 'an argument';
    throw new Error(
      `prepared statement: ${which} of ${arity} does not reach the parameters unchanged (transformed, ` +
        `embedded in a value, written into the SQL, or unused); transform it before the call. ` +
        `Statement: ${compiled.sql}`,
    );
  }
  const bind = (args: readonly unknown[]) =>
    binding.map((bound) => ('arg' in bound ? args[bound.arg as number] : bound.value));
  return { compiled, bind };
}

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
  const { compiled, bind } = compileOnce(arity, build);
  const fast = fastReads.get(db)?.prepare(compiled.sql);
  return (...args: A) => {
    const parameters = bind(args);
    const rows = fast?.(parameters);
    if (rows) return Promise.resolve(rows as R[] | Promise<R[]>);
    return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>).then((result) => result.rows);
  };
}

/**
 * As `prepared`, for one statement that writes and answers rows (an `UPDATE … RETURNING`), run on
 * its own outside any transaction. On PostgreSQL it is a named statement like the reads (each one
 * commits by itself); on SQLite it always queues through Kysely's executor, never through the
 * synchronous read path, which is for reads.
 */
export function preparedWrite<A extends unknown[], R>(
  db: Kysely<Database>,
  dialect: Dialect,
  arity: A['length'],
  build: (...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  if (dialect === 'postgres') return prepared(db, arity, build);
  const { compiled, bind } = compileOnce(arity, build);
  return (...args: A) => {
    const parameters = bind(args);
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

/** One prepared write per database handle (see preparedWrite), made on first use. */
export function preparedWritePerDb<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, dialect: Dialect) => (...args: A) => Promise<R[]> {
  const byDb = new WeakMap<Kysely<Database>, (...args: A) => Promise<R[]>>();
  return (db, dialect) => {
    let query = byDb.get(db);
    if (!query) {
      query = preparedWrite<A, R>(db, dialect, arity, (...args) => build(db, ...args));
      byDb.set(db, query);
    }
    return query;
  };
}

/**
 * A statement compiled once per dialect and run on whichever handle is given, for statements run
 * in a transaction the caller holds. `preparedWritePerDb` cannot serve there: each transaction is
 * a handle of its own, so its cache would build and compile the query again on every call (on
 * SQLite that costs more than running the statement). The SQL text depends only on the dialect,
 * never on the handle, so the first call of a dialect compiles it for all that follow. It runs
 * through Kysely's executor, as `preparedWrite` does on SQLite. `build` gets the dialect, to write
 * dialect-specific SQL, and must use each argument only as a bound value, as for `prepared`.
 */
export function preparedPerDialect<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<Database>, dialect: Dialect, ...args: A) => Compilable<R>,
): (db: Kysely<Database> | Transaction<Database>, dialect: Dialect, ...args: A) => Promise<R[]> {
  const byDialect = new Map<Dialect, ReturnType<typeof compileOnce<A, R>>>();
  return (db, dialect, ...args) => {
    let once = byDialect.get(dialect);
    if (!once) {
      once = compileOnce<A, R>(arity, (...slots) => build(db, dialect, ...slots));
      byDialect.set(dialect, once);
    }
    const { compiled, bind } = once;
    return db
      .executeQuery<R>({ ...compiled, parameters: bind(args) } as CompiledQuery<R>)
      .then((result) => result.rows);
  };
}
