// The floors of the list and import scenarios: the same database work with nothing around it,
// timed inside this process. Prints one JSON line.
//   node bench/floor.mjs list   (--data DIR | --database-url URL) [--runs 5]
//   node bench/floor.mjs import (--data DIR | --database-url URL) --rows 10000 --from N
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';

const { values, positionals } = parseArgs({
  options: {
    data: { type: 'string' },
    'database-url': { type: 'string' },
    runs: { type: 'string', default: '5' },
    rows: { type: 'string', default: '10000' },
    from: { type: 'string', default: '0' },
  },
  allowPositionals: true,
});
const mode = positionals[0];

const LIST_SQL = `select m.id as memberid, m.title, m.firstname, m.middlename, m.lastname, m.email, m.phone,
  m.company, m.jobtitle, m.status, m.level, m.testuser, g.name as "group"
  from members m left join groups g on g.id = m.group_id`;

const COLUMNS = [
  'id',
  'title',
  'firstname',
  'middlename',
  'lastname',
  'email',
  'email_key',
  'phone',
  'company',
  'jobtitle',
  'status',
  'level',
  'testuser',
  'group_id',
  'extra',
  'created',
];

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

function openEngine() {
  if (values['database-url']) {
    const client = new pg.Client({ connectionString: values['database-url'] });
    let n = 0;
    return {
      connect: () => client.connect(),
      all: async (sql, params) => (await client.query(sql, params)).rows,
      param: () => `$${++n}`,
      resetParams: () => {
        n = 0;
      },
      close: () => client.end(),
    };
  }
  const db = new Database(path.join(values.data, 'assay.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const cache = new Map();
  const prepared = (sql) => {
    if (!cache.has(sql)) cache.set(sql, db.prepare(sql));
    return cache.get(sql);
  };
  return {
    connect: async () => {},
    all: async (sql, params = []) => {
      const statement = prepared(sql);
      return statement.reader ? statement.all(params) : [statement.run(params)];
    },
    param: () => '?',
    resetParams: () => {},
    close: async () => db.close(),
  };
}

const engine = openEngine();
await engine.connect();
try {
  if (mode === 'list') {
    const times = [];
    let bytes = 0;
    let count = 0;
    for (let i = 0; i < Number(values.runs) + 1; i++) {
      const start = now();
      const rows = await engine.all(LIST_SQL);
      const text = JSON.stringify({ status: 'OK', data: rows });
      const ms = now() - start;
      if (i > 0) times.push(ms); // the first run warms up
      bytes = Buffer.byteLength(text);
      count = rows.length;
    }
    process.stdout.write(`${JSON.stringify({ ms: median(times), times, bytes, rows: count })}\n`);
  } else if (mode === 'import') {
    // What the import does with the database: look the e-mails up (500 at a time), then insert
    // the rows 500 at a time in one transaction, with ON CONFLICT DO NOTHING RETURNING id.
    const total = Number(values.rows);
    const from = Number(values.from);
    const rows = [];
    for (let i = from; i < from + total; i++) {
      rows.push([
        `F${String(i).padStart(9, '0')}`,
        '',
        `First${i}`,
        '',
        `Last${i}`,
        `floor${i}@floor.example.com`,
        `floor${i}@floor.example.com`,
        '',
        '',
        '',
        'active',
        null,
        0,
        null,
        '{}',
        '2026-11-22T11:46:36+00:00',
      ]);
    }
    // Once rolled back to warm up (JIT, connection, statement caches), once for the figure.
    const once = async (end) => {
      const start = now();
      let found = 0;
      for (let i = 0; i < rows.length; i += 500) {
        engine.resetParams();
        const chunk = rows.slice(i, i + 500).map((row) => row[5].normalize('NFC').toLowerCase());
        const marks = chunk.map(() => engine.param()).join(', ');
        const sql = `select id, group_id, email_key from members where email_key in (${marks})`;
        found += (await engine.all(sql, chunk)).length;
      }
      await engine.all('begin');
      let inserted = 0;
      for (let i = 0; i < rows.length; i += 500) {
        engine.resetParams();
        const chunk = rows.slice(i, i + 500);
        const tuples = chunk.map((row) => `(${row.map(() => engine.param()).join(', ')})`).join(', ');
        const result = await engine.all(
          `insert into members (${COLUMNS.join(', ')}) values ${tuples} on conflict do nothing returning id`,
          chunk.flat(),
        );
        inserted += result.length;
      }
      await engine.all(end);
      return { ms: now() - start, inserted, found };
    };
    // Fresh planner statistics (outside the timing): the floor should be the best case.
    await engine.all('analyze members');
    await once('rollback');
    const { ms, inserted, found } = await once('commit');
    process.stdout.write(`${JSON.stringify({ ms, inserted, found })}\n`);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} finally {
  await engine.close();
}
