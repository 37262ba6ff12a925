// Reports, each figure beside a floor measured in the same run:
//   1. GET /reports/{id} of a personal bigfive report (the PDF, drawn on demand), against pdfkit in
//      this process drawing the same pages with the same text in the same embedded Noto Sans face;
//   2. POST /reports of a group report over 1,000 personal reports, then GET of its PDF (also
//      condensed and groupanon), against reading and parsing the 1,000 sheets plus the same pdfkit
//      floor for the group PDF's pages and text;
//   3. GET /reports with 100,000 reports, against the same SELECT and one JSON.stringify
//      (bench/floor.mjs report-list);
//   4. GET /reports/counts over those 100,000 reports, against the bare GROUP BY (in this process).
// The 1,000 personal reports are imported by POST /reports/import/bigfive; the rest of the 100,000
// are bulk SQL inserts copying the imported rows (their raw and processed) onto 10,000 members.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import PDFDocument from 'pdfkit';
import pg from 'pg';
import {
  accessToken,
  apiOf,
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
  runNode,
  startServer,
  storeFlags,
} from '../harness.mjs';

const MEMBERS = 10_000;
const IMPORTED = 1_000;
const REPORTS = 100_000;
const PDF_WARMUP = 20;
const PDF_RUNS = 20;
const GROUP_TYPES = ['group', 'condensed', 'groupanon'];
const GROUP_WARMUP = 1;
const GROUP_RUNS = 3;
const LIST_RUNS = 5;
const COUNTS_WARMUP = 5;
const COUNTS_RUNS = 20;
const VARIANT = 'bigfive';

const require = createRequire(import.meta.url);
const DIST = path.join(ROOT, 'packages/server/dist');
const dist = (file) => import(pathToFileURL(path.join(DIST, file)).href);
const FONT_FILE = '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf';
const fmtFine = (ms) => (ms < 10 ? `${ms.toFixed(2)} ms` : fmtMs(ms));

// ---------------------------------------------------------------------------------------------
// The instance's database, read and written directly (seeding, checks, the counts floor).
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
    sqlite: db,
    all: async (text, params = []) => prepared(text).all(params),
    run: async (text, params = []) => prepared(text).run(params).changes,
    close: async () => db.close(),
  };
}

const countOf = async (db, text, params) => Number((await db.all(text, params))[0].n);

// ---------------------------------------------------------------------------------------------
// The API

/** GET /reports/{id}: checks that the answer is a PDF; answers its bytes and the time to the last byte. */
async function getPdf(port, token, id) {
  const response = await request(port, {
    path: `/api/v1/reports/${id}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const type = String(response.headers['content-type'] ?? '');
  if (
    response.status !== 200 ||
    !type.startsWith('application/pdf') ||
    response.body.subarray(0, 5).toString('latin1') !== '%PDF-'
  ) {
    throw new Error(
      `GET /reports/${id}: HTTP ${response.status} ${type} ${response.body.toString('utf8').slice(0, 200)}`,
    );
  }
  return { pdf: response.body, ms: response.ms };
}

/** A member's synthetic answers: every question, each dimension leaning its own way, some noise. */
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
    const value = Math.round(lean[key] + (random() - 0.5) * 2.5);
    answers[question.code] = Math.min(5, Math.max(1, value));
  }
  return answers;
}

// ---------------------------------------------------------------------------------------------
// The PDF floor: pdfkit drawing the same number of pages, each with the text the server's PDF has
// on that page (read back with pdf.js, outside the timing) as plain wrapped paragraphs, in the same
// Noto Sans TTF, embedded and subset as pdfkit always does. As src/pdf/fonts.ts does for the
// server, the face is parsed once for all documents and the laid-out words are shared across them
// (`shared`), so the floor is pdfkit's drawing and writing alone; without `shared` each document
// lays its words out afresh, as plain pdfkit does (printed beside it, for scale).

const fontBytes = readFileSync(require.resolve(FONT_FILE));
let parsedFont;
let sharedLayout;
const PAGE = { width: 595.28, height: 841.89, margin: 56 };

async function pageTexts(pdf) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0, isEvalSupported: false }).promise;
  const texts = [];
  try {
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      texts.push(
        content.items
          .map((item) => item.str ?? '')
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    }
  } finally {
    await doc.destroy();
  }
  return texts;
}

// As src/pdf/fonts.ts does: a glyph asked for under other characters than its shared object has is
// a copy with those characters, so that no document's text map depends on another's.
function shareable(font) {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id, characters = []) => {
    const glyph = getGlyph(id, characters);
    const same =
      glyph !== null &&
      glyph.codePoints.length === characters.length &&
      glyph.codePoints.every((codePoint, i) => codePoint === characters[i]);
    if (glyph === null || same) return glyph;
    void glyph.advanceWidth;
    return Object.create(glyph, { codePoints: { value: characters, enumerable: true } });
  };
  return font;
}

function drawPlainPdf(texts, shared) {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: [PAGE.width, PAGE.height],
      margin: PAGE.margin,
      font: null,
      autoFirstPage: false,
    });
    const chunks = [];
    doc.on('data', (chunk) => chunks.push(chunk));
    doc.on('end', () => resolve({ pdf: Buffer.concat(chunks), pages: texts.length }));
    doc.on('error', reject);
    doc.registerFont('NotoSans', fontBytes);
    doc.font('NotoSans');
    if (parsedFont === undefined) parsedFont = shareable(doc._font.font);
    else {
      doc._font.font = parsedFont;
      doc._font.subset = parsedFont.createSubset();
    }
    if (shared) {
      if (sharedLayout === undefined) sharedLayout = doc._font.layoutCache;
      else doc._font.layoutCache = sharedLayout;
    }
    const width = PAGE.width - 2 * PAGE.margin;
    const height = PAGE.height - 2 * PAGE.margin;
    for (const text of texts) {
      doc.addPage();
      // 9 pt fits the densest report page; `height` keeps an overfull page from adding one.
      doc.fontSize(9).text(text, PAGE.margin, PAGE.margin, { width, height });
    }
    doc.end();
  });
}

/**
 * Median of `runs` floor drawings of these page texts (after `warmup`), with the pages it drew; the
 * same without the shared word layouts (`plainMs`), alternated with it.
 */
async function pdfFloor(texts, warmup, runs, before = async () => {}) {
  const times = [];
  const plainTimes = [];
  let pages = 0;
  let bytes = 0;
  sharedLayout = undefined;
  for (let i = 0; i < warmup + runs; i++) {
    for (const shared of [true, false]) {
      const start = performance.now();
      await before();
      const drawn = await drawPlainPdf(texts, shared);
      const ms = performance.now() - start;
      if (i >= warmup) (shared ? times : plainTimes).push(ms);
      if (shared) {
        pages = pageCount(drawn.pdf);
        bytes = drawn.pdf.length;
      }
    }
  }
  return { ms: median(times), times, plainMs: median(plainTimes), pages, bytes };
}

/** Pages of a pdfkit PDF (its page objects are never in compressed object streams). */
const pageCount = (pdf) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

// ---------------------------------------------------------------------------------------------
// Seeding the 100,000: copies of the imported reports (raw, processed, config, extra as the import
// made them) on the 10,000 members, 10 each, straight into the table.

const COLUMNS =
  'id, type, name, variant, language, campaign_id, member_id, token, config, raw, processed, extra, tags, testcase, status, date, lastopened, created_by, created';

async function seedReports(db, engine, count) {
  if (count <= 0) return;
  if (engine === 'postgres') {
    await db.run(
      `insert into reports (${COLUMNS})
      select 'S' || lpad(g::text, 9, '0'), 'personal', null, t.variant, t.language, null,
        'B' || lpad((g % ${MEMBERS})::text, 9, '0'), md5(g::text || 'a') || md5(g::text || 'b'),
        t.config, t.raw, t.processed, t.extra, case when g % 20 = 0 then '["bench"]' else '[]' end,
        case when g % 50 = 0 then 1 else 0 end, 'active',
        to_char(timestamp '2025-01-01' + g * interval '5 minutes', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
        case when g % 3 = 0 then to_char(timestamp '2026-01-01' + g * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') end,
        t.created_by, t.created
      from generate_series(1, ?::int) as g
      join (select row_number() over (order by seq) - 1 as k, r.* from reports r where r.type = 'personal') t
        on t.k = g % ?::int
      order by g`,
      [count, IMPORTED],
    );
    await db.run('vacuum analyze reports');
    return;
  }
  const templates = await db.all(
    "select variant, language, config, raw, processed, extra, created_by, created from reports where type = 'personal' order by seq",
  );
  const stamp = (base, minutes) =>
    `${new Date(Date.parse(base) + minutes * 60_000).toISOString().slice(0, 19)}+00:00`;
  const insert = db.sqlite.prepare(
    `insert into reports (${COLUMNS}) values (${Array(19).fill('?').join(', ')})`,
  );
  db.sqlite.transaction(() => {
    for (let g = 1; g <= count; g++) {
      const t = templates[g % templates.length];
      insert.run([
        `S${String(g).padStart(9, '0')}`,
        'personal',
        null,
        t.variant,
        t.language,
        null,
        memberId(g % MEMBERS),
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
      ]);
    }
  })();
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
}

const COUNTS_SQL = 'select r.variant, r.type, count(*) as n from reports as r group by r.variant, r.type';

// ---------------------------------------------------------------------------------------------

async function measure(ctx, engine) {
  const { builtinVariantsDir, loadVariants } = await dist('variants/load-variants.js');
  const variant = loadVariants([builtinVariantsDir()]).get(VARIANT);
  const k = (n) => `${n / 1000}k`;
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'reports');
  const db = await openStore(instance.store);
  const rows = [];
  try {
    let server = await startServer('assay', instance.store);
    let ids;
    try {
      const token = await accessToken(server.port, instance.client, 'members reports');
      const api = apiOf(server.port, token);

      // The 1,000 personal reports, imported (every question of the variant answered).
      const importRows = [];
      for (let i = 0; i < IMPORTED; i++) {
        importRows.push({
          memberid: memberId(i),
          answers: answersOf(variant.questions, i),
          date: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00+00:00`,
        });
      }
      const imported = await api('POST', `/reports/import/${VARIANT}`, { reports: importRows });
      ids = imported.answer.data?.created ?? [];
      if (ids.length !== IMPORTED || imported.answer.data.errors.length > 0) {
        throw new Error(
          `POST /reports/import/${VARIANT} created ${ids.length} reports, errors ${JSON.stringify(imported.answer.data.errors).slice(0, 300)}`,
        );
      }
      ctx.note(
        `POST /reports/import/${VARIANT} of ${IMPORTED.toLocaleString('en')} rows x ${variant.questions.length} answers ` +
          `(${engine}): ${fmtMs(imported.ms)} (not a target)`,
      );

      // 1. The personal PDF: a different report each run.
      const pdfTimes = [];
      let personal;
      for (let i = 0; i < PDF_WARMUP + PDF_RUNS; i++) {
        const got = await getPdf(server.port, token, ids[i]);
        if (i >= PDF_WARMUP) pdfTimes.push(got.ms);
        personal ??= got.pdf;
      }
      const personalTexts = await pageTexts(personal);
      const personalFloor = await pdfFloor(personalTexts, PDF_WARMUP, PDF_RUNS);
      const pdfMs = median(pdfTimes);
      const pages = pageCount(personal);
      const label = `GET /reports/{id}, personal ${VARIANT} PDF (${engine})`;
      ctx.note(
        `${label}: times ${pdfTimes.map((t) => t.toFixed(0)).join(', ')} ms; ${pages} pages, ${(personal.length / 1024).toFixed(0)} KB, ` +
          `${personalTexts.join(' ').length.toLocaleString('en')} characters of text; floor ${personalFloor.times.map((t) => t.toFixed(1)).join(', ')} ms ` +
          `(${personalFloor.pages} pages, ${(personalFloor.bytes / 1024).toFixed(0)} KB; words laid out afresh in each document: ${fmtMs(personalFloor.plainMs)})`,
      );
      rows.push({
        scenario: `${label}: time to last byte (median of ${PDF_RUNS}, a report each), ${pages} pages`,
        figure: fmtMs(pdfMs),
        floor: `${fmtMs(personalFloor.ms)} (pdfkit, ${personalFloor.pages} pages of its text; ${fmtMs(personalFloor.plainMs)} unshared)`,
        ratio: fmtX(pdfMs / personalFloor.ms),
        target: '< 150 ms (aim 20 ms)',
        pass: pdfMs < 150 && personalFloor.pages === pages,
      });

      // 2. Group reports over the 1,000: POST /reports, then GET of its PDF.
      const selectedReports = ids.join(',');
      for (const type of GROUP_TYPES) {
        const posts = [];
        const gets = [];
        const totals = [];
        let groupPdf;
        let groupId;
        for (let i = 0; i < GROUP_WARMUP + GROUP_RUNS; i++) {
          const made = await api('POST', '/reports', { reportType: type, variant: VARIANT, selectedReports });
          if (made.answer.data?.type !== type || typeof made.answer.data?.reportid !== 'string') {
            throw new Error(`POST /reports (${type}) answered ${JSON.stringify(made.answer).slice(0, 300)}`);
          }
          groupId = made.answer.data.reportid;
          const got = await getPdf(server.port, token, groupId);
          if (i >= GROUP_WARMUP) {
            posts.push(made.ms);
            gets.push(got.ms);
            totals.push(made.ms + got.ms);
          }
          groupPdf = got.pdf;
        }
        const sources = await countOf(db, 'select count(*) as n from report_sources where report_id = ?', [
          groupId,
        ]);
        // The floor: the 1,000 sheets read and parsed (what the statistics and the PDF need) and
        // pdfkit drawing the group PDF's pages and text.
        const texts = await pageTexts(groupPdf);
        const marks = ids.map(() => '?').join(', ');
        const floor = await pdfFloor(texts, GROUP_WARMUP, GROUP_RUNS, async () => {
          const sheets = await db.all(`select id, raw, processed from reports where id in (${marks})`, ids);
          if (sheets.length !== IMPORTED) throw new Error(`the group floor read ${sheets.length} sheets`);
          for (const sheet of sheets) {
            JSON.parse(sheet.raw);
            JSON.parse(sheet.processed);
          }
        });
        const total = median(totals);
        const groupPages = pageCount(groupPdf);
        const groupLabel = `${type} report over ${k(IMPORTED)} personal reports (${engine})`;
        ctx.note(
          `${groupLabel}: POST ${posts.map((t) => t.toFixed(0)).join(', ')} ms, GET PDF ${gets.map((t) => t.toFixed(0)).join(', ')} ms; ` +
            `${groupPages} pages, ${(groupPdf.length / 1024).toFixed(0)} KB, ${texts.join(' ').length.toLocaleString('en')} characters of text; ` +
            `${sources} sources recorded; floor ${floor.times.map((t) => t.toFixed(0)).join(', ')} ms (${floor.pages} pages, ` +
            `${(floor.bytes / 1024).toFixed(0)} KB; words laid out afresh in each document: ${fmtMs(floor.plainMs)})`,
        );
        rows.push({
          scenario: `${groupLabel}: POST /reports + GET PDF (median of ${GROUP_RUNS}; POST ${fmtMs(median(posts))}, PDF ${fmtMs(median(gets))}), ${groupPages} pages`,
          figure: fmtMs(total),
          floor: `${fmtMs(floor.ms)} (read + parse 1k sheets, pdfkit ${floor.pages} pages)`,
          ratio: fmtX(total / floor.ms),
          target: type === 'group' ? '< 1 s' : '-',
          pass: (type !== 'group' || total < 1000) && sources === IMPORTED && floor.pages === groupPages,
        });
      }
    } finally {
      await server.stop();
    }

    // 3. and 4.: the table filled to 100,000 reports, served by a fresh server.
    const existing = await countOf(db, 'select count(*) as n from reports');
    const seedStart = performance.now();
    await seedReports(db, engine, REPORTS - existing);
    const seedMs = performance.now() - seedStart;
    const total = await countOf(db, 'select count(*) as n from reports');
    const tableSize =
      engine === 'postgres'
        ? Number((await db.all("select pg_total_relation_size('reports') as n"))[0].n)
        : Number(
            (
              await db.all('select page_count * page_size as n from pragma_page_count(), pragma_page_size()')
            )[0].n,
          );
    ctx.note(
      `reports (${engine}): ${total.toLocaleString('en')} rows (${existing} made by the API, the rest inserted in ${fmtMs(seedMs)}); ` +
        `${engine === 'postgres' ? 'table with TOAST and indexes' : 'database file'} ${fmtMB(tableSize)}`,
    );

    server = await startServer('assay', instance.store);
    const listTimes = [];
    let items = -1;
    let listBytes = 0;
    const countsTimes = [];
    const countsFloorTimes = [];
    let counts;
    try {
      const token = await accessToken(server.port, instance.client, 'reports');
      for (let i = 0; i < LIST_RUNS + 1; i++) {
        const response = await request(server.port, {
          path: '/api/v1/reports',
          headers: { authorization: `Bearer ${token}` },
        });
        if (i > 0) listTimes.push(response.ms);
        if (i === 0) {
          const answer = json(response, 'GET /reports');
          items = answer.status === 'OK' && Array.isArray(answer.data) ? answer.data.length : -1;
          listBytes = response.body.length;
        }
      }
      // Alternated with the floor, so that a drift in the load of the machine falls on both alike.
      for (let i = 0; i < COUNTS_WARMUP + COUNTS_RUNS; i++) {
        const response = await request(server.port, {
          path: '/api/v1/reports/counts',
          headers: { authorization: `Bearer ${token}` },
        });
        const t0 = performance.now();
        const floorRows = await db.all(COUNTS_SQL);
        const floorMs = performance.now() - t0;
        if (i >= COUNTS_WARMUP) {
          countsTimes.push(response.ms);
          countsFloorTimes.push(floorMs);
        }
        if (i === 0) {
          counts = json(response, 'GET /reports/counts');
          if (response.status !== 200 || counts.status !== 'OK') {
            throw new Error(`GET /reports/counts: HTTP ${response.status} ${JSON.stringify(counts)}`);
          }
          const summed = Object.values(counts.data).reduce(
            (sum, byType) => sum + Object.values(byType).reduce((s, n) => s + Number(n), 0),
            0,
          );
          const floorSum = floorRows.reduce((sum, row) => sum + Number(row.n), 0);
          if (summed !== total || floorSum !== total) {
            throw new Error(`GET /reports/counts sums to ${summed}, the floor to ${floorSum}, not ${total}`);
          }
        }
      }
    } finally {
      await server.stop();
    }

    const listFloor = JSON.parse(
      await runNode([
        path.join(ROOT, 'bench/floor.mjs'),
        'report-list',
        ...storeFlags(instance.store),
        '--runs',
        String(LIST_RUNS),
      ]),
    );
    const listMs = median(listTimes);
    const listLabel = `GET /reports, ${k(REPORTS)} reports (${engine})`;
    ctx.note(
      `${listLabel}: times ${listTimes.map((t) => t.toFixed(0)).join(', ')} ms, ${fmtMB(listBytes)}; ` +
        `floor ${listFloor.times.map((t) => t.toFixed(0)).join(', ')} ms (${listFloor.rows.toLocaleString('en')} rows, ${fmtMB(listFloor.bytes)})`,
    );
    rows.push({
      scenario: `${listLabel}: time to last byte (median of ${LIST_RUNS}), ${items.toLocaleString('en')} items`,
      figure: fmtMs(listMs),
      floor: `${fmtMs(listFloor.ms)} (select + stringify)`,
      ratio: fmtX(listMs / listFloor.ms),
      target: '≤ 1.5x',
      pass: listMs / listFloor.ms <= 1.5 && items === REPORTS && total === REPORTS,
    });

    const plan =
      engine === 'postgres'
        ? (await db.all(`explain ${COUNTS_SQL}`)).map((row) => row['QUERY PLAN'].trim()).join('; ')
        : (await db.all(`explain query plan ${COUNTS_SQL}`)).map((row) => row.detail).join('; ');
    const countsMs = median(countsTimes);
    const countsFloor = median(countsFloorTimes);
    const countsLabel = `GET /reports/counts, ${k(REPORTS)} reports (${engine})`;
    const bigfive = counts.data[VARIANT];
    ctx.note(
      `${countsLabel}: ${VARIANT} ${JSON.stringify(bigfive)}; times ${countsTimes.map((t) => t.toFixed(0)).join(', ')} ms; ` +
        `floor ${countsFloorTimes.map((t) => t.toFixed(0)).join(', ')} ms; plan of the floor: ${plan}`,
    );
    rows.push({
      scenario: `${countsLabel}: time to last byte (median of ${COUNTS_RUNS})`,
      figure: fmtFine(countsMs),
      floor: `${fmtFine(countsFloor)} (bare group by)`,
      ratio: fmtX(countsMs / countsFloor),
      target: '< 50 ms',
      pass: countsMs < 50,
    });
    return rows;
  } finally {
    await db.close();
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
