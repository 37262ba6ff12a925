// GET /campaigns/{id}/export of a campaign of 100,000 members, each with a personal report, as CSV
// and as XLSX: time to the last byte and the server's peak RSS growth, against a bare script
// writing the same rows with the same library (bench/floor-export.mjs: one SELECT, csvLine or
// exceljs's streaming writer, to a file). The members are the harness's bulk-seeded 100,000, added
// by POST /campaigns/{id}/members; 1,000 reports are imported by POST /reports/import/leadership360
// (with free-text answers), the rest are SQL copies of them, one per member.
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  accessToken,
  fmtMB,
  fmtMs,
  fmtX,
  json,
  median,
  memberId,
  onEachEngine,
  prepareInstance,
  ROOT,
  request,
  rssOf,
  runNode,
  sampleRss,
  startServer,
  storeFlags,
} from '../harness.mjs';

const MEMBERS = 100_000;
const IMPORTED = 1_000;
const RUNS = { csv: 2, xlsx: 2 };

/** Seeding 100,000 members with reports and two formats on two engines take longer than most. */
export const timeoutMs = 900_000;
const progress = (line) => process.stderr.write(`  export: ${line}\n`);
const GROWTH_LIMIT = 100 * 1024 * 1024;

async function openStore(store) {
  if (store.databaseUrl) {
    const client = new pg.Client({ connectionString: store.databaseUrl });
    await client.connect();
    const numbered = (text) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${++n}`);
    };
    return {
      run: async (text, params = []) => (await client.query(numbered(text), params)).rowCount,
      close: () => client.end(),
    };
  }
  const db = new Database(path.join(store.dataDir, 'assay.sqlite'));
  db.pragma('busy_timeout = 5000');
  return {
    run: async (text, params = []) => db.prepare(text).run(params).changes,
    close: async () => db.close(),
  };
}

const COLUMNS =
  'id, type, name, variant, language, campaign_id, member_id, token, config, raw, processed, extra, tags, testcase, status, date, lastopened, created_by, created';

/** A report per member: the imported ones copied (with their scores) onto every member without one. */
async function seedReports(store, campaignId) {
  const db = await openStore(store);
  try {
    // The copies: member i (from IMPORTED on) gets the report of member i % IMPORTED.
    const number = 'cast(substr(m.member_id, 2) as integer)';
    const template = store.databaseUrl
      ? `'B' || lpad((${number} % ${IMPORTED})::text, 9, '0')`
      : `'B' || substr('000000000' || (${number} % ${IMPORTED}), -9)`;
    await db.run(
      `insert into reports (${COLUMNS})
      select 'X' || substr(m.member_id, 2), 'personal', null, t.variant, t.language, t.campaign_id, m.member_id,
        'bench' || m.member_id || t.token, t.config, t.raw, t.processed, t.extra, '[]', 0, 'active', t.date, null,
        t.created_by, t.created
      from campaign_members m
      join reports t on t.campaign_id = m.campaign_id and t.member_id = ${template}
      where m.campaign_id = ? and ${number} >= ${IMPORTED}`,
      [campaignId],
    );
    // Every member completed, its report in `results`, as a completion leaves it (each member has
    // one report, found by the member index alone: SQLite would rather scan by campaign).
    await db.run(
      `update campaign_members set status = 'completed', datestarted = '2026-03-01T09:00:00+00:00',
        datecompleted = '2026-03-01T09:30:00+00:00', countreminded = 1,
        results = (select '{"status":"completed","reportid":"' || r.id || '"}' from reports r
          where r.member_id = campaign_members.member_id)
      where campaign_id = ?`,
      [campaignId],
    );
    if (store.databaseUrl) await db.run('vacuum analyze reports');
  } finally {
    await db.close();
  }
}

async function measure(ctx, engine) {
  const label = `GET /campaigns/{id}/export, ${MEMBERS / 1000}k members with reports (${engine})`;
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'export');
  try {
    const server = await startServer('assay', instance.store);
    const rows = [];
    try {
      const token = await accessToken(server.port, instance.client, 'members campaigns reports');
      const api = async (method, url, body) => {
        const response = await request(server.port, {
          method,
          path: `/api/v1${url}`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          timeoutMs: 180_000,
        });
        const answer = json(response, `${method} ${url}`);
        if (answer.status !== 'OK')
          throw new Error(`${method} ${url}: ${JSON.stringify(answer).slice(0, 300)}`);
        return answer.data;
      };
      const campaign = await api('POST', '/campaigns', {
        name: 'Export bench',
        variant: 'leadership360',
        start: '2026-01-01T09:00:00+00:00',
      });
      const id = campaign.campaignid;
      const ids = Array.from({ length: MEMBERS }, (_, i) => memberId(i));
      // In parts that stay under the API's body limit.
      let added = 0;
      for (let i = 0; i < MEMBERS; i += 20_000)
        added += (await api('POST', `/campaigns/${id}/members`, { memberids: ids.slice(i, i + 20_000) }))
          .added.length;
      if (added !== MEMBERS) throw new Error(`added ${added} members`);
      const reports = [];
      for (let i = 0; i < IMPORTED; i++) {
        const answers = {
          Remarks1: `Clear goals, "well" put; member ${i}`,
          Remarks2: i % 7 === 0 ? '=1+1' : 'Fine',
        };
        for (let q = 1; q <= 24; q++) answers[`Q${q}`] = ((i + q) % 5) + 1;
        reports.push({ memberid: memberId(i), campaignid: id, answers, role: 'self' });
      }
      const imported = await api('POST', '/reports/import/leadership360', { reports });
      if (imported.created.length !== IMPORTED)
        throw new Error(`imported ${imported.created.length} reports`);
      await seedReports(instance.store, id);
      progress(`${engine}: seeded ${MEMBERS} members with reports`);

      for (const format of ['csv', 'xlsx']) {
        const times = [];
        const growths = [];
        let bytes = 0;
        let lines = 0;
        for (let i = 0; i < RUNS[format] + 1; i++) {
          const sampler = sampleRss(server.pid);
          await sampler.ready;
          const before = rssOf(server.pid);
          const response = await request(server.port, {
            path: `/api/v1/campaigns/${id}/export?format=${format}`,
            headers: { authorization: `Bearer ${token}` },
            timeoutMs: 180_000,
          });
          const { peak } = await sampler.stop();
          if (response.status !== 200) throw new Error(`export ${format}: HTTP ${response.status}`);
          growths.push(Math.max(0, peak - before));
          if (i > 0) times.push(response.ms);
          progress(
            `${engine} ${format} run ${i}: ${fmtMs(response.ms)}, RSS growth ${fmtMB(Math.max(0, peak - before))}`,
          );
          bytes = response.body.length;
          if (format === 'csv') lines = response.body.toString('utf8').split('\r\n').length - 2;
        }
        const floor = JSON.parse(
          await runNode(
            [
              path.join(ROOT, 'bench/floor-export.mjs'),
              ...storeFlags(instance.store),
              '--campaign',
              id,
              '--format',
              format,
              '--runs',
              String(RUNS[format]),
            ],
            { timeoutMs: 180_000 },
          ),
        );
        const ms = median(times);
        const growth = Math.max(...growths);
        ctx.note(
          `${label} ${format}: times ${times.map((t) => t.toFixed(0)).join(', ')} ms; floor ${floor.times.map((t) => t.toFixed(0)).join(', ')} ms ` +
            `(${floor.rows} rows, ${fmtMB(floor.bytes)}); RSS growth ${growths.map((g) => fmtMB(g)).join(', ')} (first is the cold one); ${fmtMB(bytes)}`,
        );
        if (format === 'csv') {
          rows.push({
            scenario: `${label}: CSV has a row per member`,
            figure: `${lines.toLocaleString('en')} rows`,
            floor: `${floor.rows.toLocaleString('en')} rows`,
            ratio: '-',
            target: `${MEMBERS.toLocaleString('en')} rows`,
            pass: lines === MEMBERS,
          });
        }
        rows.push(
          {
            scenario: `${label}: ${format} time to last byte (median of ${RUNS[format]})`,
            figure: fmtMs(ms),
            floor: `${fmtMs(floor.ms)} (bare ${format === 'csv' ? 'csvLine' : 'exceljs'} script)`,
            ratio: fmtX(ms / floor.ms),
            target: '≤ 2x',
            pass: ms / floor.ms <= 2,
          },
          {
            scenario: `${label}: ${format} peak server RSS growth (max of ${RUNS[format] + 1})`,
            figure: fmtMB(growth),
            floor: `${fmtMB(bytes)} (file size)`,
            ratio: fmtX(growth / bytes),
            target: '< 100 MB',
            pass: growth < GROWTH_LIMIT,
          },
        );
      }
    } finally {
      await server.stop();
    }
    return rows;
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
