import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, participant, startInstance } from '../helpers/instance.js';

/** What the instance logged, line by line. */
const logLines: Record<string, unknown>[] = [];
const logStream = {
  write(line: string) {
    for (const part of line.split('\n').filter(Boolean)) logLines.push(JSON.parse(part));
  },
};

describe('answers and logs that give nothing away (sqlite)', () => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance('sqlite', { env: { LOG_LEVEL: 'info' }, logStream });
  });
  afterAll(async () => {
    await instance?.close();
  });

  it('marks every API answer nosniff and no-store: data, business errors, HTTP errors', async () => {
    const answers = [
      await instance.call('GET', '/members'),
      await instance.call('POST', '/members', { body: { email: 'not an address' } }),
      await instance.call('GET', '/members', { auth: null }),
      await instance.call('GET', '/members/0000000000'),
      await instance.call('PUT', '/members'),
      await instance.inject({ method: 'GET', url: '/api/v1/no-such-family' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404, 405, 404]);
    for (const answer of answers) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it("logs a visitor's 413 or 415 on a participant path at info, in one line without a stack", async () => {
    logLines.length = 0;
    const token = 'x'.repeat(43);
    const tooLarge = await instance.inject({
      method: 'POST',
      url: `/q/${token}/page/1`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `a=${'b'.repeat(600 * 1024)}`,
    });
    const wrongType = await instance.inject({
      method: 'POST',
      url: `/q/${token}/page/1`,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect([tooLarge.statusCode, wrongType.statusCode]).toEqual([413, 415]);
    for (const answer of [tooLarge, wrongType]) {
      expect(answer.headers['content-type']).toContain('text/html');
      expect(answer.body).not.toMatch(/at .*\.(js|ts):\d+/);
    }
    const refused = logLines.filter((line) => line.msg === 'participant page refused');
    expect(refused.map((line) => [line.level, line.statusCode])).toEqual([
      [30, 413],
      [30, 415],
    ]);
    expect(logLines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect(JSON.stringify(logLines)).not.toContain('stack');
  });
});

describe('the form cookie of an instance served over https (sqlite)', () => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance('sqlite', { env: { ASSAY_PUBLIC_URL: 'https://assay.example.test' } });
  });
  afterAll(async () => {
    await instance?.close();
  });

  it('is __Host- prefixed, and a plain cookie planted by a sibling subdomain is not taken', async () => {
    const { token } = await participant(instance);

    const page = await instance.inject({ method: 'GET', url: `/q/${token}/page/1` });
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-assay_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);

    const post = (cookieHeader: string, csrf: string) =>
      instance.inject({
        method: 'POST',
        url: `/q/${token}/page/1`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader },
        payload: new URLSearchParams({ csrf, action: 'later' }).toString(),
      });
    // A form token the attacker chose, in a cookie without the prefix (as a sibling subdomain can set).
    const planted = 'a'.repeat(43);
    const refused = await post(`assay_csrf=${planted}`, planted);
    expect(refused.headers.location).toBeUndefined();
    const own = cookie.split(';')[0] as string;
    const accepted = await post(own, own.slice('__Host-assay_csrf='.length));
    expect(accepted.statusCode).toBe(303);
  });
});
