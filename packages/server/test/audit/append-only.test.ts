import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, SYSTEM_ACTOR } from '../../src/audit/actor.js';
import { listAuditRows, pruneAuditRows } from '../../src/audit/audit.repository.js';
import { recordChange, recordChanges } from '../../src/audit/audit.service.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { dialects, freshDatabase } from '../helpers/instance.js';

describe.each(dialects)('the audit log on %s', (dialect) => {
  let db: Kysely<Database>;
  let close: () => Promise<void>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabase(dialect);
    db = fresh.db.kysely;
    close = () => fresh.db.close();
    drop = fresh.drop;
    await migrateToLatest(db);
    await recordChange(
      db,
      cliActor(),
      { resource: 'member', id: 'm-old', action: 'create' },
      '2020-01-01T00:00:00.000Z',
    );
    await recordChanges(
      db,
      SYSTEM_ACTOR,
      [
        { resource: 'member', id: 'm-new', action: 'update', fields: ['name', 'email'] },
        { resource: 'campaign', id: 'c-1', action: 'end' },
      ],
      '2026-01-01T00:00:00.000Z',
    );
  });
  afterAll(async () => {
    await close();
    await drop();
  });

  it('keeps what was written, newest first, with the actor and the changed fields', async () => {
    const rows = await listAuditRows(db, { limit: 10 });
    expect(rows.map((row) => [row.resource_id, row.action, row.fields, row.actor_type])).toEqual([
      ['c-1', 'end', null, 'system'],
      ['m-new', 'update', 'name email', 'system'],
      ['m-old', 'create', null, 'cli'],
    ]);
    expect(rows[2]?.actor_id).toBe(cliActor().id);
    expect(
      await listAuditRows(db, { limit: 10, resourceType: 'member', since: '2025-01-01T00:00:00.000Z' }),
    ).toHaveLength(1);
  });

  it('refuses every UPDATE and every DELETE outside the retention', async () => {
    await expect(db.updateTable('audit_log').set({ action: 'forged' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').where('resource_id', '=', 'm-old').execute()).rejects.toThrow(
      /append-only/,
    );
    if (dialect === 'postgres') {
      await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    }
    expect(await listAuditRows(db, { limit: 10 })).toHaveLength(3);
  });

  it('refuses a retention cutoff in the future', async () => {
    await expect(pruneAuditRows(db, dialect, '2999-01-01T00:00:00.000Z')).rejects.toThrow(/append-only/);
    expect(await listAuditRows(db, { limit: 10 })).toHaveLength(3);
  });

  it('lets the retention remove the entries older than its cutoff, and only those', async () => {
    // An entry older than the shared ones, for the cutoff to fall between: the retention removes this
    // test's own entry and leaves the log as the other tests read it, whatever their order.
    await recordChange(
      db,
      cliActor(),
      { resource: 'member', id: 'm-ancient', action: 'create' },
      '2010-01-01T00:00:00.000Z',
    );
    expect(await pruneAuditRows(db, dialect, '2011-01-01T00:00:00.000Z')).toBe(1);
    const rows = await listAuditRows(db, { limit: 10 });
    expect(rows.map((row) => row.resource_id)).toEqual(['c-1', 'm-new', 'm-old']);
    // The declared cutoff lives only in the pruning transaction.
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
  });
});
