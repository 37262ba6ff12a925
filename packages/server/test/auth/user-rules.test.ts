import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { DEFAULT_BRAND_COLOR, MIN_PASSWORD_LENGTH, passwordProblem } from '../../src/auth/user-rules.js';
import { setPassword } from '../../src/cli/commands.js';
import { create } from '../../src/cli/users.commands.js';
import type { Db } from '../../src/db/database.js';
import { DEFAULT_COLOR } from '../../src/reports/report-pdf.js';
import { email, migratedDatabase } from '../helpers/instance.js';

// The rules of a platform user live once (src/auth/user-rules.ts); every place that applies one
// says the same.
describe('user rules', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await migratedDatabase('sqlite'));
  });
  afterAll(() => close());

  it('take a password of 12 characters and refuse one shorter, in both commands that set one', async () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect(passwordProblem('a'.repeat(11))).toBe('must be at least 12 characters');
    expect(passwordProblem('a'.repeat(12))).toBeUndefined();

    const short = 'a'.repeat(11);
    await expect(
      create(db.kysely, { email: email('u'), firstname: 'U', lastname: 'R', password: short }),
    ).rejects.toThrow('--password: must be at least 12 characters');
    const user = await createUser(
      db.kysely,
      { email: email('u'), firstname: 'U', lastname: 'R' },
      cliActor(),
    );
    await expect(setPassword(db.kysely, user.email, short)).rejects.toThrow(
      'password: must be at least 12 characters',
    );
    await expect(setPassword(db.kysely, user.email, 'a'.repeat(12))).resolves.toBeUndefined();
  });

  it('give a new user and a report no user brands the same default colour', async () => {
    const user = await createUser(
      db.kysely,
      { email: email('c'), firstname: 'C', lastname: 'L' },
      cliActor(),
    );
    expect(user.color).toBe(DEFAULT_BRAND_COLOR);
    expect(DEFAULT_COLOR).toBe(DEFAULT_BRAND_COLOR);
    // The first migration writes the same default into the column: a row written without a colour agrees.
    const { color: _color, ...withoutColor } = user;
    await db.kysely
      .insertInto('users')
      .values({
        ...withoutColor,
        id: 'RAWCOLOR01',
        email: 'raw@example.test',
        email_key: 'raw@example.test',
      } as never)
      .execute();
    const raw = await db.kysely
      .selectFrom('users')
      .select('color')
      .where('id', '=', 'RAWCOLOR01')
      .executeTakeFirstOrThrow();
    expect(raw.color).toBe(DEFAULT_BRAND_COLOR);
  });
});
