import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tick } from '../../src/jobs/scheduler.js';
import { MailDelivery } from '../../src/mail/delivery.js';
import { parseMailParams } from '../../src/mail/outbox.repository.js';
import { renderMail } from '../../src/mail/render.js';
import { formatDate } from '../../src/util/dates.js';
import { WebhookDelivery, type WebhookDeliveryOptions } from '../../src/webhooks/delivery.js';
import { queueEvent } from '../../src/webhooks/events.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, participant, startInstance } from '../helpers/instance.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { variants } from '../questionnaire/fixtures.js';

/** leadership360's pages: 8, 8 and 8 scale questions, then two optional remarks. */
const PAGES = [
  Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
  ['Remarks1', 'Remarks2'],
];
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A clock the test moves by hand. */
function manualClock() {
  // An hour ahead: what is stamped with the real time (a member's deletion) is due at once.
  const start = () => Date.now() + HOUR;
  let now = start();
  return {
    now: () => new Date(now),
    advance: (ms: number) => (now += ms),
    /** Back to an hour ahead of the real time, wherever earlier tests moved it. */
    reset: () => {
      now = start();
    },
  };
}

for (const dialect of dialects) {
  describe(`webhooks (${dialect})`, () => {
    let instance: Instance;
    let strict: Instance;
    let receiver: WebhookReceiver;
    const clock = manualClock();
    const workers: WebhookDelivery[] = [];

    beforeAll(async () => {
      // The receiver listens on loopback: this instance allows it; `strict` has the defaults.
      instance = await startInstance(dialect, {
        clock: clock.now,
        env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' },
      });
      strict = await startInstance(dialect);
      receiver = await startWebhookReceiver();
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await instance.db.kysely.deleteFrom('webhook_subscriptions').execute();
      await instance.db.kysely.deleteFrom('mail_outbox').execute();
      receiver.received.length = 0;
      receiver.secrets.length = 0;
      receiver.reset();
    });
    afterAll(async () => {
      await receiver?.close();
      await instance?.close();
      await strict?.close();
    });

    const worker = (options: Partial<WebhookDeliveryOptions> = {}) => {
      const made = new WebhookDelivery({
        db: instance.db.kysely,
        dialect,
        policy: { allowPrivate: true, allowHttp: false },
        clock: clock.now,
        backoffMs: () => 60_000,
        pollMs: 20,
        ...options,
      });
      workers.push(made);
      return made;
    };
    /** Runs the worker until nothing is due. */
    const drain = async (delivery: WebhookDelivery) => {
      let total = 0;
      for (let claimed = await delivery.runOnce(); claimed > 0; claimed = await delivery.runOnce())
        total += claimed;
      return total;
    };
    const subscribe = async (events: string[], url = receiver.url) => {
      const made = await instance.call('POST', '/webhooks', {
        body: { url, events, description: 'CRM <sync>' },
      });
      expect(made.json.status, made.body).toBe('OK');
      receiver.secrets.push(made.json.data.secret);
      return made.json.data as { webhookid: string; secret: string };
    };

    it('creates, lists, shows, changes and deletes subscriptions; the secret is answered once', async () => {
      const made = await instance.call('POST', '/webhooks', {
        body: { url: receiver.url, events: ['report.created', 'campaignmember.completed'] },
      });
      expect(made.statusCode).toBe(200);
      expect(made.json.status).toBe('OK');
      const hook = made.json.data;
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(hook).toMatchObject({
        url: receiver.url,
        events: ['report.created', 'campaignmember.completed'],
        description: null,
        enabled: true,
        disabledreason: null,
        failingsince: null,
      });
      const listed = (await instance.call('GET', '/webhooks')).json.data;
      expect(listed).toHaveLength(1);
      expect(listed[0].secret).toBeUndefined();
      const shown = (await instance.call('GET', `/webhooks/${hook.webhookid}`)).json.data;
      expect(shown.secret).toBeUndefined();
      expect(JSON.stringify(shown)).not.toContain(hook.secret);

      const patched = await instance.call('PATCH', `/webhooks/${hook.webhookid}`, {
        body: { events: ['member.deleted'], description: 'Line one\nline two', enabled: false },
      });
      expect(patched.json.data).toMatchObject({
        events: ['member.deleted'],
        description: 'Line one\nline two',
        enabled: false,
      });
      expect(
        (await instance.call('PATCH', `/webhooks/${hook.webhookid}`, { body: { enabled: '1' } })).json.data
          .enabled,
      ).toBe(true);
      expect((await instance.call('DELETE', `/webhooks/${hook.webhookid}`)).json).toEqual({
        status: 'OK',
        data: '',
      });
      expect((await instance.call('GET', `/webhooks/${hook.webhookid}`)).statusCode).toBe(404);
      expect((await instance.call('DELETE', `/webhooks/${hook.webhookid}`)).statusCode).toBe(404);
    });

    it('refuses bad input with a clear message and changes nothing', async () => {
      const { webhookid } = await subscribe(['report.created']);
      const before = await instance.db.kysely.selectFrom('webhook_subscriptions').selectAll().execute();
      const refused = async (
        method: string,
        url: string,
        body: unknown,
        message: RegExp,
        target = instance,
      ) => {
        const response = await target.call(method, url, { body });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json.status, response.body).toBe('ERROR');
        expect(response.json.data).toMatch(message);
        expect(response.body).not.toMatch(/at .*\.js|stack/i);
      };
      await refused('POST', '/webhooks', {}, /url/);
      await refused('POST', '/webhooks', { url: receiver.url }, /events/);
      await refused('POST', '/webhooks', { url: receiver.url, events: [] }, /events/);
      await refused('POST', '/webhooks', { url: receiver.url, events: ['report.made'] }, /events/);
      await refused(
        'POST',
        '/webhooks',
        { url: receiver.url, events: ['report.created', 'report.created'] },
        /events/,
      );
      await refused(
        'POST',
        '/webhooks',
        { url: 'not a url', events: ['report.created'] },
        /url: not a valid/,
      );
      await refused('POST', '/webhooks', { url: 'ftp://example.com/x', events: ['report.created'] }, /https/);
      await refused(
        'POST',
        '/webhooks',
        { url: 'https://u:p@example.com/', events: ['report.created'] },
        /password/,
      );
      await refused('POST', '/webhooks', { url: 42, events: ['report.created'] }, /url/);
      await refused(
        'POST',
        '/webhooks',
        { url: receiver.url, events: ['report.created'], description: 'x'.repeat(1001) },
        /description/,
      );
      await refused('PATCH', `/webhooks/${webhookid}`, { enabled: 'maybe' }, /enabled/);
      await refused('PATCH', `/webhooks/${webhookid}`, { events: [] }, /events/);
      await refused('PATCH', `/webhooks/${webhookid}`, { url: 'http://' }, /url/);
      await refused('POST', `/webhooks/${webhookid}/rotate`, { secret: 'mine' }, /body: must be empty/);
      await refused('POST', `/webhooks/${webhookid}/test`, [1], /body: must be empty/);
      await refused('POST', '/webhooks', '{"url":', /not valid JSON/);
      // Without ASSAY_WEBHOOK_ALLOW_PRIVATE (and _HTTP): loopback, private, link-local, metadata, http.
      for (const url of [
        'https://127.0.0.1/hooks',
        'https://localhost/hooks',
        'https://[::1]/hooks',
        'https://10.1.2.3/',
        'https://192.168.0.10/',
        'https://169.254.169.254/latest/meta-data/',
        'https://[::ffff:127.0.0.1]/',
        'https://[fd00::1]/',
        'https://0.0.0.0/',
      ]) {
        await refused(
          'POST',
          '/webhooks',
          { url, events: ['report.created'] },
          /loopback, private or link-local.*ASSAY_WEBHOOK_ALLOW_PRIVATE=1/,
          strict,
        );
      }
      await refused(
        'POST',
        '/webhooks',
        { url: 'http://93.184.215.14/', events: ['report.created'] },
        /https.*ASSAY_WEBHOOK_ALLOW_HTTP=1/,
        strict,
      );
      expect(await strict.db.kysely.selectFrom('webhook_subscriptions').selectAll().execute()).toEqual([]);
      expect(await instance.db.kysely.selectFrom('webhook_subscriptions').selectAll().execute()).toEqual(
        before,
      );

      for (const [method, url] of [
        ['GET', '/webhooks/AAAAAAAAAA'],
        ['PATCH', '/webhooks/AAAAAAAAAA'],
        ['DELETE', '/webhooks/AAAAAAAAAA'],
        ['POST', '/webhooks/AAAAAAAAAA/rotate'],
        ['POST', '/webhooks/AAAAAAAAAA/test'],
        ['GET', '/webhooks/AAAAAAAAAA/deliveries'],
        ['GET', '/webhooks/short'],
      ] as const) {
        expect(
          (await instance.call(method, url, method === 'PATCH' ? { body: {} } : {})).statusCode,
          `${method} ${url}`,
        ).toBe(404);
      }
      expect((await instance.call('PUT', `/webhooks/${webhookid}`)).statusCode).toBe(405);
      // The scope guards the family: a token without it, an API key (read only) for a write.
      const other = await instance.call('GET', '/webhooks', {
        auth: `Bearer ${await instance.token('members')}`,
      });
      expect(other.statusCode).toBe(403);
      expect((await instance.call('GET', '/webhooks', { auth: null })).statusCode).toBe(401);
      const key = await instance.apiKey();
      expect(
        (await instance.call('GET', '/webhooks', { auth: null, headers: { 'x-api-key': key } })).json.status,
      ).toBe('OK');
      expect(
        (
          await instance.call('POST', '/webhooks', {
            auth: null,
            headers: { 'x-api-key': key },
            body: { url: receiver.url, events: ['report.created'] },
          })
        ).statusCode,
      ).toBe(403);
      // The OpenAPI document lists the family with its scope.
      const document = (await instance.call('GET', '/openapi.json', { auth: null })).json;
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/webhooks',
          '/webhooks/{webhookid}',
          '/webhooks/{webhookid}/rotate',
          '/webhooks/{webhookid}/test',
          '/webhooks/{webhookid}/deliveries',
        ]),
      );
      expect(document.paths['/webhooks'].post.security).toEqual([{ oauth2: ['webhooks'] }]);
    });

    it('a completion over the participant pages sends started, completed and report.created, signed and in order', async () => {
      const { webhookid } = await subscribe([
        'campaignmember.started',
        'campaignmember.completed',
        'report.created',
      ]);
      const { token, campaignid, memberid } = await participant(instance);
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${token}`);
      await browser.get(`/q/${token}/page/1`);
      for (const [index, codes] of PAGES.entries()) {
        const values =
          index === 3
            ? { Remarks1: 'secret remark', Remarks2: '' }
            : Object.fromEntries(codes.map((c) => [c, '4']));
        expect(
          (await browser.post(`/q/${token}/page/${index + 1}`, { ...values, action: 'continue' })).statusCode,
        ).toBe(303);
      }
      expect((await browser.post(`/q/${token}/check`, { action: 'send' })).headers.location).toBe(
        `/q/${token}/done`,
      );
      const reportid = (await instance.call('GET', `/campaigns/${campaignid}/members/${memberid}`)).json.data
        .results.reportid;

      await drain(worker());
      const events = receiver.received.map((got) => got.event);
      expect(receiver.received.every((got) => got.verifiedBy.length === 1 && got.status === 200)).toBe(true);
      expect(events.map((event) => event?.type)).toEqual([
        'campaignmember.started',
        'report.created',
        'campaignmember.completed',
      ]);
      expect(events[0]?.data).toEqual({ campaignid, memberid, datestarted: expect.any(String) });
      expect(events[1]?.data).toEqual({
        reportid,
        type: 'personal',
        variant: 'leadership360',
        memberid,
        campaignid,
      });
      expect(events[2]?.data).toEqual({ campaignid, memberid, reportid, datecompleted: expect.any(String) });
      for (const got of receiver.received) {
        expect(got.id).toMatch(/^msg_[0-9A-Za-z]{10}$/);
        expect(got.body).not.toContain('secret remark');
        expect(got.body).not.toContain(token);
        expect(Object.keys(JSON.parse(got.body))).toEqual(['type', 'timestamp', 'data']);
      }
      const deliveries = (await instance.call('GET', `/webhooks/${webhookid}/deliveries`)).json.data;
      expect(deliveries).toHaveLength(3);
      expect(deliveries[0]).toEqual({
        messageid: receiver.received[2]?.id,
        event: 'campaignmember.completed',
        attempt: 1,
        at: expect.any(String),
        httpstatus: 200,
        error: null,
        durationms: expect.any(Number),
        messagestatus: 'delivered',
      });
      // Delivered is delivered: nothing goes out twice.
      expect(await drain(worker())).toBe(0);
    });

    it('retries a receiver that answers 500 twice: three attempts, one webhook-id, a later event waits its turn', async () => {
      // The deletion is stamped with the real time and retried for 24 hours from then: other tests
      // move the clock on by days, which would make its first attempt its last.
      clock.reset();
      const { webhookid } = await subscribe(['member.deleted']);
      receiver.answer(500, 500);
      const first = (
        await instance.call('POST', '/members', { body: { email: email(), firstname: 'A', lastname: 'B' } })
      ).json.data.memberid;
      expect((await instance.call('DELETE', `/members/${first}`)).json.status).toBe('OK');
      const delivery = worker({ backoffMs: (attempt) => attempt * 60_000 });
      expect(await drain(delivery)).toBe(1);
      expect(receiver.received.map((got) => got.status)).toEqual([500]);
      expect(await drain(delivery)).toBe(0);
      clock.advance(60_000);
      expect(await drain(delivery)).toBe(1);
      clock.advance(2 * 60_000);
      expect(await drain(delivery)).toBe(1);
      expect(receiver.received.map((got) => got.status)).toEqual([500, 500, 200]);
      expect(new Set(receiver.received.map((got) => got.id)).size).toBe(1);
      expect(receiver.received.every((got) => got.event?.type === 'member.deleted')).toBe(true);
      expect(receiver.received[0]?.event?.data).toEqual({ memberid: first, deleted: expect.any(String) });
      const deliveries = (await instance.call('GET', `/webhooks/${webhookid}/deliveries`)).json.data;
      expect(
        deliveries.map((d: { attempt: number; httpstatus: number }) => [d.attempt, d.httpstatus]),
      ).toEqual([
        [3, 200],
        [2, 500],
        [1, 500],
      ]);
      // The failing streak ended with the delivery.
      expect((await instance.call('GET', `/webhooks/${webhookid}`)).json.data.failingsince).toBeNull();
    });

    it('keeps one member in order: a later event waits while an earlier one is retried', async () => {
      await subscribe(['campaignmember.started', 'campaignmember.completed', 'report.created']);
      const { token } = await participant(instance);
      receiver.answer(503);
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${token}`);
      await browser.get(`/q/${token}/page/1`);
      for (const [index, codes] of PAGES.entries()) {
        const values =
          index === 3 ? { Remarks1: '', Remarks2: '' } : Object.fromEntries(codes.map((c) => [c, '3']));
        await browser.post(`/q/${token}/page/${index + 1}`, { ...values, action: 'continue' });
      }
      await browser.post(`/q/${token}/check`, { action: 'send' });
      const delivery = worker();
      await drain(delivery);
      expect(receiver.received.map((got) => `${got.event?.type} ${got.status}`)).toEqual([
        'campaignmember.started 503',
      ]);
      clock.advance(60_000);
      await drain(delivery);
      expect(receiver.received.map((got) => got.event?.type)).toEqual([
        'campaignmember.started',
        'campaignmember.started',
        'report.created',
        'campaignmember.completed',
      ]);
    });

    it('a rolled back change queues nothing', async () => {
      await subscribe(['member.deleted']);
      await expect(
        instance.db.kysely.transaction().execute(async (trx) => {
          expect(
            await queueEvent(
              trx,
              'member.deleted',
              { memberid: 'AAAAAAAAAA' },
              { now: formatDate(clock.now()) },
            ),
          ).toBe(1);
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await instance.db.kysely.selectFrom('webhook_outbox').selectAll().execute()).toEqual([]);
      // An unknown member deleted is a 404 and no event.
      expect((await instance.call('DELETE', '/members/AAAAAAAAAA')).statusCode).toBe(404);
      expect(await drain(worker())).toBe(0);
    });

    it('rotation: both secrets sign for 24 hours, then the new one alone', async () => {
      const { webhookid, secret } = await subscribe(['member.deleted']);
      const rotated = await instance.call('POST', `/webhooks/${webhookid}/rotate`);
      expect(rotated.json.status).toBe('OK');
      const next = rotated.json.data.secret as string;
      expect(next).toMatch(/^whsec_/);
      expect(next).not.toBe(secret);
      receiver.secrets.push(next);
      const test = await instance.call('POST', `/webhooks/${webhookid}/test`);
      expect(test.json.data.messageid).toMatch(/^msg_/);
      await drain(worker());
      const [signed] = receiver.received;
      expect(signed?.id).toBe(test.json.data.messageid);
      expect(signed?.event).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: { webhookid },
      });
      expect(signed?.signature.split(' ')).toHaveLength(2);
      expect(signed?.verifiedBy).toEqual([0, 1]);
      clock.advance(DAY + 60_000);
      await instance.call('POST', `/webhooks/${webhookid}/test`);
      await drain(worker());
      expect(receiver.received[1]?.signature.split(' ')).toHaveLength(1);
      expect(receiver.received[1]?.verifiedBy).toEqual([1]);
    });

    it('retries for 24 hours then fails; failing 3 days in a row disables the subscription', async () => {
      const { webhookid } = await subscribe(['member.deleted']);
      receiver.always(500);
      const delivery = worker({ backoffMs: () => 6 * HOUR });
      await instance.call('POST', `/webhooks/${webhookid}/test`);
      for (let hours = 0; hours <= 24; hours += 6) {
        await drain(delivery);
        clock.advance(6 * HOUR);
      }
      // Attempts at 0, 6, 12, 18 and 24 hours; then failed, never tried again.
      expect(receiver.received).toHaveLength(5);
      const message = await instance.db.kysely
        .selectFrom('webhook_outbox')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(message.status).toBe('failed');
      let hook = (await instance.call('GET', `/webhooks/${webhookid}`)).json.data;
      expect(hook.enabled).toBe(true);
      expect(hook.failingsince).not.toBeNull();
      clock.advance(2 * DAY);
      await instance.call('POST', `/webhooks/${webhookid}/test`);
      await instance.call('POST', `/webhooks/${webhookid}/test`);
      // One attempt more fails after 3 days of failing: disabled, the other queued message failed.
      const disabled: string[] = [];
      await worker({ batchSize: 1, onDisabled: (ids) => disabled.push(...ids) }).runOnce();
      expect(disabled).toEqual([webhookid]);
      hook = (await instance.call('GET', `/webhooks/${webhookid}`)).json.data;
      expect(hook.enabled).toBe(false);
      expect(hook.disabledreason).toMatch(/failed for 3 days in a row/);
      // Its owner (the user whose client made it) is told, by a mail in the outbox.
      const told = await instance.db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('stage', '=', 'webhook_disabled')
        .execute();
      expect(told.map((mail) => mail.recipient)).toEqual(['admin@example.test']);
      const rendered = renderMail(variants, parseMailParams(told[0]?.params ?? ''));
      expect(rendered.subject).toBe(`Webhook ${webhookid} disabled: its deliveries failed for 3 days`);
      expect(rendered.text).toContain(receiver.url);
      expect(rendered.html).toContain(`assay webhooks update ${webhookid} --enabled true`);
      expect(await drain(delivery)).toBe(0);
      const statuses = await instance.db.kysely.selectFrom('webhook_outbox').select('status').execute();
      expect(statuses.map((row) => row.status)).toEqual(['failed', 'failed', 'failed']);
      expect((await instance.call('POST', `/webhooks/${webhookid}/test`)).json.data).toMatch(/disabled/);
      // Enabled again: the streak starts afresh.
      const enabled = (await instance.call('PATCH', `/webhooks/${webhookid}`, { body: { enabled: true } }))
        .json.data;
      expect(enabled).toMatchObject({ enabled: true, disabledreason: null, failingsince: null });
    });

    it('refuses a loopback target at delivery when the worker does not allow private addresses', async () => {
      const { webhookid } = await subscribe(['member.deleted']);
      await instance.call('POST', `/webhooks/${webhookid}/test`);
      await drain(worker({ policy: { allowPrivate: false, allowHttp: true } }));
      expect(receiver.received).toHaveLength(0);
      const [attempt] = (await instance.call('GET', `/webhooks/${webhookid}/deliveries`)).json.data;
      expect(attempt).toMatchObject({
        httpstatus: null,
        error: expect.stringMatching(/loopback, private or link-local/),
      });
      // A name that resolves to loopback is refused when it resolves, at connection time.
      await instance.call('PATCH', `/webhooks/${webhookid}`, {
        body: { url: receiver.url.replace('127.0.0.1', 'localhost') },
      });
      clock.advance(HOUR);
      await drain(worker({ policy: { allowPrivate: false, allowHttp: true } }));
      expect(receiver.received).toHaveLength(0);
      const [second] = (await instance.call('GET', `/webhooks/${webhookid}/deliveries`)).json.data;
      expect(second.error).toMatch(/localhost is a loopback, private or link-local address/);
    });

    it('a receiver that does not answer in time is retried', async () => {
      const { webhookid } = await subscribe(['member.deleted']);
      receiver.delayMs = 400;
      await instance.call('POST', `/webhooks/${webhookid}/test`);
      await drain(worker({ timeoutMs: 100 }));
      const [attempt] = (await instance.call('GET', `/webhooks/${webhookid}/deliveries`)).json.data;
      expect(attempt).toMatchObject({
        httpstatus: null,
        error: 'no answer in 0.1 s',
        messagestatus: 'queued',
      });
    });

    it('a mail refused for good sends mail.failed with ids, never the address', async () => {
      await subscribe(['mail.failed']);
      const { campaignid, memberid } = await participant(instance);
      expect(
        (await instance.call('POST', `/campaigns/${campaignid}/members/invite`, { body: {} })).json.status,
      ).toBe('OK');
      const sink = await startSmtpSink({ kind: 'refuse', code: 550, message: 'mailbox unavailable' });
      const mail = new MailDelivery({
        db: instance.db.kysely,
        dialect,
        variants,
        smtpUrl: sink.url,
        mailFrom: 'Assay <assay@example.test>',
        clock: clock.now,
      });
      try {
        expect(await mail.runOnce()).toBeGreaterThan(0);
      } finally {
        await mail.stop();
        await sink.close();
      }
      const failed = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select(['id', 'recipient'])
        .where('member_id', '=', memberid)
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow();
      await drain(worker());
      expect(receiver.received.map((got) => got.event)).toEqual([
        {
          type: 'mail.failed',
          timestamp: expect.any(String),
          data: { mailid: failed.id, stage: 'campaign_invitation', campaignid, memberid },
        },
      ]);
      expect(receiver.received[0]?.body).not.toContain(failed.recipient);
    });

    it('invitations, report deletion and a campaign ending send their events', async () => {
      await subscribe(['campaignmember.invited', 'report.deleted', 'campaign.ended']);
      const groups = await subscribe(['report.created']);
      const { campaignid, memberid, token } = await participant(instance);
      expect(
        (await instance.call('POST', `/campaigns/${campaignid}/members/invite`, { body: {} })).json.status,
      ).toBe('OK');
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${token}`);
      await browser.get(`/q/${token}/page/1`);
      for (const [index, codes] of PAGES.entries()) {
        const values =
          index === 3 ? { Remarks1: '', Remarks2: '' } : Object.fromEntries(codes.map((c) => [c, '2']));
        await browser.post(`/q/${token}/page/${index + 1}`, { ...values, action: 'continue' });
      }
      await browser.post(`/q/${token}/check`, { action: 'send' });
      const reportid = (await instance.call('GET', `/campaigns/${campaignid}/members/${memberid}`)).json.data
        .results.reportid;
      // A group report made of it: report.created (to the other subscription), then both deleted.
      const group = await instance.call('POST', '/reports', {
        body: { reportType: 'group', variant: 'leadership360', selectedReports: reportid },
      });
      expect(group.json.status, group.body).toBe('OK');
      const groupid = group.json.data.reportid as string;
      expect((await instance.call('DELETE', `/reports/${groupid}`)).json.status).toBe('OK');
      expect((await instance.call('DELETE', `/reports/${reportid}`)).json.status).toBe('OK');
      // A campaign whose end date has passed: the scheduler's tick ends it, once.
      const ended = (
        await instance.call('POST', '/campaigns', {
          body: {
            name: 'Ended',
            variant: 'teamscan',
            start: '2026-01-01',
            closingtype: 'date',
            end: '2026-01-02',
          },
        })
      ).json.data.campaignid as string;
      const deps = {
        db: instance.db.kysely,
        dialect,
        variants,
        config: instance.config,
        clock: clock.now,
        mailQueued: () => {},
        campaignsDue: () => {},
      };
      await tick(deps);
      await tick(deps);
      await drain(worker());
      // Events of different members (and none) go out side by side: looked up by type.
      const events = new Map(
        receiver.received
          .filter((got) => got.verifiedBy[0] === 0)
          .map((got) => [got.event?.type, got.event?.data]),
      );
      // The other subscription: the personal report of the completion, and the group report.
      const made = receiver.received.filter((got) => got.verifiedBy[0] === 1).map((got) => got.event);
      expect(made.map((event) => event?.data.reportid).sort()).toEqual([groupid, reportid].sort());
      expect(made.filter((event) => event?.data.type === 'group')).toEqual([
        {
          type: 'report.created',
          timestamp: expect.any(String),
          data: { reportid: groupid, type: 'group', variant: 'leadership360', memberid: null, campaignid },
        },
      ]);
      expect(groups.webhookid).toMatch(/^[0-9A-Za-z]{10}$/);
      expect(receiver.received).toHaveLength(6);
      expect(
        receiver.received
          .filter((got) => got.event?.type === 'report.deleted')
          .map((got) => got.event?.data.reportid),
      ).toEqual([groupid, reportid]);
      expect(events.get('campaignmember.invited')).toEqual({
        campaignid,
        memberid,
        dateinvited: expect.any(String),
      });
      expect(events.get('report.deleted')).toEqual({ reportid, type: 'personal', memberid, campaignid });
      expect(events.get('campaign.ended')).toEqual({ campaignid: ended, ended: expect.any(String) });
    });
  });
}
