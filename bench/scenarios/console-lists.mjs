// The console's long lists (issue 21) and the branding preview, each beside a floor measured in the
// same run: a bare Fastify app that makes the same service calls and renders the same view
// (bench/floor-console.mjs, BENCH_FLOOR_MODE=console). One request at a time, to the last byte,
// assay and floor alternated, so that a drift in the machine's load falls on both alike.
//   - the report list with 100,000 reports: page 1 without a filter, and a variant + type filter
//     that one report in ten matches (reportListPage and reportListView);
//   - the outbox with 100,000 mails: every status, and the failed ones (listMails, mailCounts and
//     mailListView);
//   - the branding preview (/console/branding/preview.svg): p50 and p99, target under 150 ms.
// Seeding: 10,000 members by bulk SQL; one bigfive campaign, 100 real reports (POST
// /reports/import/bigfive) and 100 real invitations (POST .../invite) by the API; then copies of
// those rows (their raw, processed, config and mail params as the API made them) by bulk SQL.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  accessToken,
  fmtMs,
  fmtX,
  json,
  MAIN,
  median,
  memberId,
  onEachEngine,
  percentile,
  prepareInstance,
  QUIET,
  ROOT,
  request,
  runNode,
  startServer,
  storeFlags,
} from '../harness.mjs';

const MEMBERS = 10_000;
const TEMPLATES = 100;
const REPORTS = 100_000;
const MAILS = 100_000;
const WARMUP = 40;
const RUNS = 120;
const PREVIEW_RUNS = 300;
const dist = (file) => import(pathToFileURL(path.join(ROOT, 'packages/server/dist', file)).href);

const PAGES = [
  { name: 'report list page 1, 100,000 reports', path: '/console/reports', target: 2 },
  {
    name: 'report list filtered (variant + type, 1 in 10), 100,000 reports',
    path: '/console/reports?variant=bigfive&type=group',
    target: 2,
  },
  { name: 'outbox, all, 100,000 mails', path: '/console/mail', target: 2 },
  { name: 'outbox, failed (1 in 10), 100,000 mails', path: '/console/mail?status=failed', target: 2 },
];
const PREVIEW = `/console/branding/preview.svg?${new URLSearchParams({
  agencyname: 'Bench & Partners <Consulting>',
  agencyfooter: 'Bench & Partners, Example Street 1, 8000 Zürich',
  color: '#1d4f91',
})}`;

/** A member's synthetic answers: every question, each dimension leaning its own way. */
function answersOf(questions, i) {
  let state = (i + 1) * 2654435761;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const lean = {};
  const answers = {};
  for (const question of questions) {
    const key = question.dimension ?? '';
    lean[key] ??= 1 + random() * 4;
    answers[question.code] = Math.min(5, Math.max(1, Math.round(lean[key] + (random() - 0.5) * 2.5)));
  }
  return answers;
}

/** The campaign, the 100 reports and the 100 invitations, through the API. */
async function seedByApi(port, client) {
  const token = await accessToken(port, client, 'members campaigns reports');
  const call = async (method, url, body) => {
    const answer = json(
      await request(port, {
        method,
        path: `/api/v1${url}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      url,
    );
    if (answer.status !== 'OK') throw new Error(`${method} ${url}: ${JSON.stringify(answer).slice(0, 300)}`);
    return answer.data;
  };
  const { builtinVariantsDir, loadVariants } = await dist('variants/load-variants.js');
  const questions = loadVariants([builtinVariantsDir()]).get('bigfive').questions;
  const memberids = Array.from({ length: TEMPLATES }, (_, i) => memberId(i));
  const { campaignid } = await call('POST', '/campaigns', {
    name: 'Bench campaign',
    variant: 'bigfive',
    start: '2026-01-01T00:00:00+00:00',
  });
  await call('POST', `/campaigns/${campaignid}/members`, { memberids });
  await call('POST', `/campaigns/${campaignid}/members/invite`, {});
  const imported = await call('POST', '/reports/import/bigfive', {
    reports: memberids.map((memberid, i) => ({
      memberid,
      answers: answersOf(questions, i),
      date: '2026-03-01T10:00:00+00:00',
    })),
  });
  if (imported.created.length !== TEMPLATES)
    throw new Error(`import made ${imported.created.length} reports`);
  return campaignid;
}

const REPORT_COLUMNS = [
  'id, type, name, variant, language, campaign_id, member_id, token, config, raw, processed, extra,',
  'tags, testcase, status, date, lastopened, created_by, created',
].join(' ');
const MAIL_COLUMNS = [
  'id, dedupe_key, campaign_id, member_id, stage, sequence, recipient, language, template, params,',
  'message_id, status, attempts, next_attempt_at, last_response, created, sent_at',
].join(' ');
const REFUSED = '550 5.1.1 mailbox unavailable (bench)';

/** The copies: report g and mail g, from the API's rows (SQLite in JS, PostgreSQL in one statement each). */
function reportCopy(g, t, campaign) {
  const group = g % 10 === 0;
  const stamp = (base, minutes) =>
    `${new Date(Date.parse(base) + minutes * 60_000).toISOString().slice(0, 19)}+00:00`;
  return [
    `S${String(g).padStart(9, '0')}`,
    group ? 'group' : 'personal',
    group ? `Group ${g}` : null,
    t.variant,
    t.language,
    g % 4 === 0 ? campaign : null,
    group ? null : memberId(g % MEMBERS),
    `${g.toString(16).padStart(8, '0')}${'0123456789abcdef'.repeat(4)}`.slice(0, 64),
    t.config,
    t.raw,
    t.processed,
    t.extra,
    g % 20 === 0 ? '["bench"]' : '[]',
    g % 50 === 0 ? 1 : 0,
    'active',
    stamp('2025-01-01T00:00:00Z', g * 5),
    g % 3 === 0 ? stamp('2026-01-01T00:00:00Z', g) : null,
    t.created_by,
    t.created,
  ];
}

function mailCopy(g, t) {
  const status = g % 10 === 0 ? 'failed' : g % 10 === 1 ? 'captured' : 'sent';
  const created = `${new Date(Date.parse('2025-01-01T00:00:00Z') + g * 300_000).toISOString().slice(0, 19)}+00:00`;
  return [
    `M${String(g).padStart(9, '0')}`,
    `bench:${g}`,
    t.campaign_id,
    memberId(g % MEMBERS),
    t.stage,
    0,
    `member${g % MEMBERS}@bench.example.com`,
    t.language,
    t.template,
    t.params,
    `<M${g}@bench.example.com>`,
    status,
    status === 'failed' ? 3 : 1,
    created,
    status === 'failed' ? REFUSED : status === 'sent' ? '250 2.0.0 OK queued as bench' : null,
    created,
    status === 'sent' ? created : null,
  ];
}

async function seedSqlite(dataDir, campaign) {
  const db = new Database(path.join(dataDir, 'assay.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const reportTemplates = db.prepare("select * from reports where type = 'personal' order by seq").all();
    const mailTemplate = db.prepare('select * from mail_outbox order by id limit 1').get();
    const marks = (n) => Array(n).fill('?').join(', ');
    const report = db.prepare(`insert into reports (${REPORT_COLUMNS}) values (${marks(19)})`);
    const mail = db.prepare(`insert into mail_outbox (${MAIL_COLUMNS}) values (${marks(17)})`);
    db.transaction(() => {
      for (let g = 1; g <= REPORTS - TEMPLATES; g++) {
        report.run(reportCopy(g, reportTemplates[g % reportTemplates.length], campaign));
      }
      for (let g = 1; g <= MAILS - TEMPLATES; g++) mail.run(mailCopy(g, mailTemplate));
    })();
    db.exec('analyze');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

// On PostgreSQL the same copies are made by the server itself (generate_series), as reportCopy and
// mailCopy make them.
async function seedPostgres(url, campaign) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const stamp = (base, step) =>
    `to_char(timestamp '${base}' + g * interval '${step}', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`;
  const member = `'B' || lpad((g % ${MEMBERS})::text, 9, '0')`;
  try {
    await client.query('begin');
    await client.query(
      `insert into reports (${REPORT_COLUMNS})
      select 'S' || lpad(g::text, 9, '0'),
        case when g % 10 = 0 then 'group' else 'personal' end,
        case when g % 10 = 0 then 'Group ' || g end,
        t.variant, t.language, case when g % 4 = 0 then $2::varchar end,
        case when g % 10 = 0 then null else ${member} end,
        left(lpad(to_hex(g), 8, '0') || repeat('0123456789abcdef', 4), 64),
        t.config, t.raw, t.processed, t.extra,
        case when g % 20 = 0 then '["bench"]' else '[]' end,
        case when g % 50 = 0 then 1 else 0 end, 'active',
        ${stamp('2025-01-01', '5 minutes')},
        case when g % 3 = 0 then ${stamp('2026-01-01', '1 minute')} end,
        t.created_by, t.created
      from generate_series(1, $1::int) as g
      join (select row_number() over (order by seq) - 1 as k, r.* from reports r where r.type = 'personal') t
        on t.k = g % ${TEMPLATES}
      order by g`,
      [REPORTS - TEMPLATES, campaign],
    );
    const status = "case g % 10 when 0 then 'failed' when 1 then 'captured' else 'sent' end";
    await client.query(
      `insert into mail_outbox (${MAIL_COLUMNS})
      select 'M' || lpad(g::text, 9, '0'), 'bench:' || g, t.campaign_id, ${member}, t.stage, 0,
        'member' || (g % ${MEMBERS}) || '@bench.example.com', t.language, t.template, t.params,
        '<M' || g || '@bench.example.com>', ${status},
        case when g % 10 = 0 then 3 else 1 end, ${stamp('2025-01-01', '5 minutes')},
        case g % 10 when 0 then $2::text when 1 then null else '250 2.0.0 OK queued as bench' end,
        ${stamp('2025-01-01', '5 minutes')},
        case when g % 10 > 1 then ${stamp('2025-01-01', '5 minutes')} end
      from generate_series(1, $1::int) as g
      cross join (select * from mail_outbox order by id limit 1) t
      order by g`,
      [MAILS - TEMPLATES, REFUSED],
    );
    await client.query('commit');
    await client.query('vacuum analyze reports');
    await client.query('vacuum analyze mail_outbox');
  } finally {
    await client.end();
  }
}

/** A signed-in operator's cookie, through a one-time sign-in link. */
async function signIn(store, port) {
  const out = await runNode([MAIN, 'users', 'sign-in-link', ...storeFlags(store)]);
  const link = /\/console\/sign-in\/link\/[A-Za-z0-9_-]+/.exec(out)?.[0];
  if (!link) throw new Error(`users sign-in-link answered ${out}`);
  const answer = await request(port, { path: link });
  const cookie = String(answer.headers['set-cookie'] ?? '').split(';')[0];
  if (answer.status !== 303 || !cookie) throw new Error(`sign-in link: HTTP ${answer.status}`);
  return cookie;
}

async function measure(ctx, engine) {
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'console-lists');
  try {
    const server = await startServer('assay', instance.store, { env: QUIET });
    const rows = [];
    let floor;
    try {
      const campaign = await seedByApi(server.port, instance.client);
      const t0 = performance.now();
      if (engine === 'postgres') await seedPostgres(instance.store.databaseUrl, campaign);
      else await seedSqlite(instance.store.dataDir, campaign);
      ctx.note(
        `console lists (${engine}): ${REPORTS.toLocaleString('en')} reports and ${MAILS.toLocaleString('en')} mails ` +
          `(${TEMPLATES} of each by the API, the rest copied by SQL in ${fmtMs(performance.now() - t0)})`,
      );
      floor = await startServer('floor', instance.store, { env: { BENCH_FLOOR_MODE: 'console' } });
      const cookie = await signIn(instance.store, server.port);
      const get = async (port, url, headers, type = 'text/html') => {
        const answer = await request(port, { path: url, headers });
        if (answer.status !== 200 || !String(answer.headers['content-type']).startsWith(type)) {
          throw new Error(`${url}: HTTP ${answer.status} ${answer.headers['content-type']}`);
        }
        return answer;
      };
      const alternate = async (url, runs, type) => {
        for (let i = 0; i < WARMUP; i++) {
          await get(server.port, url, { cookie }, type);
          await get(floor.port, url, {}, type);
        }
        const times = { assay: [], floor: [] };
        for (let i = 0; i < runs; i++) {
          times.assay.push((await get(server.port, url, { cookie }, type)).ms);
          times.floor.push((await get(floor.port, url, {}, type)).ms);
        }
        return times;
      };

      for (const page of PAGES) {
        const a0 = await get(server.port, page.path, { cookie });
        const f0 = await get(floor.port, page.path, {});
        // The same page, the form tokens aside: 50 rows each, and the same rows.
        const strip = (body) => body.toString('utf8').replace(/value="[A-Za-z0-9_-]{43}"/g, '');
        const rowsOf = (body) =>
          (body.toString('utf8').match(/href="\/console\/(reports|mail)\/[A-Z0-9]+"/gi) ?? []).join();
        if (
          Math.abs(strip(a0.body).length - strip(f0.body).length) > 200 ||
          rowsOf(a0.body) !== rowsOf(f0.body)
        ) {
          throw new Error(
            `${page.name}: assay and floor pages differ (${a0.body.length} / ${f0.body.length} bytes)`,
          );
        }
        const shown = (rowsOf(a0.body).match(/href/g) ?? []).length;
        if (shown < 50) throw new Error(`${page.name}: ${shown} rows shown, not 50`);
        const times = await alternate(page.path, RUNS);
        const assayMs = median(times.assay);
        const floorMs = median(times.floor);
        const ratio = assayMs / floorMs;
        rows.push({
          scenario: `console: ${page.name} (${engine}), GET one at a time, ${a0.body.length} bytes`,
          figure: `${fmtMs(assayMs)} median of ${RUNS}`,
          floor: `${fmtMs(floorMs)} (bare fastify, same calls and view)`,
          ratio: fmtX(ratio),
          target: `≤ ${page.target}x`,
          pass: ratio <= page.target,
        });
      }

      const svg = await get(server.port, PREVIEW, { cookie }, 'image/svg+xml');
      if (!svg.body.toString('utf8').includes('Bench &amp; Partners &lt;Consulting&gt;')) {
        throw new Error('the branding preview does not draw the typed agency name');
      }
      const times = await alternate(PREVIEW, PREVIEW_RUNS, 'image/svg+xml');
      const p50 = percentile(times.assay, 50);
      const p99 = percentile(times.assay, 99);
      rows.push({
        scenario: `console: branding preview.svg (${engine}), GET one at a time, ${svg.body.length} bytes, p50 / p99 of ${PREVIEW_RUNS}`,
        figure: `${fmtMs(p50)} / ${fmtMs(p99)}`,
        floor: `${fmtMs(percentile(times.floor, 50))} / ${fmtMs(percentile(times.floor, 99))} (bare fastify, same drawing)`,
        ratio: fmtX(p50 / percentile(times.floor, 50)),
        target: 'p99 < 150 ms',
        pass: p99 < 150,
      });
    } finally {
      await Promise.all([server.stop(), floor?.stop()]);
    }
    return rows;
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
