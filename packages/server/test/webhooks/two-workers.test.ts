import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { formatDate } from '../../src/util/dates.js';
import { WebhookDelivery } from '../../src/webhooks/delivery.js';
import { queueEvents } from '../../src/webhooks/events.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// Two server processes on one PostgreSQL (two connection pools, two workers) deliver each message
// once: each claims its own under a lease, FOR UPDATE SKIP LOCKED keeping their claims apart.
const MESSAGES = 300;

describe.runIf(dialects.includes('postgres'))('webhook delivery from two processes (postgres)', () => {
  let instance: Instance;
  let other: Db;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    instance = await startInstance('postgres', { env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } });
    other = instance.otherProcess();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await other?.close();
    await instance?.close();
  });

  it('delivers every message once', async () => {
    const made = await instance.call('POST', '/webhooks', {
      body: { url: receiver.url, events: ['member.deleted'] },
    });
    receiver.secrets.push(made.json.data.secret);
    receiver.delayMs = 3;
    const now = formatDate(new Date());
    await instance.db.kysely.transaction().execute((trx) =>
      queueEvents(
        trx,
        'member.deleted',
        Array.from({ length: MESSAGES }, (_, i) => ({
          memberid: `m${String(i).padStart(9, '0')}`,
          deleted: now,
        })),
        { now, orderKey: (data) => data.memberid as string },
      ),
    );
    const workers = [instance.db, other].map(
      (db) =>
        new WebhookDelivery({
          db: db.kysely,
          dialect: 'postgres',
          policy: { allowPrivate: true, allowHttp: true },
          batchSize: 10,
        }),
    );
    const delivered = async () =>
      Number(
        (
          await instance.db.kysely
            .selectFrom('webhook_outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'delivered')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const claimedBy = await Promise.all(
      workers.map(async (worker) => {
        let claimed = 0;
        for (;;) {
          const got = await worker.runOnce();
          claimed += got;
          if (got === 0 && (await delivered()) === MESSAGES) return claimed;
          if (got === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }),
    );
    await Promise.all(workers.map((worker) => worker.stop()));
    expect(claimedBy[0]).toBeGreaterThan(0);
    expect(claimedBy[1]).toBeGreaterThan(0);
    expect((claimedBy[0] ?? 0) + (claimedBy[1] ?? 0)).toBe(MESSAGES);
    expect(receiver.received).toHaveLength(MESSAGES);
    expect(new Set(receiver.received.map((got) => got.id)).size).toBe(MESSAGES);
    expect(receiver.received.every((got) => got.verifiedBy.length === 1)).toBe(true);
  });
});
