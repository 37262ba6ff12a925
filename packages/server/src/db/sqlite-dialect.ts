import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

const STATEMENT_CACHE_SIZE = 500;

/**
 * How long a write waits for another process (a second server, `assay members import`) to release
 * SQLite's write lock before the request is answered 503. The wait is asynchronous: SQLite's own busy
 * handler sleeps on the thread, so the connection is opened with a short one (`busy_timeout`) and a
 * write that still finds the lock taken is tried again after a timer, the event loop free meanwhile.
 */
export const SQLITE_LOCK_WAIT_MS = 15_000;

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown } | null)?.code === 'string' &&
  ((error as { code: string }).code === 'SQLITE_BUSY' ||
    (error as { code: string }).code === 'SQLITE_LOCKED');

/**
 * Runs `attempt` until it does not meet a busy database, waiting a little longer each time, up to
 * `SQLITE_LOCK_WAIT_MS`; then the busy error goes up (and the request answers 503).
 */
async function whenUnlocked<T>(attempt: () => T): Promise<T> {
  const deadline = performance.now() + SQLITE_LOCK_WAIT_MS;
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || performance.now() + wait > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Kysely over better-sqlite3, tuned for a server: Kysely's own SQLite driver prepares every query
 * anew, wakes every waiting request whenever the single connection is released (so 50 concurrent
 * requests cost 50 wake-ups per query), and streams one row at a time. This one keeps prepared
 * statements, hands the connection to waiters one by one in order, and streams in batches.
 */
export class SqliteServerDialect implements Dialect {
  /** Statements that wrote, counted so that caches learn of this process's own changes. */
  readonly writes = { count: 0 };

  private driver: SqliteServerDriver | undefined;

  constructor(private readonly database: SqliteDatabase.Database) {}

  createDriver(): Driver {
    this.driver = new SqliteServerDriver(this.database, this.writes);
    return this.driver;
  }

  /**
   * Runs a read at once, synchronously, when the connection is free; answers undefined when it is
   * not (a transaction or a stream holds it) or when the statement would write, and the caller
   * must then queue through Kysely. Saves the executor's chain of promises on hot queries.
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    return this.driver?.readNow(sql, parameters);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

class SqliteServerDriver implements Driver {
  private readonly connection: SqliteServerConnection;
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly database: SqliteDatabase.Database,
    writes: { count: number },
  ) {
    this.connection = new SqliteServerConnection(database, writes);
  }

  async init(): Promise<void> {}

  /** SQLite has one connection: a request waits its turn in a queue, woken alone when it comes. */
  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(this.connection);
    }
    return new Promise((resolve) => this.waiting.push(() => resolve(this.connection)));
  }

  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (this.busy) return undefined;
    return this.connection.readNow(sql, parameters);
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }

  /**
   * Takes the write lock up front. A deferred `begin` would read under a snapshot and then fail at
   * once with SQLITE_BUSY_SNAPSHOT at its first write if another process committed in between; an
   * immediate one waits for the lock (see `whenUnlocked`) and then reads the latest data.
   */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async destroy(): Promise<void> {
    this.database.close();
  }
}

class SqliteServerConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SqliteDatabase.Statement>();

  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly writes: { count: number },
  ) {}

  // Statements are kept by SQL text; one query runs at a time, so none is ever in use twice.
  private prepare(sql: string): SqliteDatabase.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    const statement = this.prepare(sql);
    return statement.reader ? statement.all(parameters as unknown[]) : undefined;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    const run = (): QueryResult<R> => {
      if (statement.reader) return { rows: statement.all(parameters) as R[] };
      this.writes.count++;
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    };
    try {
      return Promise.resolve(run());
    } catch (error) {
      // Another process holds the write lock: wait for it without holding the event loop. A
      // statement inside a transaction never gets here (the transaction holds the lock since `begin
      // immediate`), so retrying one statement never splits a transaction.
      if (isBusy(error) && !this.database.inTransaction) return whenUnlocked(run);
      return Promise.reject(error);
    }
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize = 1000,
  ): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error('only SELECT queries can be streamed');
    const rows = this.prepare(compiledQuery.sql).iterate(compiledQuery.parameters as unknown[]);
    let batch: R[] = [];
    for (const row of rows) {
      batch.push(row as R);
      if (batch.length >= chunkSize) {
        yield { rows: batch };
        batch = [];
      }
    }
    if (batch.length > 0) yield { rows: batch };
  }
}
