import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/util/dates.js';
import { WebhookDelivery, type WebhookDeliveryOptions } from '../../src/webhooks/delivery.js';
import { queueEvents } from '../../src/webhooks/events.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

// A receiver that never answers must hold back only its own subscription's messages: each
// delivery is on its own, at most `perSubscription` of one subscription are on the wire, and a
// subscription whose receiver does not answer waits as a whole (`hold_until`), one message at a
// time once its hold ends. Every wait below is for an event (a request received, a row written).

const SECOND = 1000;
const EVENTS = 12;

/** Resolves once `check` answers true, looking again after each turn of the event loop. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let turn = 0; !(await check()); turn++) {
    if (turn > 200_000) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const dialect of dialects) {
  describe(`a receiver that never answers (${dialect})`, () => {
    let instance: Instance;
    let hung: WebhookReceiver;
    let healthy: WebhookReceiver;
    // A whole second: the stored times have no fractions, and the holds are reckoned from them.
    let now = Math.floor(Date.now() / 1000) * 1000;
    const clock = () => new Date(now);
    const workers: WebhookDelivery[] = [];

    beforeAll(async () => {
      instance = await startInstance(dialect, { clock, env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } });
    });
    afterEach(async () => {
      // The hung receiver's requests end as it closes, so the workers stop without a grace period.
      await hung?.close();
      await healthy?.close();
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await instance.db.kysely.deleteFrom('webhook_subscriptions').execute();
    });
    afterAll(async () => {
      await instance?.close();
    });

    const worker = (options: Partial<WebhookDeliveryOptions>) => {
      const made = new WebhookDelivery({
        db: instance.db.kysely,
        dialect,
        policy: { allowPrivate: true, allowHttp: true },
        clock,
        backoffMs: () => 60 * SECOND,
        pollMs: 20,
        batchSize: 20,
        perSubscription: 4,
        stopGraceMs: 0,
        ...options,
      });
      workers.push(made);
      return made;
    };
    const subscribe = async (receiver: WebhookReceiver) => {
      const made = await instance.call('POST', '/webhooks', {
        body: { url: receiver.url, events: ['member.deleted'] },
      });
      expect(made.json.status, made.body).toBe('OK');
      receiver.secrets.push(made.json.data.secret);
      return made.json.data.webhookid as string;
    };
    /** EVENTS member.deleted events: a message for each subscription, the hung one's queued first. */
    const queue = () =>
      queueEvents(
        instance.db.kysely,
        'member.deleted',
        Array.from({ length: EVENTS }, (_, i) => ({ memberid: `M${String(i).padStart(9, '0')}` })),
        { now: formatDate(clock()), orderKey: (data) => String(data.memberid) },
      );
    const messages = (subscriptionId: string) =>
      instance.db.kysely
        .selectFrom('webhook_outbox')
        .select(['status', 'attempts'])
        .where('subscription_id', '=', subscriptionId)
        .orderBy('seq')
        .execute();
    const subscription = (id: string) =>
      instance.db.kysely
        .selectFrom('webhook_subscriptions')
        .select(['hold_until', 'failing_since'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('delivers every other subscription while its requests hang, and holds only as many of them as its share', async () => {
      hung = await startWebhookReceiver();
      healthy = await startWebhookReceiver();
      hung.hang = true;
      const hungId = await subscribe(hung);
      const healthyId = await subscribe(healthy);
      await queue();
      // A timeout far longer than the test: the hung requests are still open when it ends.
      const delivery = worker({ timeoutMs: 3600 * SECOND });
      delivery.start();
      await until(
        async () => (await messages(healthyId)).every((message) => message.status === 'delivered'),
        'the healthy subscription delivered',
      );
      await until(() => hung.received.length === 4, 'the hung receiver got its share');
      expect(healthy.received).toHaveLength(EVENTS);
      // Still on the wire, never answered: nothing recorded, no more of it sent.
      const open = await messages(hungId);
      expect(open.filter((message) => message.status === 'sending')).toHaveLength(4);
      expect(open.filter((message) => message.status === 'queued')).toHaveLength(EVENTS - 4);
      expect(hung.received).toHaveLength(4);
      // Stopped: what was on the wire goes back in line as it was, no attempt counted.
      await delivery.stop();
      const after = await messages(hungId);
      expect(after.every((message) => message.status === 'queued' && message.attempts === 0)).toBe(true);
      const attempts = await instance.db.kysely
        .selectFrom('webhook_attempts')
        .select('id')
        .where('subscription_id', '=', hungId)
        .execute();
      expect(attempts).toHaveLength(0);
    });

    /** Two receivers, the one subscribed hanging, and EVENTS messages queued for it. */
    const hungSubscription = async () => {
      hung = await startWebhookReceiver();
      healthy = await startWebhookReceiver();
      hung.hang = true;
      const id = await subscribe(hung);
      await queue();
      return id;
    };

    /**
     * One step of the worker while the receiver hangs: once it holds `expected` requests, their
     * connections are cut, as a timeout would end them, and the step records that.
     */
    const stepWhileHung = async (delivery: WebhookDelivery, expected: number) => {
      const step = delivery.runOnce();
      await until(() => hung.received.length >= expected, `the hung receiver got ${expected} requests`);
      hung.drop();
      return step;
    };

    it('holds back a subscription whose receiver gives no answer: its other messages wait, then one at a time, the waits doubling', async () => {
      const hungId = await hungSubscription();
      // The timeout is only a safety net: the requests end when the test cuts them.
      const delivery = worker({ timeoutMs: 3600 * SECOND });
      const start = now;
      expect(await stepWhileHung(delivery, 4)).toBe(4);
      expect(hung.received).toHaveLength(4);
      expect(await subscription(hungId)).toEqual({
        failing_since: formatDate(new Date(start)),
        hold_until: formatDate(new Date(start + 10 * SECOND)),
      });
      // Held: however often the worker looks, nothing of it is claimed.
      expect(await delivery.runOnce()).toBe(0);
      expect(await delivery.runOnce()).toBe(0);
      expect(hung.received).toHaveLength(4);
      // The hold ends: one message is tried (it is failing), and fails: held for as long as it
      // has been failing (10 s), then 20 s.
      now += 10 * SECOND;
      expect(await stepWhileHung(delivery, 5)).toBe(1);
      expect(hung.received).toHaveLength(5);
      expect((await subscription(hungId)).hold_until).toBe(formatDate(new Date(now + 10 * SECOND)));
      now += 10 * SECOND;
      expect(await stepWhileHung(delivery, 6)).toBe(1);
      expect((await subscription(hungId)).hold_until).toBe(formatDate(new Date(now + 20 * SECOND)));
      now += 19 * SECOND;
      expect(await delivery.runOnce()).toBe(0);
      expect(hung.received).toHaveLength(6);
      // The receiver answers again: the probe is delivered, the hold and the streak end, and the
      // rest goes out at the subscription's share at a time.
      hung.hang = false;
      now += SECOND;
      expect(await delivery.runOnce()).toBe(1);
      expect(await subscription(hungId)).toEqual({ failing_since: null, hold_until: null });
      expect(await delivery.runOnce()).toBe(4);
    });

    it('a receiver that does not answer in time is held back the same way', async () => {
      const hungId = await hungSubscription();
      // Whether the requests reached the receiver before the timeout does not matter here.
      await worker({ timeoutMs: 50 }).runOnce();
      const attempts = await instance.db.kysely
        .selectFrom('webhook_attempts')
        .select(['error', 'http_status'])
        .where('subscription_id', '=', hungId)
        .execute();
      expect(attempts).toHaveLength(4);
      for (const attempt of attempts)
        expect(attempt).toEqual({ error: 'no answer in 0.05 s', http_status: null });
      expect((await subscription(hungId)).hold_until).toBe(formatDate(new Date(now + 10 * SECOND)));
    });

    it('a new address, enabling again or a test event ends the hold', async () => {
      const hungId = await hungSubscription();
      await worker({ timeoutMs: 50 }).runOnce();
      expect((await subscription(hungId)).hold_until).not.toBeNull();
      await instance.call('POST', `/webhooks/${hungId}/test`);
      expect((await subscription(hungId)).hold_until).toBeNull();
      await worker({ timeoutMs: 50 }).runOnce();
      expect((await subscription(hungId)).hold_until).not.toBeNull();
      const moved = await instance.call('PATCH', `/webhooks/${hungId}`, { body: { url: healthy.url } });
      expect(moved.json.status, moved.body).toBe('OK');
      expect((await subscription(hungId)).hold_until).toBeNull();
    });
  });
}
