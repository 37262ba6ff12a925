import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { listAuditRows } from '../../src/audit/audit.repository.js';
import { recordChange } from '../../src/audit/audit.service.js';
import { formatDate } from '../../src/util/dates.js';
import { dialects } from '../helpers/instance.js';
import { type ScheduledDatabase, scheduledDatabase } from '../helpers/scheduled-database.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`the audit retention, run by the scheduler (${dialect})`, () => {
    let scheduled: ScheduledDatabase;
    const clock = { now: 0 };

    // Each test has a database and a scheduler of its own, whose retention has never run.
    beforeEach(async () => {
      // Behind the real time: the triggers refuse a cutoff later than the database's own now.
      clock.now = Date.now() - 5 * DAY;
      scheduled = await scheduledDatabase(dialect, { ASSAY_AUDIT_RETENTION_DAYS: '30' }, clock);
    });
    afterEach(async () => {
      await scheduled?.close();
    });

    const runOnce = () => scheduled.runOnce();
    const write = (id: string, daysAgo: number) =>
      recordChange(
        scheduled.db.kysely,
        cliActor(),
        { resource: 'member', id, action: 'create' },
        formatDate(new Date(clock.now - daysAgo * DAY)),
      );
    const entries = async () =>
      (await listAuditRows(scheduled.db.kysely, { limit: 100 })).map((row) =>
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
      const prune = (await listAuditRows(scheduled.db.kysely, { limit: 1 }))[0];
      expect([prune?.at, prune?.resource_id, prune?.fields, prune?.channel]).toEqual([
        formatDate(new Date(clock.now)),
        null,
        null,
        'scheduler',
      ]);

      // Within the day the retention does nothing, however many ticks run.
      await write('m-old-2', 31);
      clock.now += 12 * HOUR;
      await runOnce();
      await runOnce();
      expect(await entries()).toEqual(['m-old-2', 'system scheduler audit_log prune', 'm-kept']);

      // A day after its last run it prunes again.
      clock.now += 12 * HOUR + 1000;
      await runOnce();
      expect(await entries()).toEqual([
        'system scheduler audit_log prune',
        'system scheduler audit_log prune',
        'm-kept',
      ]);
      expect(scheduled.errors).toEqual([]);
    });

    it('records nothing when nothing was old enough', async () => {
      await write('m-young', 29);
      await runOnce();
      expect(await entries()).toEqual(['m-young']);
      expect(scheduled.errors).toEqual([]);
    });
  });
}
