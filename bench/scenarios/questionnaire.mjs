// The participant pages (issue 10), each figure beside a floor measured in the same run:
//   1. a question page, bigfive page 1 (20 items): GET, and POST of the whole page answered (its
//      303), timed to the last byte one request at a time, alternated with a bare Fastify app that
//      renders the same template from the same model with no database (bench/floor-server.mjs,
//      BENCH_FLOOR_MODE=questionnaire); the two pages must be the same bytes but for the form token;
//   2. 200 participants completing a bigfive questionnaire at once (intro, start, 6 pages of 20
//      items GET and POST, check, send, done: 17 requests each), 200 browsers with their own
//      connection and cookie, in parallel; then every report and every `completed` member counted in
//      the database.
//      The same 200 browsers run the same flow against the floor server first, for scale.
// The members are made by POST /members/import, the campaign (bigfive, started yesterday, report
// delivery and member confirmation on) by the API; the tokens are read from GET
// /campaigns/{id}/members.
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  accessToken,
  apiAnswersOf,
  benchCpuMs,
  cpuMsOf,
  fmtMs,
  fmtX,
  machineBusyMs,
  median,
  onEachEngine,
  percentile,
  prepareInstance,
  QUIET,
  startServer,
  wireDate,
  withTimeout,
} from '../harness.mjs';

const VARIANT = 'bigfive';
const CAMPAIGN_NAME = 'Bench questionnaire';
const PARTICIPANTS = 200;
// Part 1: the GET rotates over GET_MEMBERS participants that never answer; the POST over
// POST_MEMBERS others, each posting its page 1 again and again.
const GET_MEMBERS = 20;
const POST_MEMBERS = 20;
const WARMUP = 300;
const RUNS = 400;
const FLOW_TIMEOUT_MS = 90_000;

const fmtFine = (ms) => (ms < 10 ? `${ms.toFixed(2)} ms` : fmtMs(ms));

// ---------------------------------------------------------------------------------------------
// A browser: its own keep-alive connection, its cookie, the form token of the last page.

function send(agent, port, method, url, headers, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const start = performance.now();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: payload ? { ...headers, 'content-length': payload.length } : headers,
        timeout: 60_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - start,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

class Browser {
  constructor(port) {
    this.port = port;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.cookie = '';
    this.csrf = '';
  }

  take(response) {
    const set = response.headers['set-cookie'];
    if (set) this.cookie = String(Array.isArray(set) ? set[0] : set).split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(response.body);
    if (csrf) this.csrf = csrf[1];
    return response;
  }

  async get(url) {
    return this.take(
      await send(this.agent, this.port, 'GET', url, this.cookie ? { cookie: this.cookie } : {}),
    );
  }

  async post(url, fields) {
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    if (this.cookie) headers.cookie = this.cookie;
    const body = new URLSearchParams({ csrf: this.csrf, ...fields }).toString();
    return this.take(await send(this.agent, this.port, 'POST', url, headers, body));
  }

  close() {
    this.agent.destroy();
  }
}

/** A participant's answers to one page: every question, a scale point from 1 to 5. */
function pageAnswers(page, seed) {
  const fields = {};
  page.questions.forEach((question, i) => {
    fields[question.code] = String(1 + ((seed * 7 + i * 3) % 5));
  });
  return fields;
}

// ---------------------------------------------------------------------------------------------
// The instance's database, read directly for the checks. SQL is written with `?` marks.

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
      close: () => client.end(),
    };
  }
  const db = new Database(path.join(store.dataDir, 'assay.sqlite'), { readonly: true });
  db.pragma('busy_timeout = 5000');
  return {
    all: async (text, params = []) => db.prepare(text).all(params),
    close: async () => db.close(),
  };
}

const countOf = async (db, text, params) => Number((await db.all(text, params))[0].n);

/** The campaign with its members: answers the campaign id and the tokens, in member order. */
async function campaignWithTokens(api, count) {
  const members = [];
  for (let i = 0; i < count; i++) {
    members.push({
      email: `participant${i}@bench.example.com`,
      firstname: `First${i}`,
      lastname: `Last${i}`,
    });
  }
  const imported = await api('POST', '/members/import', { members }, 'POST /members/import');
  const ids = imported.data?.created ?? [];
  if (ids.length !== count) throw new Error(`POST /members/import created ${ids.length} members`);
  const made = await api(
    'POST',
    '/campaigns',
    {
      name: CAMPAIGN_NAME,
      variant: VARIANT,
      start: wireDate(Date.now() - 86_400_000),
      autoinvite: 'none',
      sendreportdelivery: true,
      sendmemberconfirmation: true,
    },
    'POST /campaigns',
  );
  const campaignId = made.data.campaignid;
  const added = await api('POST', `/campaigns/${campaignId}/members`, { memberids: ids }, 'add members');
  if (added.data.added.length !== count)
    throw new Error(`POST /campaigns/{id}/members added ${added.data.added.length}`);
  const listed = await api('GET', `/campaigns/${campaignId}/members`);
  const byMember = new Map(listed.data.map((row) => [row.memberid, row.token]));
  const tokens = ids.map((id) => byMember.get(id));
  if (tokens.some((token) => typeof token !== 'string')) throw new Error('a campaign member without a token');
  return { campaignId, tokens };
}

// ---------------------------------------------------------------------------------------------
// The SQL the two routes run, alone, in this process (for the notes: where the time goes): the
// statements of questionnaire.repository.ts from the build, on a database opened as the server
// opens it (db/connect.ts: named statements on PostgreSQL, the synchronous read path on SQLite).
// The GET reads the participation (the member by token joined with its campaign; an open campaign
// needs no counts). The POST, on PostgreSQL with the token's variant known (it is after the page
// was shown), is one UPDATE … FROM campaigns … RETURNING that merges the page into the stored
// answers and answers them (all a page without a problem needs); on SQLite the lookup, then the merging UPDATE. On
// PostgreSQL the notes add a bare `select 1` (one round trip and nothing else) beside it. A page
// save commits without waiting for the WAL flush on both databases (docs/questionnaire.md).

async function sqlAlone(store, getTokens, postTokens, page) {
  const dist = new URL('../../packages/server/dist/', import.meta.url).href;
  const { openDatabase } = await import(`${dist}db/connect.js`);
  const { findParticipation, mergeAnswers, saveOpenPage } = await import(
    `${dist}questionnaire/questionnaire.repository.js`
  );
  const db = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, poolSize: 2 });
  const { kysely, dialect } = db;
  const bare = store.databaseUrl ? new pg.Client({ connectionString: store.databaseUrl }) : undefined;
  await bare?.connect();
  const patches = postTokens.map((_, i) => {
    const answers = pageAnswers(page, i);
    return Object.fromEntries(Object.entries(answers).map(([code, value]) => [code, Number(value)]));
  });
  const times = { get: [], post: [], roundTrip: [] };
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      let start = performance.now();
      const found = await findParticipation(kysely, dialect, getTokens[i % getTokens.length]);
      JSON.parse(found.member.answers);
      if (i >= WARMUP) times.get.push(performance.now() - start);
      const k = i % postTokens.length;
      const now = `${new Date().toISOString().slice(0, 19)}+00:00`;
      start = performance.now();
      if (dialect === 'postgres') {
        const saved = await saveOpenPage(kysely, postTokens[k], VARIANT, now, patches[k], '127.0.0.1');
        if (!saved) throw new Error('the save wrote nothing');
        JSON.parse(saved);
      } else {
        const { member } = await findParticipation(kysely, dialect, postTokens[k]);
        JSON.parse(member.answers);
        if ((await mergeAnswers(kysely, dialect, member, patches[k])) === undefined)
          throw new Error('the save wrote nothing');
      }
      if (i >= WARMUP) times.post.push(performance.now() - start);
      if (bare) {
        start = performance.now();
        await bare.query('select 1');
        if (i >= WARMUP) times.roundTrip.push(performance.now() - start);
      }
    }
  } finally {
    await bare?.end();
    await db.close();
  }
  const postgres = times.roundTrip.length > 0;
  return {
    get: median(times.get),
    post: median(times.post),
    roundTrip: postgres ? median(times.roundTrip) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// 1. One question page, one request at a time, alternated with the floor.

const sameBytes = (a, b) =>
  a.replace(/name="csrf" value="[^"]*"/g, 'csrf') === b.replace(/name="csrf" value="[^"]*"/g, 'csrf');

async function questionPage(ctx, engine, store, servers, tokens, page) {
  const getTokens = tokens.slice(0, GET_MEMBERS);
  const postTokens = tokens.slice(GET_MEMBERS, GET_MEMBERS + POST_MEMBERS);
  const browsers = (port, list) => list.map(() => new Browser(port));
  const sides = {
    assay: { get: browsers(servers.assay, getTokens), post: browsers(servers.assay, postTokens) },
    floor: { get: browsers(servers.floor, getTokens), post: browsers(servers.floor, postTokens) },
  };
  try {
    // Each browser opens its link first and presses "Start now" (the member is `started` then, so
    // the POSTs measured are those of a participant answering), and has its form cookie from a
    // first page 1.
    const intros = {};
    for (const [name, side] of Object.entries(sides)) {
      for (const [kind, list] of [
        ['get', getTokens],
        ['post', postTokens],
      ]) {
        for (const [i, token] of list.entries()) {
          const intro = await side[kind][i].get(`/q/${token}`);
          if (intro.status !== 200) throw new Error(`GET /q/{token}: HTTP ${intro.status}`);
          intros[name] ??= intro.body;
          const started = await side[kind][i].post(`/q/${token}`, {});
          if (started.status !== 303) throw new Error(`POST /q/{token}: HTTP ${started.status}`);
          const first = await side[kind][i].get(`/q/${token}/page/1`);
          if (first.status !== 200 || !side[kind][i].csrf)
            throw new Error(`GET page 1: HTTP ${first.status}`);
        }
      }
    }
    // The same pages, byte for byte (the form token aside): the question page measured, and the
    // start page (the first request of each of the 200 below).
    const [assayPage, floorPage] = await Promise.all([
      sides.assay.get[0].get(`/q/${getTokens[0]}/page/1`),
      sides.floor.get[0].get(`/q/${getTokens[0]}/page/1`),
    ]);
    const differs = (what, a, b) => {
      if (sameBytes(a, b)) return false;
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      ctx.note(
        `${what} (${engine}): the floor's page differs from assay's at byte ${at}: ` +
          `assay ${JSON.stringify(a.slice(at - 40, at + 60))} floor ${JSON.stringify(b.slice(at - 40, at + 60))}`,
      );
      return true;
    };
    const identical = !differs('question page', assayPage.body, floorPage.body);
    const introIdentical = !differs('start page', intros.assay, intros.floor);
    const items = (assayPage.body.match(/<fieldset/g) ?? []).length;

    const times = { assay: { get: [], post: [] }, floor: { get: [], post: [] } };
    let unexpected = 0;
    const answers = postTokens.map((_, i) => pageAnswers(page, i));
    for (const kind of ['get', 'post']) {
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const k = i % (kind === 'get' ? getTokens.length : postTokens.length);
        // Alternate which side goes first, so that neither always follows the other.
        const order = i % 2 === 0 ? ['assay', 'floor'] : ['floor', 'assay'];
        for (const name of order) {
          const browser = sides[name][kind][k];
          let response;
          if (kind === 'get') {
            response = await browser.get(`/q/${getTokens[k]}/page/1`);
            if (response.status !== 200) unexpected++;
          } else {
            response = await browser.post(`/q/${postTokens[k]}/page/1`, {
              ...answers[k],
              action: 'continue',
            });
            if (response.status !== 303 || response.headers.location !== `/q/${postTokens[k]}/page/2`)
              unexpected++;
          }
          if (i >= WARMUP) times[name][kind].push(response.ms);
        }
      }
    }
    const label = (kind) =>
      kind === 'get'
        ? `GET /q/{token}/page/1, ${VARIANT} ${items} items (${engine})`
        : `POST /q/{token}/page/1, ${items} answers, its 303 (${engine})`;
    const sql = await sqlAlone(store, getTokens, postTokens, page);
    const rows = [];
    for (const kind of ['get', 'post']) {
      const assayMs = median(times.assay[kind]);
      const floorMs = median(times.floor[kind]);
      ctx.note(
        `${label(kind)}: assay p10/p50/p90/p99 ${[10, 50, 90, 99].map((p) => percentile(times.assay[kind], p).toFixed(2)).join('/')} ms; ` +
          `floor ${[10, 50, 90, 99].map((p) => percentile(times.floor[kind], p).toFixed(2)).join('/')} ms` +
          (kind === 'get'
            ? `; page ${(assayPage.body.length / 1024).toFixed(1)} KB, the floor's ${identical ? 'identical' : 'DIFFERENT'}` +
              ` (start page ${introIdentical ? 'identical' : 'DIFFERENT'})`
            : '') +
          `; the route's SQL alone ${fmtFine(sql[kind])}` +
          (sql.roundTrip === undefined
            ? ''
            : ` (a bare \`select 1\` round trip on this PostgreSQL: ${fmtFine(sql.roundTrip)}` +
              (kind === 'post' ? '; the save commits without waiting for the WAL flush)' : ')')),
      );
      rows.push({
        scenario: `${label(kind)}: time to last byte, median of ${RUNS} (one at a time)`,
        figure: fmtFine(assayMs),
        floor: `${fmtFine(floorMs)} (bare fastify + renderPage, no db; the route's SQL alone ${fmtFine(sql[kind])})`,
        ratio: fmtX(assayMs / floorMs),
        target: '≤ 2x',
        pass:
          assayMs / floorMs <= 2 &&
          unexpected === 0 &&
          identical &&
          introIdentical &&
          items === page.questions.length,
      });
    }
    if (unexpected > 0) ctx.note(`question page (${engine}): ${unexpected} unexpected answers`);
    return rows;
  } finally {
    for (const side of Object.values(sides))
      for (const list of Object.values(side)) for (const b of list) b.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. 200 participants at once.

/** One participant's whole way; answers its request times by kind and its first problem, if any. */
async function participate(port, token, variant, seed, sendsReport) {
  const browser = new Browser(port);
  const times = [];
  const timed = async (kind, response, expect) => {
    times.push({ kind, ms: response.ms });
    const problem = expect(response);
    if (problem)
      throw new Error(`${kind}: ${problem} (HTTP ${response.status}, ${response.body.slice(0, 120)})`);
    return response;
  };
  const status = (code) => (response) => (response.status === code ? undefined : `expected HTTP ${code}`);
  const redirect = (location) => (response) =>
    response.status === 303 && response.headers.location === location
      ? undefined
      : `expected 303 to ${location}, got ${response.headers.location}`;
  try {
    await timed('GET intro', await browser.get(`/q/${token}`), status(200));
    await timed('POST start', await browser.post(`/q/${token}`, {}), redirect(`/q/${token}/page/1`));
    const pages = variant.pages.length;
    for (let n = 1; n <= pages; n++) {
      await timed('GET page', await browser.get(`/q/${token}/page/${n}`), status(200));
      const fields = { ...pageAnswers(variant.pages[n - 1], seed + n), action: 'continue' };
      await timed(
        'POST page',
        await browser.post(`/q/${token}/page/${n}`, fields),
        redirect(n < pages ? `/q/${token}/page/${n + 1}` : `/q/${token}/check`),
      );
    }
    await timed('GET check', await browser.get(`/q/${token}/check`), status(200));
    await timed(
      'POST send',
      await browser.post(`/q/${token}/check`, { action: 'send' }),
      redirect(`/q/${token}/done`),
    );
    await timed('GET done', await browser.get(`/q/${token}/done`), (response) =>
      response.status !== 200
        ? 'expected HTTP 200'
        : sendsReport && !response.body.includes(`/r/${token}`)
          ? 'no report link'
          : undefined,
    );
    return { times };
  } catch (error) {
    return { times, error: error.message };
  } finally {
    browser.close();
  }
}

async function crowd(port, tokens, variant, sendsReport, serverPid) {
  const cpu = { server: cpuMsOf(serverPid), machine: machineBusyMs(), bench: benchCpuMs() };
  const start = performance.now();
  const results = await Promise.all(
    tokens.map((token, i) => participate(port, token, variant, i * 13, sendsReport)),
  );
  const wallMs = performance.now() - start;
  const serverMs = cpuMsOf(serverPid) - cpu.server;
  const benchMs = benchCpuMs() - cpu.bench;
  const restMs = Math.max(0, machineBusyMs() - cpu.machine - serverMs - benchMs);
  const share = (ms) => `${Math.round((100 * ms) / wallMs)}%`;
  const all = results.flatMap((result) => result.times);
  const byKind = new Map();
  for (const { kind, ms } of all) {
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push(ms);
  }
  const errors = results.filter((result) => result.error).map((result) => result.error);
  const ms = all.map((time) => time.ms);
  const later = all.filter((time) => time.kind !== 'GET intro').map((time) => time.ms);
  return {
    wallMs,
    requests: all.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    laterP99: percentile(later, 99),
    cpu: `CPU over the run, in core time: server ${share(serverMs)}, the 200 browsers ${share(benchMs)}, the rest of the machine (PostgreSQL, ...) ${share(restMs)}`,
    max: Math.max(...ms),
    errors,
    kinds: [...byKind]
      .map(
        ([kind, list]) =>
          `${kind} ${list.length}: p50 ${fmtFine(percentile(list, 50))}, p99 ${fmtFine(percentile(list, 99))}, max ${fmtFine(Math.max(...list))}`,
      )
      .join('; '),
  };
}

// ---------------------------------------------------------------------------------------------

async function measure(ctx, engine) {
  const { builtinVariantsDir, loadVariants } = await import(
    new URL('../../packages/server/dist/variants/load-variants.js', import.meta.url).href
  );
  const variant = loadVariants([builtinVariantsDir()]).get(VARIANT);
  const instance = await prepareInstance(ctx, engine, 0, 'questionnaire');
  const db = await openStore(instance.store);
  const rows = [];
  try {
    const server = await startServer('assay', instance.store, { env: QUIET });
    const floor = await startServer('floor', instance.store, {
      env: {
        BENCH_FLOOR_MODE: 'questionnaire',
        BENCH_FLOOR_QUESTIONNAIRE: JSON.stringify({
          variant: VARIANT,
          name: CAMPAIGN_NAME,
          sendreportdelivery: true,
        }),
      },
    });
    try {
      const token = await accessToken(server.port, instance.client, 'members campaigns');
      const api = apiAnswersOf(server.port, token);
      const { campaignId, tokens } = await campaignWithTokens(api, GET_MEMBERS + POST_MEMBERS + PARTICIPANTS);

      rows.push(
        ...(await questionPage(
          ctx,
          engine,
          instance.store,
          { assay: server.port, floor: floor.port },
          tokens,
          variant.pages[0],
        )),
      );

      // 2. The 200: the same flow on the floor first (it leaves nothing behind), then on assay
      // (whose mail worker and database still have work after the last answer).
      const crowdTokens = tokens.slice(GET_MEMBERS + POST_MEMBERS);
      const bare = await crowd(floor.port, crowdTokens, variant, true, floor.pid);
      const assay = await withTimeout(
        crowd(server.port, crowdTokens, variant, true, server.pid),
        FLOW_TIMEOUT_MS,
        '200 participants',
      );

      const reports = await countOf(
        db,
        "select count(*) as n from reports where campaign_id = ? and type = 'personal'",
        [campaignId],
      );
      const distinctTokens = await countOf(
        db,
        "select count(distinct token) as n from reports where campaign_id = ? and type = 'personal'",
        [campaignId],
      );
      const completed = await countOf(
        db,
        "select count(*) as n from campaign_members where campaign_id = ? and status = 'completed'",
        [campaignId],
      );
      const linked = await countOf(
        db,
        `select count(*) as n from campaign_members cm join reports r on r.token = cm.token
          where cm.campaign_id = ? and cm.status = 'completed' and cm.results like '%' || r.id || '%'`,
        [campaignId],
      );
      const mails = await db.all(
        'select stage, count(*) as n from mail_outbox where campaign_id = ? group by stage order by stage',
        [campaignId],
      );
      const label = `${PARTICIPANTS} participants at once, ${VARIANT} ${variant.pages.length} pages x ${variant.pages[0].questions.length} + check + send (${engine})`;
      ctx.note(
        `${label}: ${assay.requests.toLocaleString('en')} requests in ${fmtMs(assay.wallMs)} ` +
          `(${Math.round(assay.requests / (assay.wallMs / 1000))} req/s), max ${fmtMs(assay.max)}; ${assay.kinds}; ` +
          `${assay.errors.length} participants failed${assay.errors.length ? ` (first: ${assay.errors[0]})` : ''}; ` +
          `${reports} reports (${distinctTokens} tokens), ${completed} completed, ${linked} results pointing at their report; ` +
          `outbox ${mails.map((row) => `${row.stage} ${row.n}`).join(', ')}; ${assay.cpu}`,
      );
      ctx.note(
        `${label}, floor: ${bare.requests.toLocaleString('en')} requests in ${fmtMs(bare.wallMs)}, max ${fmtMs(bare.max)}; ${bare.kinds}; ` +
          `${bare.errors.length} failed${bare.errors.length ? ` (first: ${bare.errors[0]})` : ''}; ${bare.cpu}`,
      );
      rows.push({
        scenario: `${label}: page time p50 / p99 of ${assay.requests.toLocaleString('en')} requests (p99 after each browser's first); wall time`,
        figure: `${fmtFine(assay.p50)} / ${fmtFine(assay.p99)} (${fmtFine(assay.laterP99)}); ${fmtMs(assay.wallMs)}`,
        floor: `${fmtFine(bare.p50)} / ${fmtFine(bare.p99)} (${fmtFine(bare.laterP99)}); ${fmtMs(bare.wallMs)} (same flow, bare fastify, no db)`,
        ratio: `${fmtX(assay.wallMs / bare.wallMs)} (wall)`,
        target: `no error, ${PARTICIPANTS} reports, ${PARTICIPANTS} completed`,
        pass:
          assay.errors.length === 0 &&
          assay.requests === PARTICIPANTS * (5 + 2 * variant.pages.length) &&
          reports === PARTICIPANTS &&
          distinctTokens === PARTICIPANTS &&
          completed === PARTICIPANTS &&
          linked === PARTICIPANTS,
      });
    } finally {
      await Promise.all([server.stop(), floor.stop()]);
    }
    return rows;
  } finally {
    await db.close();
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
