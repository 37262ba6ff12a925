import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMembers } from '../../src/members/members.repository.js';
import type { NewMemberRow } from '../../src/members/members.table.js';
import { caseFold } from '../../src/util/text.js';
import { dialects, type Instance, listen, participant, startInstance } from '../helpers/instance.js';
import { latencyProblems, samplePages, timed } from '../helpers/page-sampler.js';

const MEMBERS = 20_000;
const READERS = 20;

/** 20,000 members written in bulk (500 rows a statement), not through the API one by one. */
async function seedMembers(instance: Instance, count: number): Promise<void> {
  const created = new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
  const rows: NewMemberRow[] = [];
  for (let i = 0; i < count; i++) {
    const email = `slow.${i}@example.test`;
    rows.push({
      id: `s${i.toString(36).padStart(9, '0')}`,
      title: 'Dr.',
      firstname: `Firstname${i}`,
      middlename: '',
      lastname: `Lastname of member number ${i}`,
      email,
      email_key: caseFold(email),
      phone: '+31 20 555 0100',
      company: 'An Example Company of Considerable Size and Reach',
      jobtitle: 'Senior Principal Consultant for Assessments',
      status: 'active',
      level: null,
      testuser: 0,
      group_id: null,
      extra: '{}',
      created,
    });
  }
  await insertMembers(instance.db.kysely, rows);
}

/** A socket that asks for `path` and then never reads: its kernel buffers fill and the server must wait. */
function stuckReader(port: number, path: string, apiKey: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\n\r\n`);
      resolve(socket);
    });
    // Never read: no data listener, and paused so that nothing is taken from the kernel.
    socket.pause();
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

for (const dialect of dialects) {
  describe(`slow readers (${dialect})`, () => {
    let instance: Instance;
    let base: string;
    let port: number;
    let token: string;
    beforeAll(async () => {
      instance = await startInstance(dialect);
      await seedMembers(instance, MEMBERS);
      ({ token } = await participant(instance));
      base = await listen(instance);
      port = Number(new URL(base).port);
    }, 60_000);
    afterAll(() => instance?.close());

    it('answers /healthz and a question page within 200 ms (19 in 20, none in a second) while 20 readers of 20,000 members never read', async () => {
      const apiKey = await instance.apiKey('members');
      expect((await timed(`${base}/q/${token}`)) < 2000).toBe(true);
      const readers = await Promise.all(
        Array.from({ length: READERS }, () => stuckReader(port, '/api/v1/members', apiKey)),
      );
      try {
        // Let every reader's answer start and fill its socket.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const sampler = samplePages([`${base}/healthz`, `${base}/q/${token}`]);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const samples = await sampler.stop();
        expect(samples.length).toBeGreaterThan(20);
        expect(latencyProblems(samples.map((sample) => sample.ms))).toEqual([]);
        // The readers are still there, waiting on their answers: nothing cut them off.
        expect(readers.every((socket) => !socket.destroyed)).toBe(true);
      } finally {
        for (const socket of readers) socket.destroy();
      }
      // And a reader that does read gets every member, once each.
      const response = await fetch(`${base}/api/v1/members`, { headers: { 'x-api-key': apiKey } });
      const list = (await response.json()) as { status: string; data: { memberid: string }[] };
      expect(list.status).toBe('OK');
      expect(list.data).toHaveLength(MEMBERS + 1);
      expect(new Set(list.data.map((item) => item.memberid)).size).toBe(MEMBERS + 1);
    }, 60_000);
  });

  describe(`send timeout (${dialect})`, () => {
    let instance: Instance;
    let port: number;
    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { ASSAY_SEND_TIMEOUT_SECONDS: '1' } });
      await seedMembers(instance, MEMBERS);
      await instance.app.listen({ port: 0, host: '127.0.0.1' });
      port = (instance.app.server.address() as net.AddressInfo).port;
    }, 60_000);
    afterAll(() => instance?.close());

    it('cuts off a reader whose answer has not drained within ASSAY_SEND_TIMEOUT_SECONDS', async () => {
      const apiKey = await instance.apiKey('members');
      const connections = () =>
        new Promise<number>((resolve, reject) =>
          instance.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
      const started = performance.now();
      const socket = await stuckReader(port, '/api/v1/members', apiKey);
      // A paused socket sees nothing of its end until it reads: the server's side is what tells.
      let cut = -1;
      while (performance.now() - started < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if ((await connections()) === 0) {
          cut = performance.now() - started;
          break;
        }
      }
      // What did arrive is a part of the answer, never its end.
      const body = await new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.resume();
      });
      // One second without a drain, then the next look of the watch (every quarter of it).
      expect(cut).toBeGreaterThan(900);
      expect(cut).toBeLessThan(3000);
      expect(body.startsWith('HTTP/1.1 200')).toBe(true);
      expect(body.endsWith('0\r\n\r\n')).toBe(false);
    }, 20_000);

    it('keeps a client that reads, however long the whole answer takes', async () => {
      const apiKey = await instance.apiKey('members');
      // Reads in bursts with pauses of 0.6 s: every write drains within the second, the answer takes longer.
      const body = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ port, host: '127.0.0.1' }, () => {
          socket.write(
            `GET /api/v1/members HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\nConnection: close\r\n\r\n`,
          );
        });
        const chunks: Buffer[] = [];
        let pauses = 0;
        socket.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (pauses < 3 && chunks.length % 40 === 0) {
            pauses++;
            socket.pause();
            setTimeout(() => socket.resume(), 600);
          }
        });
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
      expect(body.startsWith('HTTP/1.1 200')).toBe(true);
      expect(body).toContain(`"email":"slow.${MEMBERS - 1}@example.test"`);
      // The whole chunked answer, to its last chunk.
      expect(body.endsWith(']}\r\n0\r\n\r\n')).toBe(true);
    }, 30_000);

    it('hands a client that pauses every member once', async () => {
      const apiKey = await instance.apiKey('members');
      const body = await new Promise<string>((resolve, reject) => {
        const request = http.get(
          `http://127.0.0.1:${port}/api/v1/members`,
          { headers: { 'x-api-key': apiKey } },
          (response) => {
            const parts: Buffer[] = [];
            response.on('data', (part: Buffer) => {
              parts.push(part);
              // Pauses all through the list, each well within the send timeout.
              if (parts.length % 8 === 0) {
                response.pause();
                setTimeout(() => response.resume(), 150);
              }
            });
            response.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
      });
      const ids = (JSON.parse(body).data as { memberid: string }[]).map((member) => member.memberid);
      const stored = await instance.db.kysely
        .selectFrom('members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(ids).toHaveLength(Number(stored.n));
      expect(new Set(ids).size).toBe(ids.length);
    }, 30_000);
  });
}
