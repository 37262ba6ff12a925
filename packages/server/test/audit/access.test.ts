import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { type AuditRow, listAuditRows } from '../../src/audit/audit.repository.js';
import { createClient } from '../../src/auth/auth.service.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// Issue 23, part 3: every change to access (users, console sessions, OAuth clients, API keys,
// invitations) is in the audit log, through each door that makes it: the console's forms, the
// command line, the OAuth endpoints. Entries name ids and field names, never a value.

const PUBLIC_URL = 'https://assay.example.test';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'a long enough passphrase';

/** The client id and secret a "shown once" page shows. */
const shownSecret = (body: string) => /<code class="access-secret">([^<]+)<\/code>/.exec(body)?.[1] ?? '';
const shownClientId = (body: string) =>
  /<dd class="summary-list__value"><code>([^<]+)<\/code>/.exec(body)?.[1] ?? '';

describe.each(dialects)('the audit log of access changes (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let adminId: string;

  const assay = (...args: string[]) =>
    runAssay([
      ...args,
      '--data',
      instance.config.dataDir,
      ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
    ]);
  const entries = async (resource: string, id?: string): Promise<AuditRow[]> =>
    (
      await listAuditRows(instance.db.kysely, { limit: 1000, resourceType: resource, resourceId: id })
    ).reverse();
  const userId = async (address: string) =>
    (
      await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', address)
        .executeTakeFirstOrThrow()
    ).id;
  /** The parts of an entry a test compares: who, through which door, what, which fields, how it ended. */
  const shape = (row: AuditRow) => ({
    actor: `${row.actor_type}:${row.actor_id}`,
    user: row.user_id,
    channel: row.channel,
    address: row.address,
    what: `${row.resource_type}/${row.resource_id} ${row.action}`,
    fields: row.fields,
    outcome: row.outcome,
  });

  /** That the log holds no e-mail address and none of the values a test typed. */
  const holdsNone = async (typed: string[]) => {
    const all = JSON.stringify(await listAuditRows(instance.db.kysely, { limit: 10_000 }));
    expect(all).not.toContain('@');
    for (const value of typed.filter((text) => text.length > 0)) expect(all).not.toContain(value);
  };
  /** A client of the admin's own, for a test that revokes its tokens (the instance's stays unused). */
  const ownClient = (name: string) =>
    createClient(instance.db.kysely, { name, userId: adminId, scopes: ['members'] }, cliActor());

  beforeAll(async () => {
    instance = await startInstance(dialect, {
      env: { ASSAY_PUBLIC_URL: PUBLIC_URL, ASSAY_TOKEN_FAILURES_PER_MINUTE: '1000' },
    });
    adminId = await userId('admin@example.test');
    admin = await new ConsoleBrowser(instance, '192.0.2.10').signIn();
  });
  afterAll(() => instance?.close());

  it('records the first start, as the command line that started it', async () => {
    const made = (await entries('user', adminId)).map(shape);
    expect(made).toEqual([
      {
        actor: `cli:${cliActor().id}`,
        user: null,
        channel: 'cli',
        address: null,
        what: `user/${adminId} create`,
        fields: null,
        outcome: 'succeeded',
      },
    ]);
    expect((await entries('client', instance.client.client_id)).map((row) => row.action)).toEqual(['create']);
  });

  it('records a console sign-in, a refused one as denied and naming no one, and a sign-out', async () => {
    const signIns = (await entries('session', adminId)).map(shape);
    expect(signIns).toEqual([
      {
        actor: `user:${adminId}`,
        user: adminId,
        channel: 'console',
        address: '192.0.2.10',
        what: `session/${adminId} sign-in`,
        fields: null,
        outcome: 'succeeded',
      },
    ]);

    const stranger = new ConsoleBrowser(instance, '192.0.2.66');
    await stranger.get('/console/sign-in');
    const wrong = await stranger.post('/console/sign-in', {
      email: 'admin@example.test',
      password: 'not the password at all',
    });
    expect(wrong.statusCode).toBe(401);
    const denied = (await entries('session')).filter((row) => row.outcome === 'denied').map(shape);
    expect(denied).toEqual([
      {
        actor: 'anonymous:null',
        user: null,
        channel: 'console',
        address: '192.0.2.66',
        what: 'session/null sign-in',
        fields: null,
        outcome: 'denied',
      },
    ]);

    const other = await new ConsoleBrowser(instance, '192.0.2.11').signIn();
    expect((await other.post('/console/sign-out', {})).statusCode).toBe(303);
    const last = (await entries('session', adminId)).at(-1);
    expect(last && shape(last)).toMatchObject({
      actor: `user:${adminId}`,
      address: '192.0.2.11',
      what: `session/${adminId} sign-out`,
      outcome: 'succeeded',
    });
  });

  it('records a client created, rotated and deleted in the console, never its secret', async () => {
    const created = await admin.post('/console/access/clients', {
      name: 'Audited export',
      scopes: ['members'],
      redirects: '',
    });
    expect(created.statusCode).toBe(201);
    const id = shownClientId(created.body);
    const typed = ['Audited export', shownSecret(created.body)];
    const rotated = await admin.post(`/console/access/clients/${id}/rotate`, {});
    expect(rotated.statusCode).toBe(200);
    typed.push(shownSecret(rotated.body));
    expect((await admin.post(`/console/access/clients/${id}/delete`, {})).statusCode).toBe(303);

    expect((await entries('client', id)).map(shape)).toEqual(
      [
        ['create', null],
        ['rotate', 'secret'],
        ['delete', null],
      ].map(([action, fields]) => ({
        actor: `user:${adminId}`,
        user: adminId,
        channel: 'console',
        address: '192.0.2.10',
        what: `client/${id} ${action}`,
        fields,
        outcome: 'succeeded',
      })),
    );
    await holdsNone(typed);
  });

  it('records an API key created and revoked in the console, and a second revocation not at all', async () => {
    const created = await admin.post('/console/access/keys', { name: 'Audited key', scopes: ['groups'] });
    expect(created.statusCode).toBe(201);
    const typed = [shownSecret(created.body)];
    const key = await instance.db.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('name', '=', 'Audited key')
      .executeTakeFirstOrThrow();
    expect((await admin.post(`/console/access/keys/${key.id}/revoke`, {})).statusCode).toBe(303);
    expect((await admin.post(`/console/access/keys/${key.id}/revoke`, {})).statusCode).toBe(303);
    expect((await entries('apikey', key.id)).map((row) => [row.action, row.actor_id, row.channel])).toEqual([
      ['create', adminId, 'console'],
      ['revoke', adminId, 'console'],
    ]);

    expect((await assay('apikeys', 'create', '--scopes', 'members', '--name', 'CLI key')).code).toBe(0);
    const cliKey = await instance.db.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('name', '=', 'CLI key')
      .executeTakeFirstOrThrow();
    expect((await assay('apikeys', 'revoke', cliKey.id)).code).toBe(0);
    expect((await entries('apikey', cliKey.id)).map(shape)).toEqual(
      ['create', 'revoke'].map((action) => ({
        actor: `cli:${cliActor().id}`,
        user: null,
        channel: 'cli',
        address: null,
        what: `apikey/${cliKey.id} ${action}`,
        fields: null,
        outcome: 'succeeded',
      })),
    );
    await holdsNone(typed);
  });

  it('records users created, changed, deactivated and reactivated on the command line, with field names only', async () => {
    const address = email('audited');
    const typed = [address, 'Audrey', 'Auditee', 'Renamed', PASSWORD];
    const create = await assay(
      'users',
      'create',
      '--email',
      address,
      '--firstname',
      'Audrey',
      '--lastname',
      'Auditee',
      '--password',
      PASSWORD,
    );
    expect(create.code).toBe(0);
    const id = await userId(address);
    expect(
      (await assay('users', 'update', '--email', address, '--firstname', 'Renamed', '--color', '#1d4e89'))
        .code,
    ).toBe(0);
    expect((await assay('users', 'password', '--email', address, '--password', `${PASSWORD}!`)).code).toBe(0);
    expect((await assay('users', 'deactivate', '--email', address)).code).toBe(0);
    expect((await assay('users', 'reactivate', '--email', address)).code).toBe(0);

    expect((await entries('user', id)).map(shape)).toEqual(
      [
        ['create', null],
        ['update', 'firstname color'],
        ['update', 'password'],
        ['deactivate', null],
        ['reactivate', null],
      ].map(([action, fields]) => ({
        actor: `cli:${cliActor().id}`,
        user: null,
        channel: 'cli',
        address: null,
        what: `user/${id} ${action}`,
        fields,
        outcome: 'succeeded',
      })),
    );
    await holdsNone(typed);
  });

  it('leaves no entry for a refused change: the only admin losing the role, on the command line and in the console', async () => {
    const before = (await entries('user', adminId)).length;
    const refused = await assay('users', 'update', '--email', 'admin@example.test', '--no-admin');
    expect(refused.code).not.toBe(0);
    expect(await entries('user', adminId)).toHaveLength(before);

    const address = email('promoted');
    expect(
      (await assay('users', 'create', '--email', address, '--firstname', 'Pat', '--lastname', 'Promoted'))
        .code,
    ).toBe(0);
    const id = await userId(address);
    expect((await admin.post(`/console/access/users/${id}/make-admin`, {})).statusCode).toBe(303);
    expect((await admin.post(`/console/access/users/${id}/deactivate`, {})).statusCode).toBe(303);
    // Yourself: refused before anything is written.
    expect((await admin.post(`/console/access/users/${adminId}/deactivate`, {})).statusCode).toBe(400);
    expect(
      (await entries('user', id)).slice(1).map((row) => [row.action, row.fields, row.channel, row.address]),
    ).toEqual([
      ['update', 'role', 'console', '192.0.2.10'],
      ['deactivate', null, 'console', '192.0.2.10'],
    ]);
    expect((await entries('user', adminId)).map((row) => row.action)).not.toContain('deactivate');
  });

  it('records an invitation, its acceptance as the invitee, and a cancelled one as a delete', async () => {
    const address = email('invitee');
    const invited = await admin.post('/console/access/users/invite', {
      email: address,
      firstname: 'Ivy',
      lastname: 'Invitee',
      language: 'enUS',
    });
    expect(invited.statusCode).toBe(303);
    const id = await userId(address);
    expect((await admin.post(`/console/access/users/${id}/invitation/resend`, {})).statusCode).toBe(303);
    expect((await admin.post(`/console/access/users/${id}/invitation/cancel`, {})).statusCode).toBe(303);
    expect((await entries('user', id)).map((row) => [row.action, row.actor_id, row.channel])).toEqual([
      ['create', adminId, 'console'],
      ['invite', adminId, 'console'],
      ['invite', adminId, 'console'],
      ['delete', adminId, 'console'],
    ]);
    await holdsNone([address, 'Ivy', 'Invitee']);
  });

  it('records a dynamic registration as anonymous and a token revocation as its client, through the OAuth door', async () => {
    const registered = await instance.inject({
      method: 'POST',
      url: '/oauth/register',
      remoteAddress: '198.51.100.7',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        redirect_uris: ['http://127.0.0.1:7777/callback'],
        client_name: 'Audited app',
      }),
    });
    expect(registered.statusCode).toBe(201);
    const id = registered.json.client_id as string;
    expect((await entries('client', id)).map(shape)).toEqual([
      {
        actor: 'anonymous:null',
        user: null,
        channel: 'oauth',
        address: '198.51.100.7',
        what: `client/${id} register`,
        fields: null,
        outcome: 'succeeded',
      },
    ]);

    const client = await ownClient('Revoking app');
    const token = await instance.clientToken(client, 'members');
    const revoked = await instance.inject({
      method: 'POST',
      url: '/oauth/revoke',
      remoteAddress: '198.51.100.8',
      headers: FORM,
      payload: new URLSearchParams({
        token,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    const last = (await entries('client', client.client_id)).at(-1);
    expect(last && shape(last)).toEqual({
      actor: `client:${client.client_id}`,
      user: adminId,
      channel: 'oauth',
      address: '198.51.100.8',
      what: `client/${client.client_id} revoke-token`,
      fields: null,
      outcome: 'succeeded',
    });
    await holdsNone([token, client.client_secret]);
  });

  it('records a password changed on the account page by its name only, and branding by field names', async () => {
    // A user of its own, signed in from the admin's address: the admin's entries stay as the first
    // start left them.
    const address = email('account');
    expect(
      (
        await assay(
          'users',
          'create',
          '--email',
          address,
          '--firstname',
          'Acco',
          '--lastname',
          'Unt',
          '--password',
          PASSWORD,
        )
      ).code,
    ).toBe(0);
    const id = await userId(address);
    const user = await new ConsoleBrowser(instance, '192.0.2.10').signIn(address);
    const changed = await user.post('/console/account/password', {
      current: PASSWORD,
      next: `${PASSWORD} two`,
    });
    expect(changed.statusCode).toBe(303);
    const branded = await user.post('/console/branding', {
      agencyname: 'Audit Agency',
      agencyfooter: 'Street 1',
      color: '#1d4e89',
    });
    expect(branded.statusCode).toBe(303);
    const mine = (await entries('user', id)).filter((row) => row.channel === 'console');
    expect(mine.map((row) => [row.action, row.fields, row.address])).toEqual([
      ['update', 'password', '192.0.2.10'],
      ['update', 'agencyname agencyfooter color', '192.0.2.10'],
    ]);
    await holdsNone([address, 'Acco', 'Unt', 'Audit Agency', 'Street 1', PASSWORD, `${PASSWORD} two`]);
  });

  it('holds no value anywhere: no e-mail, name, secret, key or token', async () => {
    // Values of every kind, typed through each door by this test itself.
    const address = email('valued');
    expect(
      (
        await assay(
          'users',
          'create',
          '--email',
          address,
          '--firstname',
          'Valerie',
          '--lastname',
          'Valuable',
          '--password',
          PASSWORD,
        )
      ).code,
    ).toBe(0);
    const client = await admin.post('/console/access/clients', {
      name: 'Valued export',
      scopes: ['members'],
      redirects: '',
    });
    expect(client.statusCode).toBe(201);
    const key = await admin.post('/console/access/keys', { name: 'Valued key', scopes: ['groups'] });
    expect(key.statusCode).toBe(201);
    const invitee = email('valued-invitee');
    const invited = await admin.post('/console/access/users/invite', {
      email: invitee,
      firstname: 'Victoria',
      lastname: 'Invited',
      language: 'enUS',
    });
    expect(invited.statusCode).toBe(303);
    const app = await ownClient('Valued app');
    const token = await instance.clientToken(app, 'members');
    const revoked = await instance.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: FORM,
      payload: new URLSearchParams({
        token,
        client_id: app.client_id,
        client_secret: app.client_secret,
      }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    await holdsNone([
      address,
      'Valerie',
      'Valuable',
      PASSWORD,
      'Valued export',
      shownSecret(client.body),
      shownSecret(key.body),
      invitee,
      'Victoria',
      'Invited',
      token,
      app.client_secret,
    ]);
  });
});
