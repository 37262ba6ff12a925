import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/cli-process.js';
import { dialects, type Instance, listen, participant, startInstance } from '../helpers/instance.js';
import { MEMBERS, seedMembers, serverSides, stuckReader } from './slow-clients.js';

// The server keeps answering while readers that never read hold answers open; the send timeout
// that cuts such readers off is tested in send-timeout.test.ts. How fast it answers meanwhile
// (within 200 ms) is a performance target, measured by `npm run bench -- --only busy`: here, the
// order of events (every reader's answer begun and stuck, then pages answered, then the readers
// still stuck) holds on a runner of any speed.

const READERS = 20;
const ROUNDS = 5;

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
    });
    afterAll(() => instance?.close());

    it('answers /healthz and a question page while 20 readers of 20,000 members never read', async () => {
      const apiKey = await instance.apiKey('members');
      expect((await fetch(`${base}/q/${token}`)).status).toBe(200);
      const sides = serverSides(instance.app.server);
      const readers = await Promise.all(
        Array.from({ length: READERS }, () => stuckReader(port, '/api/v1/members', apiKey)),
      );
      // Stuck: the server began each answer and holds more of it than the reader's kernel took.
      const stuck = () => readers.filter((reader) => sides.stuck(reader)).length;
      try {
        await until(() => stuck() === READERS, 60_000, 'every reader stuck on its answer');
        const answered: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          for (const url of [`${base}/healthz`, `${base}/q/${token}`]) {
            const response = await fetch(url);
            await response.arrayBuffer();
            answered.push(`${new URL(url).pathname.split('/')[1]} ${response.status}`);
          }
        }
        expect(answered).toEqual(Array(ROUNDS).fill(['healthz 200', 'q 200']).flat());
        // And all that while, the readers stayed stuck on their answers: nothing cut them off, and
        // no answer was let through to its end.
        expect(stuck()).toBe(READERS);
        expect(readers.every((socket) => !socket.destroyed)).toBe(true);
      } finally {
        sides.forget();
        for (const socket of readers) socket.destroy();
      }
      // And a reader that does read gets every member, once each.
      const response = await fetch(`${base}/api/v1/members`, { headers: { 'x-api-key': apiKey } });
      const list = (await response.json()) as { status: string; data: { memberid: string }[] };
      expect(list.status).toBe('OK');
      expect(list.data).toHaveLength(MEMBERS + 1);
      expect(new Set(list.data.map((item) => item.memberid)).size).toBe(MEMBERS + 1);
    });
  });
}
