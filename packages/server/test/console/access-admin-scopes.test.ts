import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { REFUSALS } from '../../src/console/refusal-strings.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// The console's forms for clients and API keys offer a user only the families their role may use:
// the audit log's is for admins. A forged form naming it is refused next to the scopes, in the
// operator's language, and makes nothing.

const AUDIT_CHOICE = 'value="audit"';
const REFUSAL = 'only an admin may use {scopes}';

describe.each(dialects)('console access: the audit family is for admins only (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let user: ConsoleBrowser;
  let userId: string;
  let userEmail: string;

  const count = async (table: 'oauth_clients' | 'api_keys', owner: string) =>
    Number(
      (
        await instance.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', owner)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    instance = await startInstance(dialect);
    admin = await new ConsoleBrowser(instance).signIn();
    userEmail = email('operator');
    userId = (
      await createUser(
        instance.db.kysely,
        { email: userEmail, firstname: 'Olga', lastname: 'Op' },
        cliActor(),
      )
    ).id;
    user = await new ConsoleBrowser(instance).signIn(userEmail);
  });
  afterAll(() => instance?.close());

  it('offers the audit log only on an admin’s forms', async () => {
    for (const form of ['/console/access/clients/new', '/console/access/keys/new']) {
      const mine = await user.get(form);
      expect(mine.statusCode).toBe(200);
      expect(mine.body).not.toContain(AUDIT_CHOICE);
      expect(mine.body).toContain('value="members"');
      expect((await admin.get(form)).body).toContain(AUDIT_CHOICE);
    }
  });

  it('refuses a forged form naming audit next to the scopes, in the operator’s language, and makes nothing', async () => {
    const english = REFUSALS.find((text) => text.en === REFUSAL);
    expect(english).toBeDefined();
    for (const [form, table] of [
      ['/console/access/clients', 'oauth_clients'],
      ['/console/access/keys', 'api_keys'],
    ] as const) {
      const refused = await user.post(form, { name: 'Log reader', scopes: ['members', 'audit'] });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('href="#scopes"');
      expect(refused.body).toMatch(/id="scopes-error"[^>]*>.*only an admin may use audit/s);
      expect(refused.body).not.toContain(AUDIT_CHOICE);
      expect(await count(table, userId)).toBe(0);
    }
    const dutch = await new ConsoleBrowser(instance).signIn(userEmail);
    await dutch.post('/console/language', { language: 'nlNL', next: '/console' });
    const refused = await dutch.post('/console/access/keys', { name: 'Log', scopes: 'audit' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(english?.nlNL.replace('{scopes}', 'audit'));
    expect(await count('api_keys', userId)).toBe(0);
  });

  it('lets an admin give the audit log to their client and key', async () => {
    const adminId = (
      await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.test')
        .executeTakeFirstOrThrow()
    ).id;
    const clients = await count('oauth_clients', adminId);
    const client = await admin.post('/console/access/clients', { name: 'Log', scopes: ['audit'] });
    expect(client.statusCode).toBe(201);
    expect(await count('oauth_clients', adminId)).toBe(clients + 1);
    const key = await admin.post('/console/access/keys', { name: 'Log', scopes: ['audit'] });
    expect(key.statusCode).toBe(201);
  });
});
