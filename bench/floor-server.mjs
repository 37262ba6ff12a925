// The floor of GET /members/{memberid}: a bare Fastify app with one route doing the same
// primary-key SELECT, no auth, no validation, JSON.stringify of the JSend envelope.
//   node bench/floor-server.mjs (--data DIR | --database-url URL) --port N
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const { values } = parseArgs({
  options: { data: { type: 'string' }, 'database-url': { type: 'string' }, port: { type: 'string' } },
});

let findMember;
let close;
if (values['database-url']) {
  const pool = new pg.Pool({ connectionString: values['database-url'], max: 10 });
  findMember = async (id) => (await pool.query('select * from members where id = $1', [id])).rows[0];
  close = () => pool.end();
} else {
  const db = new Database(path.join(values.data, 'assay.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const statement = db.prepare('select * from members where id = ?');
  findMember = async (id) => statement.get(id);
  close = async () => db.close();
}

const app = Fastify({ logger: false });
app.get('/members/:memberid', async (request, reply) => {
  const row = await findMember(request.params.memberid);
  reply.type('application/json; charset=utf-8');
  return JSON.stringify(
    row ? { status: 'OK', data: row } : { status: 'ERROR', message: 'member: not found', data: null },
  );
});

const shutdown = async () => {
  await app.close();
  await close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ port: Number(values.port), host: '127.0.0.1' });
process.stdout.write(`floor server listening on 127.0.0.1:${values.port}\n`);
