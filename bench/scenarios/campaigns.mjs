// Campaigns and the mail outbox, each figure beside a floor measured in the same run:
//   1. POST /campaigns/{id}/members/invite of 10,000 members (10,000 outbox rows queued by one call),
//      against a plain script doing the same read, UPDATE and outbox inserts (bench/floor.mjs invite);
//   2. delivery of those 10,000 mails by the server's worker to an SMTP sink in this process, against
//      a plain nodemailer pool sending the same mails, rendered beforehand (bench/floor.mjs deliver);
//   3. GET /campaigns/{id}/members with 10,000 members, against the same SELECT and one
//      JSON.stringify (bench/floor.mjs campaign-list);
//   4. a scheduler tick (dist/jobs/scheduler.js, in this process) over 1,000 campaigns none of which
//      is due, against the bare indexed SELECT of the due campaigns.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import {
  accessToken,
  apiOf,
  fmtMs,
  fmtX,
  json,
  median,
  onEachEngine,
  prepareInstance,
  QUIET,
  ROOT,
  request,
  runNode,
  startServer,
  storeFlags,
  wireDate,
} from '../harness.mjs';

const MEMBERS = 10_000;
const INVITE_RUNS = 3;
const LIST_RUNS = 5;
const CAMPAIGNS = 1_000;
const TICK_RUNS = 200;
const TICK_WARMUP = 20;
const DELIVERY_TIMEOUT_MS = 100_000;
// Delivery is given up once nothing moved for this long (a stalled worker).
const STALL_MS = 15_000;
const DIST = path.join(ROOT, 'packages/server/dist');
const dist = (file) => import(pathToFileURL(path.join(DIST, file)).href);

const fmtRate = (rate) => `${Math.round(rate).toLocaleString('en')} mails/s`;
const fmtFine = (ms) =>
  ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : ms < 10 ? `${ms.toFixed(2)} ms` : fmtMs(ms);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The instance's database, read and written directly (checks, requeueing, seeding campaigns).
// SQL is written with `?` marks.

async function openStore(store) {
  if (store.databaseUrl) {
    const client = new pg.Client({ connectionString: store.databaseUrl });
    await client.connect();
    const numbered = (text) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${++n}`);
    };
    return {
      all: async (text, params = []) => (await client.query(numbered(text), params)).rows,
      run: async (text, params = []) => (await client.query(numbered(text), params)).rowCount,
      close: () => client.end(),
    };
  }
  const db = new Database(path.join(store.dataDir, 'assay.sqlite'));
  db.pragma('busy_timeout = 5000');
  const cache = new Map();
  const prepared = (text) => {
    if (!cache.has(text)) cache.set(text, db.prepare(text));
    return cache.get(text);
  };
  return {
    all: async (text, params = []) => prepared(text).all(params),
    run: async (text, params = []) => prepared(text).run(params).changes,
    close: async () => db.close(),
  };
}

const countOf = async (db, text, params) => Number((await db.all(text, params))[0].n);

/** CPU time (user + system) a process has used, in ms; CLK_TCK is 100 on Linux. */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const sinkCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const share = (cpuMs, ms) => `${Math.round((100 * cpuMs) / ms)}% of a core`;

// ---------------------------------------------------------------------------------------------
// The SMTP sink: accepts everything, keeps nothing but counts, the Message-IDs and two moments.

const MESSAGE_ID = /^message-id:[ \t]*(<[^>\r\n]*>)/im;

async function startSink() {
  const state = { received: 0, ids: new Set(), bytes: 0, firstConnectAt: 0, lastReceivedAt: 0 };
  const waiters = new Set();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onConnect(_session, callback) {
      if (state.firstConnectAt === 0) state.firstConnectAt = performance.now();
      callback();
    },
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk) => {
        if (head.length < 4096) head += chunk.toString('latin1');
        state.bytes += chunk.length;
      });
      stream.on('end', () => {
        state.received++;
        const id = MESSAGE_ID.exec(head)?.[1];
        if (id) state.ids.add(id);
        state.lastReceivedAt = performance.now();
        for (const waiter of waiters) waiter();
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    state,
    reset() {
      Object.assign(state, { received: 0, ids: new Set(), bytes: 0, firstConnectAt: 0, lastReceivedAt: 0 });
    },
    /**
     * Resolves true once `count` messages were accepted; false when none arrived for `stallMs`
     * (counted from `since` until the first one), or after `timeoutMs` in all.
     */
    waitFor(count, { since, stallMs, timeoutMs }) {
      return new Promise((resolve) => {
        if (state.received >= count) return resolve(true);
        const end = (reached) => {
          clearInterval(timer);
          waiters.delete(check);
          resolve(reached);
        };
        const check = () => {
          if (state.received >= count) end(true);
        };
        const timer = setInterval(() => {
          const now = performance.now();
          if (now - Math.max(since, state.lastReceivedAt) > stallMs || now - since > timeoutMs) end(false);
        }, 250);
        waiters.add(check);
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// ---------------------------------------------------------------------------------------------
// The API

async function importMembers(api) {
  const members = [];
  for (let i = 0; i < MEMBERS; i++) {
    members.push({ email: `campaign${i}@bench.example.com`, firstname: `First${i}`, lastname: `Last${i}` });
  }
  const { answer } = await api('POST', '/members/import', { members }, 'POST /members/import');
  const ids = answer.data?.created ?? [];
  if (ids.length !== MEMBERS) throw new Error(`POST /members/import created ${ids.length} members`);
  return ids;
}

/** A campaign of the teamscan variant, started yesterday, no automatic invitation, with all members. */
async function campaignWith(api, memberIds, name) {
  const { answer } = await api(
    'POST',
    '/campaigns',
    { name, variant: 'teamscan', start: wireDate(Date.now() - 86_400_000), autoinvite: 'none' },
    'POST /campaigns',
  );
  const id = answer.data.campaignid;
  const added = await api('POST', `/campaigns/${id}/members`, { memberids: memberIds }, 'add members');
  if (added.answer.data.added.length !== MEMBERS) {
    throw new Error(`POST /campaigns/${id}/members added ${added.answer.data.added.length}`);
  }
  return id;
}

/** Waits until the worker has settled every mail (no SMTP: `captured`), so that the next run is quiet. */
async function drained(db, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await countOf(
      db,
      "select count(*) as n from mail_outbox where status in ('queued', 'sending')",
    );
    if (open === 0) return;
    if (Date.now() > until) throw new Error(`the outbox still has ${open} mails to settle`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------------------------------------
// 4. The scheduler tick, in this process, against its floor.

async function seedCampaigns(db, engine) {
  const existing = await countOf(db, 'select count(*) as n from campaigns');
  const now = Date.now();
  const start = wireDate(now - 86_400_000);
  const rows = [];
  for (let i = existing; i < CAMPAIGNS; i++) {
    const id = `T${String(i).padStart(9, '0')}`;
    // Half close on a date a month or so ahead (due then), half are open (never due).
    const end = i % 2 === 0 ? wireDate(now + (30 + (i % 60)) * 86_400_000) : null;
    rows.push([
      id,
      `tick_${id}`,
      `Tick ${i}`,
      start,
      end,
      'teamscan',
      'en',
      end ? 'date' : 'open',
      start,
      end,
    ]);
  }
  const columns = 'id, alias, name, start_at, end_at, variant, language, closingtype, created, due_at';
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await db.run(
      `insert into campaigns (${columns}) values ${chunk.map((row) => `(${row.map(() => '?').join(', ')})`).join(', ')}`,
      chunk.flat(),
    );
  }
  if (engine === 'postgres') await db.run('analyze campaigns');
  return rows.length;
}

const DUE_SQL = 'select id from campaigns where due_at <= ? order by due_at limit 50';

async function measureTick(ctx, engine, store, db, label) {
  const inserted = await seedCampaigns(db, engine);
  const plan =
    engine === 'postgres'
      ? (await db.all(`explain ${DUE_SQL}`, [wireDate(Date.now())]))
          .map((row) => row['QUERY PLAN'])
          .join('; ')
      : (await db.all(`explain query plan ${DUE_SQL}`, [wireDate(Date.now())]))
          .map((row) => row.detail)
          .join('; ');

  const [{ openDatabase }, { loadConfig }, { tick }, { builtinVariantsDir, loadVariants }] =
    await Promise.all([
      dist('db/connect.js'),
      dist('config.js'),
      dist('jobs/scheduler.js'),
      dist('variants/load-variants.js'),
    ]);
  const config = loadConfig(
    { ...process.env, LOG_LEVEL: 'warn', SMTP_URL: '' },
    { data: store.dataDir, databaseUrl: store.databaseUrl },
  );
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const deps = {
    db: database.kysely,
    dialect: database.dialect,
    variants: loadVariants([builtinVariantsDir()]),
    config,
    clock: () => new Date(),
    mailQueued: () => {},
    campaignsDue: () => {},
  };
  const ticks = [];
  const floors = [];
  let busy = 0;
  let settledFirst = 0;
  try {
    // A first tick settles whatever the steps before left due (it should find nothing).
    settledFirst = (await tick(deps)).campaigns;
    for (let i = 0; i < TICK_WARMUP + TICK_RUNS; i++) {
      // Alternated, so that a drift in the load of the machine falls on both alike.
      let t0 = performance.now();
      const report = await tick(deps);
      const tickMs = performance.now() - t0;
      busy += report.campaigns;
      t0 = performance.now();
      await db.all(DUE_SQL, [wireDate(Date.now())]);
      const floorMs = performance.now() - t0;
      if (i >= TICK_WARMUP) {
        ticks.push(tickMs);
        floors.push(floorMs);
      }
    }
  } finally {
    await database.close();
  }
  const total = await countOf(db, 'select count(*) as n from campaigns');
  const ms = median(ticks);
  const floor = median(floors);
  const p90 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length * 0.9)];
  ctx.note(
    `${label}: ${total} campaigns (${inserted} inserted), none due; first tick settled ${settledFirst}; ` +
      `tick p90 ${fmtFine(p90(ticks))}, floor p90 ${fmtFine(p90(floors))}; plan of the floor: ${plan}`,
  );
  return {
    scenario: `${label}: in-process tick(deps), median of ${TICK_RUNS}`,
    figure: fmtFine(ms),
    floor: `${fmtFine(floor)} (indexed select of due)`,
    ratio: fmtX(ms / floor),
    target: '< 20 ms',
    pass: ms < 20 && busy === 0 && total >= CAMPAIGNS,
  };
}

// ---------------------------------------------------------------------------------------------

async function measure(ctx, engine) {
  const k = `${MEMBERS / 1000}k`;
  const inviteLabel = `POST /campaigns/{id}/members/invite, ${k} members (${engine})`;
  const deliveryLabel = `mail delivery of ${k} invitations to an SMTP sink (${engine})`;
  const listLabel = `GET /campaigns/{id}/members, ${k} members (${engine})`;
  const tickLabel = `scheduler tick, ${CAMPAIGNS.toLocaleString('en')} campaigns, none due (${engine})`;
  const instance = await prepareInstance(ctx, engine, 0, 'campaigns');
  const sink = await startSink();
  const db = await openStore(instance.store);
  const rows = [];
  try {
    // 1. Invitations: the members and campaigns made by the API, then three invites timed, each of a
    // campaign of its own (the outbox grows 0 → 30,000). The fourth campaign is the floor's.
    const campaigns = [];
    const inviteTimes = [];
    const inviteChecks = [];
    let server = await startServer('assay', instance.store, { env: QUIET });
    try {
      const api = apiOf(server.port, await accessToken(server.port, instance.client, 'members campaigns'));
      const memberIds = await importMembers(api);
      for (let i = 0; i < INVITE_RUNS + 1; i++)
        campaigns.push(await campaignWith(api, memberIds, `Bench ${i}`));
      for (let run = 0; run < INVITE_RUNS; run++) {
        const id = campaigns[run];
        const { answer, ms } = await api('POST', `/campaigns/${id}/members/invite`, {}, 'invite');
        if (answer.data !== '') throw new Error(`invite answered ${JSON.stringify(answer)}`);
        inviteTimes.push(ms);
        const outbox = await countOf(db, 'select count(*) as n from mail_outbox where campaign_id = ?', [id]);
        const invited = await countOf(
          db,
          "select count(*) as n from campaign_members where campaign_id = ? and status = 'invited'",
          [id],
        );
        inviteChecks.push({ outbox, invited });
        await drained(db);
      }
    } finally {
      await server.stop();
    }
    const totalOutbox = await countOf(db, 'select count(*) as n from mail_outbox');
    const inviteFloor = JSON.parse(
      await runNode([
        path.join(ROOT, 'bench/floor.mjs'),
        'invite',
        ...storeFlags(instance.store),
        '--campaign',
        campaigns[INVITE_RUNS],
        '--runs',
        String(INVITE_RUNS),
      ]),
    );
    const inviteOk = inviteChecks.every((check) => check.outbox === MEMBERS && check.invited === MEMBERS);
    const inviteMs = median(inviteTimes);
    ctx.note(
      `${inviteLabel}: times ${inviteTimes.map((t) => t.toFixed(0)).join(', ')} ms; outbox rows / invited members ` +
        `per run ${inviteChecks.map((c) => `${c.outbox}/${c.invited}`).join(', ')} (outbox ${totalOutbox} in all); ` +
        `floor ${inviteFloor.times.map((t) => t.toFixed(0)).join(', ')} ms ` +
        `(${inviteFloor.selected} read, ${inviteFloor.updated} updated, ${inviteFloor.inserted} inserted)`,
    );
    rows.push({
      scenario: `${inviteLabel}: wall time (median of ${INVITE_RUNS}), ${inviteOk ? 'each' : 'NOT each'} ${MEMBERS.toLocaleString('en')} outbox rows + invited`,
      figure: fmtMs(inviteMs),
      floor: `${fmtMs(inviteFloor.ms)} (select + update + inserts)`,
      ratio: fmtX(inviteMs / inviteFloor.ms),
      target: '< 2 s',
      pass: inviteMs < 2000 && inviteOk && totalOutbox === INVITE_RUNS * MEMBERS,
    });

    // 2. Delivery. The floor first (no server running): the first campaign's mails, rendered, sent
    // by a plain pool to the sink.
    const first = campaigns[0];
    sink.reset();
    const floorSinkCpu = sinkCpuMs();
    const deliverFloor = JSON.parse(
      await runNode(
        [
          path.join(ROOT, 'bench/floor.mjs'),
          'deliver',
          ...storeFlags(instance.store),
          '--campaign',
          first,
          '--smtp',
          sink.url,
        ],
        { timeoutMs: DELIVERY_TIMEOUT_MS },
      ),
    );
    const floorSink = {
      received: sink.state.received,
      ids: sink.state.ids.size,
      bytes: sink.state.bytes,
      // The bench process is idle but for the sink while the floor runs.
      cpuMs: sinkCpuMs() - floorSinkCpu,
      ms: sink.state.lastReceivedAt - sink.state.firstConnectAt,
    };
    const floorRate = deliverFloor.sent / (deliverFloor.ms / 1000);

    // Then the server with SMTP_URL: the same 10,000 rows queued again (they were `captured`), timed
    // from the worker's first SMTP connection until the sink has them all and the outbox says `sent`.
    sink.reset();
    server = await startServer('assay', instance.store, {
      env: { ...QUIET, SMTP_URL: sink.url },
    });
    let delivered;
    try {
      const requeued = await db.run(
        "update mail_outbox set status = 'queued', attempts = 0, next_attempt_at = ?, lease_until = null, last_response = null where campaign_id = ?",
        [wireDate(Date.now()), first],
      );
      const queuedAt = performance.now();
      const serverCpu = cpuMsOf(server.pid);
      const sinkCpu = sinkCpuMs();
      const received = await sink.waitFor(MEMBERS, {
        since: queuedAt,
        stallMs: STALL_MS,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      });
      let sent = 0;
      let doneAt = performance.now();
      let changedAt = doneAt;
      while (received) {
        const now = await countOf(
          db,
          "select count(*) as n from mail_outbox where campaign_id = ? and status = 'sent'",
          [first],
        );
        doneAt = performance.now();
        if (now !== sent) changedAt = doneAt;
        sent = now;
        if (sent >= MEMBERS || doneAt - changedAt > STALL_MS) break;
        await sleep(20);
      }
      if (!received) {
        sent = await countOf(
          db,
          "select count(*) as n from mail_outbox where campaign_id = ? and status = 'sent'",
          [first],
        );
      }
      const from = sink.state.firstConnectAt || queuedAt;
      const sinkCpuUsed = sinkCpuMs() - sinkCpu;
      delivered = {
        serverCpuMs: cpuMsOf(server.pid) - serverCpu,
        sinkCpuMs: sinkCpuUsed,
        requeued,
        complete: received && sent === MEMBERS,
        sent,
        received: sink.state.received,
        ids: sink.state.ids.size,
        bytes: sink.state.bytes,
        ms: (received ? doneAt : performance.now()) - from,
        waitMs: from - queuedAt,
        lastReceivedMs: sink.state.lastReceivedAt - from,
        statuses: received
          ? ''
          : (
              await db.all(
                'select status, count(*) as n from mail_outbox where campaign_id = ? group by status',
                [first],
              )
            )
              .map((row) => `${row.status} ${row.n}`)
              .join(', '),
      };
    } finally {
      await server.stop();
    }
    if (!delivered.complete) {
      // What a stalled worker left behind must not keep the next server busy.
      await db.run(
        "update mail_outbox set status = 'captured', lease_until = null where status in ('queued', 'sending')",
      );
      ctx.note(
        `${deliveryLabel}: STALLED: nothing moved for ${STALL_MS / 1000} s (or ${DELIVERY_TIMEOUT_MS / 1000} s in all); ` +
          `the outbox of the campaign then held ${delivered.statuses || `${delivered.sent} sent`}`,
      );
    }

    // 3. The list, on a server of its own without SMTP (whatever the delivery left, nothing is due).
    // Each answer is followed by a run of the floor (a process of its own: one warm-up query, one
    // timed), so that whatever else the machine does meanwhile (the database tidying up after
    // 10,000 mails, another process) weighs on both sides of the ratio alike.
    const listTimes = [];
    const floorRuns = [];
    let items = -1;
    server = await startServer('assay', instance.store, { env: QUIET });
    try {
      const token = await accessToken(server.port, instance.client, 'campaigns');
      for (let i = 0; i < LIST_RUNS + 1; i++) {
        const response = await request(server.port, {
          path: `/api/v1/campaigns/${first}/members`,
          headers: { authorization: `Bearer ${token}` },
        });
        if (i === 0) {
          const answer = json(response, 'GET /campaigns/{id}/members');
          items = answer.status === 'OK' && Array.isArray(answer.data) ? answer.data.length : -1;
          continue;
        }
        listTimes.push(response.ms);
        floorRuns.push(
          JSON.parse(
            await runNode([
              path.join(ROOT, 'bench/floor.mjs'),
              'campaign-list',
              ...storeFlags(instance.store),
              '--campaign',
              first,
              '--runs',
              '1',
            ]),
          ),
        );
      }
    } finally {
      await server.stop();
    }
    const rate = delivered.sent / (delivered.ms / 1000);
    ctx.note(
      `${deliveryLabel}: ${delivered.requeued} queued again; the worker's first connection came ${fmtMs(delivered.waitMs)} later ` +
        `(its idle pause); sink got ${delivered.received} messages (${delivered.ids} Message-IDs, ${(delivered.bytes / 1e6).toFixed(1)} MB), ` +
        `the last after ${fmtMs(delivered.lastReceivedMs)}, all marked sent after ${fmtMs(delivered.ms)} (${delivered.sent} sent); ` +
        `server CPU ${share(delivered.serverCpuMs, delivered.ms)} (${(delivered.serverCpuMs / delivered.sent).toFixed(2)} ms a mail), ` +
        `sink ${share(delivered.sinkCpuMs, delivered.ms)}; ` +
        `floor ${deliverFloor.sent} of ${deliverFloor.mails} in ${fmtMs(deliverFloor.ms)}, CPU ${share(deliverFloor.cpuMs, deliverFloor.ms)} ` +
        `(${(deliverFloor.cpuMs / deliverFloor.sent).toFixed(2)} ms a mail), sink ${share(floorSink.cpuMs, floorSink.ms)}, got ${floorSink.received} ` +
        `(${floorSink.ids} Message-IDs, ${(floorSink.bytes / 1e6).toFixed(1)} MB)${deliverFloor.error ? `, error: ${deliverFloor.error}` : ''}`,
    );
    rows.push({
      scenario: `${deliveryLabel}: first connection → all received and marked sent${delivered.complete ? '' : ` (INCOMPLETE: ${delivered.sent} sent)`}`,
      figure: `${fmtRate(rate)} (${fmtMs(delivered.ms)})`,
      floor: `${fmtRate(floorRate)} (plain nodemailer pool)`,
      ratio: fmtX(rate / floorRate),
      target: '≥ 300 mails/s, ≥ 0.7x',
      pass: delivered.complete && delivered.ids === MEMBERS && rate >= 300 && rate / floorRate >= 0.7,
    });

    const floorTimes = floorRuns.map((run) => run.ms);
    const listFloor = { ...floorRuns.at(-1), ms: median(floorTimes), times: floorTimes };
    const listMs = median(listTimes);
    ctx.note(
      `${listLabel}: times ${listTimes.map((t) => t.toFixed(0)).join(', ')} ms; floor ${listFloor.times.map((t) => t.toFixed(0)).join(', ')} ms ` +
        `(${listFloor.rows} rows, ${(listFloor.bytes / 1e6).toFixed(1)} MB)`,
    );
    rows.push({
      scenario: `${listLabel}: time to last byte (median of ${LIST_RUNS}), ${items.toLocaleString('en')} items`,
      figure: fmtMs(listMs),
      floor: `${fmtMs(listFloor.ms)} (select + stringify)`,
      ratio: fmtX(listMs / listFloor.ms),
      target: '≤ 1.5x',
      pass: listMs / listFloor.ms <= 1.5 && items === MEMBERS,
    });

    // 4. The tick, no server running.
    rows.push(await measureTick(ctx, engine, instance.store, db, tickLabel));
    return rows;
  } finally {
    await db.close();
    await sink.close();
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
