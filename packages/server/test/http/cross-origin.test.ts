import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Instance, listen, startInstance } from '../helpers/instance.js';

const APP = 'https://app.example.test';
const INSPECTOR = 'http://localhost:6274';
const FOREIGN = 'https://evil.example.test';

/**
 * CORS for integrators' web pages (ASSAY_CORS_ORIGINS), over real HTTP: the API, the OAuth
 * endpoints and /mcp answer the origins the operator names, preflights included, and nobody
 * else; the console, the participant pages and the consent page never answer another origin.
 */
describe.each(dialects)('cross-origin calls from web pages (%s)', (dialect) => {
  let instance: Instance;
  let base: string;
  let closed: Instance;
  let closedBase: string;

  beforeAll(async () => {
    instance = await startInstance(dialect, { env: { ASSAY_CORS_ORIGINS: `${APP},${INSPECTOR}` } });
    base = await listen(instance);
    closed = await startInstance(dialect);
    closedBase = await listen(closed);
  });
  afterAll(async () => {
    await instance?.close();
    await closed?.close();
  });

  const preflight = (at: string, path: string, origin: string, method = 'POST') =>
    fetch(`${at}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('answers a preflight of an allowed origin on every token surface', async () => {
    for (const [path, method] of [
      ['/api/v1/members', 'GET'],
      ['/api/v1/members/ABCDEFGHIJ', 'PATCH'],
      ['/api/v1/auth/access_token', 'POST'],
      ['/oauth/token', 'POST'],
      ['/oauth/register', 'POST'],
      ['/mcp', 'POST'],
    ]) {
      for (const origin of [APP, INSPECTOR]) {
        const answer = await preflight(base, path as string, origin, method);
        expect(answer.status, `${path} from ${origin}`).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
        expect(answer.headers.get('access-control-allow-methods')).toContain(method);
        expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
        expect(answer.headers.get('access-control-max-age')).toBe('600');
        expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
        expect(answer.headers.get('vary')).toContain('Origin');
      }
    }
  });

  it('lets an allowed page read the API’s answers, its challenges included', async () => {
    const token = await instance.token();
    const listed = await fetch(`${base}/api/v1/members?limit=1`, {
      headers: { origin: APP, authorization: `Bearer ${token}` },
    });
    expect(listed.status).toBe(200);
    expect((await listed.json()).status).toBe('OK');
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(listed.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    // The 401 of a missing token reaches the page, with what to do next.
    const refused = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { origin: INSPECTOR, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const metadata = await fetch(`${base}${path}`, { headers: { origin: INSPECTOR } });
      expect(metadata.status, path).toBe(200);
      expect(metadata.headers.get('access-control-allow-origin'), path).toBe(INSPECTOR);
    }
  });

  it('takes MCP calls from an allowed page, and still refuses any other origin', async () => {
    const authorization = `Bearer ${await instance.token()}`;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const call = (origin: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          origin,
          authorization,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: initialize,
      });
    const allowed = await call(INSPECTOR);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(INSPECTOR);
    expect(await allowed.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'assay' } } });
    const foreign = await call(FOREIGN);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers no other origin, and no origin at all on an instance that names none', async () => {
    const token = await instance.token();
    for (const [at, origin] of [
      [base, FOREIGN],
      [closedBase, APP],
    ]) {
      const answer = await preflight(at as string, '/api/v1/members', origin as string, 'GET');
      expect(answer.status).not.toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      const read = await fetch(`${at}/api/v1/members?limit=1`, {
        headers: {
          origin: origin as string,
          authorization: `Bearer ${at === base ? token : await closed.token()}`,
        },
      });
      // The server answers as ever; the browser keeps it from the page.
      expect(read.status).toBe(200);
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
    }
    const mcp = await fetch(`${closedBase}/mcp`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(403);
  });

  it('never opens the console, the participant pages or the consent page to another origin', async () => {
    for (const path of ['/console/sign-in', '/q/nosuchtoken', '/api/v1/auth/authorize?client_id=x']) {
      const page = await fetch(`${base}${path}`, { headers: { origin: APP }, redirect: 'manual' });
      expect(page.headers.get('access-control-allow-origin'), path).toBeNull();
      const answer = await preflight(base, path, APP);
      expect(answer.status, path).not.toBe(204);
      expect(answer.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});
