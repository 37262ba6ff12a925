import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { STEPS, type Step } from '../../src/console/wizard-steps.js';
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

// The campaign wizard in Chromium: axe-core on every page's empty, error and filled state and on
// the check and preview pages, in the four languages at a phone's width (nothing scrolls
// sideways at 360 px); and the whole wizard with the keyboard alone (Tab, Space, Enter, typing).

/** How each page is answered well, and what makes it refuse (undefined: nothing can). */
const FILL: Record<Step, { good: (page: Page) => Promise<void>; bad?: (page: Page) => Promise<void> }> = {
  name: { good: (page) => page.fill('#name', 'Spring review مرحبا') },
  variant: { good: (page) => page.check('input[name=variant][value=teamscan]') },
  language: { good: (page) => page.check('input[name=language][value=esES]') },
  start: {
    good: async (page) => {
      await page.fill('#start-day', '1');
      await page.fill('#start-month', '3');
      await page.fill('#start-year', '2030');
      await page.fill('#start-time', '09:30');
    },
  },
  closing: { good: (page) => page.check('input[name=closingtype][value=date]') },
  end: {
    good: async (page) => {
      await page.fill('#end-day', '30');
      await page.fill('#end-month', '4');
      await page.fill('#end-year', '2030');
    },
  },
  participation: { good: (page) => page.check('input[name=participation][value=register]') },
  signup: {
    good: async (page) => {
      await page.fill('#alias', '');
      await page.fill('#maxparticipants', '40');
    },
    bad: (page) => page.fill('#alias', 'not allowed'),
  },
  invitation: { good: (page) => page.check('input[name=autoinvite][value=fixed]') },
  'invite-offset': {
    good: async (page) => {
      await page.fill('#invite-amount', '1');
      await page.check('input[name=invite-unit][value=week]');
    },
  },
  reminders: { good: (page) => page.check('input[name=autoreminder][value=yes]') },
  'reminder-schedule': {
    good: async (page) => {
      await page.fill('#reminder-amount', '3');
      await page.check('input[name=reminder-unit][value=day]');
      await page.fill('#reminderrepeat', '2');
    },
  },
  mails: {
    good: async (page) => {
      await page.check('#sendmemberconfirmation');
      await page.check('#sendreportdelivery');
    },
  },
};

describeInBrowser.concurrent(
  'the campaign wizard passes axe-core, fits a phone and works by keyboard',
  () => {
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

    /** A phone-sized page signed in as the admin (a session of its own), in `language`. */
    async function signedIn(language: string): Promise<Page> {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await signInWith(page, url(await signInPath(served.instance)));
      // The footer's language choice, as an operator changes it.
      await page.selectOption('#console-language', language);
      await Promise.all([page.waitForEvent('load'), page.locator('.language-form button').click()]);
      return page;
    }

    for (const { language, lang } of LANGUAGES) {
      it(`every page state in ${language}`, { timeout: 180_000 }, async ({ expect }) => {
        const page = await signedIn(language);
        const violations: string[] = [];
        let count = 0;

        async function state(name: string) {
          expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
          violations.push(...(await pageProblems(page, `${language} ${name}`)));
          if (language === 'enUS') {
            await keepScreenshot(
              page,
              `console-wizard-${language}-${String(++count).padStart(2, '0')}-${name}`,
              { fullPage: true },
            );
          }
        }
        const submit = () =>
          Promise.all([page.waitForEvent('load'), page.locator('main form button[type=submit]').click()]);

        await page.goto(url('/console/campaigns/new'));
        for (const step of STEPS) {
          expect(page.url(), step).toBe(url(`/console/campaigns/new/${step}`));
          await state(`${step}-empty`);
          const { good, bad } = FILL[step];
          if (step !== 'mails') {
            await bad?.(page);
            await submit();
            expect(await page.locator('.error-summary').count(), step).toBe(1);
            expect(await page.title(), step).toMatch(/^[^–]+: /);
            await state(`${step}-error`);
          }
          await good(page);
          await state(`${step}-filled`);
          await submit();
        }
        expect(page.url()).toBe(url('/console/campaigns/new/check'));
        await state('check');
        expect(await page.locator('main bdi').first().textContent()).toBe('Spring review مرحبا');
        // A start moved past the end: the check page says so at the end's row.
        const change = (step: string) =>
          Promise.all([
            page.waitForEvent('load'),
            page.locator(`main a[href$="/${step}?return=check"]`).first().click(),
          ]);
        await change('start');
        await page.fill('#start-year', '2031');
        await submit();
        expect(await page.locator('.error-summary').count()).toBe(1);
        await state('check-error');
        await change('start');
        await page.fill('#start-year', '2030');
        await submit();
        expect(await page.locator('.error-summary').count()).toBe(0);
        for (const stage of ['campaign_invitation', 'campaign_reportdelivery']) {
          await page.goto(url(`/console/campaigns/new/preview/${stage}`));
          await state(`preview-${stage}`);
        }
        // The HTML part on its own: no script runs, nothing is fetched from elsewhere.
        const html = await page.goto(url('/console/campaigns/new/preview/campaign_invitation/html'));
        expect(html?.headers()['content-security-policy']).toContain('sandbox');
        // A Change link goes to its page and back to the check page.
        await page.goto(url('/console/campaigns/new/check'));
        await Promise.all([
          page.waitForEvent('load'),
          page.locator('main a[href$="/name?return=check"]').click(),
        ]);
        await state('name-change');
        await page.fill('#name', 'Spring review 2030');
        await submit();
        expect(page.url()).toBe(url('/console/campaigns/new/check'));
        await Promise.all([page.waitForEvent('load'), page.locator('main form button[type=submit]').click()]);
        expect(page.url()).toMatch(/\/console\/campaigns\/[0-9A-Za-z]{10}$/);
        expect(violations).toEqual([]);
        await page.context().close();
      });
    }

    it('goes through the whole wizard with the keyboard alone', { timeout: 180_000 }, async ({ expect }) => {
      const page = await signedIn('enUS');
      const focused = () =>
        page.evaluate(() => {
          const element = document.activeElement as HTMLInputElement;
          return {
            tag: element.tagName.toLowerCase(),
            id: element.id,
            type: element.type ?? '',
            text: (element.textContent ?? '').trim(),
            checked: Boolean(element.checked),
          };
        });
      /** Presses Tab until the focus is on the element with this id, or a button with this text. */
      async function tabTo(target: string, limit = 40) {
        for (let i = 0; i < limit; i++) {
          await page.keyboard.press('Tab');
          const now = await focused();
          if (now.id === target || (now.tag === 'button' && now.text === target)) return now;
        }
        throw new Error(`Tab did not reach ${target} (at ${JSON.stringify(await focused())})`);
      }
      const type = async (id: string, text: string) => {
        await tabTo(id);
        await page.keyboard.type(text);
      };
      const choose = async (id: string) => {
        await tabTo(id);
        await page.keyboard.press('Space');
        expect((await focused()).checked, id).toBe(true);
      };
      const next = async () => {
        await tabTo('Continue');
        await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      };

      await page.goto(url('/console'));
      await tabTo('');
      // The dashboard's button leads to the wizard.
      for (let i = 0; i < 40; i++) {
        const now = await page.evaluate(() =>
          (document.activeElement as HTMLAnchorElement).getAttribute('href'),
        );
        if (now === '/console/campaigns/new') break;
        await page.keyboard.press('Tab');
      }
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      expect(page.url()).toBe(url('/console/campaigns/new/name'));

      // Sent empty: the error summary has the focus, and its link leads to the field.
      await next();
      expect(await page.title()).toMatch(/^Error: /);
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#name$/);
      expect((await focused()).id).toBe('name');
      await page.keyboard.type('Keyboard campaign');
      await next();
      await choose('variant'); // the first questionnaire
      await next();
      await choose('language'); // its first language
      await next();
      await type('start-day', '2');
      await type('start-month', '3');
      await type('start-year', '2030');
      await next();
      await choose('closingtype'); // on a date
      await next();
      await type('end-day', '2');
      await type('end-month', '5');
      await type('end-year', '2030');
      await type('end-time', '17:00');
      await next();
      await choose('participation'); // only the members added
      await next();
      await choose('autoinvite'); // when the operator sends them
      await next();
      await choose('autoreminder'); // yes
      await next();
      await type('reminder-amount', '4');
      await choose('reminder-unit'); // days
      await type('reminderrepeat', '2');
      await next();
      await choose('sendmemberconfirmation');
      await next();
      expect(page.url()).toBe(url('/console/campaigns/new/check'));
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main).toContain('Keyboard campaign');
      expect(main).toContain('4 days after the last mail, at most 2 reminders');
      await tabTo('Create campaign', 80);
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      const id = /\/console\/campaigns\/([0-9A-Za-z]{10})$/.exec(page.url())?.[1] as string;
      const campaign = (await served.instance.call('GET', `/campaigns/${id}`)).json.data;
      expect(campaign).toMatchObject({
        name: 'Keyboard campaign',
        variant: 'bigfive',
        language: 'enUS',
        start: '2030-03-02T00:00:00+00:00',
        end: '2030-05-02T17:00:00+00:00',
        closingtype: 'date',
        autoinvite: 'none',
        autoreminder: true,
        reminderoffset: { amount: 4, unit: 'day' },
        reminderrepeat: 2,
        sendmemberconfirmation: true,
        sendreportdelivery: false,
      });
      await page.context().close();
    });
  },
);
