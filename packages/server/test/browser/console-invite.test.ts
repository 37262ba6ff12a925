import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accessStrings } from '../../src/console/access-strings.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
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

const PASSWORD = 'a long enough passphrase';

/**
 * Issue 21's journey: an admin invites a user who sets a password from the mailed link and signs in,
 * in Chromium against a listening instance whose mail goes to a real SMTP server. On the way, axe-core
 * and a phone's width (360 px) on every state of the invitation's pages, in each of the four
 * languages: the users page with its form (and its errors), the invited user's page, the resend
 * confirmation, and the password page (empty, too short, the two not the same), and a used link.
 */
describeInBrowser('an admin invites a user who sets a password from the mailed link and signs in', () => {
  let served: ServedInstance;
  let browser: Browser;
  let sink: SmtpSink;
  let admin: BrowserContext;
  let page: Page;
  let status = 0;
  const violations: string[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    [served, browser] = await Promise.all([
      startServedInstance({ background: true, env: { SMTP_URL: sink.url, ASSAY_TICK_SECONDS: '1' } }),
      launchChromium(),
    ]);
    admin = await browser.newContext({ viewport: PHONE, baseURL: served.base });
    page = await admin.newPage();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest()) status = response.status();
    });
    await signInWith(page, await signInPath(served.instance));
  });
  afterAll(async () => {
    await admin?.close();
    await browser?.close();
    await served?.close();
    await sink?.close();
  });

  /** Clicks and waits for the page it leads to. */
  const follow = (on: Page, selector: string) =>
    Promise.all([on.waitForEvent('load'), on.locator(selector).first().click()]);

  /** The page as it is now: its language, axe-core, no sideways scrolling, a screenshot. */
  async function state(on: Page, language: string, lang: string, name: string) {
    expect(await on.locator('html').getAttribute('lang'), `${language} ${name}`).toBe(lang);
    violations.push(...(await pageProblems(on, `${language} ${name}`)));
    await keepScreenshot(on, `console-invite-${language}-${name}`);
  }

  /** The invitation link in the newest mail to `to`, once it has arrived over SMTP. */
  async function mailedLink(to: string): Promise<{ path: string; subject: string }> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const got = sink.received.filter((mail) => mail.envelope.to.includes(to)).at(-1);
      if (got) {
        const mail = await sink.parsed(got.messageId);
        const found = new RegExp(`${served.base}(/console/invitation/[A-Za-z0-9_-]{43})`).exec(
          mail.text ?? '',
        );
        expect(found, mail.text).not.toBeNull();
        return { path: (found as RegExpExecArray)[1] as string, subject: mail.subject ?? '' };
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('goes from the invitation form to a signed-in invitee, in every language', {
    timeout: 240_000,
  }, async () => {
    const subjects: Record<string, string> = {};
    for (const { language, lang } of LANGUAGES) {
      // The pages of this language (the admin's session and, through the invitation, the invitee's).
      await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();
      const address = `invitee.${language.toLowerCase()}@example.test`;

      // The form on the users page: its errors first (nothing typed), then an invitation.
      await page.goto('/console/access/users');
      expect(status).toBe(200);
      // The invitation's language defaults to the admin's console language.
      expect(await page.locator('#invite-language').inputValue()).toBe(language);
      await state(page, language, lang, '01-users');
      await follow(page, 'main form[action="/console/access/users/invite"] button[type=submit]');
      expect(status).toBe(400);
      await state(page, language, lang, '02-users-invite-errors');
      await page.fill('#invite-email', address);
      await page.fill('#invite-firstname', 'Ines');
      await page.fill('#invite-lastname', `Invitee ${language}`);
      await follow(page, 'main form[action="/console/access/users/invite"] button[type=submit]');
      expect(status).toBe(200);
      expect(new URL(page.url()).pathname).toMatch(/^\/console\/access\/users\/[0-9A-Za-z]{10}$/);
      expect(await page.locator('main').textContent()).toContain(address);
      await state(page, language, lang, '03-user-invited');
      // Pages made of templates other tests check in every language: once here.
      const once = language === 'enUS';
      if (once) {
        await follow(page, 'main #actions a[href$="/invitation/resend"]');
        await state(page, language, lang, '04-resend-confirm');
      }

      // The invitee's own browser, at a phone's width: the link from the mail, by keyboard.
      const { path, subject } = await mailedLink(address);
      subjects[language] = subject;
      const invitee = await browser.newContext({ viewport: PHONE, baseURL: served.base });
      const own = await invitee.newPage();
      let ownStatus = 0;
      own.on('response', (response) => {
        if (response.request().isNavigationRequest()) ownStatus = response.status();
      });
      await own.goto(path);
      expect(ownStatus).toBe(200);
      await state(own, language, lang, '05-password');
      await Promise.all([own.waitForEvent('load'), own.locator('#password').press('Enter')]);
      expect(ownStatus).toBe(400);
      await state(own, language, lang, '06-password-missing');
      await own.locator('#password').fill('short');
      await own.locator('#password').press('Tab');
      await own.keyboard.type('short');
      await Promise.all([own.waitForEvent('load'), own.keyboard.press('Enter')]);
      expect(ownStatus).toBe(400);
      await state(own, language, lang, '07-password-too-short');
      await own.locator('#password').fill(PASSWORD);
      await own.locator('#confirm').fill(`${PASSWORD}?`);
      await Promise.all([own.waitForEvent('load'), own.locator('#confirm').press('Enter')]);
      expect(ownStatus).toBe(400);
      await state(own, language, lang, '08-password-mismatch');
      await own.locator('#password').focus();
      await own.keyboard.type(PASSWORD);
      await own.keyboard.press('Tab');
      await own.keyboard.type(PASSWORD);
      await Promise.all([own.waitForEvent('load'), own.keyboard.press('Enter')]);
      expect(ownStatus).toBe(200);
      expect(new URL(own.url()).pathname).toBe('/console');
      expect(await own.locator('header').textContent()).toContain(`Ines Invitee ${language}`);
      if (once) await state(own, language, lang, '09-signed-in');
      // The link worked once.
      await own.goto(path);
      expect(ownStatus).toBe(404);
      expect(await own.locator('h1').textContent()).not.toBe('');
      if (once) await state(own, language, lang, '10-link-used');
      await invitee.close();

      // The users list no longer calls them invited.
      await page.goto('/console/access/users');
      const row = page.locator('main tbody tr', { hasText: address });
      expect(await row.locator('td').nth(3).textContent()).toBe(accessStrings(language).active);
    }
    expect(subjects).toEqual({
      enUS: 'You are invited to Assay',
      nlNL: 'Je bent uitgenodigd voor Assay',
      esES: 'Te han invitado a Assay',
      frFR: 'Vous êtes invité(e) sur Assay',
    });
    expect(violations).toEqual([]);
  });
});
