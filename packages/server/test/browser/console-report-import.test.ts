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

// The import of answers as reports in Chromium: a real file chosen in the form, the check page with
// its errors, the file fixed, confirmed, imported; axe-core on each state in each of the four
// languages, at a phone's width (360 px, nothing scrolls sideways).

const PHONE = { width: 360, height: 740 };
const CODES = Array.from({ length: 24 }, (_, i) => `Q${i + 1}`);

describeInBrowser('the console’s import of answers passes axe-core and fits a phone', () => {
  let served: ServedInstance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  let language: string = LANGUAGES[0].language;
  let lang: string = LANGUAGES[0].lang;
  let status = 0;

  const go = (path: string) => page.goto(`${served.base}${path}`);
  const follow = (selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).click()]);

  async function state(name: string, expected: number) {
    expect(status, `${language} ${name}`).toBe(expected);
    expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
    violations.push(...(await pageProblems(page, `${language} ${name}`)));
    await keepScreenshot(page, `console-report-import-${language}-${name}`);
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

  it('upload, check page with errors, check page, confirm, in every language', async () => {
    const made = await served.instance.call('POST', '/members', {
      body: { email: 'ada@example.test', firstname: 'Ada', lastname: 'Lovelace' },
    });
    const ada = made.json.data.memberid as string;
    const header = `memberid,email,role,${CODES.join(',')},Remarks1`;
    const fours = CODES.map(() => '4').join(',');
    let imported = 0;
    for (const each of LANGUAGES) {
      language = each.language;
      lang = each.lang;
      await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();

      await go('/console/reports');
      await follow('main a[href="/console/reports/import"]');
      await state('form', 200);
      await follow('main button[type=submit]');
      await state('form-errors', 400);

      await page.locator('#field-variant').selectOption('leadership360');
      await page.locator('#field-file').setInputFiles({
        name: 'answers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${header}\n${ada},,,${fours},"Good, mostly"\n,nobody-with-a-very-long-address-indeed@example.test,peer,${fours},\nZZZZZZZZZZ,,boss,${fours},שלום\n`,
        ),
      });
      await follow('main button[type=submit]');
      await state('check-errors', 200);
      expect(await page.locator('.error-cell').count()).toBe(2);

      await follow('main a.button');
      await page.locator('#field-variant').selectOption('leadership360');
      await page.locator('#field-file').setInputFiles({
        name: 'answers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${header}\n${ada},,,${fours},"Good, mostly"\n,ada@example.test,peer,${fours},שלום\n`,
        ),
      });
      await follow('main button[type=submit]');
      await state('check-ok', 200);
      await follow('main form button[type=submit]');
      await state('done', 200);
      imported += 2;
      const reports = await served.instance.db.kysely.selectFrom('reports').select('id').execute();
      expect(reports).toHaveLength(imported);
      await follow('main a[href^="/console/reports?"]');
      expect(status).toBe(200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
