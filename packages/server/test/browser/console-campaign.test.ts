import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addToCampaign, makeCampaign, makeMembers } from '../console/campaign-fixtures.js';
import { FormBrowser } from '../helpers/form-browser.js';
import {
  describeInBrowser,
  keepScreenshot,
  LANGUAGES,
  launchChromium,
  PHONE,
  pageProblems,
  type ServedInstance,
  signInPath,
  signInWith,
  startServedInstance,
} from './browser.js';

// axe-core on every state of the campaign page and its pages, in the four languages at 360 px:
// the page empty and filled, the add page and its error, a setting and its error, the remove
// question, the invite check and result pages, nobody to remind, a 360, a page not found; the
// invitation sent by keyboard; and the progress figures refreshed by the optional script.

describeInBrowser('the console campaign pages pass axe-core and fit a phone', () => {
  let served: ServedInstance;
  let browser: Browser;

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  async function signedIn(language: string): Promise<Page> {
    const { instance, base } = served;
    const context = await browser.newContext({ viewport: PHONE, baseURL: base });
    const page = await context.newPage();
    await signInWith(page, await signInPath(instance));
    if (language !== 'enUS') {
      await page.selectOption('#console-language', language);
      await follow(page, page.locator('.language-form button'));
    }
    return page;
  }
  const follow = (page: Page, locator: Locator) => Promise.all([page.waitForEvent('load'), locator.click()]);

  for (const { language, lang } of LANGUAGES) {
    it(`every page state in ${language}`, async () => {
      const { instance } = served;
      const page = await signedIn(language);
      const violations: string[] = [];
      let status = 0;
      page.on('response', (response) => {
        if (response.request().isNavigationRequest()) status = response.status();
      });
      async function state(name: string, expected: number) {
        expect(status, name).toBe(expected);
        expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
        violations.push(...(await pageProblems(page, `${language} ${name}`)));
        if (language === 'enUS') await keepScreenshot(page, `console-campaign-${name}`, { fullPage: true });
      }

      const empty = await makeCampaign(instance, { name: `Empty ${language}` });
      await page.goto(`/console/campaigns/${empty}`);
      await state('campaign-empty', 200);
      await page.goto(`/console/campaigns/${empty}/remind`);
      await state('remind-nobody', 200);

      const id = await makeCampaign(instance, { name: `Spring scan ${language} مرحبا` });
      const ids = await makeMembers(instance, 6, (i) =>
        i === 0 ? { firstname: 'שרה', lastname: 'כהן' } : {},
      );
      await addToCampaign(instance, id, ids.slice(0, 4));
      const group = await instance.call('POST', '/groups', {
        body: { name: `Sales ${language}`, alias: `sales-${language}` },
      });
      await instance.call('POST', `/groups/${group.json.data.groupid}/members/${ids[4]}`);

      await page.goto(`/console/campaigns/${id}/members/add`);
      await state('add', 200);
      const addChosen = page.locator('main form:has(input[name=memberid]) button');
      await follow(page, addChosen);
      await state('add-error', 400);
      await page.locator('input[name=memberid]').first().check();
      await follow(page, addChosen);
      await state('campaign-added', 200);

      await page.goto(`/console/campaigns/${id}/settings/end`);
      await state('setting', 200);
      await page.fill('#end-day', '31');
      await page.fill('#end-month', '2');
      await page.fill('#end-year', '2099');
      await follow(page, page.locator('main button[type=submit]'));
      await state('setting-error', 400);
      await page.goto(`/console/campaigns/${id}/settings/closingtype`);
      await state('setting-radios', 200);

      await page.goto(`/console/campaigns/${id}/members/${ids[1]}/remove`);
      await state('remove', 200);

      // The invitation, by keyboard: the button is focused and pressed with Enter.
      await page.goto(`/console/campaigns/${id}/invite`);
      await state('invite-check', 200);
      await page.locator('main form button').focus();
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      await state('invite-done', 200);
      expect(await page.locator('h1').textContent()).toMatch(/5/);

      await instance.db.kysely
        .updateTable('mail_outbox')
        .set({ status: 'failed', last_response: '550 mailbox unavailable' })
        .where('campaign_id', '=', id)
        .where('member_id', '=', ids[2] as string)
        .execute();
      // Somebody has started (the start page's button): the page says how answering goes.
      const { token } = await instance.db.kysely
        .selectFrom('campaign_members')
        .select('token')
        .where('campaign_id', '=', id)
        .where('member_id', '=', ids[3] as string)
        .executeTakeFirstOrThrow();
      const participant = new FormBrowser(instance);
      await participant.get(`/q/${token}`);
      expect((await participant.post(`/q/${token}`, {})).statusCode).toBe(303);
      await page.goto(`/console/campaigns/${id}`);
      await state('campaign-filled', 200);
      await follow(page, page.locator(`main a[href="/console/campaigns/${id}/answering"]`));
      await state('campaign-answering', 200);
      expect(await page.locator('#answering-caption').count()).toBe(1);

      const threesixty = await makeCampaign(instance, { name: `360 ${language}`, variant: 'leadership360' });
      const people = await makeMembers(instance, 3);
      await addToCampaign(instance, threesixty, people);
      await instance.call('PATCH', `/campaigns/${threesixty}/members/${people[1]}`, {
        body: { extra: { role: 'peer', subject: people[0] } },
      });
      await page.goto(`/console/campaigns/${threesixty}`);
      await state('campaign-360', 200);

      await page.goto('/console/campaigns/nosuchcamp');
      await state('not-found', 404);
      await page.context().close();
      expect(violations).toEqual([]);
      // About 12 s on a quiet 2-core machine: 14 page states, each checked by axe-core.
    }, 180_000);
  }

  it('refreshes the progress figures with JavaScript, without a reload', async () => {
    const { instance } = served;
    const id = await makeCampaign(instance, { name: 'Live figures' });
    const ids = await makeMembers(instance, 2);
    await addToCampaign(instance, id, ids);
    const page = await signedIn('enUS');
    await page.clock.install();
    await page.goto(`/console/campaigns/${id}`);
    const completed = page.locator('[data-figure=completed]');
    expect(await completed.textContent()).toBe('0');
    let reloaded = false;
    page.on('load', () => {
      reloaded = true;
    });
    await instance.db.kysely
      .updateTable('campaign_members')
      .set({ status: 'completed', datecompleted: '2026-02-01T10:00:00+00:00' })
      .where('campaign_id', '=', id)
      .where('member_id', '=', ids[0] as string)
      .execute();
    await page.clock.fastForward(31_000);
    await expect.poll(() => completed.textContent()).toBe('1');
    expect(await page.locator('[data-progress-live]').textContent()).toContain('1 of 2');
    expect(await page.locator('[data-progress-text]').textContent()).toContain('1 of 2');
    expect(reloaded).toBe(false);
    await page.context().close();
  });
});
