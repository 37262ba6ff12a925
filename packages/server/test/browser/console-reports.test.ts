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

// axe-core on every state of the console's reports, in each of the four languages, at a phone's
// width (360 px, nothing scrolls sideways): the list empty, filled and filtered to nothing, a
// report's page, the language form with its error, the delete confirmation.

const PHONE = { width: 360, height: 740 };

describeInBrowser('the console’s reports pass axe-core and fit a phone', () => {
  let served: ServedInstance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  let language: string = LANGUAGES[0].language;
  let lang: string = LANGUAGES[0].lang;
  let count = 0;
  let status = 0;

  const go = (path: string) => page.goto(`${served.base}${path}`);
  const api = (method: string, path: string, body?: unknown) => served.instance.call(method, path, { body });

  /** The page as it is now: its status and language, axe-core, no sideways scrolling, a screenshot. */
  async function state(name: string, expected: number) {
    expect(status, `${language} ${name}`).toBe(expected);
    expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
    violations.push(...(await pageProblems(page, `${language} ${name}`)));
    await keepScreenshot(page, `console-reports-${language}-${String(++count).padStart(2, '0')}-${name}`, {
      fullPage: language === 'enUS',
    });
  }

  const follow = (selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).click()]);

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

  it('every state of the reports, in every language', async () => {
    for (const each of LANGUAGES) {
      language = each.language;
      lang = each.lang;
      await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();
      await go('/console/reports');
      await state('list-empty', 200);
    }
    const answers = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`Q${i + 1}`, 1 + (i % 5)]));
    const made: string[] = [];
    for (const [firstname, lastname] of [
      ['Ada', 'Lovelace-with-a-rather-long-name'],
      ['שרה', 'כהן'],
    ]) {
      const member = (
        await api('POST', '/members', { firstname, lastname, email: `${made.length}@example.test` })
      ).json.data.memberid;
      const created = await api('POST', '/reports/import/leadership360', {
        reports: Array.from({ length: 30 }, () => ({ memberid: member, answers })),
      });
      expect(created.json.status, created.body).toBe('OK');
      made.push(...created.json.data.created);
    }
    const report = made[0] as string;
    for (const each of LANGUAGES) {
      language = each.language;
      lang = each.lang;
      await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();
      await go('/console/reports');
      await state('list-filled', 200);
      await go('/console/reports?q=nobody&type=group');
      await state('list-filtered-empty', 200);
      await go(`/console/reports/${report}`);
      await state('report', 200);
      await go(`/console/reports/${report}/language`);
      await state('language-form', 200);
      await page.evaluate(() => {
        const select = document.querySelector('#language') as HTMLSelectElement;
        select.add(new Option('Deutsch', 'deDE', true, true));
      });
      await follow('main button[type=submit]');
      await state('language-form-error', 400);
      await go(`/console/reports/${report}/delete`);
      await state('delete-confirmation', 200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
