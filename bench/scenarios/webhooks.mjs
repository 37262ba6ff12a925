// Webhook fan-out: 10,000 events queued for one subscription (as 10,000 completions queue them, one
// `campaignmember.completed` each, in the outbox), delivered by the worker of the build to a local
// receiver, timed from the worker's start until the outbox says every message delivered. The floor,
// in the same run and the same process: a bare loop signing each of the same bodies and POSTing it
// with fetch to the same receiver, one after another. Targets: at least 300 deliveries a second and
// at least 0.7x the floor.
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { fmtX, onEachEngine, ROOT, removeDir, tempDir } from '../harness.mjs';

const EVENTS = 10_000;
const DIST = path.join(ROOT, 'packages/server/dist');
const dist = (file) => import(pathToFileURL(path.join(DIST, file)).href);

function startReceiver() {
  const server = http.createServer((request, response) => {
    request.on('data', () => {});
    request.on('end', () => {
      if (request.headers['webhook-signature']) receiver.count += 1;
      response.writeHead(204);
      response.end();
    });
  });
  const receiver = { count: 0, server, url: '' };
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      receiver.url = `http://127.0.0.1:${server.address().port}/hooks`;
      resolve(receiver);
    }),
  );
}

export default async function run(ctx) {
  const { openDatabase } = await dist('db/connect.js');
  const { migrateToLatest } = await dist('db/migrate.js');
  const { WebhookDelivery } = await dist('webhooks/delivery.js');
  const { queueEvents, eventBody } = await dist('webhooks/events.js');
  const { newSecret, signatureHeader } = await dist('webhooks/signing.js');
  const { formatDate } = await dist('util/dates.js');
  const rate = (count, ms) => `${Math.round((count * 1000) / ms).toLocaleString('en')}/s`;

  return onEachEngine(ctx, async (_ctx, engine) => {
    const dataDir = tempDir('webhooks');
    const databaseUrl = engine === 'postgres' ? await ctx.pg.fresh() : undefined;
    const db = openDatabase({ dataDir, databaseUrl });
    const receiver = await startReceiver();
    try {
      await migrateToLatest(db.kysely);
      const now = formatDate(new Date());
      const secret = newSecret();
      await db.kysely
        .insertInto('webhook_subscriptions')
        .values({
          id: 'BenchHook1',
          owner_id: null,
          url: receiver.url,
          events: 'campaignmember.completed',
          description: null,
          enabled: 1,
          secret,
          previous_secret: null,
          previous_until: null,
          failing_since: null,
          disabled_reason: null,
          created: now,
          updated: now,
        })
        .execute();
      const events = Array.from({ length: EVENTS }, (_, i) => ({
        campaignid: 'BenchCamp1',
        memberid: `B${String(i).padStart(9, '0')}`,
        reportid: `R${String(i).padStart(9, '0')}`,
        datecompleted: now,
      }));
      await db.kysely
        .transaction()
        .execute((trx) =>
          queueEvents(trx, 'campaignmember.completed', events, { now, orderKey: (data) => data.memberid }),
        );

      // The floor: sign and POST each body, one after another.
      const bodies = events.map((data) => eventBody('campaignmember.completed', now, data));
      const floorStart = performance.now();
      for (const [i, body] of bodies.entries()) {
        const id = `msg_floor${i}`;
        const timestamp = Math.floor(Date.now() / 1000);
        const response = await fetch(receiver.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader([secret], id, timestamp, body),
          },
          body,
        });
        await response.arrayBuffer();
      }
      const floorMs = performance.now() - floorStart;
      receiver.count = 0;

      const worker = new WebhookDelivery({
        db: db.kysely,
        dialect: db.dialect,
        policy: { allowPrivate: true, allowHttp: true },
        pollMs: 20,
      });
      const started = performance.now();
      worker.start();
      const delivered = async () =>
        Number(
          (
            await db.kysely
              .selectFrom('webhook_outbox')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('status', '=', 'delivered')
              .executeTakeFirstOrThrow()
          ).n,
        );
      const deadline = Date.now() + 180_000;
      while ((await delivered()) < EVENTS) {
        if (Date.now() > deadline) throw new Error('webhooks: not every message delivered in 3 minutes');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const ms = performance.now() - started;
      await worker.stop();
      const perSecond = (EVENTS * 1000) / ms;
      const floorPerSecond = (EVENTS * 1000) / floorMs;
      const ratio = perSecond / floorPerSecond;
      ctx.note(
        `webhooks (${engine}): ${EVENTS} messages in ${(ms / 1000).toFixed(2)} s; the receiver got ${receiver.count} signed requests; floor ${(floorMs / 1000).toFixed(2)} s`,
      );
      return [
        {
          scenario: `webhooks (${engine}): ${EVENTS.toLocaleString('en')} events, one subscription, local receiver`,
          figure: rate(EVENTS, ms),
          floor: rate(EVENTS, floorMs),
          ratio: fmtX(ratio),
          target: '≥ 300/s and ≥ 0.7x',
          pass: perSecond >= 300 && ratio >= 0.7 && receiver.count === EVENTS,
        },
      ];
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
      await db.close();
      removeDir(dataDir);
    }
  });
}
