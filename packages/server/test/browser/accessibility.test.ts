import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import {
  axeViolations,
  describeInBrowser,
  keepScreenshot,
  LANGUAGES,
  launchChromium,
  PHONE,
  type ServedInstance,
  startServedInstance,
} from './browser.js';
import { FUTURE, PAST, type Participant, participant } from './participants.js';

// axe-core on every state of the participant pages, in each of the four languages, at a phone's
// width (360 px), some of them at a desktop's too; and a screenshot of each at 360 px into
// /tmp/assay-screens/ (full pages in English), to look at.
//
// Each language walks a leadership360 subject through its pages: start (with the nomination link),
// a question page blank, with errors, saved for later and resumed, the expired form, the remarks
// page (textareas) and its error, check answers, the confirmation, the report link's page, the
// raters page, then the report before it exists, the clear pages and self-registration. English
// adds bigfive's long pages (20 items, 120 answers to check) and the links that no longer lead
// anywhere.

const DESKTOP = { width: 1280, height: 900 };

const variants = loadVariants([builtinVariantsDir()]);

/** Every scale answer of a variant's pages up to `pages` (all by default), as the pages save them. */
function answersOf(alias: string, pages?: number): Record<string, number> {
  const variant = variants.get(alias);
  if (!variant) throw new Error(`no variant ${alias}`);
  const answers: Record<string, number> = {};
  for (const page of variant.pages.slice(0, pages)) {
    for (const question of page.questions) if (question.type !== 'text') answers[question.code] = 3;
  }
  return answers;
}

describeInBrowser.concurrent('the participant pages pass axe-core and fit a phone', () => {
  let served: ServedInstance;
  let browser: Browser;

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const url = (path: string) => `${served.base}${path}`;
  const setAnswers = (p: Participant, answers: Record<string, number>) =>
    served.instance.db.kysely
      .updateTable('campaign_members')
      .set({ answers: JSON.stringify(answers), status: 'started' })
      .where('token', '=', p.token)
      .execute();

  for (const { language, lang } of LANGUAGES) {
    it(`every page state in ${language}`, async ({ expect }) => {
      const { instance } = served;
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      const violations: string[] = [];
      let count = 0;
      let status = 0;
      page.on('response', (response) => {
        if (response.request().isNavigationRequest()) status = response.status();
      });

      const analyze = async (name: string, width: number) => {
        for (const violation of await axeViolations(page)) {
          const nodes = violation.nodes
            .slice(0, 3)
            .map((node) => `${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ')}`);
          violations.push(
            `${language} ${name} @${width}px ${violation.id} (${violation.impact}): ${nodes.join(' | ')}`,
          );
        }
      };

      /** The page as it is now: its language and status, axe-core, no sideways scrolling, a screenshot. */
      async function state(name: string, expected: number, options: { desktop?: boolean } = {}) {
        expect(status, name).toBe(expected);
        expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
        await analyze(name, PHONE.width);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        if (overflow > 0)
          violations.push(`${language} ${name}: scrolls sideways by ${overflow} px at 360 px`);
        await keepScreenshot(page, `${language}-${String(++count).padStart(2, '0')}-${name}`, {
          fullPage: language === 'enUS',
        });
        if (options.desktop && language === 'enUS') {
          await page.setViewportSize(DESKTOP);
          await analyze(name, DESKTOP.width);
          await keepScreenshot(page, `${language}-${String(count).padStart(2, '0')}-${name}-desktop`);
          await page.setViewportSize(PHONE);
        }
      }
      /** Clicks a button or link and waits for the page it leads to. */
      const follow = (locator: Locator) => Promise.all([page.waitForEvent('load'), locator.click()]);
      const go = (path: string) => page.goto(url(path));
      const continueButton = page.locator('main button[value=continue]');

      const campaign = { language, name: 'Autumn scan 2026' };
      const self = await participant(
        instance,
        { ...campaign, variant: 'leadership360' },
        {},
        { role: 'self' },
      );
      const q = `/q/${self.token}`;
      await go(q);
      await state('start', 200, { desktop: true });
      await follow(page.locator('main .button--start'));
      expect(page.url()).toBe(url(`${q}/page/1`));
      await state('question-blank', 200);
      await follow(continueButton);
      expect(await page.locator('.error-summary').count()).toBe(1);
      await state('question-errors', 200, { desktop: true });
      const groups = page.locator('main fieldset');
      for (let i = 0; i < 3; i++) await groups.nth(i).locator('input').nth(i).check();
      await follow(page.locator('main button[value=later]'));
      expect(page.url()).toBe(url(`${q}/saved`));
      await state('saved', 200);
      await go(q);
      expect(page.url()).toBe(url(`${q}/page/1`));
      expect(await page.locator('main input:checked').count()).toBe(3);
      await state('question-resumed', 200);
      await context.clearCookies();
      await follow(continueButton);
      expect(await page.locator('h1').count()).toBe(1);
      await state('form-expired', 403);

      await setAnswers(self, answersOf('leadership360', 3));
      await go(`${q}/page/4`);
      await state('question-text', 200);
      await page.locator('main textarea').first().fill('x'.repeat(4001));
      await follow(continueButton);
      expect(await page.locator('.error-summary').count()).toBe(1);
      await state('question-text-errors', 200);
      await page.locator('main textarea').first().fill('Keep going.');
      await follow(continueButton);
      expect(page.url()).toBe(url(`${q}/check`));
      await state('check-answers', 200, { desktop: true });
      await follow(page.locator('main button[value=send]'));
      expect(page.url()).toBe(url(`${q}/done`));
      await state('confirmation', 200, { desktop: true });
      await go(`${q}/raters`);
      await state('raters', 200);
      await follow(page.locator('main form button[type=submit]'));
      expect(await page.locator('.error-summary').count()).toBe(1);
      await state('raters-errors', 200, { desktop: true });

      const waiting = await participant(instance, { ...campaign, variant: 'leadership360' });
      await go(`/r/${waiting.token}`);
      await state('report-not-ready', 404);
      const early = await participant(instance, { ...campaign, variant: 'leadership360', start: FUTURE });
      await go(`/q/${early.token}`);
      await state('not-open-yet', 200);
      const closed = await participant(instance, {
        ...campaign,
        variant: 'leadership360',
        closingtype: 'date',
        start: PAST,
        end: '2026-01-02T09:00:00+00:00',
      });
      await go(`/q/${closed.token}`);
      await state('closed', 410);

      const open = await instance.call('POST', '/campaigns', {
        body: {
          ...campaign,
          variant: 'leadership360',
          start: PAST,
          config: { selfregistration: { register: true, signup: true } },
        },
      });
      await go(`/s/${open.json.data.alias}`);
      await state('signup', 200);
      await follow(page.locator('main form button[type=submit]'));
      expect(await page.locator('.error-summary').count()).toBe(1);
      await state('signup-errors', 200, { desktop: true });

      if (language === 'enUS') {
        // bigfive's long pages: 20 items a page, 120 answers to check.
        const big = await participant(instance, { ...campaign, variant: 'bigfive' });
        await go(`/q/${big.token}/page/1`);
        await follow(continueButton);
        expect(await page.locator('.error-summary li').count()).toBe(20);
        await state('bigfive-question-errors', 200);
        await setAnswers(big, answersOf('bigfive'));
        await go(`/q/${big.token}/check`);
        await state('bigfive-check-answers', 200);

        // The links that no longer lead anywhere know no campaign, so they speak English.
        await go(`/q/${'x'.repeat(43)}`);
        await state('unknown-link', 404, { desktop: true });
        const reset = await participant(instance, { ...campaign, variant: 'leadership360' });
        await instance.call('PATCH', `/campaigns/${reset.campaignid}/members/${reset.memberid}/reset`);
        await go(`/q/${reset.token}`);
        await state('reset-link', 410);
        const removed = await participant(instance, { ...campaign, variant: 'leadership360' });
        await instance.call('DELETE', `/campaigns/${removed.campaignid}/members/${removed.memberid}`);
        await go(`/q/${removed.token}`);
        await state('removed-member', 410);
      }

      await context.close();
      expect(violations).toEqual([]);
    }, 120_000);
  }
});
