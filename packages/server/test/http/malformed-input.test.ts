import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const deep = (depth: number): unknown => (depth === 0 ? 'x' : { a: [deep(depth - 1)] });

const BODIES: (string | undefined)[] = [
  undefined,
  '',
  '{',
  '[]',
  'null',
  'true',
  '"string"',
  '-1e309',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  JSON.stringify(deep(2000)),
  JSON.stringify({ email: '\u0000\uFFFF\uD800', firstname: '\u202E', lastname: '😀'.repeat(100) }),
  JSON.stringify({ value: { $ne: null }, members: { length: 1e9 }, name: ['a'], alias: { toString: 1 } }),
  JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)),
  JSON.stringify({ extra: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])) }),
  JSON.stringify({
    parentgroup: '../../etc/passwd',
    groupid: "' OR 1=1 --",
    type: null,
    config: { selfregistration: [] },
  }),
];

for (const dialect of dialects) {
  describe(`malformed input on every route (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('never answers 5xx, a stack trace or a non-JSON body, and the server keeps serving', async () => {
      const openapi = (await instance.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json;
      const next = random(42);
      const junkId = () =>
        ['ZZZZZZZZZZ', '', '%00', '..%2F..', 'a'.repeat(300), "x'--"][Math.floor(next() * 6)] as string;
      let calls = 0;
      for (const [path, operations] of Object.entries<Record<string, unknown>>(openapi.paths)) {
        if (path.startsWith('/auth/authorize')) continue;
        for (const method of Object.keys(operations).filter((m) => m !== 'head')) {
          for (const body of BODIES) {
            const url = path.replace(/\{[^}]+\}/g, () => encodeURIComponent(junkId()).replace(/%25/g, '%'));
            const contentType =
              next() < 0.8
                ? 'application/json'
                : ['text/csv', 'application/x-www-form-urlencoded', 'text/xml'][Math.floor(next() * 3)];
            const response = await instance.call(method.toUpperCase(), `${url}?limit=${junkId()}`, {
              body,
              headers: body === undefined ? {} : { 'content-type': contentType as string },
            });
            calls++;
            const where = `${method.toUpperCase()} ${url} ${String(body).slice(0, 40)}`;
            expect(response.statusCode, where).toBeLessThan(500);
            expect(response.body, where).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/);
            if (response.body !== '' && !String(response.headers['content-type']).includes('pdf')) {
              expect(() => JSON.parse(response.body), where).not.toThrow();
            }
          }
        }
      }
      expect(calls).toBeGreaterThan(300);
      expect((await instance.inject({ method: 'GET', url: '/healthz' })).json).toEqual({ status: 'ok' });
      expect((await instance.call('GET', '/members')).json.status).toBe('OK');
    });
  });
}
