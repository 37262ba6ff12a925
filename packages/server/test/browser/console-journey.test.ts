import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setPassword } from '../../src/cli/commands.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import {
  describeInBrowser,
  launchChromium,
  linkIn,
  type ServedInstance,
  startServedInstance,
} from './browser.js';

const ADMIN = 'admin@example.test';
const PASSWORD = 'correct horse battery';

/**
 * An operator's first assessment, from signing in to the progress that shows a completed
 * questionnaire, in Chromium against a listening instance whose mail goes to a real SMTP server:
 * sign in, create a campaign through the wizard, import members from a CSV with one bad row (check
 * page, fix, import), add them, invite through the check page, receive the mails, one participant
 * answers, the campaign's page shows it.
 */
describeInBrowser('an operator’s first assessment in the console', () => {
  let served: ServedInstance;
  let browser: Browser;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    [served, browser] = await Promise.all([
      startServedInstance({ background: true, env: { SMTP_URL: sink.url, ASSAY_TICK_SECONDS: '1' } }),
      launchChromium(),
    ]);
    await setPassword(served.instance.db.kysely, ADMIN, PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await sink?.close();
  });

  /** Clicks and waits for the page it leads to. */
  const follow = (page: Page, locator: Locator) => Promise.all([page.waitForEvent('load'), locator.click()]);
  const submit = (page: Page) =>
    follow(page, page.locator('main form[method=post] button[type=submit]').first());

  it('goes from signing in to a completed questionnaire', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ baseURL: served.base });
    const page = await context.newPage();

    // Sign in.
    await page.goto('/console');
    await page.fill('#email', ADMIN);
    await page.fill('#password', PASSWORD);
    await submit(page);
    expect(new URL(page.url()).pathname).toBe('/console');

    // The wizard: one question a page, answered as each page asks, up to the check page.
    await follow(page, page.locator('main a[href="/console/campaigns/new"]'));
    const today = new Date();
    for (let guard = 0; !page.url().endsWith('/campaigns/new/check'); guard++) {
      expect(guard, page.url()).toBeLessThan(20);
      const step = new URL(page.url()).pathname.split('/').at(-1);
      if (step === 'name') await page.fill('#name', 'Autumn team scan');
      else if (step === 'variant') await page.check('input[name=variant][value=bigfive]');
      else if (step === 'language') await page.check('input[name=language][value=enUS]');
      else if (step === 'start') {
        await page.fill('#start-day', String(today.getUTCDate()));
        await page.fill('#start-month', String(today.getUTCMonth() + 1));
        await page.fill('#start-year', String(today.getUTCFullYear()));
        await page.fill('#start-time', '00:00');
      } else if (step === 'closing') await page.check('input[name=closingtype][value=open]');
      else if (step === 'participation') await page.check('input[name=participation][value=members]');
      else if (step === 'invitation') await page.check('input[name=autoinvite][value=none]');
      else if (step === 'reminders') await page.check('input[name=autoreminder][value=no]');
      await submit(page);
    }
    expect(await page.locator('main').textContent()).toContain('Autumn team scan');
    await submit(page);
    const campaignPath = new URL(page.url()).pathname;
    expect(campaignPath).toMatch(/^\/console\/campaigns\/[0-9A-Za-z]{10}$/);

    // Members from a CSV with one bad row: the check page shows it, nothing is written; fixed, imported.
    const csv = (second: string) =>
      Buffer.from(
        `firstname,lastname,email\nAda,Lovelace,ada@example.test\nGrace,Hopper,${second}\nAlan,Turing,alan@example.test\n`,
      );
    await page.goto('/console/members/import');
    await page
      .locator('#field-file')
      .setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: csv('not-an-address') });
    await submit(page);
    expect(await page.locator('main').textContent()).toContain('email');
    expect(await page.locator('main form[method=post] button[type=submit]').count()).toBe(0);
    expect((await served.instance.call('GET', '/members')).json.data).toHaveLength(0);
    await page.goto('/console/members/import');
    await page
      .locator('#field-file')
      .setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: csv('grace@example.test') });
    await submit(page);
    const importButton = page.locator('main form[method=post] button[type=submit]');
    expect(await importButton.textContent()).toContain('3');
    await follow(page, importButton);
    expect((await served.instance.call('GET', '/members')).json.data).toHaveLength(3);

    // Add them to the campaign from the list, then invite through the check page.
    await page.goto(`${campaignPath}/members/add`);
    for (const box of await page.locator('input[name=memberid]').all()) await box.check();
    await follow(page, page.locator('main form:has(input[name=by][value=list]) button[type=submit]'));
    await page.goto(`${campaignPath}/invite`);
    const send = page.locator('main form[method=post] button[type=submit]');
    expect(await send.textContent()).toContain('Send 3 invitations');
    expect(sink.received).toHaveLength(0);
    await follow(page, send);
    expect(await page.locator('main').textContent()).toContain('3');

    // The mails arrive over SMTP; Ada answers through the link in hers.
    await sink.waitForReceived(3, 30_000);
    const ada = sink.received.find((mail) => mail.envelope.to.includes('ada@example.test'));
    const link = linkIn(ada?.raw.replace(/=\r?\n/g, '') ?? '', served.base, 'q');
    expect(link).toBeDefined();
    const participant = await context.newPage();
    await participant.goto(link as string);
    await follow(participant, participant.locator('main .button--start'));
    for (let guard = 0; /\/page\/\d+$/.test(participant.url()); guard++) {
      expect(guard).toBeLessThan(20);
      for (const group of await participant.locator('main fieldset').all()) {
        await group.locator('input[type=radio]').nth(2).check();
      }
      await follow(participant, participant.locator('main button[value=continue]'));
    }
    expect(participant.url()).toMatch(/\/check$/);
    await follow(participant, participant.locator('main button[value=send]'));
    expect(participant.url()).toMatch(/\/done$/);

    // The campaign's page shows it on a reload.
    await page.goto(campaignPath);
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toMatch(/1 of 3 completed/);
    await context.close();
  });
});
