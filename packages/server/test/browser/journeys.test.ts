import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import {
  describeInBrowser,
  keepScreenshot,
  launchChromium,
  linkIn,
  type ServedInstance,
  startServedInstance,
} from './browser.js';
import { invite, type Participant, participant } from './participants.js';

// A participant's whole way in real Chromium: the invitation arrives over SMTP from the mail worker,
// its link leads through every page to the confirmation, and the report link gives the PDF (the
// same link as in the report mail). Once with the mouse, once with the keyboard alone, once with
// JavaScript off. The three share the browser and the instance, and run side by side.

type Focused = {
  tag: string;
  name: string;
  value: string;
  className: string;
  text: string;
  checked: boolean;
};

/** What has the keyboard focus. */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return {
      tag: element.tagName.toLowerCase(),
      name: element.getAttribute('name') ?? '',
      value: element.getAttribute('value') ?? '',
      className: element.className,
      text: (element.textContent ?? '').trim(),
      checked: (element as HTMLInputElement).checked ?? false,
    };
  });

/** Presses Tab until the focused element matches (at most `limit` times). */
async function tabTo(page: Page, match: (f: Focused) => boolean, limit = 80): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (match(now)) return now;
  }
  throw new Error(
    `Tab did not reach the element in ${limit} presses (at ${JSON.stringify(await focused(page))})`,
  );
}

const control = (text: string) => (f: Focused) => (f.tag === 'button' || f.tag === 'a') && f.text === text;

/** Clicks, and waits for the page that the click leads to. */
const follow = (page: Page, locator: Locator) => Promise.all([page.waitForEvent('load'), locator.click()]);
/** Presses Enter on the focused link or button, and waits for the page it leads to. */
const enter = (page: Page) => Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);

const radioGroups = (page: Page) => page.locator('main fieldset');
const checkedValues = (page: Page) =>
  page
    .locator('main input[type=radio]:checked')
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

/** Clicks the label of answer `value(i)` in each radio group from `from` to `to`. */
async function clickAnswers(page: Page, value: (i: number) => number, from = 0, to?: number) {
  const groups = radioGroups(page);
  const end = to ?? (await groups.count());
  for (let i = from; i < end; i++) {
    await groups
      .nth(i)
      .locator('label')
      .nth(value(i) - 1)
      // A real click at the label's centre, without waiting for animations the pages do not have.
      .click({ force: true });
  }
}

describeInBrowser.concurrent('a participant in Chromium, from the invitation mail to the report', () => {
  let sink: SmtpSink;
  let served: ServedInstance;
  let browser: Browser;
  const parsed = new Map<string, Promise<ParsedMail>>();

  beforeAll(async () => {
    sink = await startSmtpSink();
    [served, browser] = await Promise.all([
      startServedInstance({ background: true, env: { SMTP_URL: sink.url } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await sink?.close();
  });

  const at = (p: Participant, rest = '') => `${served.base}/q/${p.token}${rest}`;

  /** The link of this kind in a mail to `address`, once the mail worker has delivered it (60 s: a safety net). */
  async function mailLink(address: string, kind: 'q' | 'r'): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      for (const mail of sink.received) {
        if (!mail.envelope.to.includes(address)) continue;
        const key = mail.messageId || mail.raw;
        if (!parsed.has(key)) parsed.set(key, simpleParser(mail.raw));
        const link = linkIn((await parsed.get(key))?.text ?? '', served.base, kind);
        if (link) return link;
      }
      if (Date.now() > deadline) throw new Error(`no mail with a /${kind}/ link to ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A campaign made through the API, a member added and invited: the link of the invitation mail. */
  async function invited(campaign: Record<string, unknown>): Promise<{ p: Participant; link: string }> {
    const p = await participant(served.instance, campaign);
    await invite(served.instance, p.campaignid);
    const link = await mailLink(p.email, 'q');
    expect(link).toBe(at(p));
    return { p, link };
  }

  /**
   * The confirmation's report button posts to the report mail's link, and leads to it: the PDF;
   * the link itself, opened as a mail scanner would, is the PDF and records nothing.
   */
  async function expectReport(page: Page, p: Participant) {
    const form = page.locator('main form[action*="/r/"]');
    const url = new URL((await form.getAttribute('action')) as string, page.url()).toString();
    expect(url).toBe(`${served.base}/r/${p.token}`);
    expect(await mailLink(p.email, 'r')).toBe(url);
    const lastopened = async () =>
      (await served.instance.call('GET', `/members/${p.memberid}/reports`)).json.data[0].lastopened;
    const scanned = await page.request.get(url);
    expect(scanned.headers()['content-type']).toBe('application/pdf');
    expect(await lastopened()).toBeNull();
    const [opened] = await Promise.all([
      page.waitForResponse((response) => response.url() === url && response.request().method() === 'GET'),
      form.getByRole('button', { name: 'Open your report (PDF)' }).click(),
    ]);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toBe('application/pdf');
    expect(await lastopened()).not.toBeNull();
    const response = await page.request.get(`${url}/pdf`);
    expect(response.status()).toBe(200);
    const body = await response.body();
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(body.length).toBeGreaterThan(1000);
  }

  it('completes a whole bigfive with the mouse: save for later, resume, change an answer, send, PDF', async ({
    expect,
  }) => {
    const { p, link } = await invited({ variant: 'bigfive', name: 'Big Five, autumn' });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await follow(page, page.locator('main .button--start'));
    const answer = (i: number) => (i % 5) + 1;
    for (let number = 1; number <= 6; number++) {
      expect(page.url()).toBe(at(p, `/page/${number}`));
      expect(await page.locator('.caption').textContent()).toBe(`Page ${number} of 6`);
      expect(await radioGroups(page).count()).toBe(20);
      if (number === 3) {
        // Half the page, then "Save and come back later"; the mail's link resumes here.
        await clickAnswers(page, answer, 0, 10);
        await follow(page, page.getByRole('button', { name: 'Save and come back later' }));
        expect(page.url()).toBe(at(p, '/saved'));
        expect(await page.locator('h1').textContent()).toBe('Your answers have been saved');
        await page.goto(link);
        expect(page.url()).toBe(at(p, '/page/3'));
        expect(await checkedValues(page)).toEqual(Array.from({ length: 10 }, (_, i) => String(answer(i))));
        await clickAnswers(page, answer, 10);
      } else {
        await clickAnswers(page, answer);
      }
      await follow(page, page.getByRole('button', { name: 'Save and continue' }));
    }
    expect(page.url()).toBe(at(p, '/check'));
    expect(await page.locator('.summary-list__row').count()).toBe(120);
    const value = (row: Locator) => row.locator('.summary-list__value').textContent();
    const before = await value(page.locator('.summary-list__row').first());

    // "Change" the first answer: page 1 at that question, then straight back to the check page.
    await follow(page, page.locator('.summary-list__row').first().getByRole('link'));
    expect(page.url()).toMatch(new RegExp(`/q/${p.token}/page/1\\?return=check#q-`));
    await radioGroups(page).first().locator('label').nth(4).click();
    await follow(page, page.getByRole('button', { name: 'Save and continue' }));
    expect(page.url()).toBe(at(p, '/check'));
    expect(await value(page.locator('.summary-list__row').first())).not.toBe(before);

    await follow(page, page.getByRole('button', { name: 'Confirm and send' }));
    expect(page.url()).toBe(at(p, '/done'));
    expect(await page.locator('h1').textContent()).toBe('Questionnaire complete');
    await expectReport(page, p);

    // The back button and the link again: the confirmation, never a second sending.
    await page.goBack();
    expect(page.url()).toBe(at(p, '/done'));
    await page.goto(link);
    expect(page.url()).toBe(at(p, '/done'));
    const reports = await served.instance.call('GET', `/members/${p.memberid}/reports`);
    expect(reports.json.data).toHaveLength(1);
    await context.close();
  }, 180_000);

  it('completes a whole leadership360 with the keyboard alone', async ({ expect }) => {
    const { p, link } = await invited({ variant: 'leadership360', name: 'Leadership 360' });
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(link);
    // The first Tab reaches the skip link, the next the start button; Enter follows it.
    expect(await tabTo(page, () => true, 1)).toMatchObject({ tag: 'a', className: 'skip-link' });
    await tabTo(page, control('Start now'), 1);
    await enter(page);
    expect(page.url()).toBe(at(p, '/page/1'));

    // Sent empty: the error summary has the focus, and its first link the first question's radio.
    await tabTo(page, control('Save and continue'));
    await enter(page);
    expect(await page.title()).toMatch(/^Error: /);
    expect((await focused(page)).className).toBe('error-summary');
    await tabTo(page, (f) => f.tag === 'a' && f.text.startsWith('Select an answer'), 1);
    await page.keyboard.press('Enter');
    await page.waitForURL(/#q-Q1$/);
    expect(await focused(page)).toMatchObject({ tag: 'input', name: 'Q1', value: '1' });
    await page.keyboard.press('Shift+Tab');

    // Each radio group: Tab into it (its first radio), Space to choose, arrows to move the choice.
    const answer = (i: number) => ((i + 2) % 5) + 1;
    for (let number = 1; number <= 3; number++) {
      expect(page.url()).toContain(`/q/${p.token}/page/${number}`);
      if (number > 1) await tabTo(page, (f) => f.className.includes('back-link'), 3);
      const names = await radioGroups(page).evaluateAll((fieldsets) =>
        fieldsets.map((fieldset) => (fieldset.querySelector('input[type=radio]') as HTMLInputElement).name),
      );
      expect(names).toHaveLength(8);
      for (const [i, name] of names.entries()) {
        expect(await tabTo(page, (f) => f.tag === 'input' && f.name === name, 1)).toMatchObject({
          value: '1',
        });
        await page.keyboard.press('Space');
        for (let k = 1; k < answer(i); k++) await page.keyboard.press('ArrowDown');
        expect(await focused(page)).toMatchObject({ name, value: String(answer(i)), checked: true });
        if (number === 1 && i === 1) {
          await keepScreenshot(page, `enUS-keyboard-focus`);
        }
      }
      await tabTo(page, control('Save and continue'), 1);
      await enter(page);
    }
    // The remarks: one typed in, the other left empty (it is optional).
    expect(page.url()).toBe(at(p, '/page/4'));
    await tabTo(page, (f) => f.tag === 'textarea');
    await page.keyboard.type('Clear goals & <good> coffee.');
    await tabTo(page, (f) => f.tag === 'textarea', 1);
    await tabTo(page, control('Save and continue'), 1);
    await enter(page);

    expect(page.url()).toBe(at(p, '/check'));
    expect(await page.locator('main').textContent()).toContain('Clear goals & <good> coffee.');
    await tabTo(page, control('Confirm and send'));
    await enter(page);
    expect(page.url()).toBe(at(p, '/done'));
    await tabTo(page, control('Open your report (PDF)'));
    await expectReport(page, p);
    const reports = await served.instance.call('GET', `/members/${p.memberid}/reports`);
    const data = await served.instance.call('GET', `/reports/${reports.json.data[0].reportid}/data`);
    expect(JSON.parse(data.json.data.raw)).toMatchObject({
      Q1: answer(0),
      Q8: answer(7),
      Remarks1: 'Clear goals & <good> coffee.',
    });
    await context.close();
  }, 180_000);

  it('completes a whole bigfive with JavaScript off', async ({ expect }) => {
    const { p, link } = await invited({ variant: 'bigfive', name: 'No script' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link);
    await follow(page, page.locator('main .button--start'));
    expect(page.url()).toBe(at(p, '/page/1'));
    // Half a page sent: the server says what is missing and keeps what was answered.
    await clickAnswers(page, () => 2, 0, 5);
    await follow(page, page.getByRole('button', { name: 'Save and continue' }));
    expect(await page.title()).toMatch(/^Error: /);
    expect(await page.locator('.error-summary a').count()).toBe(15);
    expect(await page.locator('.error-message').count()).toBe(15);
    expect(await checkedValues(page)).toEqual(['2', '2', '2', '2', '2']);
    for (let number = 1; number <= 6; number++) {
      expect(page.url()).toBe(at(p, `/page/${number}`));
      await clickAnswers(page, (i) => (i % 5) + 1, number === 1 ? 5 : 0);
      await follow(page, page.getByRole('button', { name: 'Save and continue' }));
    }
    expect(page.url()).toBe(at(p, '/check'));
    await follow(page, page.getByRole('button', { name: 'Confirm and send' }));
    expect(page.url()).toBe(at(p, '/done'));
    await expectReport(page, p);
    await context.close();
  }, 180_000);
});
