import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { MailDelivery, type MailDeliveryOptions } from '../../src/mail/delivery.js';
import type { OutboxRow } from '../../src/mail/mail.table.js';
import type { MailParams } from '../../src/mail/mail.types.js';
import { claimDue, markSent, type QueuedMail, queueMails } from '../../src/mail/outbox.repository.js';
import { retryMail } from '../../src/mail/outbox.service.js';
import { renderMail } from '../../src/mail/render.js';
import { formatDate } from '../../src/util/dates.js';
import { randomId } from '../../src/util/ids.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import type { VariantRegistry } from '../../src/variants/variant.types.js';
import { dialects, email, freshDatabase } from '../helpers/instance.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

const MAIL_FROM = 'Assay Test <assay@mail.example.test>';
const T0 = new Date('2026-11-22T10:00:00Z');

function invitation(recipient: string, overrides: Partial<MailParams> = {}): QueuedMail<MailParams> {
  const params: MailParams = {
    stage: 'campaign_invitation',
    language: 'enUS',
    template: 'standard',
    variant: 'bigfive',
    recipient: { firstname: 'Ada', lastname: 'Lovelace', email: recipient },
    campaign: { id: 'C1', name: 'Autumn scan', end: '2026-12-04T17:00:00+00:00' },
    link: `https://assay.example.test/q/${randomId(20)}`,
    sender: 'Example Agency',
    inviter: { firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.test' },
    ...overrides,
  };
  return {
    dedupeKey: `${randomId()}:campaign_invitation:0`,
    campaignId: null,
    memberId: null,
    stage: params.stage,
    sequence: 0,
    recipient,
    params,
  };
}

/** A clock the test moves by hand. */
function manualClock(start = T0) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

let variants: VariantRegistry;
beforeAll(() => {
  variants = loadVariants([builtinVariantsDir()]);
});

for (const dialect of dialects) {
  describe(`mail delivery (${dialect})`, () => {
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let db: Db;
    let sink: SmtpSink;
    const workers: MailDelivery[] = [];

    beforeEach(async () => {
      fresh = await freshDatabase(dialect, undefined, { migrated: true });
      db = fresh.db;
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await sink.close();
      await db.close();
      await fresh.drop();
    });

    const delivery = (options: Partial<MailDeliveryOptions> = {}) => {
      const worker = new MailDelivery({
        db: db.kysely,
        dialect,
        variants,
        smtpUrl: sink.url,
        mailFrom: MAIL_FROM,
        ...options,
      });
      workers.push(worker);
      return worker;
    };
    const queue = (mails: QueuedMail[], now = T0) =>
      queueMails(db.kysely, mails, { now: formatDate(now), messageIdDomain: 'mail.example.test' });
    const row = (id: string) =>
      db.kysely.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('delivers queued mails over SMTP with their recipient, subject, text, HTML and Message-ID', async () => {
      const mails = [invitation(email()), invitation(email()), invitation(email(), { language: 'nlNL' })];
      const ids = await queue(mails);
      const clock = manualClock();
      expect(await delivery({ clock: clock.now }).runOnce()).toBe(3);

      expect(sink.received).toHaveLength(3);
      for (const [index, id] of ids.entries()) {
        const stored = await row(id);
        expect(stored).toMatchObject({
          status: 'sent',
          attempts: 1,
          sent_at: formatDate(T0),
          lease_until: null,
        });
        expect(stored.message_id).toBe(`<${id}@mail.example.test>`);
        expect(stored.last_response).toMatch(/^250 /);
        const expected = renderMail(variants, (mails[index] as QueuedMail<MailParams>).params);
        const parsed = await sink.parsed(stored.message_id);
        expect(parsed.messageId).toBe(stored.message_id);
        expect(parsed.subject).toBe(expected.subject);
        expect(parsed.text?.trim()).toBe(expected.text.trim());
        expect(parsed.html).toContain((mails[index] as QueuedMail<MailParams>).params.link);
        // The sender name the mail was queued with (the campaign owner's agency), MAIL_FROM's address.
        expect(parsed.from?.value).toEqual([{ address: 'assay@mail.example.test', name: 'Example Agency' }]);
        expect(sink.received.find((mail) => mail.messageId === stored.message_id)?.envelope.to).toEqual([
          stored.recipient,
        ]);
      }
      expect(await delivery().runOnce()).toBe(0);
    });

    it('queues one mail per dedupe key, however often it is queued', async () => {
      const mail = invitation(email());
      const [first] = await queue([mail]);
      expect(await queue([mail, { ...mail, recipient: email() }])).toEqual([]);
      await delivery().runOnce();
      expect(sink.received).toHaveLength(1);
      expect((await row(first as string)).status).toBe('sent');
    });

    it('keeps mails captured, not sent, without an SMTP server', async () => {
      const ids = await queue([invitation(email()), invitation(email())]);
      expect(await delivery({ smtpUrl: undefined }).runOnce()).toBe(2);
      for (const id of ids)
        expect(await row(id)).toMatchObject({ status: 'captured', attempts: 1, sent_at: null });
      expect(sink.attempts).toBe(0);
    });

    it('fails a mail at once when the server refuses it for good (550), keeping its answer', async () => {
      sink.mode = { kind: 'refuse', code: 550, message: 'mailbox unavailable' };
      const [id] = await queue([invitation(email())]);
      await delivery().runOnce();
      expect(await row(id as string)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_response: '550 mailbox unavailable',
      });
    });

    it('retries, not fails, mails when the server refuses the connection itself (554 greeting)', async () => {
      sink.mode = { kind: 'refuse-connection', code: 554, message: 'no service here' };
      const ids = await queue([invitation(email()), invitation(email())]);
      await delivery({ clock: manualClock().now }).runOnce();
      for (const id of ids) {
        const stored = await row(id);
        expect(stored).toMatchObject({ status: 'queued', attempts: 1 });
        expect(stored.last_response).toContain('554 no service here');
      }
    });

    it('fails a mail whose address no server could take, without trying one', async () => {
      const [id] = await queue([invitation('not an address')]);
      await delivery().runOnce();
      expect(await row(id as string)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(sink.attempts).toBe(0);
    });

    it('fails a mail that cannot be rendered, with the reason', async () => {
      const [id] = await queue([invitation(email(), { variant: 'nosuchvariant' })]);
      await delivery().runOnce();
      const stored = await row(id as string);
      expect(stored.status).toBe('failed');
      expect(stored.last_response).toContain('unknown variant "nosuchvariant"');
      expect(sink.attempts).toBe(0);
    });

    it('retries a deferred mail (451) with backoff, fails it after maxAttempts, and a retry keeps its Message-ID', async () => {
      sink.mode = { kind: 'refuse', code: 451, message: 'try again later' };
      const [id] = await queue([invitation(email())]);
      const clock = manualClock();
      const worker = delivery({ clock: clock.now, maxAttempts: 3 });
      await worker.runOnce();
      let stored: OutboxRow = await row(id as string);
      expect(stored).toMatchObject({ status: 'queued', attempts: 1, last_response: '451 try again later' });
      // 30 s, give or take 10%, in whole seconds.
      const wait = Date.parse(stored.next_attempt_at) - T0.getTime();
      expect(wait).toBeGreaterThanOrEqual(26_000);
      expect(wait).toBeLessThanOrEqual(33_000);

      expect(await worker.runOnce()).toBe(0);
      clock.advance(34_000);
      await worker.runOnce();
      stored = await row(id as string);
      expect(stored).toMatchObject({ status: 'queued', attempts: 2 });
      const second = Date.parse(stored.next_attempt_at) - clock.now().getTime();
      expect(second).toBeGreaterThanOrEqual(53_000);
      expect(second).toBeLessThanOrEqual(66_000);

      clock.advance(70_000);
      await worker.runOnce();
      expect(await row(id as string)).toMatchObject({ status: 'failed', attempts: 3 });
      expect(sink.attempts).toBe(3);

      sink.mode = { kind: 'accept' };
      await retryMail(db.kysely, id as string, formatDate(clock.now()), cliActor());
      await worker.runOnce();
      stored = await row(id as string);
      expect(stored).toMatchObject({ status: 'sent', attempts: 1 });
      expect(sink.received.map((mail) => mail.messageId)).toEqual([stored.message_id]);
    });

    it('puts a mail back in the queue when the server hangs, and stops promptly', async () => {
      sink.mode = { kind: 'hang' };
      const [id] = await queue([invitation(email())]);
      // The sink never answers: only the SMTP timeout can end the delivery.
      const worker = delivery({ smtpTimeoutMs: 300, stopGraceMs: 20_000 });
      expect(await worker.runOnce()).toBe(1);
      const stored = await row(id as string);
      expect(stored).toMatchObject({ status: 'queued', attempts: 1 });
      expect(stored.last_response).toMatch(/timeout/i);
      expect(sink.attempts).toBe(1);

      // Nothing in flight: stop() has no grace to wait for (a bound by construction, not a speed).
      const stopping = Date.now();
      await worker.stop();
      expect(Date.now() - stopping).toBeLessThan(20_000);
    });

    it('stop() cuts a delivery a hung server holds, and the mail goes back to the queue as it was', async () => {
      sink.mode = { kind: 'hang' };
      const [id] = await queue([invitation(email())], new Date());
      const worker = delivery({ smtpTimeoutMs: 60_000, stopGraceMs: 500 });
      worker.start();
      await sink.waitForAttempts(1);
      await worker.stop();
      // Cut by stop() after its grace, not ended by the 60 s SMTP timeout: the reason says which.
      const stored = await row(id as string);
      expect(stored.status).toBe('queued');
      expect(stored.last_response).toMatch(/^interrupted by shutdown/);
      expect(Date.parse(stored.next_attempt_at)).toBeLessThanOrEqual(Date.now());

      sink.mode = { kind: 'accept' };
      await delivery().runOnce();
      expect((await row(id as string)).status).toBe('sent');
    });

    it('stop() lets deliveries in flight finish within the grace and records them', async () => {
      sink.mode = { kind: 'accept', delayMs: 300 };
      const ids = await queue(
        Array.from({ length: 5 }, () => invitation(email())),
        new Date(),
      );
      // A grace no busy machine outlasts: the deliveries end by themselves, and are recorded.
      const worker = delivery({ stopGraceMs: 20_000 });
      worker.start();
      await sink.waitForAttempts(5);
      await worker.stop();
      for (const id of ids) expect((await row(id)).status).toBe('sent');
    });

    it('a started worker delivers as soon as it is notified', async () => {
      const worker = delivery({ pollMs: 60_000 });
      // Queued only once the worker has looked and found nothing: it is asleep for the poll then.
      const runOnce = worker.runOnce.bind(worker);
      const lookedEmpty = new Promise<void>((resolve) => {
        worker.runOnce = async () => {
          const claimed = await runOnce();
          if (claimed === 0) resolve();
          return claimed;
        };
      });
      worker.start();
      await lookedEmpty;
      const ids = await queue([invitation(email())], new Date());
      worker.notify();
      // Well before the 60 s poll: only the notification can have woken it (a safety net's bound).
      await sink.waitForReceived(1, 20_000);
      await worker.stop();
      expect((await row(ids[0] as string)).status).toBe('sent');
    });

    it('logs a failed batch and keeps going once the database answers again', async () => {
      const errors: string[] = [];
      const log = {
        info: () => {},
        warn: () => {},
        error: (_: object, message?: string) => errors.push(message ?? ''),
      };
      await db.kysely.schema.alterTable('mail_outbox').renameTo('mail_outbox_away').execute();
      const worker = delivery({ log, pollMs: 20 });
      worker.start();
      await expect.poll(() => errors.length, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(errors[0]).toBe('mail delivery: a batch failed');
      await db.kysely.schema.alterTable('mail_outbox_away').renameTo('mail_outbox').execute();
      await queue([invitation(email())], new Date());
      await sink.waitForReceived(1, 20_000);
      await worker.stop();
    });

    it('delivers batch after batch until the queue is empty, recording every outcome', async () => {
      // 50 is also the size of a group of outcomes written at once: a batch may end with none waiting.
      const ids = await queue(
        Array.from({ length: 260 }, () => invitation(email())),
        new Date(),
      );
      const worker = delivery({ batchSize: 50 });
      worker.start();
      await sink.waitForReceived(260, 20_000);
      await worker.stop();
      const sent = await db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'sent')
        .where('id', 'in', ids)
        .execute();
      expect(sent).toHaveLength(260);
      expect(sink.countByMessageId().size).toBe(260);
    });

    it('takes over a mail whose worker died after claiming it, and delivers it once', async () => {
      const [id] = await queue([invitation(email())]);
      const dead = { now: formatDate(T0), leaseUntil: formatDate(new Date(T0.getTime() + 60_000)) };
      const [claimed] = await claimDue(db.kysely, dialect, { ...dead, limit: 10 });
      expect(claimed).toMatchObject({ id, status: 'sending', attempts: 1 });

      // While the lease holds, nobody else takes it.
      const clock = manualClock(new Date(T0.getTime() + 30_000));
      const survivor = delivery({ clock: clock.now });
      expect(await survivor.runOnce()).toBe(0);
      clock.advance(60_000);
      expect(await survivor.runOnce()).toBe(1);
      const stored = await row(id as string);
      expect(stored).toMatchObject({ status: 'sent', attempts: 2 });

      // The dead worker coming back cannot overwrite what the survivor recorded.
      const late = await markSent(db.kysely, dialect, [{ id: id as string, response: '250 late' }], {
        leaseUntil: dead.leaseUntil,
        now: dead.now,
      });
      expect(late).toBe(0);
      expect((await row(id as string)).last_response).not.toBe('250 late');
      expect(sink.countByMessageId().get(stored.message_id)).toBe(1);
    });

    it.runIf(dialect === 'postgres')(
      'two workers on two connections deliver 1,000 mails, each exactly once',
      async () => {
        const mails = Array.from({ length: 1000 }, () => invitation(email()));
        await queue(mails, new Date());
        const other = openDatabase({ databaseUrl: fresh.url, dataDir: fresh.dataDir });
        try {
          const first = delivery({ batchSize: 50 });
          // Each worker signs its own mails, to see that both took part.
          const second = delivery({
            db: other.kysely,
            batchSize: 50,
            mailFrom: 'Other <other@mail.example.test>',
          });
          first.start();
          second.start();
          await sink.waitForReceived(1000, 30_000);
          await Promise.all([first.stop(), second.stop()]);
          const counts = sink.countByMessageId();
          expect(counts.size).toBe(1000);
          expect([...counts.values()].every((count) => count === 1)).toBe(true);
          const senders = new Set(sink.received.map((mail) => mail.envelope.from));
          expect(senders).toEqual(new Set(['assay@mail.example.test', 'other@mail.example.test']));
          const statuses = await db.kysely
            .selectFrom('mail_outbox')
            .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
            .groupBy('status')
            .execute();
          expect(statuses.map((s) => [s.status, Number(s.n)])).toEqual([['sent', 1000]]);
        } finally {
          await other.close();
        }
      },
    );
  });
}
