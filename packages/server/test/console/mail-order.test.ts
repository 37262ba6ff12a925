import { type CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { listMails } from '../../src/mail/outbox.service.js';
import { dialects, migratedDatabase } from '../helpers/instance.js';

/**
 * The outbox page's query (listMails, the console's /console/mail) is served by an index on both
 * engines: newest first is a walk down `mail_outbox_created_idx` or, for one status,
 * `mail_outbox_status_created_idx`, never a sort of every mail (the bench measures it with 100,000).
 * The plans are read with the statement listMails really sends, captured on its way out.
 */
describe.each(dialects)('the outbox page’s order (%s)', (dialect) => {
  let database: { db: Db; close(): Promise<void> };
  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(() => database?.close());

  /** The statement listMails sends for this filter. */
  async function statementOf(filter: Parameters<typeof listMails>[1]): Promise<CompiledQuery> {
    const sent: CompiledQuery[] = [];
    const kysely = database.db.kysely;
    const capture: KyselyPlugin = {
      transformQuery: (args) => {
        sent.push(kysely.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    await listMails(kysely.withPlugin(capture), filter);
    expect(sent).toHaveLength(1);
    return sent[0] as CompiledQuery;
  }

  /** The plan's text; on PostgreSQL with sorts and table scans priced out, so an index is used if one fits. */
  async function planOf(query: CompiledQuery): Promise<string> {
    const kysely = database.db.kysely;
    if (dialect === 'sqlite') {
      const rows = await kysely.executeQuery<Record<string, unknown>>({
        ...query,
        sql: `explain query plan ${query.sql}`,
      });
      return JSON.stringify(rows.rows);
    }
    return kysely.transaction().execute(async (trx) => {
      await sql`set local enable_sort = off`.execute(trx);
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>({
        ...query,
        sql: `explain ${query.sql}`,
      });
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it('walks an index for every status and for one, before and after a cursor', async () => {
    const cursor = { created: '2026-01-01T00:00:00+00:00', id: 'M000000001' };
    for (const filter of [
      { limit: 51 },
      { status: 'failed' as const, limit: 51 },
      { limit: 51, before: cursor },
      { status: 'sent' as const, limit: 51, before: cursor },
    ]) {
      const plan = await planOf(await statementOf(filter));
      const label = JSON.stringify(filter);
      if (dialect === 'sqlite') {
        expect(plan, label).not.toContain('TEMP B-TREE');
        expect(plan, label).toMatch(
          filter.status ? /mail_outbox_status_created_idx/ : /mail_outbox_created_idx/,
        );
      } else {
        expect(plan, label).not.toMatch(/\bSort\b/);
        expect(plan, label).toMatch(
          filter.status ? /mail_outbox_status_created_idx/ : /mail_outbox_created_idx/,
        );
      }
    }
  });
});
