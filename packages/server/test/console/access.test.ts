import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, consoleActor } from '../../src/audit/actor.js';
import {
  createApiKey,
  createClient,
  createUser,
  deactivateUser,
  reactivateUser,
  setUserRole,
} from '../../src/auth/auth.service.js';
import { setPassword } from '../../src/cli/commands.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const SECRET_WARNING =
  'Copy your secret to somewhere safe. You will not be able to see it again once you leave this page.';

/** The secret (or key) a "shown once" page shows. */
const shownSecret = (body: string) => /<code class="access-secret">([^<]+)<\/code>/.exec(body)?.[1] ?? '';
const shownClientId = (body: string) =>
  /<dd class="summary-list__value"><code>([^<]+)<\/code>/.exec(body)?.[1] ?? '';

/** Access: OAuth clients and API keys, each user's own, an admin's all. */
describe.each(dialects)('console access (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let userEmail: string;

  beforeAll(async () => {
    instance = await startInstance(dialect, { env: { ASSAY_TOKEN_FAILURES_PER_MINUTE: '1000' } });
    admin = await new ConsoleBrowser(instance).signIn();
    userEmail = email('user');
    await createUser(
      instance.db.kysely,
      { email: userEmail, firstname: 'Ursula', lastname: 'User' },
      cliActor(),
    );
  });
  afterAll(() => instance?.close());

  const token = (clientId: string, secret: string, scope = 'members') =>
    instance.inject({
      method: 'POST',
      url: '/api/v1/auth/access_token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
        scope,
      }).toString(),
    });

  it('creates a client whose secret is shown once and gets a token; rotate stops the old secret, delete the new', async () => {
    const list = await admin.get('/console/access/clients');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/console/access/clients"');
    expect((await admin.get('/console/access/clients/new')).statusCode).toBe(200);

    const created = await admin.post('/console/access/clients', {
      name: '  Nightly export  ',
      scopes: ['members', 'reports'],
      redirects: 'https://app.example.test/back\nhttps://app.example.test/back',
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.body).toContain(SECRET_WARNING);
    const id = shownClientId(created.body);
    const secret = shownSecret(created.body);
    expect(id).not.toBe('');
    expect(secret.length).toBeGreaterThan(20);

    const good = await token(id, secret);
    expect(good.statusCode).toBe(200);
    const bearer = good.json.data.access_token as string;
    expect((await instance.call('GET', '/members', { auth: `Bearer ${bearer}` })).statusCode).toBe(200);

    const page = await admin.get(`/console/access/clients/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Read and change members');
    expect(page.body).toContain('Read results and reports');
    expect(page.body).toContain('https://app.example.test/back');
    expect(page.body).not.toContain(secret);
    expect((await admin.get('/console/access/clients')).body).toContain('Nightly export');

    const rotated = await admin.post(`/console/access/clients/${id}/rotate`, {});
    expect(rotated.statusCode).toBe(200);
    expect(rotated.body).toContain(SECRET_WARNING);
    const next = shownSecret(rotated.body);
    expect(next).not.toBe(secret);
    expect((await token(id, secret)).statusCode).toBe(401);
    expect((await instance.call('GET', '/members', { auth: `Bearer ${bearer}` })).statusCode).toBe(401);
    expect((await token(id, next)).statusCode).toBe(200);

    const confirm = await admin.get(`/console/access/clients/${id}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Delete Nightly export?');
    const deleted = await admin.post(`/console/access/clients/${id}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect((await admin.get(deleted.headers.location as string)).body).toContain(
      'The client Nightly export has been deleted.',
    );
    // A notice is only what this session's own form said: a link from elsewhere shows none.
    const crafted = await admin.get('/console/access/clients?done=Call+0800+now&sig=x');
    expect(crafted.statusCode).toBe(200);
    expect(crafted.body).not.toContain('Call 0800 now');
    const otherSession = await new ConsoleBrowser(instance).signIn();
    expect((await otherSession.get(deleted.headers.location as string)).body).not.toContain(
      'The client Nightly export has been deleted.',
    );
    expect((await token(id, next)).statusCode).toBe(401);
    expect((await admin.get(`/console/access/clients/${id}`)).statusCode).toBe(404);
  });

  it('refuses a client without a name, without scopes or with a bad return address, and creates nothing', async () => {
    const before = (await admin.get('/console/access/clients')).body;
    const noName = await admin.post('/console/access/clients', { name: ' ', scopes: ['members'] });
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toContain('<title>Error: Create a client – Assay console</title>');
    expect(noName.body).toContain('href="#name"');
    expect(noName.body).toContain('Enter a name');
    const noScopes = await admin.post('/console/access/clients', { name: 'No scopes' });
    expect(noScopes.statusCode).toBe(400);
    expect(noScopes.body).toContain('href="#scopes"');
    expect(noScopes.body).toContain('Select at least one thing it may do');
    expect(noScopes.body).toContain('value="No scopes"');
    const badUri = await admin.post('/console/access/clients', {
      name: 'Bad return',
      scopes: 'members',
      redirects: 'javascript:alert(1)',
    });
    expect(badUri.statusCode).toBe(400);
    expect(badUri.body).toContain('href="#redirects"');
    expect(badUri.body).toContain('cannot be a return address');
    expect(badUri.body).toContain('checked');
    const after = (await admin.get('/console/access/clients')).body;
    expect(after.match(/<tr>/g)?.length).toBe(before.match(/<tr>/g)?.length);
  });

  it('escapes what users typed', async () => {
    const created = await admin.post('/console/access/clients', {
      name: '<script>alert(1)</script>',
      scopes: 'members',
    });
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain('<script>alert(1)</script>');
    expect(created.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const list = (await admin.get('/console/access/clients')).body;
    expect(list).not.toContain('<script>alert');
    const key = await admin.post('/console/access/keys', { name: '"><img src=x>', scopes: 'members' });
    expect(key.statusCode).toBe(201);
    expect((await admin.get('/console/access/keys')).body).not.toContain('<img src=x>');
  });

  it('creates an API key shown once that reads, and refuses it once revoked', async () => {
    const form = await admin.get('/console/access/keys/new');
    expect(form.statusCode).toBe(200);
    const noScopes = await admin.post('/console/access/keys', { name: 'No scopes' });
    expect(noScopes.statusCode).toBe(400);
    expect(noScopes.body).toContain('Select at least one thing it may do');
    const created = await admin.post('/console/access/keys', { name: 'Dashboard', scopes: 'members' });
    expect(created.statusCode).toBe(201);
    expect(created.body).toContain(SECRET_WARNING);
    const key = shownSecret(created.body);
    expect(key).toMatch(/^ak_/);
    expect(
      (await instance.call('GET', '/members', { auth: null, headers: { 'x-api-key': key } })).statusCode,
    ).toBe(200);
    const list = await admin.get('/console/access/keys');
    expect(list.body).toContain('Dashboard');
    expect(list.body).not.toContain(key);
    const revokeHref =
      /href="(\/console\/access\/keys\/[^"]+\/revoke)">Revoke<span class="visually-hidden"> <bdi>Dashboard/.exec(
        list.body,
      )?.[1];
    expect(revokeHref).toBeDefined();
    expect((await admin.get(revokeHref as string)).body).toContain('Revoke Dashboard?');
    const forged = await admin.post(revokeHref as string, {}, null);
    expect(forged.statusCode).toBe(403);
    expect(
      (await instance.call('GET', '/members', { auth: null, headers: { 'x-api-key': key } })).statusCode,
    ).toBe(200);
    const revoked = await admin.post(revokeHref as string, {});
    expect(revoked.statusCode).toBe(303);
    expect((await admin.get(revoked.headers.location as string)).body).toContain(
      'The API key Dashboard has been revoked.',
    );
    expect(
      (await instance.call('GET', '/members', { auth: null, headers: { 'x-api-key': key } })).statusCode,
    ).toBe(401);
  });

  it('refuses a form without the session’s token and changes nothing', async () => {
    const forged = await admin.post('/console/access/clients', { name: 'Forged', scopes: 'members' }, null);
    expect(forged.statusCode).toBe(403);
    expect((await admin.get('/console/access/clients')).body).not.toContain('Forged');
  });

  it('shows a user only their own clients and keys, and another’s as not found; an admin sees all', async () => {
    const user = await new ConsoleBrowser(instance).signIn(userEmail);
    const mine = await user.post('/console/access/clients', { name: 'Ursula’s tool', scopes: 'reports' });
    expect(mine.statusCode).toBe(201);
    const mineId = shownClientId(mine.body);
    await user.post('/console/access/keys', { name: 'Ursula’s key', scopes: 'reports' });
    const theirs = await admin.post('/console/access/clients', {
      name: 'Admin only tool',
      scopes: 'members',
    });
    const theirsId = shownClientId(theirs.body);

    const userList = (await user.get('/console/access/clients')).body;
    expect(userList).toContain('Ursula’s tool');
    expect(userList).not.toContain('Admin only tool');
    expect(userList).not.toContain('Initial client');
    expect((await user.get(`/console/access/clients/${theirsId}`)).statusCode).toBe(404);
    expect((await user.post(`/console/access/clients/${theirsId}/rotate`, {})).statusCode).toBe(404);
    expect((await user.post(`/console/access/clients/${theirsId}/delete`, {})).statusCode).toBe(404);
    expect((await admin.get(`/console/access/clients/${theirsId}`)).statusCode).toBe(200);
    const userKeys = (await user.get('/console/access/keys')).body;
    expect(userKeys).toContain('Ursula’s key');
    expect(userKeys).not.toContain('Dashboard');

    const adminList = (await admin.get('/console/access/clients')).body;
    expect(adminList).toContain('Ursula’s tool');
    expect(adminList).toContain(userEmail);
    expect((await admin.get(`/console/access/clients/${mineId}`)).body).toContain(userEmail);
    expect((await admin.get('/console/access/keys')).body).toContain('Ursula’s key');
  });

  it('gives a user who is not admin 403 on every users page, and changes nothing', async () => {
    const user = await new ConsoleBrowser(instance).signIn(userEmail);
    const target = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', userEmail)
      .executeTakeFirstOrThrow();
    for (const url of [
      '/console/access/users',
      `/console/access/users/${target.id}`,
      `/console/access/users/${target.id}/make-admin`,
      `/console/access/users/${target.id}/deactivate`,
    ]) {
      expect((await user.get(url)).statusCode, url).toBe(403);
    }
    expect((await user.post(`/console/access/users/${target.id}/make-admin`, {})).statusCode).toBe(403);
    const row = await instance.db.kysely
      .selectFrom('users')
      .select('role')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('user');
    expect((await admin.get('/console/access/users')).body).toContain(userEmail);
  });

  it('makes a user admin and back, after a confirmation; never oneself', async () => {
    const other = email('other');
    const made = await createUser(
      instance.db.kysely,
      {
        email: other,
        firstname: 'Otto',
        lastname: '<i>Other</i>',
      },
      cliActor(),
    );
    const page = await admin.get(`/console/access/users/${made.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&lt;i&gt;Other&lt;/i&gt;');
    expect((await admin.get(`/console/access/users/${made.id}/make-admin`)).body).toContain(
      'becomes an administrator',
    );
    expect((await admin.post(`/console/access/users/${made.id}/make-admin`, {}, null)).statusCode).toBe(403);
    const role = async () =>
      (
        await instance.db.kysely
          .selectFrom('users')
          .select('role')
          .where('id', '=', made.id)
          .executeTakeFirstOrThrow()
      ).role;
    expect(await role()).toBe('user');
    const done = await admin.post(`/console/access/users/${made.id}/make-admin`, {});
    expect(done.statusCode).toBe(303);
    expect((await admin.get(done.headers.location as string)).body).toContain('The user has been changed.');
    expect(await role()).toBe('admin');
    expect((await admin.post(`/console/access/users/${made.id}/remove-admin`, {})).statusCode).toBe(303);
    expect(await role()).toBe('user');
    const me = await instance.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.test')
      .executeTakeFirstOrThrow();
    const self = await admin.post(`/console/access/users/${me.id}/deactivate`, {});
    expect(self.statusCode).toBe(400);
    expect(self.body).toContain('<title>Error: ');
    expect((await admin.get('/console')).statusCode).toBe(200);
    expect((await admin.get(`/console/access/users/${made.id}/nonsense`)).statusCode).toBe(404);
  });

  it('deactivates a user: sessions end, sign-in, token requests, earlier tokens and API keys are refused; reactivation lets them sign in', async () => {
    const address = email('leaver');
    const PASSWORD = 'a long enough password';
    const leaver = await createUser(
      instance.db.kysely,
      {
        email: address,
        firstname: 'Lea',
        lastname: 'Ver',
      },
      cliActor(),
    );
    await setPassword(instance.db.kysely, address, PASSWORD);
    const client = await createClient(
      instance.db.kysely,
      {
        name: 'Leaver tool',
        userId: leaver.id,
        scopes: ['members'],
      },
      cliActor(),
    );
    const { apikey } = await createApiKey(
      instance.db.kysely,
      { userId: leaver.id, scopes: ['members'] },
      cliActor(),
    );
    const issued = await token(client.client_id, client.client_secret);
    expect(issued.statusCode).toBe(200);
    const bearer = `Bearer ${issued.json.data.access_token}`;
    expect((await instance.call('GET', '/members', { auth: bearer })).statusCode).toBe(200);
    const session = await new ConsoleBrowser(instance).signIn(address);
    expect((await session.get('/console/access/clients')).statusCode).toBe(200);
    const signIn = async () => {
      const browser = new ConsoleBrowser(instance);
      await browser.get('/console/sign-in');
      return (await browser.post('/console/sign-in', { email: address, password: PASSWORD })).statusCode;
    };
    expect(await signIn()).toBe(303);

    expect((await admin.get(`/console/access/users/${leaver.id}/deactivate`)).body).toContain(
      'Deactivate Lea Ver?',
    );
    const done = await admin.post(`/console/access/users/${leaver.id}/deactivate`, {});
    expect(done.statusCode).toBe(303);
    expect((await admin.get(done.headers.location as string)).body).toContain('Deactivated');
    expect((await session.get('/console/access/clients')).statusCode).toBe(303);
    expect(await signIn()).toBe(401);
    expect((await token(client.client_id, client.client_secret)).statusCode).toBe(401);
    expect((await instance.call('GET', '/members', { auth: bearer })).statusCode).toBe(401);
    expect(
      (await instance.call('GET', '/members', { auth: null, headers: { 'x-api-key': apikey } })).statusCode,
    ).toBe(401);

    expect((await admin.post(`/console/access/users/${leaver.id}/reactivate`, {})).statusCode).toBe(303);
    expect(await signIn()).toBe(303);
    expect((await instance.call('GET', '/members', { auth: bearer })).statusCode).toBe(401);
  });

  it('never leaves the instance without an active admin', async () => {
    const db = instance.db.kysely;
    const me = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.test')
      .executeTakeFirstOrThrow();
    const second = await createUser(
      db,
      {
        email: email('second'),
        firstname: 'S',
        lastname: 'A',
        admin: true,
      },
      cliActor(),
    );
    await deactivateUser(db, consoleActor(me.id, null), second.id);
    await expect(setUserRole(db, me.id, 'user', cliActor())).rejects.toThrow('the only active admin');
    await expect(deactivateUser(db, consoleActor(second.id, null), me.id)).rejects.toThrow(
      'the only active admin',
    );
    await reactivateUser(db, second.id, cliActor());
    await setUserRole(db, second.id, 'user', cliActor());
  });
});
