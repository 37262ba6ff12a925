import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { claimClient } from '../../src/auth/auth.repository.js';
import { createUser } from '../../src/auth/auth.service.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

/** Clients that registered themselves (RFC 7591) in the console's access pages: marked, deletable, no secret. */
describe.each(dialects)('console access: registered clients (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    instance = await startInstance(dialect);
    admin = await new ConsoleBrowser(instance).signIn();
  });
  afterAll(() => instance?.close());

  const register = async (name: string) => {
    const answer = await instance.inject({
      method: 'POST',
      url: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], client_name: name }),
    });
    expect(answer.statusCode).toBe(201);
    return answer.json.client_id as string;
  };

  it('lists a registered client with its marker, shows no secret to rotate, and deletes it', async () => {
    const id = await register('<b>Agent</b> & co');
    const list = await admin.get('/console/access/clients');
    expect(list.statusCode).toBe(200);
    // Its self-chosen name escaped, with the marker beside it.
    expect(list.body).toContain(
      '&lt;b&gt;Agent&lt;/b&gt; &amp; co</bdi></a> <strong class="tag">registered</strong>',
    );
    expect(list.body).not.toContain('<b>Agent</b>');

    const page = await admin.get(`/console/access/clients/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This application registered itself');
    expect(page.body).not.toContain(`/console/access/clients/${id}/rotate`);
    // A rotation posted anyway is refused and changes nothing.
    const rotated = await admin.post(`/console/access/clients/${id}/rotate`, {});
    expect(rotated.statusCode).toBe(400);
    expect(rotated.body).toContain('It has no secret');
    const row = await instance.db.kysely
      .selectFrom('oauth_clients')
      .select(['secret_hash', 'secret_version'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ secret_hash: '', secret_version: 1 });

    expect((await admin.post(`/console/access/clients/${id}/delete`, {})).statusCode).toBe(303);
    const gone = await instance.db.kysely
      .selectFrom('oauth_clients')
      .select('id')
      .where('id', '=', id)
      .execute();
    expect(gone).toEqual([]);
  });

  it('shows a claimed client to the user who approved it, not to another user', async () => {
    const id = await register('Claimed agent');
    const ownerEmail = email('owner');
    const owner = await createUser(
      instance.db.kysely,
      {
        email: ownerEmail,
        firstname: 'O',
        lastname: 'Wner',
      },
      cliActor(),
    );
    const other = await createUser(
      instance.db.kysely,
      {
        email: email('other'),
        firstname: 'A',
        lastname: 'Nother',
      },
      cliActor(),
    );
    expect(await claimClient(instance.db.kysely, id, owner.id)).toBe(true);
    // Once only: a second approval does not take it over.
    expect(await claimClient(instance.db.kysely, id, other.id)).toBe(false);
    const list = await admin.get('/console/access/clients');
    expect(list.body).toContain('Claimed agent');
    expect(list.body).toContain(ownerEmail);
  });
});
