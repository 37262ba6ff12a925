import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import type { Db } from '../../src/db/database.js';
import { prepared, preparedPerDb, preparedPerDialect, preparedWritePerDb } from '../../src/db/prepared.js';
import { dialects, migratedDatabase } from '../helpers/instance.js';

const userByEmail = preparedPerDb(1, (db, email: string) =>
  db.selectFrom('users').select(['id', 'email']).where('email', '=', email),
);

let renameBuilds = 0;
const renameUser = preparedPerDialect(2, (db, _dialect, email: string, lastname: string) => {
  renameBuilds++;
  return db.updateTable('users').set({ lastname }).where('email', '=', email).returning('lastname');
});

for (const dialect of dialects) {
  describe(`queries compiled once (${dialect})`, () => {
    let db: Db;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ db, close } = await migratedDatabase(dialect));
    });
    afterAll(() => close());

    it('bind new arguments on every call, many at once, and never let one shape the SQL', async () => {
      const users = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          createUser(
            db.kysely,
            { email: `p${i}@example.test`, firstname: 'P', lastname: `${i}` },
            cliActor(),
          ),
        ),
      );
      const found = await Promise.all(
        Array.from({ length: 90 }, (_, i) => userByEmail(db.kysely)(`p${i % 30}@example.test`)),
      );
      found.forEach((rows, i) => {
        expect(rows).toEqual([{ id: users[i % 30]?.id, email: `p${i % 30}@example.test` }]);
      });
      expect(await userByEmail(db.kysely)("x' or '1'='1")).toEqual([]);
    });

    it('refuse, when compiled and naming the statement, an argument that does not reach the parameters as given', () => {
      const refused =
        /^prepared statement: (argument 1|an argument) of 1 does not reach the parameters unchanged .* Statement: select/;
      // Transformed inside the builder: the first call's transformation would be frozen, or skipped.
      expect(() =>
        prepared(db.kysely, 1, (email: string) =>
          db.kysely.selectFrom('users').select('id').where('email', '=', email.toLowerCase()),
        ),
      ).toThrow(refused);
      expect(() =>
        prepared(db.kysely, 1, (email: string) =>
          db.kysely.selectFrom('users').select('id').where('email', '=', email.trim()),
        ),
      ).toThrow(refused);
      // Embedded in a longer value.
      expect(() =>
        prepared(db.kysely, 1, (term: string) =>
          db.kysely.selectFrom('users').select('id').where('email', 'like', `%${term}%`),
        ),
      ).toThrow(refused);
      // Turned into something else altogether, or never used: the query would ignore the caller.
      expect(() =>
        prepared(db.kysely, 1, (id: string) =>
          db.kysely
            .selectFrom('users')
            .select('id')
            .where('id', '=', String(Number(id))),
        ),
      ).toThrow(refused);
      expect(() =>
        prepared(db.kysely, 1, (_unused: string) => db.kysely.selectFrom('users').select('id')),
      ).toThrow(/argument 1 of 1/);
      // A write is checked the same way.
      expect(() =>
        preparedWritePerDb(1, (kysely, email: string) =>
          kysely
            .updateTable('users')
            .set({ lastname: 'X' })
            .where('email', '=', email.toUpperCase())
            .returning('id'),
        )(db.kysely, dialect),
      ).toThrow(/prepared statement: .* Statement: update/);
    });

    it('compile once per dialect and run in each transaction given, its rollback undoing the write', async () => {
      const users = await Promise.all(
        ['a', 'b'].map((name) =>
          createUser(
            db.kysely,
            { email: `rename-${name}@example.test`, firstname: 'R', lastname: 'Before' },
            cliActor(),
          ),
        ),
      );
      const builds = renameBuilds;
      await db.kysely.transaction().execute(async (trx) => {
        expect(await renameUser(trx, dialect, 'rename-a@example.test', 'After')).toEqual([
          { lastname: 'After' },
        ]);
      });
      await expect(
        db.kysely.transaction().execute(async (trx) => {
          expect(await renameUser(trx, dialect, 'rename-b@example.test', 'Undone')).toHaveLength(1);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await renameUser(db.kysely, dialect, "x' or '1'='1", 'Nobody')).toEqual([]);
      // Built at most once for this dialect, whatever the number of transactions.
      expect(renameBuilds - builds).toBeLessThanOrEqual(1);
      const lastnames = await db.kysely
        .selectFrom('users')
        .select('lastname')
        .where(
          'id',
          'in',
          users.map((user) => user.id),
        )
        .orderBy('email')
        .execute();
      expect(lastnames).toEqual([{ lastname: 'After' }, { lastname: 'Before' }]);
    });

    it('run inside a transaction on its connection, seeing its own uncommitted rows', async () => {
      await expect(
        db.kysely.transaction().execute(async (trx) => {
          await createUser(trx, { email: 'inside@example.test', firstname: 'I', lastname: 'T' }, cliActor());
          expect(await userByEmail(trx)('inside@example.test')).toHaveLength(1);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await userByEmail(db.kysely)('inside@example.test')).toEqual([]);
    });
  });
}
