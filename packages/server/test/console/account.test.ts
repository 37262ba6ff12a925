import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { setPassword } from '../../src/cli/commands.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const PASSWORD = 'correct horse battery';

/** "Your account": one's own password and sessions. */
describe.each(dialects)('console account (%s)', (dialect) => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance(dialect, { env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '1000' } });
  });
  afterAll(() => instance?.close());

  /**
   * An admin of the test's own, with a password: the sessions it counts and ends are then only the
   * ones it opened itself, whatever the other tests did to theirs, before it or after.
   */
  const operator = async () => {
    const user = await createUser(
      instance.db.kysely,
      { email: email('operator'), firstname: 'Olga', lastname: 'Operator', admin: true },
      cliActor(),
    );
    await setPassword(instance.db.kysely, user.email, PASSWORD);
    return user.email;
  };

  const signInWith = async (address: string, password: string) => {
    const browser = new ConsoleBrowser(instance);
    await browser.get('/console/sign-in');
    return { browser, answer: await browser.post('/console/sign-in', { email: address, password }) };
  };

  it('changes the password only with the current one and by the password rule, then ends the other sessions', async () => {
    const own = await operator();
    const { browser } = await signInWith(own, PASSWORD);
    const elsewhere = await new ConsoleBrowser(instance).signIn(own);
    const page = await browser.get('/console/account');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You are signed in on 2 devices or browsers, this one included.');
    expect(page.body).toContain('href="/console/account"');

    const missing = await browser.post('/console/account/password', {
      current: '',
      next: 'a new long password',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('<title>Error: Your account – Assay console</title>');
    expect(missing.body).toContain('Enter your current password');
    const wrong = await browser.post('/console/account/password', {
      current: 'wrong',
      next: 'a new long password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Your current password is not right');
    const short = await browser.post('/console/account/password', { current: PASSWORD, next: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Your new password must be at least 12 characters');
    expect(short.body).toContain('href="#next"');
    // Nothing changed: the old password still signs in.
    expect((await signInWith(own, PASSWORD)).answer.statusCode).toBe(303);

    const changed = await browser.post('/console/account/password', {
      current: PASSWORD,
      next: 'a new long password',
    });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe('/console/account?changed=password');
    expect((await browser.get('/console/account?changed=password')).body).toContain(
      'Your password has been changed',
    );
    expect((await signInWith(own, PASSWORD)).answer.statusCode).toBe(401);
    expect((await signInWith(own, 'a new long password')).answer.statusCode).toBe(303);
    // This session goes on; the others ended.
    expect((await browser.get('/console')).statusCode).toBe(200);
    expect((await elsewhere.get('/console')).statusCode).toBe(303);
  });

  it('signs out of the other sessions on request, keeping this one', async () => {
    const own = await operator();
    const here = await new ConsoleBrowser(instance).signIn(own);
    const there = await new ConsoleBrowser(instance).signIn(own);
    const forged = await here.post('/console/account/sessions', {}, null);
    expect(forged.statusCode).toBe(403);
    expect((await there.get('/console')).statusCode).toBe(200);
    const out = await here.post('/console/account/sessions', {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toMatch(/^\/console\/account\?signedout=\d+$/);
    expect((await here.get(out.headers.location as string)).body).toMatch(
      /Signed out of \d+ other sessions\./,
    );
    expect((await there.get('/console')).statusCode).toBe(303);
    expect((await here.get('/console/account')).body).toContain('You are signed in here only.');
  });
});
