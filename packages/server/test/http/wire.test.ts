import net from 'node:net';
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

    it('answers 405 for a path written out by a route, even where a route with an id would match', async () => {
      const cases: [string, string, string][] = [
        ['GET', '/groups/dupecheck', 'POST'],
        ['PUT', '/groups/dupecheck', 'POST'],
        ['DELETE', '/members/dupecheck', 'POST'],
        ['GET', '/members/import', 'POST'],
        ['PATCH', '/members/import/', 'POST'],
        ['POST', '/groups/members', 'GET, HEAD'],
        ['DELETE', '/groups/members', 'GET, HEAD'],
      ];
      for (const [method, url, allow] of cases) {
        for (const auth of [undefined, null]) {
          const response = await instance.call(method, url, { auth });
          expect(response.statusCode, `${method} ${url}`).toBe(405);
          expect(response.headers.allow, `${method} ${url}`).toBe(allow);
          expect(response.json).toEqual({ error: 'method_not_allowed', message: expect.any(String) });
        }
      }
      // A path that only looks like one is still an id, and an unknown one.
      expect((await instance.call('GET', '/groups/nogroup')).statusCode).toBe(404);
      expect((await instance.call('GET', '/members/dupecheck?x=1')).statusCode).toBe(405);
    });

    it('answers requests that are not valid HTTP in its own shape, over a real socket', async () => {
      const address = await instance.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
          let answer = '';
          socket.on('data', (chunk) => {
            answer += chunk;
          });
          socket.on('close', () => resolve(answer));
          socket.on('error', reject);
        });
      const badLength = await raw(
        'POST /api/v1/members HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{"a":1}',
      );
      expect(badLength).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(badLength.slice(badLength.indexOf('\r\n\r\n') + 4))).toEqual({
        error: 'bad_request',
        message: 'The request is not valid HTTP',
      });
      const hugeHeader = await raw(
        `GET /api/v1/members HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(hugeHeader).toMatch(/^HTTP\/1\.1 431 /);
      expect(hugeHeader).toContain('"error":"headers_too_large"');
    });

    it('answers 404 in its own shape for a path the router cannot read', async () => {
      for (const url of [
        '/members/%E0%A4%A',
        '/groups/%ff',
        `/groups/ABCDEFGHIJ/members/${'x'.repeat(5000)}`,
      ]) {
        const response = await instance.call('GET', url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json, url).toEqual({ error: 'not_found', message: 'No such resource' });
      }
    });

    it('refuses a form or a text body wherever JSON is expected, and changes nothing', async () => {
      const before = (await instance.call('GET', '/members')).json.data.length;
      const taken = email();
      await instance.call('POST', '/members', { body: { email: taken, firstname: 'T', lastname: 'K' } });
      const bodies: [string, string, string][] = [
        ['/members', 'application/x-www-form-urlencoded', `email=${email()}&firstname=F&lastname=L`],
        ['/members', 'text/plain', JSON.stringify({ email: email(), firstname: 'F', lastname: 'L' })],
        ['/members', 'text/csv', `email,firstname,lastname\n${email()},F,L`],
        ['/members/dupecheck', 'text/plain', taken],
        ['/members/dupecheck', 'application/x-www-form-urlencoded', `value=${taken}`],
        ['/groups', 'application/x-www-form-urlencoded', 'name=Form&alias=form'],
      ];
      for (const [url, type, body] of bodies) {
        const response = await instance.call('POST', url, { body, headers: { 'content-type': type } });
        expect(response.json, `${url} ${type}`).toEqual({
          status: 'ERROR',
          data: 'body: Content-Type must be application/json',
        });
      }
      expect((await instance.call('GET', '/members')).json.data.length).toBe(before + 1);
      expect((await instance.call('GET', '/groups')).json.data).toEqual([]);
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

    it('takes UTF-8 only, so that no letter is stored as a replacement character', async () => {
      const before = (await instance.call('GET', '/members')).json.data.length;
      const latin1 = Buffer.from(`{"email":"${email()}","firstname":"Ren\u00e9","lastname":"L"}`, 'latin1');
      const sends: [Buffer | string, string][] = [
        [latin1, 'application/json'],
        [latin1, 'application/json; charset=latin1'],
        [
          JSON.stringify({ email: email(), firstname: 'A', lastname: 'L' }),
          'application/json; charset=iso-8859-1',
        ],
      ];
      for (const [payload, type] of sends) {
        const response = await instance.inject({
          method: 'POST',
          url: '/api/v1/members',
          headers: { authorization: `Bearer ${await instance.token()}`, 'content-type': type },
          payload,
        });
        expect(response.json, type).toEqual({ status: 'ERROR', data: 'body: must be UTF-8' });
      }
      const csv = await instance.inject({
        method: 'POST',
        url: '/api/v1/members/import',
        headers: { authorization: `Bearer ${await instance.token()}`, 'content-type': 'text/csv' },
        payload: Buffer.from(`email,firstname,lastname\n${email()},Ren\u00e9,L\n`, 'latin1'),
      });
      expect(csv.json).toEqual({ status: 'ERROR', data: 'body: must be UTF-8 (save the CSV as UTF-8)' });
      expect((await instance.call('GET', '/members')).json.data.length).toBe(before);
      const good = await instance.inject({
        method: 'POST',
        url: '/api/v1/members',
        headers: {
          authorization: `Bearer ${await instance.token()}`,
          'content-type': 'application/json; charset=UTF-8',
        },
        payload: Buffer.from(`\ufeff{"email":"${email()}","firstname":"Ren\u00e9","lastname":"L"}`, 'utf8'),
      });
      expect(good.json.data.firstname).toBe('Ren\u00e9');
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
      // Reads take any credential; writes only an OAuth 2.0 token; the token endpoint none. Each
      // names the scope it needs: the family of its first path segment.
      expect(openapi.json.paths['/members'].get.security).toEqual([
        { oauth2: ['members'] },
        { apiKey: [] },
        { basic: [] },
      ]);
      expect(openapi.json.paths['/members'].post.security).toEqual([{ oauth2: ['members'] }]);
      // A POST that changes nothing is a read.
      expect(openapi.json.paths['/members/dupecheck'].post.security).toHaveLength(3);
      expect(openapi.json.paths['/groups/{groupid}'].delete.security).toEqual([{ oauth2: ['groups'] }]);
      expect(openapi.json.paths['/groups/{groupid}/reports'].get.security[0]).toEqual({ oauth2: ['groups'] });
      expect(openapi.json.paths['/groups/{groupid}'].delete.description).toContain('Scope: `groups`');
      expect(openapi.json.paths['/auth/access_token'].post.security).toEqual([]);
      // The participant pages and the sign-in page are for people, not operations of the API.
      expect(Object.keys(openapi.json.paths).filter((path) => /^\/(q|r|s|assets)\//.test(path))).toEqual([]);
      // A relative server: "Try it out" calls wherever the page was opened.
      expect(openapi.json.servers[0].url).toBe('/api/v1');
      const importBody = openapi.json.paths['/members/import'].post.requestBody.content;
      expect(Object.keys(importBody).sort()).toEqual(['application/json', 'text/csv']);
      expect(importBody['text/csv'].schema.type).toBe('string');
      const jsonImport = importBody['application/json'].schema.$ref.split('/').pop();
      expect(openapi.json.components.schemas[jsonImport].required).toEqual(['members']);
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
