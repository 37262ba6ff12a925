import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { MEMBERS, seedMembers, stuckReader } from './slow-clients.js';

// ASSAY_SEND_TIMEOUT_SECONDS: a reader whose answer does not drain is cut off, one that reads slowly
// is not (that the server keeps answering others meanwhile is slow-clients.test.ts).

for (const dialect of dialects) {
  describe(`send timeout (${dialect})`, () => {
    let instance: Instance;
    let port: number;
    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { ASSAY_SEND_TIMEOUT_SECONDS: '1' } });
      await seedMembers(instance, MEMBERS);
      await instance.app.listen({ port: 0, host: '127.0.0.1' });
      port = (instance.app.server.address() as net.AddressInfo).port;
    });
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
      // Without the cut-off the reader would stay connected for good; 30 s is only a safety net.
      let cut = -1;
      while (performance.now() - started < 30_000) {
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
      // Cut off, and not before a second without a drain could have passed (a lower bound, which a
      // busy machine only makes longer; how much later is no matter of this test).
      expect(cut).toBeGreaterThan(900);
      expect(body.startsWith('HTTP/1.1 200')).toBe(true);
      expect(body.endsWith('0\r\n\r\n')).toBe(false);
    });

    it('keeps a client that reads, however long the whole answer takes', async () => {
      const apiKey = await instance.apiKey('members');
      // Reads in bursts with 8 pauses of 0.25 s: every write drains well within the second (a busy
      // machine delays the resume by far less than the 0.75 s left), the answer takes 2 s more.
      let pauses = 0;
      const body = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ port, host: '127.0.0.1' }, () => {
          socket.write(
            `GET /api/v1/members HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\nConnection: close\r\n\r\n`,
          );
        });
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (pauses < 8 && chunks.length % 10 === 0) {
            pauses++;
            socket.pause();
            setTimeout(() => socket.resume(), 250);
          }
        });
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
      expect(pauses).toBe(8);
      expect(body.startsWith('HTTP/1.1 200')).toBe(true);
      expect(body).toContain(`"email":"slow.${MEMBERS - 1}@example.test"`);
      // The whole chunked answer, to its last chunk.
      expect(body.endsWith(']}\r\n0\r\n\r\n')).toBe(true);
    });

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
    });
  });
}
