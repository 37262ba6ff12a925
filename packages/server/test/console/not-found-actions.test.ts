import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

const shownClientId = (body: string) =>
  /<dd class="summary-list__value"><code>([^<]+)<\/code>/.exec(body)?.[1] ?? '';

/**
 * A console action on one thing answers as the thing's page does: what the page shows as not found
 * to this operator (another user's client or API key, a webhook that is not there), its POSTs refuse
 * with the same not-found page, never a redirect, and change nothing. (The outbox's mails:
 * test/console/user-invite.test.ts.)
 */
describe.each(dialects)('console: actions on what one may not see (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let user: ConsoleBrowser;

  beforeAll(async () => {
    instance = await startInstance(dialect);
    const address = email('plain');
    await createUser(instance.db.kysely, { email: address, firstname: 'Pia', lastname: 'Plain' }, cliActor());
    admin = await new ConsoleBrowser(instance).signIn();
    user = await new ConsoleBrowser(instance).signIn(address);
  });
  afterAll(() => instance?.close());

  /** The action's refusal is the page's own: 404, the console's not-found page. */
  async function expectSameRefusal(page: string, action: string) {
    const shown = await user.get(page);
    expect(shown.statusCode, page).toBe(404);
    expect(shown.body).toContain('Page not found');
    const refused = await user.post(action, {});
    expect(refused.statusCode, action).toBe(404);
    expect(refused.headers.location, action).toBeUndefined();
    expect(refused.body, action).toContain('Page not found');
  }

  it('refuses another user’s client and API key as their pages do, and leaves them as they are', async () => {
    await admin.get('/console/access/clients/new');
    const client = await admin.post('/console/access/clients', { name: 'Admin tool', scopes: 'members' });
    expect(client.statusCode).toBe(201);
    const clientId = shownClientId(client.body);
    await admin.get('/console/access/keys/new');
    expect(
      (await admin.post('/console/access/keys', { name: 'Admin key', scopes: 'members' })).statusCode,
    ).toBe(201);
    const key = await instance.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('name', '=', 'Admin key')
      .executeTakeFirstOrThrow();
    const clientRow = () =>
      instance.db.kysely
        .selectFrom('oauth_clients')
        .selectAll()
        .where('id', '=', clientId)
        .executeTakeFirst();
    const before = { client: await clientRow(), key };

    const clientPage = `/console/access/clients/${clientId}`;
    await expectSameRefusal(clientPage, `${clientPage}/rotate`);
    await expectSameRefusal(`${clientPage}/delete`, `${clientPage}/delete`);
    await expectSameRefusal(`/console/access/keys/${key.id}/revoke`, `/console/access/keys/${key.id}/revoke`);

    const after = {
      client: await clientRow(),
      key: await instance.db.kysely
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', key.id)
        .executeTakeFirst(),
    };
    expect(after).toEqual(before);
  });

  it('refuses every action on a webhook that is not there as its page does', async () => {
    const page = '/console/webhooks/NoSuchWebhook';
    for (const action of ['edit', 'enable', 'disable', 'test', 'rotate', 'delete']) {
      await expectSameRefusal(page, `${page}/${action}`);
    }
    expect(await instance.db.kysely.selectFrom('webhook_outbox').selectAll().execute()).toEqual([]);
  });
});
