import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { findApiKey, findApiKeyByHash, findClient } from '../../src/auth/auth.repository.js';
import {
  createApiKey,
  createClient,
  createUser,
  deleteClient,
  type Manager,
  revokeApiKey,
  updateClientScopes,
} from '../../src/auth/auth.service.js';
import type { UserRow } from '../../src/auth/auth.table.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { NotFound } from '../../src/domain/errors.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// A client or key is changed only by its owner, an admin, or the operator at the command line:
// checked by the services themselves, so that no door (the console, the command line, the next
// one) can forget it. Another user's is not found, as the console's pages say.

describe.each(dialects)('who may change a client or an API key (%s)', (dialect) => {
  let instance: Instance;
  let owner: UserRow;
  let other: UserRow;
  let admin: UserRow;
  const managerOf = (user: UserRow): Manager => ({ id: user.id, role: user.role });

  beforeAll(async () => {
    instance = await startInstance(dialect);
    const make = (prefix: string, isAdmin: boolean) =>
      createUser(
        instance.db.kysely,
        { email: email(prefix), firstname: 'A', lastname: 'User', admin: isAdmin },
        cliActor(),
      );
    owner = await make('owner', false);
    other = await make('other', false);
    admin = await make('boss', true);
  });
  afterAll(async () => {
    await instance?.close();
  });

  const newClient = () =>
    createClient(instance.db.kysely, { name: 'Sync', userId: owner.id, scopes: ['members'] }, cliActor());
  const newKey = async () => {
    const { apikey } = await createApiKey(
      instance.db.kysely,
      { userId: owner.id, scopes: ['members'] },
      cliActor(),
    );
    const row = await findApiKeyByHash(instance.db.kysely, hashSecret(apikey));
    if (!row) throw new Error('the key was not stored');
    return row.id;
  };

  it("refuses another user's client and key as not found, and changes nothing", async () => {
    const client = await newClient();
    const keyId = await newKey();
    const db = instance.db.kysely;
    const before = await findClient(db, client.client_id);
    await expect(
      updateClientScopes(db, managerOf(other), client.client_id, undefined, cliActor()),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(deleteClient(db, managerOf(other), client.client_id, cliActor())).rejects.toBeInstanceOf(
      NotFound,
    );
    await expect(revokeApiKey(db, managerOf(other), keyId, cliActor())).rejects.toBeInstanceOf(NotFound);
    expect(await findClient(db, client.client_id)).toEqual(before);
    expect((await findApiKey(db, keyId))?.revoked).toBeNull();
  });

  it('lets the owner, an admin and the operator change them', async () => {
    const db = instance.db.kysely;
    for (const by of [managerOf(owner), managerOf(admin), 'operator' as const]) {
      const client = await newClient();
      const rotated = await updateClientScopes(db, by, client.client_id, undefined, cliActor());
      expect(rotated.client_secret).not.toBe(client.client_secret);
      await deleteClient(db, by, client.client_id, cliActor());
      expect(await findClient(db, client.client_id)).toBeUndefined();
      const keyId = await newKey();
      expect((await revokeApiKey(db, by, keyId, cliActor())).before).toBe(false);
    }
  });
});
