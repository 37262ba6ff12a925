import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

for (const dialect of dialects) {
  describe(`wire rules (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(() => instance.close());

    it('answers 401 with a small JSON body and no status field when credentials are missing', async () => {
      const response = await instance.call('GET', '/members', { auth: null });
      expect(response.statusCode).toBe(401);
      expect(response.json).toEqual({ error: 'unauthorized', message: expect.any(String) });
    });

    it('answers 404 for an unregistered route and for an unknown id, with or without a token', async () => {
      for (const url of ['/nothing', '/members/abc/def/ghi']) {
        const response = await instance.call('GET', url);
        expect(response.statusCode).toBe(404);
        expect(response.json).toEqual({ error: 'not_found', message: expect.any(String) });
      }
      expect((await instance.call('GET', '/members/ZZZZZZZZZZ')).statusCode).toBe(404);
      expect((await instance.call('GET', '/groups/ZZZZZZZZZZ')).statusCode).toBe(404);
      expect((await instance.call('GET', '/members/x%27%20or%201=1')).statusCode).toBe(404);
    });

    it('answers 405 with an Allow header for a known path and a wrong method', async () => {
      const response = await instance.call('PUT', '/members');
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD, POST');
      expect(response.json.error).toBe('method_not_allowed');
      const detail = await instance.call('POST', '/members/ABCDEFGHIJ');
      expect(detail.statusCode).toBe(405);
      expect(String(detail.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
    });

    it('answers ERROR for a body that is not valid JSON, and changes nothing', async () => {
      const before = (await instance.call('GET', '/members')).json.data.length;
      for (const body of ['{bad', '{"email": "a@b.c",', 'null', '[1,2]', '"text"', '12']) {
        const response = await instance.call('POST', '/members', { body });
        expect(response.statusCode, body).toBe(200);
        expect(response.json.status, body).toBe('ERROR');
        expect(typeof response.json.data).toBe('string');
      }
      expect((await instance.call('GET', '/members')).json.data.length).toBe(before);
    });

    it('answers ERROR for a body that is not JSON at all', async () => {
      const response = await instance.call('POST', '/members', {
        body: '<xml/>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(response.json).toEqual({ status: 'ERROR', data: 'body: Content-Type must be application/json' });
    });

    it('accepts and ignores limit and offset', async () => {
      for (let i = 0; i < 3; i++) {
        await instance.call('POST', '/members', { body: { email: email(), firstname: 'L', lastname: 'O' } });
      }
      const all = await instance.call('GET', '/members');
      const paged = await instance.call('GET', '/members?limit=1&offset=2');
      expect(paged.json.data).toEqual(all.json.data);
      expect((await instance.call('GET', '/groups?limit=abc&offset=-4')).json.status).toBe('OK');
    });

    it('never answers a stack trace, even for a huge or odd body', async () => {
      const huge = JSON.stringify({ email: email(), firstname: 'x'.repeat(2 * 1024 * 1024), lastname: 'y' });
      const response = await instance.call('POST', '/members', { body: huge });
      expect(response.statusCode).toBe(413);
      expect(response.json).toEqual({ error: 'payload_too_large', message: expect.any(String) });
      const proto = await instance.call('POST', '/members', {
        body: '{"email":"p@example.test","firstname":"a","lastname":"b","extra":{"__proto__":{"x":1}}}',
      });
      expect(proto.json.status).toBe('ERROR');
      expect(proto.body).not.toMatch(/at .*\.js/);
    });

    it('serves /healthz, the OpenAPI document and the reference page without credentials', async () => {
      expect((await instance.inject({ method: 'GET', url: '/healthz' })).json).toEqual({ status: 'ok' });
      const openapi = await instance.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(openapi.statusCode).toBe(200);
      expect(openapi.json.openapi).toBe('3.1.0');
      for (const path of [
        '/members',
        '/members/{memberid}',
        '/groups/{groupid}/members/{memberid}',
        '/auth/access_token',
      ]) {
        expect(Object.keys(openapi.json.paths)).toContain(path);
      }
      expect(openapi.json.paths['/members'].get.responses['200']).toBeDefined();
      const docs = await instance.inject({ method: 'GET', url: '/api/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.body).toContain('<html');
      expect(docs.body).not.toMatch(/https?:\/\/(?!localhost)[a-z0-9.-]+\.[a-z]{2,}\/[^"']*\.(js|css)/);
      const csp = String(docs.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toMatch(/https:|upgrade-insecure-requests|swagger\.io/);
    });
  });
}
