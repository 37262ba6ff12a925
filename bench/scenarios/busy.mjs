// The server's latency while it is busy (the hardening issue), each figure beside the same
// request's idle time in the same run, measured in this order on one instance per engine:
//   1. /healthz and a question page (GET /q/{token}), asked for in turn every 20 ms, while 20 readers
//      of GET /members (20,000 members) never read: an answer stuck on a full socket must not hold
//      the others;
//   2. the question page asked for every 20 ms while POST /members/import makes 200,000 new members,
//      from a JSON body (some 19 MB) and from a CSV body with a custom field (some 14 MB): a large
//      import must yield to the event loop.
// The pages are asked for, and the import posted, from worker threads of their own: the bench's
// main thread builds the body, and a worker sending it must not delay the asking, nor the asking
// the sending. A page is timed to its last byte; a failure, an HTTP error or a 2 s wait
// counts as 2,000 ms. Latency targets are measured here, never by timed tests: the suite checks
// that the work yields without timing it.
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import {
  accessToken,
  apiAnswersOf,
  benchCpuMs,
  cpuMsOf,
  fmtMs,
  fmtX,
  json,
  machineBusyMs,
  median,
  onEachEngine,
  percentile,
  prepareInstance,
  QUIET,
  request,
  startServer,
  wireDate,
  withTimeout,
} from '../harness.mjs';

/**
 * Some 130 s on a quiet 2-core machine for both engines, but the four imports take twice as long
 * with other work on the machine (235 s seen beside a test run), past run.mjs's 240 s.
 */
export const timeoutMs = 360_000;

const ROWS = 200_000;
// Seeded by prepareInstance (bulk SQL); the participant is one more.
const MEMBERS = 20_000;
const READERS = 20;
// The targets: 19 answers in 20 within TARGET_MS, none as long as NEVER_MS (on a shared machine one
// in twenty may meet a full collection or a neighbour's burst of work; a held event loop shows as
// seconds), and enough answers to say so.
const TARGET_MS = 200;
const NEVER_MS = 1000;
const MIN_PAGES = 10;
const PAUSE_MS = 20;
// The idle time: what the sampler sees with nothing else going on, its first IDLE_WARMUP rounds (a
// fresh connection, fetch loaded in the worker) left out.
const IDLE_MS = 1500;
const IDLE_WARMUP = 10;
// The readers' answers start and fill their sockets before the sampling, as in the suite's test.
const SETTLE_MS = 500;
const READERS_MS = 3000;
const IMPORT_TIMEOUT_MS = 120_000;

// ---------------------------------------------------------------------------------------------
// CPU over a measured stretch, in core time: a page late because another process took the cores
// (a test run, PostgreSQL's autovacuum) is not the server's doing, and the notes say which it was.

/** Starts counting; `shares()` answers the server's, the bench's and the rest's CPU since, as text. */
function cpuMeter(serverPid) {
  const start = {
    at: performance.now(),
    server: cpuMsOf(serverPid),
    machine: machineBusyMs(),
    bench: benchCpuMs(),
  };
  return {
    shares() {
      const wallMs = performance.now() - start.at;
      const serverMs = cpuMsOf(serverPid) - start.server;
      const benchMs = benchCpuMs() - start.bench;
      const restMs = Math.max(0, machineBusyMs() - start.machine - serverMs - benchMs);
      const share = (ms) => `${Math.round((100 * ms) / wallMs)}%`;
      return `CPU in core time: server ${share(serverMs)}, bench ${share(benchMs)}, the rest of the machine (PostgreSQL, ...) ${share(restMs)}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The sampler: a worker thread asking for its URLs in turn, PAUSE_MS apart, until stopped. Each
// sample carries the phase it was asked in (the main thread says when the phase changes), so that
// the idle time and the busy time come from the same connection and the same code.

const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
let phase = 'warmup';
let stopped = false;
parentPort.on('message', (message) => {
  if (message === 'stop') stopped = true;
  else phase = message;
});
(async () => {
  const samples = [];
  for (let round = 0; !stopped; round++) {
    if (round === workerData.warmup) parentPort.postMessage('warm');
    for (const url of workerData.urls) {
      const asked = phase;
      const started = performance.now();
      let ms;
      let failed = false;
      try {
        const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        ms = performance.now() - started;
        failed = response.status !== 200;
      } catch {
        failed = true;
      }
      samples.push({ url, phase: asked, ms: failed ? 2000 : ms, failed });
    }
    await new Promise((resolve) => setTimeout(resolve, workerData.pauseMs));
  }
  parentPort.postMessage(samples);
})();
`;

function startSampler(urls) {
  const worker = new Worker(SAMPLER, {
    eval: true,
    workerData: { urls, pauseMs: PAUSE_MS, warmup: IDLE_WARMUP },
  });
  let warmed;
  const warm = new Promise((resolve) => {
    warmed = resolve;
  });
  const result = new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (message === 'warm') warmed();
      else resolve(message);
    });
    worker.once('error', reject);
  });
  return {
    warm: withTimeout(warm, 30_000, 'page sampler warm-up'),
    phase(name) {
      worker.postMessage(name);
    },
    async stop() {
      worker.postMessage('stop');
      try {
        return await withTimeout(result, 10_000, 'page sampler');
      } finally {
        await worker.terminate();
      }
    },
  };
}

// The import, posted from a worker of its own: the body is handed over (and made a Buffer) before
// anything is timed; `send()` posts it and answers the parsed answer and the wall time.
const POSTER = `
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.from(workerData.body);
parentPort.once('message', async () => {
  const started = performance.now();
  try {
    const response = await fetch(workerData.url, { method: 'POST', headers: workerData.headers, body });
    const text = await response.text();
    parentPort.postMessage({ ok: true, status: response.status, text, ms: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error) });
  }
});
parentPort.postMessage('ready');
`;

async function poster(url, headers, body) {
  const worker = new Worker(POSTER, { eval: true, workerData: { url, headers, body } });
  await withTimeout(
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    }),
    30_000,
    'import poster',
  );
  return {
    async send() {
      const answer = new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage('go');
      const message = await withTimeout(answer, IMPORT_TIMEOUT_MS, 'POST /members/import');
      if (!message.ok) throw new Error(`POST /members/import: ${message.error}`);
      return message;
    },
    close: () => worker.terminate(),
  };
}

// ---------------------------------------------------------------------------------------------
// The bodies: the suite's (import-large.test.ts), each e-mail unique to `tag`.

function jsonBody(tag) {
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push(`{"email":"${tag}.${i}@example.test","firstname":"Firstname","lastname":"Lastname ${i}"}`);
  }
  return `{"members":[${rows.join(',')}]}`;
}

function csvBody(tag) {
  const lines = ['email,firstname,lastname,extra.team'];
  for (let i = 0; i < ROWS; i++)
    lines.push(`${tag}.${i}@example.test,Firstname,"Lastname, ${i}",Team ${i % 7}`);
  return `${lines.join('\r\n')}\r\n`;
}

// ---------------------------------------------------------------------------------------------

/** One participant (a campaign started yesterday, one member in it): answers its token. */
async function participantToken(api) {
  const made = await api('POST', '/campaigns', {
    name: 'Bench busy',
    variant: 'bigfive',
    start: wireDate(Date.now() - 86_400_000),
    autoinvite: 'none',
  });
  const campaignId = made.data.campaignid;
  const member = await api('POST', '/members', {
    email: 'participant@bench.example.com',
    firstname: 'Pat',
    lastname: 'Participant',
  });
  const memberId = member.data.memberid;
  await api('POST', `/campaigns/${campaignId}/members/${memberId}`);
  const joined = await api('GET', `/campaigns/${campaignId}/members/${memberId}`);
  if (typeof joined.data.token !== 'string') throw new Error('the campaign member has no token');
  return joined.data.token;
}

/** The figures of one URL's busy samples beside its idle median; a row without its label. */
function figures(samples, url, idleSamples) {
  const busy = samples.filter((sample) => sample.url === url).map((sample) => sample.ms);
  const idle = idleSamples.filter((sample) => sample.url === url).map((sample) => sample.ms);
  const late = busy.filter((ms) => ms >= TARGET_MS).length;
  const never = busy.filter((ms) => ms >= NEVER_MS).length;
  const failed = samples.filter((sample) => sample.url === url && sample.failed).length;
  const idleMedian = median(idle);
  const p95 = percentile(busy, 95);
  return {
    pages: busy.length,
    late,
    never,
    failed,
    summary: `${busy.length} answers, ${late} ≥ ${TARGET_MS} ms, ${never} ≥ ${NEVER_MS} ms, ${failed} failed; idle ${idle.length} answers`,
    figure:
      busy.length === 0
        ? 'no answer'
        : `${fmtMs(percentile(busy, 50))} / ${fmtMs(p95)} / ${fmtMs(Math.max(...busy))} (${busy.length})`,
    floor: `${fmtMs(idleMedian)} (the same request idle, median of ${idle.length})`,
    ratio: busy.length === 0 ? '-' : `${fmtX(p95 / idleMedian)} (p95)`,
    target: `≤ ${TARGET_MS} ms for 19 in 20, none ≥ 1 s`,
    pass: busy.length >= MIN_PAGES && late <= busy.length / 20 && never === 0,
  };
}

/** Samples `urls` with nothing else going on, for IDLE_MS after the warm-up; answers the sampler. */
async function idleSampler(urls) {
  const sampler = startSampler(urls);
  await sampler.warm;
  sampler.phase('idle');
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  return sampler;
}

// ---------------------------------------------------------------------------------------------
// 1. Readers that never read

/** A socket that asks for `path` and then never reads: its kernel buffers fill and the server must wait. */
function stuckReader(port, path, bearer) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n\r\n`);
      resolve(socket);
    });
    // Never read: no data listener, and paused so that nothing is taken from the kernel.
    socket.pause();
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

async function whileReadersStall(ctx, engine, server, bearer, page) {
  const { port } = server;
  const health = `http://127.0.0.1:${port}/healthz`;
  const sampler = await idleSampler([health, page]);
  const readers = [];
  let samples;
  let connected;
  let shares;
  try {
    readers.push(
      ...(await Promise.all(
        Array.from({ length: READERS }, () => stuckReader(port, '/api/v1/members', bearer)),
      )),
    );
    sampler.phase('settle');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    sampler.phase('busy');
    const cpu = cpuMeter(server.pid);
    await new Promise((resolve) => setTimeout(resolve, READERS_MS));
    sampler.phase('after');
    shares = cpu.shares();
    samples = await sampler.stop();
    // The readers are still there, waiting on their answers: nothing cut them off.
    connected = readers.filter((socket) => !socket.destroyed).length;
  } finally {
    for (const socket of readers) socket.destroy();
    if (!samples) await sampler.stop().catch(() => {});
  }
  // And a reader that does read gets every member, once each.
  const response = await request(port, {
    path: '/api/v1/members',
    headers: { authorization: `Bearer ${bearer}` },
  });
  const list = json(response, 'GET /members');
  const ids = new Set((list.data ?? []).map((item) => item.memberid));
  const whole = list.status === 'OK' && list.data.length === MEMBERS + 1 && ids.size === MEMBERS + 1;
  const busy = samples.filter((sample) => sample.phase === 'busy');
  const idle = samples.filter((sample) => sample.phase === 'idle');
  const readersLabel = `${READERS} readers of ${MEMBERS.toLocaleString('en')} members not reading`;
  const rows = [];
  for (const [url, what] of [
    [health, 'GET /healthz'],
    [page, 'GET /q/{token}'],
  ]) {
    const result = figures(busy, url, idle);
    const label = `${what}, ${readersLabel} (${engine})`;
    ctx.note(`${label}: ${result.summary}`);
    rows.push({
      scenario: `${label}: p50 / p95 / max (answers) over ${READERS_MS / 1000} s; ${connected} of ${READERS} still connected`,
      figure: result.figure,
      floor: result.floor,
      ratio: result.ratio,
      target: result.target,
      pass: result.pass && connected === READERS && whole,
    });
  }
  ctx.note(
    `${readersLabel} (${engine}): ${connected} of ${READERS} still connected after ${(SETTLE_MS + READERS_MS) / 1000} s; ` +
      `a reader that reads got ${list.data?.length ?? 0} members (${ids.size} distinct) in ${fmtMs(response.ms)}` +
      (whole ? '' : `, not ${MEMBERS + 1}`) +
      `; over the ${READERS_MS / 1000} s, ${shares}`,
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// 2. The import

async function importWhileAsking(ctx, engine, server, bearer, page, kind) {
  const { port } = server;
  const label = `GET /q/{token} during a ${ROWS.toLocaleString('en')}-row ${kind} import (${engine})`;
  const body = kind === 'CSV' ? csvBody(`csv-${engine}`) : jsonBody(`json-${engine}`);
  const post = await poster(
    `http://127.0.0.1:${port}/api/v1/members/import`,
    {
      authorization: `Bearer ${bearer}`,
      'content-type': kind === 'CSV' ? 'text/csv' : 'application/json',
    },
    body,
  );
  let message;
  let shares;
  let samples;
  try {
    const sampler = await idleSampler([page]);
    sampler.phase('busy');
    const cpu = cpuMeter(server.pid);
    try {
      message = await post.send();
    } finally {
      sampler.phase('after');
      shares = cpu.shares();
      samples = await sampler.stop();
    }
  } finally {
    await post.close();
  }
  let answer;
  try {
    answer = JSON.parse(message.text);
  } catch {
    throw new Error(`POST /members/import: HTTP ${message.status}, not JSON: ${message.text.slice(0, 200)}`);
  }
  const created = answer?.data?.created?.length ?? 0;
  const errors = answer?.data?.errors?.length ?? -1;
  const madeAll = message.status === 200 && answer.status === 'OK' && created === ROWS && errors === 0;
  const result = figures(
    samples.filter((sample) => sample.phase === 'busy'),
    page,
    samples.filter((sample) => sample.phase === 'idle'),
  );
  ctx.note(
    `${label}: ${result.summary}; the import took ${fmtMs(message.ms)} for ${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB ` +
      `(${Math.round(ROWS / (message.ms / 1000)).toLocaleString('en')} rows/s), answered ${answer.status} with ` +
      `${created.toLocaleString('en')} ids and ${errors} errors` +
      (madeAll ? '' : `: ${message.text.slice(0, 300)}`) +
      `; ${shares}`,
  );
  return {
    scenario: `${label}: p50 / p95 / max (answers); ${created.toLocaleString('en')} ids created`,
    figure: result.figure,
    floor: result.floor,
    ratio: result.ratio,
    target: result.target,
    pass: result.pass && madeAll,
  };
}

// ---------------------------------------------------------------------------------------------

async function measure(ctx, engine) {
  // One instance per engine: the readers first, on the 20,000 seeded members (and the participant);
  // then the two imports, which add 400,000 members to the same table.
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'busy');
  try {
    const server = await startServer('assay', instance.store, { env: QUIET });
    try {
      const bearer = await accessToken(server.port, instance.client, 'members campaigns');
      const token = await participantToken(apiAnswersOf(server.port, bearer));
      const page = `http://127.0.0.1:${server.port}/q/${token}`;
      const rows = await whileReadersStall(ctx, engine, server, bearer, page);
      for (const kind of ['JSON', 'CSV']) {
        rows.push(await importWhileAsking(ctx, engine, server, bearer, page, kind));
      }
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
