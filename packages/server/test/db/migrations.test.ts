import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import type { Db } from '../../src/db/database.js';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrate.js';
import { createMember } from '../../src/members/members.service.js';
import { dialects, freshDatabase } from '../helpers/instance.js';

const BEFORE_FOLDED_KEYS = '20261123T1200-change-notifications';

const legacyMember = (id: string, email: string, title: string | null) => ({
  id,
  title,
  firstname: 'F',
  middlename: null,
  lastname: 'L',
  email,
  phone: '',
  company: '',
  jobtitle: '',
  status: 'active',
  level: null,
  testuser: 0,
  group_id: null,
  extra: '{}',
  created: `2026-11-2${id.endsWith('1') ? 1 : 2}T10:00:00+00:00`,
});

for (const dialect of dialects) {
  describe(`migrations (${dialect})`, () => {
    let db: Db;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const fresh = await freshDatabase(dialect);
      db = fresh.db;
      drop = fresh.drop;
    });
    afterAll(async () => {
      await db.close();
      await drop();
    });

    it('are listed in order, oldest first', () => {
      expect(MIGRATION_NAMES).toEqual([...MIGRATION_NAMES].sort());
      expect(MIGRATION_NAMES).toContain(BEFORE_FOLDED_KEYS);
    });

    it('fold the keys of existing rows, keeping rows the old index let through as different', async () => {
      await migrateToLatest(db.kysely, BEFORE_FOLDED_KEYS);
      // `é` written as one code point and as e + combining accent: lower() keeps them apart.
      const composed = 'r\u00e9my@example.test';
      const decomposed = 're\u0301my@example.test';
      // biome-ignore lint/suspicious/noExplicitAny: the table as it was before the migration.
      const old = db.kysely as any;
      await old
        .insertInto('members')
        .values([
          legacyMember('LEGACY0001', composed, null),
          legacyMember('LEGACY0002', decomposed, 'Dr.'),
          legacyMember('LEGACY0003', 'Plain@Example.test', null),
        ])
        .execute();

      expect(await migrateToLatest(db.kysely)).toEqual(
        MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf(BEFORE_FOLDED_KEYS) + 1),
      );
      const rows = await db.kysely
        .selectFrom('members')
        .select(['id', 'email', 'email_key', 'title', 'middlename'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'LEGACY0001', email: composed, email_key: composed, title: '', middlename: '' },
        {
          id: 'LEGACY0002',
          email: decomposed,
          email_key: `${composed}#duplicate:LEGACY0002`,
          title: 'Dr.',
          middlename: '',
        },
        {
          id: 'LEGACY0003',
          email: 'Plain@Example.test',
          email_key: 'plain@example.test',
          title: '',
          middlename: '',
        },
      ]);
      // The key the oldest row holds is taken for every new row, in either spelling or case.
      for (const email of [decomposed.toUpperCase(), 'PLAIN@example.test']) {
        await expect(
          createMember(db.kysely, cliActor(), { email, firstname: 'N', lastname: 'W' }),
        ).rejects.toThrow('email: already exists');
      }
    });
  });
}
