import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { readPdf } from '../pdf/pdf-reader.js';
import {
  axeViolations,
  describeInBrowser,
  LANGUAGES,
  launchChromium,
  linkIn,
  type ServedInstance,
  startServedInstance,
} from './browser.js';
import { participant } from './participants.js';

// The whole way in each of the four languages, with nothing done by hand: a bigfive campaign made
// through the API with `autoinvite: instant` in that language, a member added, and the platform
// itself (its scheduler and mail worker) sends the invitation over SMTP. Its link leads in Chromium
// through every page to the confirmation, with axe-core at zero on the start page, a question page,
// the check page, the confirmation and the report link's page, and the report is a PDF in that language.

describeInBrowser.concurrent('autoinvite to the PDF, in each language', () => {
  let sink: SmtpSink;
  let served: ServedInstance;
  let browser: Browser;
  const parsed = new Map<string, Promise<ParsedMail>>();

  beforeAll(async () => {
    sink = await startSmtpSink();
    [served, browser] = await Promise.all([
      startServedInstance({ background: true, env: { SMTP_URL: sink.url, ASSAY_TICK_SECONDS: '1' } }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await sink?.close();
  });

  /** The first mail to `address` with a link of this kind, once the platform has delivered it (60 s: a safety net). */
  async function mailTo(address: string, kind: 'q' | 'r'): Promise<{ mail: ParsedMail; link: string }> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      for (const received of sink.received) {
        if (!received.envelope.to.includes(address)) continue;
        const key = received.messageId || received.raw;
        if (!parsed.has(key)) parsed.set(key, simpleParser(received.raw));
        const mail = (await parsed.get(key)) as ParsedMail;
        const link = linkIn(mail.text ?? '', served.base, kind);
        if (link) return { mail, link };
      }
      if (Date.now() > deadline) throw new Error(`no mail with a /${kind}/ link to ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const follow = (page: Page, selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).click()]);

  for (const { language, lang } of LANGUAGES) {
    it(`bigfive in ${language}`, async ({ expect }) => {
      const violations: string[] = [];
      const audit = async (page: Page, name: string) => {
        expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
        for (const violation of await axeViolations(page)) violations.push(`${name}: ${violation.id}`);
      };

      // No invite call: `instant` makes the platform mail the member as soon as it is added.
      const p = await participant(served.instance, {
        variant: 'bigfive',
        language,
        autoinvite: 'instant',
        name: `Big Five ${language}`,
      });
      const invitation = await mailTo(p.email, 'q');
      expect(invitation.link).toBe(`${served.base}/q/${p.token}`);
      expect(invitation.mail.html || '').toMatch(new RegExp(`<html lang="${lang}`));

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(invitation.link);
      await audit(page, 'start');
      await follow(page, 'main .button--start');
      for (let number = 1; number <= 6; number++) {
        expect(page.url()).toBe(`${served.base}/q/${p.token}/page/${number}`);
        if (number === 1) await audit(page, 'question page');
        const groups = page.locator('main fieldset');
        const count = await groups.count();
        for (let i = 0; i < count; i++) {
          await groups
            .nth(i)
            .locator('label')
            .nth(i % 5)
            .click({ force: true });
        }
        await follow(page, 'main button[value=continue]');
      }
      expect(page.url()).toBe(`${served.base}/q/${p.token}/check`);
      await audit(page, 'check');
      await follow(page, 'main button[value=send]');
      expect(page.url()).toBe(`${served.base}/q/${p.token}/done`);
      await audit(page, 'confirmation');
      // The report: the confirmation's button posts to the report mail's link, the PDF in the
      // campaign's language (its dimension names as the variant's texts give them).
      const action = await page.locator('main form[action*="/r/"]').getAttribute('action');
      const url = new URL(action as string, page.url()).toString();
      expect((await mailTo(p.email, 'r')).link).toBe(url);
      expect(violations).toEqual([]);
      const response = await page.request.get(url);
      expect(response.headers()['content-type']).toBe('application/pdf');
      const pdf = await readPdf(await response.body());
      const structure = await served.instance.call(
        'GET',
        `/settings/reports/bigfive/datastructure?language=${language}`,
      );
      for (const dimension of structure.json.data.dimensions as { name: string }[]) {
        expect(pdf.text).toContain(dimension.name);
      }
      await context.close();
      // A whole journey (120 answers clicked, four axe audits, two mails, a PDF), four of them at
      // once on a 2-core runner: some 25 s each on a quiet machine, so the default 30 s is too tight.
    }, 240_000);
  }
});
