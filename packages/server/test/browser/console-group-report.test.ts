import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { readPdf } from '../pdf/pdf-reader.js';
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

// "Make a group report" in Chromium at a phone's width: the journey the issue names (an anonymous
// report from a campaign: the counts before, the PDF after), the form by keyboard alone (Tab,
// Space, Enter and typing), and axe-core on every state of its pages in the four languages.

/** leadership360 answers: every likert item `value`, and a remark when given. */
const answers = (value: number, remark?: string) => ({
  ...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`Q${i + 1}`, value])),
  ...(remark === undefined ? {} : { Remarks1: remark }),
});

describeInBrowser('making a group report in the console', () => {
  let served: ServedInstance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let campaign: string;
  let small: string;
  const raters: string[] = [];
  let otherSelf: string;
  let status = 0;

  const url = (path: string) => `${served.base}${path}`;
  const api = (method: string, path: string, body?: unknown) => served.instance.call(method, path, { body });
  const go = (path: string) => page.goto(url(path));
  const submit = (selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).click()]);
  let people = 0;
  const member = async (firstname: string, lastname: string) =>
    (await api('POST', '/members', { firstname, lastname, email: `p${people++}@example.test` })).json.data
      .memberid as string;
  const importRows = async (rows: unknown[]) => {
    const made = await api('POST', '/reports/import/leadership360', { reports: rows });
    expect(made.json.status, made.body).toBe('OK');
    expect(made.json.data.errors).toEqual([]);
    return made.json.data.created as string[];
  };
  /** The console's language for the sessions: each test says which one its checks read. */
  const speak = (language: string) =>
    served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();
  const newCampaign = async (name: string) =>
    (await api('POST', '/campaigns', { name, variant: 'leadership360', start: '2026-01-01T00:00:00Z' })).json
      .data.campaignid as string;

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
    campaign = await newCampaign('Engineering 2026');
    const remarks = ['Our manager Dave shouts', 'Meetings run long', 'Great team spirit'];
    for (const [i, remark] of remarks.entries()) {
      await importRows([
        {
          memberid: await member(`Person${i}`, 'Engineer'),
          campaignid: campaign,
          answers: answers(2 + i, remark),
        },
      ]);
    }
    small = await newCampaign('Two people');
    for (const i of [1, 2]) {
      await importRows([
        { memberid: await member(`Few${i}`, 'People'), campaignid: small, answers: answers(3) },
      ]);
    }
    const subject = await member('Sam', 'Subject');
    for (const role of ['self', 'manager', 'peer', 'peer', 'directreport', 'directreport', 'directreport']) {
      const who = role === 'self' ? subject : await member(`Rater${raters.length}`, role);
      raters.push(...(await importRows([{ memberid: who, role, answers: answers(4, `${role} remark`) }])));
    }
    [otherSelf = ''] = await importRows([
      { memberid: await member('Una', 'Other'), role: 'self', answers: answers(2) },
    ]);
  }, 120_000);
  // Each test signs in afresh: the console keeps a form's choices in the session, and a test that
  // stopped half-way through the form (as the axe test does) would leave them to the next.
  beforeEach(async () => {
    context = await browser.newContext({ viewport: PHONE });
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest()) status = response.status();
    });
    await signInWith(page, url(await signInPath(served.instance)));
  });
  afterEach(() => context?.close());
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('an anonymous report from a campaign: the counts before, the PDF after', async () => {
    await speak('enUS');
    await go(`/console/campaigns/${campaign}`);
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('link', { name: 'Make a group report from this campaign' }).click(),
    ]);
    expect(await page.locator('#source-campaign').isChecked()).toBe(true);
    await page.locator('label[for="kind-groupanon"]').click();
    await page.locator('#name').fill('Engineering, anonymous');
    await submit('main button[type=submit]');
    expect(page.url()).toBe(url('/console/reports/new/check'));
    const main = page.locator('main');
    await expect.poll(() => main.locator('#uses').textContent()).toBe('It would use 3 personal reports.');
    expect(await main.locator('#anonymity').textContent()).toBe(
      'An anonymous report needs at least 3 reports. It has 3: enough.',
    );
    expect(
      await served.instance.db.kysely
        .selectFrom('reports')
        .select('id')
        .where('type', '=', 'groupanon')
        .execute(),
    ).toEqual([]);
    // Leave out the answer that names someone, with the reason.
    const item = page.locator('.verbatims__item', { hasText: 'Our manager Dave shouts' });
    await item.locator('input[type=checkbox]').check();
    await item.locator('input[type=text]').fill('Names the manager');
    await submit('#make');
    const id = /\/console\/reports\/([0-9A-Za-z]{10})\?done=made$/.exec(page.url())?.[1] as string;
    expect(id).toBeDefined();
    expect(await page.locator('h1').textContent()).toContain(id);
    const response = await page.request.get(url(`/console/reports/${id}/pdf`));
    expect(response.headers()['content-type']).toBe('application/pdf');
    const bytes = await response.body();
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    expect(pdf.text).toContain('Engineering, anonymous');
    expect(pdf.text).toContain('Great team spirit');
    expect(pdf.text).not.toContain('Dave');
    expect(pdf.text).not.toContain('Person0');
    // This report's reasons: the keyboard test leaves an answer out of its own report too.
    const reasons = await served.instance.db.kysely
      .selectFrom('report_verbatim_reasons')
      .selectAll()
      .where('report_id', '=', id)
      .execute();
    expect(reasons).toEqual([
      { report_id: id, entry: expect.stringMatching(/:Remarks1$/), reason: 'Names the manager' },
    ]);
  }, 180_000);

  it('the form by keyboard alone: Tab, Space, Enter and typing', async () => {
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLInputElement;
        return {
          id: element.id,
          tag: element.tagName.toLowerCase(),
          text: (element.textContent ?? '').trim(),
          checked: Boolean(element.checked),
        };
      });
    async function tabTo(target: string, limit = 60) {
      for (let i = 0; i < limit; i++) {
        await page.keyboard.press('Tab');
        const now = await focused();
        if (now.id === target || (now.tag === 'button' && now.text === target)) return now;
      }
      throw new Error(`Tab did not reach ${target} (at ${JSON.stringify(await focused())})`);
    }
    const choose = async (id: string) => {
      await tabTo(id);
      await page.keyboard.press('Space');
      expect((await focused()).checked, id).toBe(true);
    };
    // The names it tabs to are the English ones.
    await speak('enUS');
    await go('/console/reports');
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const href = await page.evaluate(() =>
        (document.activeElement as HTMLAnchorElement).getAttribute('href'),
      );
      if (href === '/console/reports/new') break;
    }
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    expect(page.url()).toBe(url('/console/reports/new'));
    // Sent empty: the error summary has the focus, its first link leads to the type.
    await tabTo('Continue');
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#kind-group$/);
    await page.keyboard.press('Space');
    expect(await focused()).toMatchObject({ id: 'kind-group', checked: true });
    await choose('source-campaign');
    await tabTo('campaign');
    await page.keyboard.type('Engineering');
    expect(await page.locator('#campaign').inputValue()).toBe(campaign);
    await tabTo('name');
    await page.keyboard.type('By keyboard');
    await tabTo('Continue');
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    expect(page.url()).toBe(url('/console/reports/new/check'));
    expect(await page.locator('#uses').textContent()).toBe('It would use 3 personal reports.');
    // Leave one answer out with its reason, then make the report.
    await choose('leave-1');
    await tabTo('reason-1');
    await page.keyboard.type('Off topic');
    await tabTo('Make the report');
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    const id = /\/console\/reports\/([0-9A-Za-z]{10})\?done=made$/.exec(page.url())?.[1] as string;
    const short = (await api('GET', `/reports/${id}/short`)).json.data;
    expect([short.type, short.name, short.campaignid]).toEqual(['group', 'By keyboard', campaign]);
    expect(short.config.excludedVerbatims).toMatch(/^[0-9A-Za-z]{10}:Remarks1$/);
  }, 180_000);

  it('every state of its pages passes axe-core and fits a phone, in every language', async () => {
    const violations: string[] = [];
    let count = 0;
    for (const { language, lang } of LANGUAGES) {
      await speak(language);
      const state = async (name: string, expected: number) => {
        expect(status, `${language} ${name}`).toBe(expected);
        expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
        violations.push(...(await pageProblems(page, `${language} ${name}`)));
        // A screenshot to look at, of the whole page, in English only (as the wizard's): the other
        // languages' fit at 360 px is what the check of sideways scrolling above proves.
        if (language === 'enUS') {
          await keepScreenshot(
            page,
            `console-group-report-${language}-${String(++count).padStart(2, '0')}-${name}`,
            { fullPage: true },
          );
        }
      };
      await go(`/console/reports/new?campaign=${campaign}`);
      await state('form', 200);
      await submit('main button[type=submit]');
      await state('form-errors', 400);
      await page.locator('#kind-groupanon').check();
      await submit('main button[type=submit]');
      await state('check-anonymous', 200);
      await page.locator('#leave-1').check();
      await submit('#make');
      await state('check-reason-missing', 400);
      await go(`/console/reports/new?campaign=${small}`);
      await page.locator('#kind-groupanon').check();
      await submit('main button[type=submit]');
      await state('check-minimum-not-met', 200);
      await go('/console/reports/new');
      await page.locator('#kind-360').check();
      await page.locator('#source-reports').check();
      await page.locator('#variant').selectOption('leadership360');
      await submit('main button[type=submit]');
      await state('pick', 200);
      await submit('main form[method=post] button[type=submit]');
      await state('pick-error', 400);
      for (const id of raters) await page.locator(`#report-${id}`).check();
      await submit('main form[method=post] button[type=submit]');
      await state('check-360', 200);
      await go('/console/reports/new');
      await page.locator('#kind-group').check();
      await submit('main button[type=submit]');
      await go('/console/reports/new/pick');
      await page.locator(`#report-${raters[0]}`).uncheck();
      await submit('main form[method=post] button[type=submit]');
      await state('check-refused', 200);
      await go('/console/reports/new');
      await page.locator('#kind-360').check();
      await submit('main button[type=submit]');
      await go('/console/reports/new/pick');
      for (const id of [...raters, otherSelf]) await page.locator(`#report-${id}`).check();
      await submit('main form[method=post] button[type=submit]');
      await state('check-choose-subject', 200);
      await page.locator(`#subject-${raters[0]}`).check();
      await submit('form[action="/console/reports/new/subject"] button');
      await state('check-subject-chosen', 200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
