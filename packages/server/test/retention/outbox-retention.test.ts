import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listAuditRows } from '../../src/audit/audit.repository.js';
import type { Db } from '../../src/db/database.js';
import type { OutboxStatus } from '../../src/mail/mail.table.js';
import { OUTBOX_PRUNE_BATCH, pruneOutboxes } from '../../src/retention/outbox-retention.service.js';
import { formatDate } from '../../src/util/dates.js';
import type { WebhookStatus } from '../../src/webhooks/webhooks.table.js';
import { dialects } from '../helpers/instance.js';
import { type ScheduledDatabase, scheduledDatabase } from '../helpers/scheduled-database.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe(`the outboxes' retention, run by the scheduler (${dialect})`, () => {
    let scheduled: ScheduledDatabase;
    let db: Db;
    const clock = { now: 0 };

    // Each test has a database and a scheduler of its own, whose retention has never run.
    beforeEach(async () => {
      // Behind the real time, like every clock of the audit log's entries.
      clock.now = Date.now() - 5 * DAY;
      scheduled = await scheduledDatabase(dialect, { ASSAY_OUTBOX_RETENTION_DAYS: '30' }, clock);
      db = scheduled.db;
      await db.kysely
        .insertInto('webhook_subscriptions')
        .values({
          id: 'sub1',
          owner_id: null,
          url: 'https://hooks.example.com/assay',
          events: 'campaignmember.completed',
          description: null,
          enabled: 1,
          secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          previous_secret: null,
          previous_until: null,
          failing_since: null,
          disabled_reason: null,
          created: formatDate(new Date(clock.now - 400 * DAY)),
          updated: formatDate(new Date(clock.now - 400 * DAY)),
        })
        .execute();
    });
    afterEach(async () => {
      await scheduled?.close();
    });

    const runOnce = () => scheduled.runOnce();
    const ago = (days: number) => formatDate(new Date(clock.now - days * DAY));

    const mailRow = (id: string, status: OutboxStatus, daysAgo: number) => ({
      id,
      dedupe_key: `${id}:campaign_invitation:0`,
      campaign_id: null,
      member_id: null,
      stage: 'campaign_invitation',
      sequence: 0,
      recipient: `${id}@example.com`,
      language: 'enUS',
      template: 'bigfive',
      params: '{}',
      message_id: `<${id}@example.com>`,
      status,
      attempts: status === 'queued' ? 0 : 1,
      next_attempt_at: ago(daysAgo),
      lease_until: status === 'sending' ? ago(daysAgo - 1) : null,
      lease_owner: null,
      last_response: null,
      created: ago(daysAgo),
      sent_at: status === 'sent' ? ago(daysAgo) : null,
    });
    const mail = (id: string, status: OutboxStatus, daysAgo: number) =>
      db.kysely
        .insertInto('mail_outbox')
        .values(mailRow(id, status, daysAgo))
        .execute();
    const message = async (id: string, status: WebhookStatus, daysAgo: number, attempts: number) => {
      await db.kysely
        .insertInto('webhook_outbox')
        .values({
          id,
          subscription_id: 'sub1',
          event_type: 'campaignmember.completed',
          order_key: 'm1',
          payload: '{}',
          status,
          attempts,
          next_attempt_at: ago(daysAgo),
          lease_until: null,
          lease_owner: null,
          created: ago(daysAgo),
          delivered_at: status === 'delivered' ? ago(daysAgo) : null,
        })
        .execute();
      for (let attempt = 1; attempt <= attempts; attempt++) {
        await db.kysely
          .insertInto('webhook_attempts')
          .values({
            message_id: id,
            subscription_id: 'sub1',
            attempt,
            at: ago(daysAgo),
            http_status: attempt === attempts && status === 'delivered' ? 204 : 500,
            error: null,
            duration_ms: 12,
          })
          .execute();
      }
    };
    const mails = async () =>
      (await db.kysely.selectFrom('mail_outbox').select('id').orderBy('id').execute()).map((row) => row.id);
    const messages = async () =>
      (await db.kysely.selectFrom('webhook_outbox').select('id').orderBy('id').execute()).map(
        (row) => row.id,
      );
    const attemptsOf = async () =>
      (await db.kysely.selectFrom('webhook_attempts').select('message_id').orderBy('id').execute()).map(
        (row) => row.message_id,
      );
    /** The retention's audit entries, oldest first. */
    const prunes = async () =>
      (await listAuditRows(db.kysely, { limit: 100 }))
        .filter((row) => row.action === 'prune')
        .map((row) => `${row.at} ${row.actor_type} ${row.channel} ${row.resource_type} ${row.resource_id}`)
        .reverse();
    const entry = (resource: string) =>
      `${formatDate(new Date(clock.now))} system scheduler ${resource} null`;

    it('removes what ended before the retention, never what is still to be sent, and records that it did', async () => {
      await mail('sent-31', 'sent', 31);
      await mail('failed-200', 'failed', 200);
      await mail('capt-45', 'captured', 45);
      await mail('queued-60', 'queued', 60);
      await mail('sending-60', 'sending', 60);
      await mail('sent-20', 'sent', 20);
      await message('deliv-31', 'delivered', 31, 2);
      await message('failed-90', 'failed', 90, 3);
      await message('queued-40', 'queued', 40, 1);
      await message('deliv-2', 'delivered', 2, 1);

      await runOnce();
      expect(scheduled.errors).toEqual([]);
      expect(await mails()).toEqual(['queued-60', 'sending-60', 'sent-20']);
      expect(await messages()).toEqual(['deliv-2', 'queued-40']);
      // A removed message's attempts go with it; the others' stay.
      expect(await attemptsOf()).toEqual(['queued-40', 'deliv-2']);
      expect(await prunes()).toEqual([entry('mail'), entry('webhook')]);
      const first = await prunes();

      // Within the day nothing happens, however many ticks run.
      await mail('sent-31b', 'sent', 31);
      clock.now += 12 * HOUR;
      await runOnce();
      expect(await mails()).toContain('sent-31b');

      // A day after its last run it prunes again: only the mail outbox had anything to remove.
      clock.now += 12 * HOUR + 1000;
      await runOnce();
      expect(await mails()).toEqual(['queued-60', 'sending-60', 'sent-20']);
      expect(await prunes()).toEqual([...first, entry('mail')]);
      expect(scheduled.errors).toEqual([]);
    });

    it('records nothing when nothing was old enough', async () => {
      await mail('sent-29', 'sent', 29);
      await message('deliv-29', 'delivered', 29, 1);
      await runOnce();
      expect([await mails(), await messages(), await prunes()]).toEqual([['sent-29'], ['deliv-29'], []]);
      expect(scheduled.errors).toEqual([]);
    });

    it('removes a long outbox in batches, each a transaction, with one entry for the run', async () => {
      const count = 2 * OUTBOX_PRUNE_BATCH + 7;
      const rows = Array.from({ length: count }, (_, i) => `b${String(i).padStart(5, '0')}`);
      for (let start = 0; start < count; start += 400) {
        const chunk = rows.slice(start, start + 400).map((id) => mailRow(id, 'sent', 100));
        await db.kysely.insertInto('mail_outbox').values(chunk).execute();
      }
      const report = await pruneOutboxes({ db: db.kysely }, new Date(clock.now), 30);
      expect(report).toEqual({ mails: count, messages: 0 });
      expect((await mails()).filter((id) => id.startsWith('b0'))).toEqual([]);
      expect(await prunes()).toEqual([entry('mail')]);
    });
  });
}
