import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConsoleTour, describeInBrowser, LANGUAGES, startConsoleTour } from './browser.js';

// axe-core on every state of the console's members, groups and CSV import, in each of the four
// languages, at a phone's width (360 px, nothing scrolls sideways); the import by a real file
// upload in Chromium, and the search by keyboard.

describeInBrowser('the console’s members, groups and import pass axe-core and fit a phone', () => {
  let tour: ConsoleTour;
  const api = (method: string, path: string, body?: unknown) =>
    tour.served.instance.call(method, path, { body });

  beforeAll(async () => {
    tour = await startConsoleTour('console-members');
  });
  afterAll(() => tour?.close());

  it('every empty page and form error, in every language', async () => {
    const { violations, go, follow, state, useLanguage } = tour;
    for (const each of LANGUAGES) {
      await useLanguage(each);
      await go('/console/members');
      await state('members-empty', 200);
      await go('/console/groups');
      await state('groups-empty', 200);
      await go('/console/members/new');
      await state('member-form', 200);
      await follow('main button[type=submit]');
      await state('member-form-errors', 400);
      await go('/console/groups/new');
      await state('group-form', 200);
      await follow('main button[type=submit]');
      await state('group-form-errors', 400);
      await go('/console/members/import');
      await state('import-form', 200);
      await follow('main button[type=submit]');
      await state('import-form-errors', 400);
    }
    expect(violations).toEqual([]);
  }, 180_000);

  it('every filled page, the import by a file upload and the search by keyboard, in every language', async () => {
    const { served, page, violations, go, follow, enter, state, useLanguage } = tour;
    const europe = (await api('POST', '/groups', { name: 'Europe', alias: 'europe' })).json.data.groupid;
    const israel = (await api('POST', '/groups', { name: 'ישראל', alias: 'israel', parentgroup: europe }))
      .json.data.groupid;
    const rows = Array.from({ length: 60 }, (_, i) => ({
      email: `member-${String(i).padStart(2, '0')}@example.test`,
      firstname: i % 2 ? 'שרה' : 'Ada',
      lastname: i % 2 ? 'כהן' : `Lovelace-with-a-rather-long-name-${i}`,
    }));
    const created = (await api('POST', '/members/import', { members: rows, groupid: israel })).json.data
      .created;
    const member = created[0] as string;
    for (const each of LANGUAGES) {
      await useLanguage(each);
      await go('/console/members');
      await state('members-filled', 200);
      // The search, by keyboard: focus the field, type, Enter.
      await page.locator('#member-search').focus();
      await page.keyboard.type('nobody-here');
      await enter();
      await state('members-search-no-result', 200);
      await page.locator('#member-search').fill('');
      await page.locator('#member-search').focus();
      await page.keyboard.type('שרה');
      await enter();
      expect(await page.locator('main tbody tr').count()).toBeGreaterThanOrEqual(30);
      await state('members-search', 200);
      await go(`/console/members/${member}`);
      await state('member', 200);
      await go(`/console/members/${member}/edit`);
      await page.locator('#field-email').fill('not an address');
      await follow('main button[type=submit]');
      await state('member-edit-error', 400);
      await go('/console/groups');
      await state('groups-filled', 200);
      await go(`/console/groups/${europe}/move`);
      await state('group-move', 200);
      await go(`/console/groups/${israel}/members`);
      await state('group-members', 200);
      await follow('main button[type=submit]');
      await state('group-members-error', 400);

      // The import: a real file chosen in the form, checked, fixed, imported.
      const prefix = `${each.language.toLowerCase()}-`;
      await go('/console/members/import');
      await page.locator('#field-file').setInputFiles({
        name: 'members.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `email,firstname,lastname\n${prefix}1@example.test,Ada,Lovelace\nnot-an-address,שרה,כהן\n${prefix}3@example.test,,X\n`,
        ),
      });
      await follow('main button[type=submit]');
      await state('import-check-errors', 200);
      expect(await page.locator('.error-cell').count()).toBe(2);
      await follow('main a.button');
      await page.locator('#field-file').setInputFiles({
        name: 'members.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `email,firstname,lastname\n${prefix}1@example.test,Ada,Lovelace\n${prefix}2@example.test,שרה,כהן\n`,
        ),
      });
      await follow('main button[type=submit]');
      await state('import-check-ok', 200);
      await follow('main form button[type=submit]');
      await state('import-done', 200);
      const imported = await served.instance.db.kysely
        .selectFrom('members')
        .select('email')
        .where('email', 'like', `${prefix}%`)
        .execute();
      expect(imported).toHaveLength(2);
    }
    expect(violations).toEqual([]);
  }, 300_000);
});
