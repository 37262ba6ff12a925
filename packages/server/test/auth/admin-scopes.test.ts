import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createApiKey, createClient, createUser, setUserRole } from '../../src/auth/auth.service.js';
import { hashPassword } from '../../src/auth/secrets.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// The audit log names every operator's sign-ins, invitations and addresses: its family is for
// admins only. A user who is not an admin cannot give it to a client or key (command line, OAuth
// registration and approval, token grant), and a credential that holds it is refused on it once
// its user is no longer an admin. The console's forms are in test/console/access-admin-scopes.test.ts.

const PUBLIC_URL = 'https://assay.example.test';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const PASSWORD = 'correct horse battery staple';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const REFUSAL = 'only an admin may use audit';
const NOT_AUDIT = 'members groups campaigns reports settings samples webhooks';

describe.each(dialects)('the audit family is for admins only (%s)', (dialect) => {
  let instance: Instance;
  let caller = 0;

  const assay = (...args: string[]) =>
    runAssay([
      ...args,
      '--data',
      instance.config.dataDir,
      ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
    ]);
  /** A platform user with a password, an admin or not. */
  const newUser = async (prefix: string, admin = false) => {
    const user = await createUser(
      instance.db.kysely,
      { email: email(prefix), firstname: 'A', lastname: 'User', admin },
      cliActor(),
    );
    await instance.db.kysely
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', user.id)
      .execute();
    return user;
  };
  const count = async (table: 'oauth_clients' | 'api_keys', userId: string) =>
    Number(
      (
        await instance.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const clientCredentials = (client: { client_id: string; client_secret: string }, scope: string) =>
    instance.inject({
      method: 'POST',
      url: '/api/v1/auth/access_token',
      headers: FORM,
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret,
        scope,
      }).toString(),
    });
  const audit = (headers: Record<string, string>) =>
    instance.inject({ method: 'GET', url: '/api/v1/audit', headers });
  const members = (headers: Record<string, string>) =>
    instance.inject({ method: 'GET', url: '/api/v1/members', headers });

  beforeAll(async () => {
    instance = await startInstance(dialect, {
      env: { ASSAY_PUBLIC_URL: PUBLIC_URL, ASSAY_TOKEN_FAILURES_PER_MINUTE: '1000' },
    });
  });
  afterAll(() => instance?.close());

  it('the command line refuses audit for a user who is not an admin, naming it, and makes nothing', async () => {
    const user = await newUser('cli');
    const made = await assay('clients', 'create', '--name', 'Log reader', '--scopes', 'members audit');
    expect(made.code, made.stderr).toBe(0);

    const client = await assay(
      'clients',
      'create',
      '--name',
      'Log reader',
      '--scopes',
      'members audit',
      '--user',
      user.email,
    );
    expect(client.code).toBe(1);
    expect(client.stderr).toContain(`scopes: ${REFUSAL}`);
    expect(await count('oauth_clients', user.id)).toBe(0);

    const key = await assay('apikeys', 'create', '--scopes', 'audit', '--user', user.email);
    expect(key.code).toBe(1);
    expect(key.stderr).toContain(`scopes: ${REFUSAL}`);
    expect(await count('api_keys', user.id)).toBe(0);

    // Their own client, then widened to the log: refused, and the client stays as it was.
    const own = await assay(
      'clients',
      'create',
      '--name',
      'Mine',
      '--scopes',
      'members',
      '--user',
      user.email,
      '--json',
    );
    expect(own.code, own.stderr).toBe(0);
    const issued = JSON.parse(own.stdout) as { client_id: string; client_secret: string };
    const widened = await assay('clients', 'update', issued.client_id, '--scopes', 'members audit');
    expect(widened.code).toBe(1);
    expect(widened.stderr).toContain(`scopes: ${REFUSAL}`);
    expect((await clientCredentials(issued, 'members')).statusCode).toBe(200);
    const row = await instance.db.kysely
      .selectFrom('oauth_clients')
      .select('scopes')
      .where('id', '=', issued.client_id)
      .executeTakeFirstOrThrow();
    expect(row.scopes).toBe('members');
  });

  it('gives no audit token to a client whose owner is no longer an admin', async () => {
    const owner = await newUser('demoted-owner', true);
    const client = await createClient(
      instance.db.kysely,
      { name: 'Log reader', userId: owner.id, scopes: ['members', 'audit'] },
      cliActor(),
    );
    expect((await clientCredentials(client, 'audit')).statusCode).toBe(200);

    await setUserRole(instance.db.kysely, owner.id, 'user', cliActor());
    const refused = await clientCredentials(client, 'members audit');
    expect(refused.statusCode).toBe(400);
    expect(refused.json.error).toBe('invalid_scope');
    expect(refused.json.error_description).toContain(REFUSAL);
    expect((await clientCredentials(client, 'members')).statusCode).toBe(200);
  });

  it('refuses the log to a token and an API key whose user was demoted after they were made', async () => {
    const admin = await newUser('demoted', true);
    const client = await createClient(
      instance.db.kysely,
      { name: 'Log reader', userId: admin.id, scopes: ['members', 'audit'] },
      cliActor(),
    );
    const token = (await clientCredentials(client, 'members audit')).json.data.access_token as string;
    const bearer = { authorization: `Bearer ${token}` };
    const { apikey } = await createApiKey(
      instance.db.kysely,
      { userId: admin.id, scopes: ['members', 'audit'] },
      cliActor(),
    );
    const key = { 'x-api-key': apikey };
    // Read twice, so the token is known to the process's caches before the role changes.
    for (let read = 0; read < 2; read++) {
      expect((await audit(bearer)).statusCode).toBe(200);
      expect((await audit(key)).statusCode).toBe(200);
    }

    await setUserRole(instance.db.kysely, admin.id, 'user', cliActor());
    for (const headers of [bearer, key]) {
      const refused = await audit(headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json).toEqual({ error: 'forbidden', message: expect.stringContaining('"audit"') });
      expect(refused.json.message).toContain('admin');
      // The other families of the same credentials are theirs still.
      expect((await members(headers)).statusCode).toBe(200);
    }

    // An admin again: the same credentials read the log again.
    await setUserRole(instance.db.kysely, admin.id, 'admin', cliActor());
    expect((await audit(bearer)).statusCode).toBe(200);
    expect((await audit(key)).statusCode).toBe(200);
  });

  it('offers the log among a demoted user’s MCP tools no more', async () => {
    const admin = await newUser('demoted-mcp', true);
    const client = await createClient(
      instance.db.kysely,
      { name: 'Assistant', userId: admin.id, scopes: ['members', 'audit'] },
      cliActor(),
    );
    const token = (await clientCredentials(client, 'members audit')).json.data.access_token as string;
    const tools = async () => {
      const answer = await instance.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          ...JSON_TYPE,
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json.result.tools as { name: string }[]).map((tool) => tool.name);
    };
    expect(await tools()).toContain('listAuditEntries');
    await setUserRole(instance.db.kysely, admin.id, 'user', cliActor());
    const after = await tools();
    expect(after).not.toContain('listAuditEntries');
    expect(after).toContain('findMembers');
  });

  describe('a registered client, approved on the sign-in page', () => {
    const pkce = () => {
      const verifier = randomBytes(32).toString('base64url');
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
    };
    /** RFC 7591 registration with no scope: the client may ask for every family. */
    const register = async () => {
      const answer = await instance.inject({
        method: 'POST',
        url: '/oauth/register',
        headers: JSON_TYPE,
        remoteAddress: `10.9.0.${++caller}`,
        payload: JSON.stringify({ client_name: 'An assistant', redirect_uris: [REDIRECT] }),
      });
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json.client_id as string;
    };
    /** Opens the sign-in page and allows as the user; the page's answer. */
    const approve = async (query: Record<string, string>, userEmail: string) => {
      const url = `/api/v1/auth/authorize?${new URLSearchParams(query)}`;
      const page = await instance.inject({ method: 'GET', url });
      expect(page.statusCode, page.body).toBe(200);
      const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] as string;
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
      const posted = await instance.inject({
        method: 'POST',
        url: '/api/v1/auth/authorize',
        headers: { ...FORM, cookie },
        payload: new URLSearchParams({
          ...query,
          csrf,
          email: userEmail,
          password: PASSWORD,
          decision: 'approve',
        }).toString(),
      });
      return { page, posted };
    };
    /** The whole flow for one user; the token's scope (or the refusal's page). */
    const flow = async (clientId: string, userEmail: string, scope?: string) => {
      const { verifier, challenge } = pkce();
      const query: Record<string, string> = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...(scope === undefined ? {} : { scope }),
      };
      const { page, posted } = await approve(query, userEmail);
      if (posted.statusCode !== 303) return { page, posted };
      const code = new URL(String(posted.headers.location)).searchParams.get('code') as string;
      expect(code).toBeTruthy();
      const token = await instance.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: FORM,
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        }).toString(),
      });
      expect(token.statusCode, token.body).toBe(200);
      return { page, posted, token: token.json as { access_token: string; scope: string } };
    };
    const clientRow = (id: string) =>
      instance.db.kysely
        .selectFrom('oauth_clients')
        .select(['scopes', 'registration', 'user_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('refuses a non-admin who allows an explicit ask for audit, naming it, and issues nothing', async () => {
      const user = await newUser('approver');
      const clientId = await register();
      const { page, posted, token } = await flow(clientId, user.email, 'members audit');
      expect(token).toBeUndefined();
      // The page marks the family as not for everyone before anyone signs in.
      expect(page.body).toContain('audit (admins only)');
      expect(posted.statusCode).toBe(403);
      expect(posted.headers.location).toBeUndefined();
      expect(posted.body).toContain(REFUSAL);
      expect(await clientRow(clientId)).toMatchObject({ registration: 'unclaimed' });
      const codes = await instance.db.kysely
        .selectFrom('oauth_codes')
        .select('code_hash')
        .where('client_id', '=', clientId)
        .execute();
      expect(codes).toEqual([]);
    });

    it('gives a non-admin who allows a request naming no scope every family but audit', async () => {
      const user = await newUser('implicit');
      const clientId = await register();
      const { token } = await flow(clientId, user.email);
      expect(token?.scope).toBe(NOT_AUDIT);
      const bearer = { authorization: `Bearer ${token?.access_token}` };
      expect((await members(bearer)).statusCode).toBe(200);
      expect((await audit(bearer)).statusCode).toBe(403);
      // They own it now, and it holds only what its owner may use.
      expect(await clientRow(clientId)).toEqual({
        scopes: NOT_AUDIT,
        registration: 'claimed',
        user_id: user.id,
      });
    });

    it('lets an admin allow the log, asked for or not', async () => {
      const admin = await newUser('approving-admin', true);
      const explicit = await flow(await register(), admin.email, 'members audit');
      expect(explicit.token?.scope).toBe('members audit');
      expect((await audit({ authorization: `Bearer ${explicit.token?.access_token}` })).statusCode).toBe(200);
      const implicit = await flow(await register(), admin.email);
      expect(implicit.token?.scope).toBe(`${NOT_AUDIT} audit`);
      expect((await audit({ authorization: `Bearer ${implicit.token?.access_token}` })).statusCode).toBe(200);
    });
  });
});
