import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliverDue, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
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

// axe-core on every state of the console's webhooks pages (the form and its errors, the secret
// shown once, a webhook with a delivery, turned off, the delete question), in each of the four
// languages, at a phone's width (360 px, nothing scrolls sideways).

const PHONE = { width: 360, height: 740 };

describeInBrowser('the console’s webhooks pages pass axe-core and fit a phone', () => {
  let served: ServedInstance;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  let language: string = LANGUAGES[0].language;
  let lang: string = LANGUAGES[0].lang;
  let count = 0;
  let status = 0;

  const go = (path: string) => page.goto(`${served.base}${path}`);

  async function state(name: string, expected: number) {
    expect(status, `${language} ${name}`).toBe(expected);
    expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
    violations.push(...(await pageProblems(page, `${language} ${name}`)));
    if (language === 'enUS') {
      await keepScreenshot(page, `console-webhooks-${language}-${String(++count).padStart(2, '0')}-${name}`, {
        fullPage: true,
      });
    }
  }

  const follow = (selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).first().click()]);

  beforeAll(async () => {
    [served, browser, receiver] = await Promise.all([
      // The receiver listens on loopback.
      startServedInstance({ env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } }),
      launchChromium(),
      startWebhookReceiver(),
    ]);
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
    await receiver?.close();
  });

  const deliver = () => deliverDue(served.instance.db.kysely, 'sqlite');

  it('every state of the webhooks pages, in every language', async () => {
    for (const each of LANGUAGES) {
      language = each.language;
      lang = each.lang;
      await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();

      await go('/console/webhooks');
      await state('list', 200);
      await follow('main a[href="/console/webhooks/new"]');
      await state('form', 200);
      await follow('main form button[type=submit]');
      await state('form-errors', 400);
      await page.fill('#url', `${receiver.url}/${language}`);
      await page.locator('#events').check();
      await page.locator('#event-report-created').check();
      await page.fill('#description', `CRM ${language}, a receiver with a rather long description`);
      await follow('main form button[type=submit]');
      await state('secret', 201);
      await follow('main a[href^="/console/webhooks/"]');
      await state('webhook', 200);
      await follow(`main form[action$="/test"] button`);
      await deliver();
      await page.reload();
      await state('webhook-delivered', 200);
      expect(await page.locator('main table tbody tr').count()).toBeGreaterThan(0);
      await follow(`main form[action$="/disable"] button`);
      await state('webhook-off', 200);
      await follow('main a[href$="/edit"]');
      await state('edit', 200);
      await go('/console/webhooks');
      await state('list-filled', 200);
      await follow('main table a');
      await follow('main a[href$="/delete"]');
      await state('delete-confirm', 200);
      await follow('main form button[type=submit]');
      await state('deleted', 200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
