import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { setPassword } from '../../src/cli/commands.js';
import { createSignInLink } from '../../src/console/sessions.service.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { databaseSnapshot, snapshotChanges } from '../helpers/database-snapshot.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

const PASSWORD = 'correct horse battery';
const ADMIN = 'admin@example.test';

/** Sessions, sign-in and sign-out of the console, on both engines. */
describe.each(dialects)('console sign-in (%s)', (dialect) => {
  let instance: Instance;
  let now = new Date('2026-11-26T09:00:00Z');
  const sessions = () => instance.db.kysely.selectFrom('console_sessions').selectAll().execute();

  beforeAll(async () => {
    instance = await startInstance(dialect, {
      clock: () => now,
      env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '1000' },
    });
    await setPassword(instance.db.kysely, ADMIN, PASSWORD);
  });
  afterAll(() => instance?.close());

  /** Signs in through the form, as a person would. */
  async function signInWithPassword(browser: ConsoleBrowser, next?: string) {
    const page = await browser.get(`/console/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    expect(page.statusCode).toBe(200);
    return browser.post('/console/sign-in', { email: ADMIN, password: PASSWORD, next: next ?? '' });
  }

  it('sends every console address to sign-in and back to where the operator was going', async () => {
    const browser = new ConsoleBrowser(instance);
    const first = await browser.get('/console');
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/console/sign-in');
    const deep = await browser.get('/console/members?q=ann');
    expect(deep.headers.location).toBe(
      `/console/sign-in?next=${encodeURIComponent('/console/members?q=ann')}`,
    );
    // An unknown console address too: nothing about the console is shown without a session.
    expect((await browser.get('/console/no-such-page')).statusCode).toBe(303);

    const signedIn = await signInWithPassword(browser, '/console/members?q=ann');
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/console/members?q=ann');
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(/^assay_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const dashboard = await browser.get('/console');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain('Signed in as Admin Assay');
    expect(dashboard.headers['content-security-policy']).toContain("default-src 'none'");
    expect(dashboard.headers['cache-control']).toBe('no-store');
    // Only the hash of the cookie's value is stored.
    const secret = cookie.split(';')[0]?.split('=')[1] as string;
    expect(JSON.stringify(await sessions())).not.toContain(secret);
  });

  it('never sends the operator off the instance after signing in', async () => {
    for (const next of [
      '//evil.example/console',
      'https://evil.example/console',
      '/console\\@evil.example',
      '/consolex',
      '/\\evil.example',
      'javascript:alert(1)',
      '/console/%0d%0aSet-Cookie:x=y',
      `/console${'\n'}x`,
    ]) {
      const browser = new ConsoleBrowser(instance);
      const answer = await signInWithPassword(browser, next);
      expect(answer.statusCode, next).toBe(303);
      const location = answer.headers.location as string;
      expect(location === '/console' || location === next, `${next} -> ${location}`).toBe(true);
      expect(location.startsWith('/console'), next).toBe(true);
      expect(location).not.toMatch(/^\/\/|\\|[\r\n]/);
    }
  });

  it('refuses a wrong password with the reason next to the field, and starts no session', async () => {
    const before = (await sessions()).length;
    const browser = new ConsoleBrowser(instance);
    await browser.get('/console/sign-in');
    const wrong = await browser.post('/console/sign-in', { email: ADMIN, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('<title>Error: Sign in to Assay – Assay console</title>');
    expect(wrong.body).toContain('The e-mail address or the password is not right');
    expect(wrong.body).toContain('href="#password"');
    expect(wrong.body).toContain(`value="${ADMIN}"`);
    const unknown = await browser.post('/console/sign-in', {
      email: 'nobody@example.test',
      password: PASSWORD,
    });
    expect(unknown.statusCode).toBe(401);
    const empty = await browser.post('/console/sign-in', { email: ADMIN });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter your password');
    expect((await sessions()).length).toBe(before);
    expect((await browser.get('/console')).statusCode).toBe(303);
  });

  it('refuses a sign-in form without its token, and counts it as no guess', async () => {
    const browser = new ConsoleBrowser(instance);
    await browser.get('/console/sign-in');
    const forged = await browser.post('/console/sign-in', { email: ADMIN, password: PASSWORD }, null);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('The form has expired');
    const other = await browser.post(
      '/console/sign-in',
      { email: ADMIN, password: PASSWORD },
      'x'.repeat(43),
    );
    expect(other.statusCode).toBe(403);
    expect(other.headers['set-cookie']).toBeUndefined();
  });

  it('refuses every signed-in form without the session’s token, and changes nothing', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    const count = (await sessions()).length;
    const forged = await browser.post('/console/sign-out', {}, null);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('The form has expired');
    expect((await sessions()).length).toBe(count);
    const wrong = await browser.post(
      '/console/language',
      { language: 'frFR', next: '/console' },
      'y'.repeat(43),
    );
    expect(wrong.statusCode).toBe(303);
    expect((await browser.get('/console')).body).toContain('<html lang="en">');
  });

  it('signs out everywhere: the session ends for every server process on the database', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    const otherDb = instance.otherProcess();
    const other = await buildApp({
      config: instance.config,
      database: otherDb,
      background: false,
      clock: () => now,
    });
    try {
      await other.ready();
      const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const seen = await other.inject({ url: '/console', headers: { cookie } });
      expect(seen.statusCode).toBe(200);
      expect(seen.body).toContain('Signed in as Admin Assay');

      const out = await browser.post('/console/sign-out', {});
      expect(out.statusCode).toBe(303);
      expect(out.headers.location).toBe('/console/signed-out');
      expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
      const after = await other.inject({ url: '/console', headers: { cookie } });
      expect(after.statusCode).toBe(303);
      expect(after.headers.location).toBe('/console/sign-in');
      const page = await browser.get('/console/signed-out');
      expect(page.body).toContain('You have been signed out');
    } finally {
      await other.close();
      await otherDb.close();
    }
  });

  it('ends a session left idle for 8 hours, and keeps one in use alive', async () => {
    const start = now;
    try {
      const idle = await new ConsoleBrowser(instance).signIn();
      const busy = await new ConsoleBrowser(instance).signIn();
      for (let hour = 1; hour <= 9; hour++) {
        now = new Date(start.getTime() + hour * 3_600_000);
        expect((await busy.get('/console')).statusCode, `hour ${hour}`).toBe(200);
      }
      const late = await idle.get('/console');
      expect(late.statusCode).toBe(303);
      expect(late.headers.location).toBe('/console/sign-in');
    } finally {
      now = start;
    }
  });

  it('signs in once with a one-time link, within its 24 hours', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    expect((await browser.get('/console')).statusCode).toBe(200);
    const link = await instance.db.kysely.selectFrom('console_sign_in_links').selectAll().execute();
    expect(link.every((row) => row.used !== null)).toBe(true);
    // A link used once (or made up) opens nothing.
    const stranger = new ConsoleBrowser(instance);
    const made = await stranger.get(`/console/sign-in/link/${'a'.repeat(43)}`);
    expect(made.statusCode).toBe(404);
    expect(made.body).toContain('This sign-in link does not work');
    expect(made.headers['set-cookie']).toBeUndefined();
  });

  it('shows a one-time link’s page to every GET and leaves it usable; its button’s POST uses it, once', async () => {
    const { id } = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', ADMIN)
      .executeTakeFirstOrThrow();
    const secret = await createSignInLink(instance.db.kysely, id, now);
    const path = `/console/sign-in/link/${secret}`;
    const before = await databaseSnapshot(instance);
    // A mail or chat scanner fetches the link, again and again, without cookies.
    for (let round = 0; round < 3; round++) {
      expect((await instance.app.inject({ method: 'HEAD', url: path })).statusCode).toBe(200);
      const page = await new ConsoleBrowser(instance).get(path);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('This link signs you in once, as admin@example.test.');
      expect(page.body).toContain(`<form method="post" action="${path}"`);
      expect(String(page.headers['set-cookie'])).not.toContain('assay_session');
    }
    expect(snapshotChanges(before, await databaseSnapshot(instance))).toEqual([]);

    // A form without the page's token (another site's) neither uses the link nor signs in.
    const person = new ConsoleBrowser(instance);
    await person.get(path);
    const forged = await person.post(path, {}, 'forged');
    expect(forged.statusCode).toBe(403);
    expect(String(forged.headers['set-cookie'])).not.toContain('assay_session');
    expect(snapshotChanges(before, await databaseSnapshot(instance))).toEqual([]);

    // The button: signed in, the link used.
    const signedIn = await person.post(path, {});
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/console');
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^assay_session=/);
    expect((await person.get('/console')).statusCode).toBe(200);
    const changed = snapshotChanges(before, await databaseSnapshot(instance)).map((line) =>
      line.slice(0, line.indexOf(':')),
    );
    expect(changed.sort()).toEqual(['audit_log', 'console_sessions', 'console_sign_in_links']);

    // Used: its page and its button (in a browser with the form token) both say so.
    const again = new ConsoleBrowser(instance);
    await again.get('/console/sign-in');
    for (const answer of [await again.get(path), await again.post(path, {})]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toContain('This sign-in link does not work');
    }
    // A link past its 24 hours shows no button either.
    const old = await createSignInLink(instance.db.kysely, id, new Date(now.getTime() - 25 * 3_600_000));
    expect((await new ConsoleBrowser(instance).get(`/console/sign-in/link/${old}`)).statusCode).toBe(404);
  });

  it('shares the guessing limit with the Authorization Code flow’s sign-in page', async () => {
    const limited = await startInstance(dialect, { env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '3' } });
    try {
      await setPassword(limited.db.kysely, ADMIN, PASSWORD);
      const browser = new ConsoleBrowser(limited, '10.1.2.3');
      await browser.get('/console/sign-in');
      for (let i = 0; i < 3; i++) {
        expect(
          (await browser.post('/console/sign-in', { email: ADMIN, password: 'wrong one' })).statusCode,
        ).toBe(401);
      }
      const waiting = await browser.post('/console/sign-in', { email: ADMIN, password: PASSWORD });
      expect(waiting.statusCode).toBe(429);
      expect(waiting.body).toMatch(/Too many failed attempts: try again in \d+ seconds/);
      // The same caller on the Authorization Code flow's page waits too: one budget.
      const redirect = 'https://app.example/callback';
      const client = await limited.db.kysely
        .updateTable('oauth_clients')
        .set({ redirect_uris: JSON.stringify([redirect]) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: client.id,
        redirect_uri: redirect,
        scope: 'members',
      });
      const authorize = new ConsoleBrowser(limited, '10.1.2.3');
      const form = await authorize.get(`/api/v1/auth/authorize?${query}`);
      expect(form.statusCode).toBe(200);
      const answer = await authorize.post(`/api/v1/auth/authorize?${query}`, {
        ...Object.fromEntries(query),
        email: ADMIN,
        password: PASSWORD,
        decision: 'approve',
      });
      expect(answer.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  /** An authorization request of the first start's client, with a redirect URI registered for it. */
  async function authorizeQuery(on: Instance) {
    const redirect = 'https://app.example/callback';
    const client = await on.db.kysely
      .updateTable('oauth_clients')
      .set({ redirect_uris: JSON.stringify([redirect]) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return new URLSearchParams({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: redirect,
      scope: 'members',
    });
  }

  it('is one sign-in with the Authorization Code flow: a console session needs no password there', async () => {
    const query = await authorizeQuery(instance);
    const browser = await new ConsoleBrowser(instance).signIn();
    const page = await browser.get(`/api/v1/auth/authorize?${query}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`You are signed in as ${ADMIN}`);
    expect(page.body).not.toMatch(/name="password"[^>]*required/);
    const approved = await browser.post(`/api/v1/auth/authorize?${query}`, {
      ...Object.fromEntries(query),
      decision: 'approve',
    });
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);
    // Without a session the same form without a password is refused.
    const stranger = new ConsoleBrowser(instance);
    await stranger.get(`/api/v1/auth/authorize?${query}`);
    const refused = await stranger.post(`/api/v1/auth/authorize?${query}`, {
      ...Object.fromEntries(query),
      decision: 'approve',
    });
    expect(refused.statusCode).toBe(401);
  });

  it('opens the console to a user who signed in on the Authorization Code flow’s page', async () => {
    const query = await authorizeQuery(instance);
    const browser = new ConsoleBrowser(instance);
    await browser.get(`/api/v1/auth/authorize?${query}`);
    const approved = await browser.post(`/api/v1/auth/authorize?${query}`, {
      ...Object.fromEntries(query),
      email: ADMIN,
      password: PASSWORD,
      decision: 'approve',
    });
    expect(approved.statusCode).toBe(303);
    expect(String(approved.headers['set-cookie'])).toMatch(/^assay_session=/);
    expect((await browser.get('/console')).statusCode).toBe(200);
  });

  it('speaks the browser’s language until the operator chooses one, then keeps the choice', async () => {
    const dutch = new ConsoleBrowser(instance, '127.0.0.1', { 'accept-language': 'nl-NL,nl;q=0.9' });
    const page = await dutch.get('/console/sign-in');
    expect(page.body).toContain('<html lang="nl">');
    expect(page.body).toContain('Inloggen bij Assay');
    // Chosen before signing in: kept in a cookie, then by the session.
    const chosen = await dutch.post('/console/language', { language: 'frFR', next: '/console/sign-in' });
    expect(chosen.statusCode).toBe(303);
    expect(chosen.headers.location).toBe('/console/sign-in');
    expect((await dutch.get('/console/sign-in')).body).toContain('<html lang="fr">');
    await dutch.signIn();
    const french = await dutch.get('/console');
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('Connecté en tant que Admin Assay');
    await dutch.post('/console/language', { language: 'esES', next: '/console' });
    expect((await dutch.get('/console')).body).toContain('<html lang="es">');
    const row = (await sessions()).find((session) => session.language === 'esES');
    expect(row).toBeDefined();
    // An unknown language changes nothing.
    await dutch.post('/console/language', { language: 'xxXX', next: '/console' });
    expect((await dutch.get('/console')).body).toContain('<html lang="es">');
  });

  it('answers an unknown console page with the console’s own page, not found', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    const missing = await browser.get('/console/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Page not found');
    expect(missing.body).toContain('Signed in as Admin Assay');
  });
});

describe('console sign-in over https', () => {
  it('marks the session cookie Secure and __Host- when the public URL is https', async () => {
    const instance = await startInstance('sqlite', { env: { ASSAY_PUBLIC_URL: 'https://assay.example' } });
    try {
      await setPassword(instance.db.kysely, ADMIN, PASSWORD);
      const browser = new ConsoleBrowser(instance);
      await browser.get('/console/sign-in');
      const answer = await browser.post('/console/sign-in', { email: ADMIN, password: PASSWORD });
      expect(answer.statusCode).toBe(303);
      expect(String(answer.headers['set-cookie'])).toMatch(
        /^__Host-assay_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      );
    } finally {
      await instance.close();
    }
  });
});
