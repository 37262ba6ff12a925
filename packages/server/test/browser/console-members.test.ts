import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeInBrowser,
  keepScreenshot,
  LANGUAGES,
  launchChromium,
  pageProblems,
  type ServedInstance,
  signInPath,
  startServedInstance,
} from './browser.js';

// axe-core on every state of the console's members, groups and CSV import, in each of the four
// languages, at a phone's width (360 px, nothing scrolls sideways); the import by a real file
// upload in Chromium, and the search by keyboard.

const PHONE = { width: 360, height: 740 };

describeInBrowser('the console’s members, groups and import pass axe-core and fit a phone', () => {
  let served: ServedInstance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  let language: string = LANGUAGES[0].language;
  let lang: string = LANGUAGES[0].lang;
  let count = 0;
  let status = 0;

  const url = (path: string) => `${served.base}${path}`;
  const go = (path: string) => page.goto(url(path));
  const api = (method: string, path: string, body?: unknown) => served.instance.call(method, path, { body });

  /** The page as it is now: its status and language, axe-core, no sideways scrolling, a screenshot in English. */
  async function state(name: string, expected: number) {
    expect(status, `${language} ${name}`).toBe(expected);
    expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
    violations.push(...(await pageProblems(page, `${language} ${name}`)));
    // A screenshot to look at, of the whole page, in English only (as the wizard's): the other
    // languages' fit at 360 px is what the check of sideways scrolling above proves.
    if (language === 'enUS') {
      await keepScreenshot(page, `console-members-${language}-${String(++count).padStart(2, '0')}-${name}`, {
        fullPage: true,
      });
    }
  }

  /** Clicks and waits for the page it leads to. */
  const follow = (selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).click()]);

  async function useLanguage(next: (typeof LANGUAGES)[number]) {
    language = next.language;
    lang = next.lang;
    await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();
  }

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
    context = await browser.newContext({ viewport: PHONE });
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest()) status = response.status();
    });
    await go(await signInPath(served.instance));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await served?.close();
  });

  it('every empty page and form error, in every language', async () => {
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
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      await state('members-search-no-result', 200);
      await page.locator('#member-search').fill('');
      await page.locator('#member-search').focus();
      await page.keyboard.type('שרה');
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
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
      const prefix = `${language.toLowerCase()}-`;
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
