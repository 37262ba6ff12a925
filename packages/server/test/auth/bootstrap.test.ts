import { describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { bootstrapInstance } from '../../src/auth/auth.service.js';
import { dialects, migratedDatabase } from '../helpers/instance.js';

for (const dialect of dialects) {
  describe(`the first start (${dialect})`, () => {
    it('makes the all-scopes client once, and not again when the last client is deleted', async () => {
      const { db, close } = await migratedDatabase(dialect);
      try {
        const first = await bootstrapInstance(db.kysely, 'admin@example.test', cliActor());
        expect(first?.client.scopes).toBe('members groups campaigns reports settings samples webhooks audit');
        expect(await bootstrapInstance(db.kysely, 'admin@example.test', cliActor())).toBeUndefined();
        await db.kysely.deleteFrom('oauth_clients').execute();
        expect(await bootstrapInstance(db.kysely, 'admin@example.test', cliActor())).toBeUndefined();
        expect(await db.kysely.selectFrom('oauth_clients').selectAll().execute()).toEqual([]);
      } finally {
        await close();
      }
    });

    it('makes one client when two processes start an empty instance at once', async () => {
      const { db, close } = await migratedDatabase(dialect);
      try {
        const both = await Promise.all([
          bootstrapInstance(db.kysely, 'admin@example.test', cliActor()),
          bootstrapInstance(db.kysely, 'admin@example.test', cliActor()),
        ]);
        expect(both.filter(Boolean)).toHaveLength(1);
        expect(await db.kysely.selectFrom('oauth_clients').selectAll().execute()).toHaveLength(1);
      } finally {
        await close();
      }
    });
  });
}
