// The floors of the list, import and campaigns scenarios: the same database work with nothing
// around it, timed inside this process. Prints one JSON line.
//   node bench/floor.mjs list   (--data DIR | --database-url URL) [--runs 5]
//   node bench/floor.mjs import (--data DIR | --database-url URL) --rows 10000 --from N
//   node bench/floor.mjs invite (--data DIR | --database-url URL) --campaign ID [--runs 3]
//   node bench/floor.mjs campaign-list (--data DIR | --database-url URL) --campaign ID [--runs 5]
//   node bench/floor.mjs deliver (--data DIR | --database-url URL) --campaign ID --smtp URL
//   node bench/floor.mjs report-list (--data DIR | --database-url URL) [--runs 5]
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
    campaign: { type: 'string' },
    smtp: { type: 'string' },
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
      run: async (sql, params) => (await client.query(sql, params)).rowCount,
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
    run: async (sql, params = []) => prepared(sql).run(params).changes,
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
  } else if (mode === 'invite') {
    // What POST /campaigns/{id}/members/invite does with the database, in one transaction: read the
    // campaign's new members, mark them invited (here one UPDATE), and put one invitation a member in
    // the outbox (500-row INSERT … ON CONFLICT DO NOTHING RETURNING id). The rows are made inside the
    // timing, from what was read, as the server must. Each run is committed, then undone outside the
    // timing, so that every run (and the server after it) finds the campaign as it was.
    const campaignId = values.campaign;
    engine.resetParams();
    const [campaign] = await engine.all(
      `select id, name, end_at, language, variant from campaigns where id = ${engine.param()}`,
      [campaignId],
    );
    if (!campaign) throw new Error(`no campaign ${campaignId}`);
    const stamp = `${new Date().toISOString().slice(0, 19)}+00:00`;
    const outboxRow = (member) => {
      const id = randomBytes(8).toString('base64url').slice(0, 10);
      const params = {
        stage: 'campaign_invitation',
        language: campaign.language,
        template: 'standard',
        variant: campaign.variant,
        recipient: {
          title: member.title,
          firstname: member.firstname,
          lastname: member.lastname,
          email: member.email,
        },
        campaign: { id: campaign.id, name: campaign.name, end: campaign.end_at },
        link: `http://127.0.0.1:8080/q/${member.token}`,
        sender: 'Assay',
        inviter: { firstname: 'Assay', lastname: 'Admin', email: 'admin@localhost' },
        minutes: 5,
      };
      return [
        id,
        `${member.id}:campaign_invitation:0`,
        campaign.id,
        member.member_id,
        'campaign_invitation',
        0,
        member.email,
        campaign.language,
        'standard',
        JSON.stringify(params),
        `<${id}@localhost>`,
        'queued',
        0,
        stamp,
        stamp,
      ];
    };
    const OUTBOX =
      'id, dedupe_key, campaign_id, member_id, stage, sequence, recipient, language, template, params, message_id, status, attempts, next_attempt_at, created';
    const once = async (end) => {
      const start = now();
      await engine.all('begin');
      engine.resetParams();
      const members = await engine.all(
        `select id, member_id, token, title, firstname, lastname, email, extra, mailconfig, countreminded
          from campaign_members where campaign_id = ${engine.param()} and status = 'new'`,
        [campaignId],
      );
      engine.resetParams();
      const updated = await engine.run(
        `update campaign_members set status = 'invited', dateinvited = ${engine.param()}
          where campaign_id = ${engine.param()} and status = 'new'`,
        [stamp, campaignId],
      );
      const rows = members.map(outboxRow);
      let inserted = 0;
      for (let i = 0; i < rows.length; i += 500) {
        engine.resetParams();
        const chunk = rows.slice(i, i + 500);
        const tuples = chunk.map((row) => `(${row.map(() => engine.param()).join(', ')})`).join(', ');
        const result = await engine.all(
          `insert into mail_outbox (${OUTBOX}) values ${tuples} on conflict (dedupe_key) do nothing returning id`,
          chunk.flat(),
        );
        inserted += result.length;
      }
      await engine.all(end);
      return { ms: now() - start, selected: members.length, updated, inserted };
    };
    // Outside the timing: the campaign back as it was (and, on PostgreSQL, the dead rows vacuumed,
    // so that the next run's unique checks do not wade through them).
    const undo = async () => {
      engine.resetParams();
      await engine.run(`delete from mail_outbox where campaign_id = ${engine.param()}`, [campaignId]);
      engine.resetParams();
      await engine.run(
        `update campaign_members set status = 'new', dateinvited = null where campaign_id = ${engine.param()}`,
        [campaignId],
      );
      if (values['database-url']) await engine.all('vacuum analyze mail_outbox, campaign_members');
    };
    await once('rollback');
    await undo();
    const times = [];
    let last;
    for (let i = 0; i < Number(values.runs); i++) {
      last = await once('commit');
      times.push(last.ms);
      await undo();
    }
    process.stdout.write(`${JSON.stringify({ ...last, ms: median(times), times })}\n`);
  } else if (mode === 'campaign-list') {
    // The SELECT of GET /campaigns/{id}/members (same columns, same joins) and one JSON.stringify.
    engine.resetParams();
    const sql = `select cm.token, cm.member_id as memberid, cm.title, cm.firstname, cm.middlename, cm.lastname,
      cm.email, g.alias as groupalias, g.name as groupname, cm.status, cm.testuser, m.status as memberstatus,
      cm.created, cm.dateinvited, cm.datestarted, cm.datecompleted, cm.datereminded, cm.countreminded,
      cm.extra, cm.tags, cm.results, cm.mailconfig, cm.sessionurl, m.extra as memberextra
      from campaign_members as cm inner join members as m on m.id = cm.member_id
      left join groups as g on g.id = m.group_id where cm.campaign_id = ${engine.param()}`;
    const times = [];
    let bytes = 0;
    let count = 0;
    for (let i = 0; i < Number(values.runs) + 1; i++) {
      const start = now();
      const rows = await engine.all(sql, [values.campaign]);
      const text = JSON.stringify({ status: 'OK', data: rows });
      const ms = now() - start;
      if (i > 0) times.push(ms); // the first run warms up
      bytes = Buffer.byteLength(text);
      count = rows.length;
    }
    process.stdout.write(`${JSON.stringify({ ms: median(times), times, bytes, rows: count })}\n`);
  } else if (mode === 'deliver') {
    // The campaign's outbox mails, rendered first (renderMail from the build, outside the timing),
    // then all handed at once to a plain nodemailer pool with the options of mail/delivery.ts; timed
    // from the first sendMail to the last answer.
    const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../packages/server/dist');
    const { renderMail } = await import(pathToFileURL(path.join(dist, 'mail/render.js')).href);
    const { builtinVariantsDir, loadVariants } = await import(
      pathToFileURL(path.join(dist, 'variants/load-variants.js')).href
    );
    const { createTransport } = await import('nodemailer');
    const variants = loadVariants([builtinVariantsDir()]);
    const from = process.env.MAIL_FROM ?? 'Assay <assay@localhost>';
    engine.resetParams();
    const rows = await engine.all(
      `select recipient, message_id, params from mail_outbox where campaign_id = ${engine.param()}
        order by next_attempt_at, id`,
      [values.campaign],
    );
    const mails = rows.map((row) => {
      const mail = renderMail(variants, JSON.parse(row.params));
      return {
        messageId: row.message_id,
        from,
        to: row.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      };
    });
    const pool = createTransport({
      url: values.smtp,
      pool: true,
      maxConnections: 5,
      maxMessages: 10_000,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 30_000,
    });
    const cpu = process.cpuUsage();
    const start = now();
    const answers = await Promise.allSettled(mails.map((mail) => pool.sendMail(mail)));
    const ms = now() - start;
    const { user, system } = process.cpuUsage(cpu);
    pool.close();
    const sent = answers.filter((answer) => answer.status === 'fulfilled').length;
    const error = answers.find((answer) => answer.status === 'rejected')?.reason?.message;
    const cpuMs = (user + system) / 1000;
    process.stdout.write(
      `${JSON.stringify({ ms, cpuMs, mails: mails.length, sent, ...(error ? { error } : {}) })}\n`,
    );
  } else if (mode === 'report-list') {
    // The SELECT of GET /reports (listQuery of reports.repository.ts: same columns, same join, in
    // the order the server streams them) and one JSON.stringify of the envelope.
    const sql = `select r.id as reportid, r.date, r.name, r.campaign_id as campaignid, r.type, r.variant,
      r.language, r.config, r.lastopened, r.status, r.tags, r.testcase, r.member_id as memberid,
      m.title, m.firstname, m.middlename, m.lastname, m.email, m.status as memberstatus
      from reports as r left join members as m on m.id = r.member_id order by r.seq`;
    const times = [];
    let bytes = 0;
    let count = 0;
    for (let i = 0; i < Number(values.runs) + 1; i++) {
      const start = now();
      const rows = await engine.all(sql);
      const text = JSON.stringify({ status: 'OK', data: rows });
      const ms = now() - start;
      if (i > 0) times.push(ms); // the first run warms up
      bytes = Buffer.byteLength(text);
      count = rows.length;
    }
    process.stdout.write(`${JSON.stringify({ ms: median(times), times, bytes, rows: count })}\n`);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} finally {
  await engine.close();
}
