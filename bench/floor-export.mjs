// The floor of the export scenario: a bare script writing the same rows with the same library.
// One SELECT of the campaign's members with their reports, all in memory, then the rows written:
// CSV with the server's own csvLine, XLSX with exceljs's streaming WorkbookWriter (two sheets), to
// a file. Prints one JSON line { format, ms, times, bytes, rows }.
//   node bench/floor-export.mjs (--data DIR | --database-url URL) --campaign ID --format csv|xlsx [--runs 3]
import { createWriteStream, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    'database-url': { type: 'string' },
    campaign: { type: 'string' },
    format: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { csvLine, CSV_BOM } = await import(
  pathToFileURL(path.join(ROOT, 'packages/server/dist/util/csv-write.js')).href
);

const SQL = `select cm.member_id, cm.firstname, cm.middlename, cm.lastname, cm.email, g.name as groupname,
  cm.extra, cm.status, cm.dateinvited, cm.countreminded, cm.datestarted, cm.datecompleted, r.id as reportid,
  r.processed
  from campaign_members cm join members m on m.id = cm.member_id left join groups g on g.id = m.group_id
  left join reports r on r.member_id = cm.member_id and r.campaign_id = cm.campaign_id
  where cm.campaign_id = $1 order by cm.member_id`;
const SCORES = ['VIS', 'COM', 'DEV', 'DEC', 'COL', 'INT'].map((code) => `${code}_score`);
const TEXTS = ['Remarks1', 'Remarks2'];

async function readRows() {
  if (values['database-url']) {
    const client = new pg.Client({ connectionString: values['database-url'] });
    await client.connect();
    try {
      return (await client.query(SQL, [values.campaign])).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(values.data, 'assay.sqlite'), { readonly: true });
  try {
    // `+`: SQLite would otherwise look the reports up by campaign (every one of them) per member.
    return db
      .prepare(SQL.replace('$1', '?').replace('and r.campaign_id', 'and +r.campaign_id'))
      .all(values.campaign);
  } finally {
    db.close();
  }
}

function memberRow(row, processed) {
  const extra = row.extra ? JSON.parse(row.extra) : null;
  return [
    row.member_id,
    row.firstname,
    row.middlename,
    row.lastname,
    row.email,
    row.groupname ?? '',
    extra?.role ?? '',
    row.status,
    row.dateinvited,
    row.countreminded === null ? null : Number(row.countreminded),
    row.datestarted,
    row.datecompleted,
    row.reportid ?? '',
    ...SCORES.map((key) => (typeof processed[key] === 'number' ? processed[key] : null)),
  ];
}

const HEADER = ['memberid', 'firstname', 'middlename', 'lastname', 'email', 'groupname', 'role', 'status'];

async function once(file) {
  const rows = await readRows();
  const out = createWriteStream(file);
  if (values.format === 'csv') {
    out.write(CSV_BOM + csvLine([...HEADER, 'dateinvited', 'countreminded', 'datestarted', 'datecompleted']));
    for (let i = 0; i < rows.length; i += 1000) {
      let text = '';
      for (const row of rows.slice(i, i + 1000))
        text += csvLine(memberRow(row, row.processed ? JSON.parse(row.processed) : {}));
      if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
    }
    out.end();
    await finished(out);
  } else {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    const members = workbook.addWorksheet('Members');
    members.addRow(HEADER).commit();
    const parsed = rows.map((row) => (row.processed ? JSON.parse(row.processed) : {}));
    rows.forEach((row, i) => {
      members.addRow(memberRow(row, parsed[i])).commit();
    });
    members.commit();
    const verbatims = workbook.addWorksheet('Verbatims');
    verbatims.addRow(['memberid', 'reportid', 'code', 'question', 'answer']).commit();
    rows.forEach((row, i) => {
      for (const code of TEXTS)
        if (typeof parsed[i][code] === 'string')
          verbatims.addRow([row.member_id, row.reportid, code, code, parsed[i][code]]).commit();
    });
    verbatims.commit();
    await workbook.commit();
    await finished(out);
  }
  return rows.length;
}

const file = path.join(os.tmpdir(), `assay-floor-export-${process.pid}.${values.format}`);
const times = [];
let count = 0;
let bytes = 0;
try {
  for (let i = 0; i < Number(values.runs) + 1; i++) {
    const start = performance.now();
    count = await once(file);
    if (i > 0) times.push(performance.now() - start); // the first run warms up
    bytes = statSync(file).size;
  }
} finally {
  rmSync(file, { force: true });
}
const sorted = [...times].sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({ format: values.format, ms: sorted[Math.floor(sorted.length / 2)], times, bytes, rows: count })}\n`,
);
