import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';

/**
 * A dialect whose whole life is one transaction: the first statement begins it on one connection,
 * every statement after runs on that connection, and the transactions the services open inside it
 * become savepoints. Nothing is visible to anyone else until `commit()`; closing without it rolls
 * everything back. For work that must land whole or not at all though it is made of many service
 * calls, each with transactions of its own (`assay demo`).
 */
export class OneTransactionDialect implements Dialect {
  private driver: OneTransactionDriver | undefined;

  constructor(private readonly inner: Dialect) {}

  createDriver(): Driver {
    this.driver = new OneTransactionDriver(this.inner.createDriver());
    return this.driver;
  }
  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }

  /** Makes everything done so far visible at once. */
  async commit(): Promise<void> {
    await this.driver?.finish('commit');
  }
}

class OneTransactionDriver implements Driver {
  private opening: Promise<DatabaseConnection> | undefined;
  private connection: DatabaseConnection | undefined;
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  private depth = 0;
  private finished = false;

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  private open(): Promise<DatabaseConnection> {
    this.opening ??= (async () => {
      const connection = await this.inner.acquireConnection();
      await this.inner.beginTransaction(connection, {});
      this.connection = connection;
      return connection;
    })();
    return this.opening;
  }

  /** One connection, one user at a time (a service never queries outside its own transaction). */
  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.finished) throw new Error('the transaction has ended');
    const connection = await this.open();
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    return connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    this.depth++;
    await connection.executeQuery(CompiledQuery.raw(`savepoint assay_nested_${this.depth}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint assay_nested_${this.depth}`));
    this.depth--;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint assay_nested_${this.depth}`));
    await connection.executeQuery(CompiledQuery.raw(`release savepoint assay_nested_${this.depth}`));
    this.depth--;
  }

  async finish(outcome: 'commit' | 'rollback'): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    const connection = this.connection;
    if (!connection) return;
    try {
      if (outcome === 'commit') await this.inner.commitTransaction(connection);
      else await this.inner.rollbackTransaction(connection);
    } finally {
      await this.inner.releaseConnection(connection);
    }
  }

  async destroy(): Promise<void> {
    await this.finish('rollback').catch(() => {});
    await this.inner.destroy();
  }
}
