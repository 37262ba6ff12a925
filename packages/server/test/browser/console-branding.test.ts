import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeInBrowser,
  LANGUAGES,
  launchChromium,
  PHONE,
  pageProblems,
  type ServedInstance,
  signInPath,
  signInWith,
  startServedInstance,
} from './browser.js';

/** The branding page in a real browser: the form, its errors, the preview image. */
describeInBrowser('the console’s branding page in Chromium', () => {
  let served: ServedInstance;
  let browser: Browser;

  let campaignId = '';

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
    // A campaign with activity: created by the admin, members added, invitations queued.
    const { instance } = served;
    const made = await instance.call('POST', '/campaigns', {
      body: { name: 'Activity <b>scan</b>', variant: 'bigfive', start: '2026-01-01T00:00:00+00:00' },
    });
    campaignId = made.json.data.campaignid;
    for (const name of ['Ann', 'פידבק']) {
      const member = await instance.call('POST', '/members', {
        body: { firstname: name, lastname: 'Person', email: `${name.length}-${campaignId}@example.test` },
      });
      await instance.call('POST', `/campaigns/${campaignId}/members`, {
        body: { memberids: [member.json.data.memberid] },
      });
    }
    await instance.call('POST', `/campaigns/${campaignId}/members/invite`);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const signIn = async (page: Page) => {
    await signInWith(page, `${served.base}${await signInPath(served.instance)}`);
  };

  /** The SVG the page's preview image shows, fetched with the page's cookies (the CSP allows no fetch). */
  const previewOf = async (page: Page) => {
    const src = await page.locator('img.branding__cover').evaluate((img: HTMLImageElement) => img.src);
    return (await page.context().request.get(src)).text();
  };

  it('passes axe-core and fits a phone on every state, in four languages; the preview follows the colour', async () => {
    const problems: string[] = [];
    for (const { language, lang } of LANGUAGES) {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await signIn(page);
      await page.goto(`${served.base}/console/branding`);
      await page.selectOption('#console-language', language);
      await Promise.all([page.waitForLoadState('load'), page.locator('.language-form button').click()]);
      await page.waitForURL(/\/console\/branding/);
      const check = async (name: string) => {
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        // The cover image loaded (an SVG the CSP lets the page show); asked again until it has, as
        // the page may still be loading it (a refused image never gets a width).
        await expect
          .poll(() =>
            page.locator('img.branding__cover').evaluate((img: HTMLImageElement) => img.naturalWidth),
          )
          .toBeGreaterThan(0);
        problems.push(...(await pageProblems(page, `${language} branding ${name}`)));
      };
      await check('saved');
      const before = await previewOf(page);

      // A pale colour is refused, next to its field.
      await page.fill('#color', '#ffdd00');
      await Promise.all([
        page.waitForLoadState('load'),
        page.locator('main .button-group .button').first().click(),
      ]);
      expect(await page.locator('.error-summary').count()).toBe(1);
      expect(await page.locator('#color-error').textContent()).toContain('1.3:1');
      await check('error');

      // Preview with typed values: the image changes with the colour, nothing is saved.
      await page.fill('#agencyname', 'Agence <Ω> & Co');
      await page.fill('#color', '#4c2c92');
      await Promise.all([page.waitForURL(/preview=1/), page.locator('main .button--secondary').click()]);
      expect(page.url()).not.toContain('csrf');
      expect(await page.locator('#agencyname').inputValue()).toBe('Agence <Ω> & Co');
      await check('preview');
      const after = await previewOf(page);
      expect(after).not.toBe(before);
      expect(after).toContain('fill="#4c2c92"');
      expect(after).toContain('Agence &lt;Ω&gt; &amp; Co');
      await page.goto(`${served.base}/console/branding`);
      expect(await previewOf(page)).toBe(before);

      // The campaign page with its activity timeline.
      await page.goto(`${served.base}/console/campaigns/${campaignId}`);
      expect(await page.locator('.activity__item').count()).toBeGreaterThanOrEqual(3);
      problems.push(...(await pageProblems(page, `${language} campaign activity`)));
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
