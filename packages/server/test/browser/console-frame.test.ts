import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { setPassword } from '../../src/cli/commands.js';
import {
  describeInBrowser,
  keepScreenshot,
  LANGUAGES,
  launchChromium,
  PHONE,
  pageProblems,
  type ServedInstance,
  startServedInstance,
} from './browser.js';

const ADMIN = 'admin@example.test';
const PASSWORD = 'correct horse battery';

/** The console's frame in a real browser: sign-in by keyboard, the dashboard, sign-out. */
describeInBrowser('the console’s sign-in and dashboard in Chromium', () => {
  let served: ServedInstance;
  let browser: Browser;

  // One browser for the file; an instance for each test, as both start from an instance with no
  // campaign (the first-run page) and one of them fills it with campaigns and failed mails.
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    served = await startServedInstance();
    await setPassword(served.instance.db.kysely, ADMIN, PASSWORD);
  });
  afterEach(async () => {
    await served?.close();
  });

  it('signs in by keyboard alone and comes back to the page asked for', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${served.base}/console?status=ended`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    // Tab from the top of the page: skip link, the header's link, then the form.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(ADMIN);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForURL(/\/console\?status=ended$/), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').textContent()).toBe('Run your first assessment');
    // The session cookie is out of the page's reach.
    expect(await page.evaluate(() => document.cookie)).not.toContain('assay_session');
    await Promise.all([page.waitForURL(/signed-out$/), page.locator('.header__button').click()]);
    await page.goto(`${served.base}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await context.close();
  });

  it('passes axe-core and fits a phone on every state of the frame, in four languages', async () => {
    const { instance } = served;
    const problems: string[] = [];
    for (const { language, lang } of LANGUAGES) {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      const check = async (name: string) => {
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        problems.push(...(await pageProblems(page, `${language} ${name}`)));
        await keepScreenshot(page, `console-${language}-${name}`, { fullPage: true });
      };
      await page.goto(`${served.base}/console/sign-in`);
      // The language choice works before signing in, without JavaScript's help.
      await page.selectOption('#console-language', language);
      await Promise.all([page.waitForLoadState('load'), page.locator('.language-form button').click()]);
      await page.waitForURL(/\/console\/sign-in/);
      await check('sign-in');
      await page.fill('#email', ADMIN);
      await page.fill('#password', 'not the password');
      await Promise.all([page.waitForLoadState('load'), page.locator('main button[type=submit]').click()]);
      expect(await page.title()).toMatch(/^[^–]+: /);
      await check('sign-in-error');
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForURL(/\/console$/), page.locator('main button[type=submit]').click()]);
      await check(language === 'enUS' ? 'first-run' : 'dashboard');
      await page.goto(`${served.base}/console/nothing-here`);
      await check('not-found');
      if (language === 'enUS') {
        // The filled dashboard: campaigns with members in every state, one failed mail.
        for (const name of ['Autumn scan', 'Team <b>review</b>', 'פידבק צוות']) {
          const made = await instance.call('POST', '/campaigns', {
            body: { name, variant: 'bigfive', start: '2026-01-01T00:00:00+00:00' },
          });
          expect(made.json.status, made.body).toBe('OK');
          const member = await instance.call('POST', '/members', {
            body: { firstname: name, lastname: 'Person', email: `${made.json.data.campaignid}@example.test` },
          });
          await instance.call('POST', `/campaigns/${made.json.data.campaignid}/members`, {
            body: { memberids: [member.json.data.memberid] },
          });
          await instance.call('POST', `/campaigns/${made.json.data.campaignid}/members/invite`);
        }
        await instance.db.kysely
          .updateTable('mail_outbox')
          .set({ status: 'failed', last_response: '550 no such user' })
          .where('recipient', 'like', '%')
          .execute();
      }
      await page.goto(`${served.base}/console`);
      await check('dashboard-filled');
      await page.goto(`${served.base}/console?status=upcoming`);
      await check('dashboard-filter-empty');
      await page.goto(`${served.base}/console/mail`);
      await check('mail-list');
      await Promise.all([page.waitForLoadState('load'), page.locator('main table a').first().click()]);
      await check('mail');
      await page.goto(`${served.base}/console/mail?status=sent`);
      await check('mail-list-empty');
      await page.goto(`${served.base}/console/account`);
      await check('account');
      await Promise.all([
        page.waitForLoadState('load'),
        page.locator('form[action="/console/account/password"] button').click(),
      ]);
      expect(await page.locator('.error-summary').count()).toBe(1);
      await check('account-error');
      await Promise.all([page.waitForURL(/signed-out$/), page.locator('.header__button').click()]);
      await check('signed-out');
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
