import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

// An API request without credentials is refused as a wrong secret is, and counted as one against
// the caller's guessing limit (auth/guard.ts): refusing it is no cheaper to repeat.

/** ASSAY_TOKEN_FAILURES_PER_MINUTE for this instance. */
const LIMIT = 3;

let ipCounter = 0;
const freshIp = () => `10.66.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

type Answer = { statusCode: number; headers: Record<string, unknown>; json: { error?: string } };

function expectLimited(answer: Answer) {
  expect(answer.statusCode).toBe(429);
  expect(answer.json.error).toBe('too_many_requests');
  const wait = Number(answer.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
}

describe.each(dialects)('API requests without credentials (%s)', (dialect) => {
  let instance: Instance;
  // The instance's clock: the window of the limit runs on it, and only the test moves it.
  let now = new Date('2026-12-01T09:00:00Z');

  beforeAll(async () => {
    instance = await startInstance(dialect, {
      clock: () => now,
      env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: String(LIMIT) },
    });
  });
  afterAll(() => instance?.close());

  const get = (ip: string, headers: Record<string, string> = {}) =>
    instance.inject({ method: 'GET', url: '/api/v1/members', remoteAddress: ip, headers });

  it('counts each against the limit: 401 up to it, then 429 with Retry-After, reads and writes alike', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await get(ip)).statusCode);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    expectLimited(await get(ip));
    expectLimited(
      await instance.inject({
        method: 'POST',
        url: '/api/v1/members',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@example.test', firstname: 'A', lastname: 'B' }),
      }),
    );
    // Another address is not held up.
    expect((await get(freshIp())).statusCode).toBe(401);
  });

  it('counts an Authorization header of no known scheme, and an API key waits at the limit as after wrong keys', async () => {
    const ip = freshIp();
    const key = await instance.apiKey('members');
    expect((await get(ip, { authorization: 'Token abc' })).statusCode).toBe(401);
    expect((await get(ip, { authorization: 'Basic' })).statusCode).toBe(401);
    expect((await get(ip)).statusCode).toBe(401);
    expectLimited(await get(ip, { 'x-api-key': key }));
    // A bearer token is no guess: it is served from the same address.
    expect((await get(ip, { authorization: `Bearer ${await instance.token('members')}` })).statusCode).toBe(
      200,
    );
  });

  it('lets the address try again once the window has passed on the app’s clock', async () => {
    const start = now;
    try {
      const ip = freshIp();
      for (let i = 0; i < LIMIT; i++) expect((await get(ip)).statusCode).toBe(401);
      expectLimited(await get(ip));
      now = new Date(start.getTime() + 59_000);
      expectLimited(await get(ip));
      now = new Date(start.getTime() + 60_001);
      expect((await get(ip)).statusCode).toBe(401);
    } finally {
      now = start;
    }
  });

  it('leaves /mcp free: an MCP client discovers how to authenticate by calling without credentials', async () => {
    const ip = freshIp();
    const call = () =>
      instance.inject({
        method: 'POST',
        url: '/mcp',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const statuses = [];
    for (let i = 0; i < 2 * LIMIT; i++) statuses.push((await call()).statusCode);
    expect(statuses).toEqual(Array(2 * LIMIT).fill(401));
    // Nor did they count against the API.
    expect((await get(ip)).statusCode).toBe(401);
  });
});
