import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { listAuditRows } from '../../src/audit/audit.repository.js';
import { recordChange } from '../../src/audit/audit.service.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { formatDate } from '../../src/util/dates.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { dialects, migratedDatabase } from '../helpers/instance.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`the audit retention, run by the scheduler (${dialect})`, () => {
    let db: Db;
    let close: () => Promise<void>;
    // Behind the real time: the triggers refuse a cutoff later than the database's own now.
    let now = Date.now() - 5 * DAY;
    const errors: unknown[] = [];
    let scheduler: Scheduler;

    beforeAll(async () => {
      ({ db, close } = await migratedDatabase(dialect));
      const config = loadConfig({ LOG_LEVEL: 'silent', ASSAY_AUDIT_RETENTION_DAYS: '30' });
      scheduler = new Scheduler(
        {
          db: db.kysely,
          dialect,
          variants: loadVariants([builtinVariantsDir()]),
          config,
          clock: () => new Date(now),
          mailQueued: () => {},
          campaignsDue: () => {},
        },
        // Ticks only when the test runs one.
        { tickSeconds: 86_400, log: { error: (obj) => errors.push(obj) } },
      );
    });
    afterAll(async () => {
      await scheduler?.stop();
      await close?.();
    });

    /** One scheduler run, to its end. */
    const runOnce = async () => {
      scheduler.start();
      await scheduler.stop();
    };
    const write = (id: string, daysAgo: number) =>
      recordChange(
        db.kysely,
        cliActor(),
        { resource: 'member', id, action: 'create' },
        formatDate(new Date(now - daysAgo * DAY)),
      );
    const entries = async () =>
      (await listAuditRows(db.kysely, { limit: 100 })).map((row) =>
        row.resource_type === 'audit_log'
          ? `${row.actor_type} ${row.actor_id} ${row.resource_type} ${row.action}`
          : row.resource_id,
      );

    it('removes what is older than the retention once a day, and records that it did', async () => {
      await write('m-old', 31);
      await write('m-older', 400);
      await write('m-kept', 20);
      await runOnce();
      expect(await entries()).toEqual(['system scheduler audit_log prune', 'm-kept']);
      const prune = (await listAuditRows(db.kysely, { limit: 1 }))[0];
      expect([prune?.at, prune?.resource_id, prune?.fields, prune?.channel]).toEqual([
        formatDate(new Date(now)),
        null,
        null,
        'scheduler',
      ]);

      // Within the day the retention does nothing, however many ticks run.
      await write('m-old-2', 31);
      now += 12 * HOUR;
      await runOnce();
      await runOnce();
      expect(await entries()).toEqual(['m-old-2', 'system scheduler audit_log prune', 'm-kept']);

      // A day after its last run it prunes again.
      now += 12 * HOUR + 1000;
      await runOnce();
      expect(await entries()).toEqual([
        'system scheduler audit_log prune',
        'system scheduler audit_log prune',
        'm-kept',
      ]);
      expect(errors).toEqual([]);
    });

    it('records nothing when nothing was old enough', async () => {
      const before = await entries();
      now += DAY + 1000;
      await runOnce();
      expect(await entries()).toEqual(before);
      expect(errors).toEqual([]);
    });
  });
}
