import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, listen, participant, startInstance } from '../helpers/instance.js';
import { now, samplePages, unansweredDuring } from '../helpers/page-sampler.js';
import { MEMBERS, seedMembers, stuckReader } from './slow-clients.js';

// The server keeps answering while readers that never read hold answers open; the send timeout
// that cuts such readers off is tested in send-timeout.test.ts. How fast it answers meanwhile
// (within 200 ms) is a performance target, measured by `npm run bench -- --only busy`: here, the
// order of events (pages answered all along, none failed) holds on a runner of any speed.

const READERS = 20;

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

    it('answers /healthz and a question page all along while 20 readers of 20,000 members never read', async () => {
      const apiKey = await instance.apiKey('members');
      expect((await fetch(`${base}/q/${token}`)).status).toBe(200);
      const readers = await Promise.all(
        Array.from({ length: READERS }, () => stuckReader(port, '/api/v1/members', apiKey)),
      );
      try {
        // Let every reader's answer start and fill its socket.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const sampler = samplePages([`${base}/healthz`, `${base}/q/${token}`]);
        await sampler.answering;
        const started = now();
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const ended = now();
        const samples = await sampler.stop();
        expect(new Set(samples.map((sample) => sample.url)).size).toBe(2);
        expect(unansweredDuring(samples, started, ended)).toEqual([]);
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
}
