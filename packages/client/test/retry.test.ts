import { afterEach, describe, expect, it } from 'vitest';
import { createClient, HttpError } from '../src/index.js';
import { failure, fakeServer, json, tokenAnswer } from './helpers.js';

type Fake = Awaited<ReturnType<typeof fakeServer>>;

describe('429 Too Many Requests', () => {
  let server: Fake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A fake instance that answers 429 with `retryAfter` to the first `busy` calls of /members. */
  const busyServer = async (busy: number, retryAfter: string | undefined) => {
    let calls = 0;
    server = await fakeServer((request, response) => {
      if (request.url === '/api/v1/auth/access_token') return json(response, tokenAnswer());
      calls++;
      if (calls <= busy) {
        return json(
          response,
          { error: 'too_many_requests', message: 'slow down' },
          429,
          retryAfter === undefined ? {} : { 'retry-after': retryAfter },
        );
      }
      return json(response, { status: 'OK', data: [] });
    });
    return server;
  };
  const client = (fake: Fake, options: { retries?: number; maxRetryDelayMs?: number } = {}) =>
    createClient({
      baseUrl: fake.url,
      clientId: 'id',
      clientSecret: 'secret',
      scopes: 'members',
      ...options,
    });
  const apiCalls = (fake: Fake) => fake.seen.filter((request) => request.url === '/api/v1/members');

  it('waits as Retry-After says, then succeeds', async () => {
    const fake = await busyServer(1, '1');
    const started = Date.now();
    expect(await client(fake).members.list()).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(apiCalls(fake)).toHaveLength(2);
    // The same request again: same method, same token.
    expect(apiCalls(fake)[1]?.headers.authorization).toBe('Bearer tok-1');
  });

  it('tries a bounded number of times (3 by default), then throws HttpError 429', async () => {
    const fake = await busyServer(100, '0');
    const error = await failure(client(fake).members.list());
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(429);
    expect((error as HttpError).code).toBe('too_many_requests');
    expect((error as HttpError).headers.get('retry-after')).toBe('0');
    expect(apiCalls(fake)).toHaveLength(4);
  });

  it('takes another bound, and 0 retries', async () => {
    const fake = await busyServer(100, '0');
    await expect(client(fake, { retries: 1 }).members.list()).rejects.toThrow(HttpError);
    expect(apiCalls(fake)).toHaveLength(2);
    await expect(client(fake, { retries: 0 }).members.list()).rejects.toThrow(HttpError);
    expect(apiCalls(fake)).toHaveLength(3);
  });

  it('fails at once when Retry-After asks for longer than it will wait', async () => {
    const fake = await busyServer(100, '3600');
    const started = Date.now();
    const error = await failure(client(fake, { maxRetryDelayMs: 15_000 }).members.list());
    expect((error as HttpError).status).toBe(429);
    // Not even the longest wait it accepts: it did not wait at all (a bound by construction, not a
    // speed: one local round trip is far shorter on any machine).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(apiCalls(fake)).toHaveLength(1);
  });

  it('reads Retry-After as an HTTP date', async () => {
    const fake = await busyServer(2, new Date(Date.now() - 5000).toUTCString());
    expect(await client(fake).members.list()).toEqual([]);
    expect(apiCalls(fake)).toHaveLength(3);
  });

  it('waits at the token endpoint too (slow_down)', async () => {
    let tokenCalls = 0;
    server = await fakeServer((request, response) => {
      if (request.url === '/api/v1/auth/access_token') {
        tokenCalls++;
        if (tokenCalls === 1) {
          return json(response, { error: 'slow_down', error_description: 'wait' }, 429, {
            'retry-after': '0',
          });
        }
        return json(response, tokenAnswer());
      }
      return json(response, { status: 'OK', data: [] });
    });
    expect(await client(server).members.list()).toEqual([]);
    expect(tokenCalls).toBe(2);
  });
});
