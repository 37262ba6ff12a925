import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiActor, consoleActor, participantActor } from '../../src/audit/actor.js';
import { recordChange, recordChanges } from '../../src/audit/audit.service.js';
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

const LOCALES = { enUS: 'en-US', nlNL: 'nl-NL', esES: 'es-ES', frFR: 'fr-FR' } as const;

/** The audit log's console page in a real browser: axe-core and a phone's width, in four languages. */
describeInBrowser('the console’s audit log in Chromium', () => {
  let served: ServedInstance;
  let browser: Browser;

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
    const db = served.instance.db.kysely;
    const admin = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    // More than a page, every kind of actor, a refusal and changed fields: all the table shows.
    await recordChanges(
      db,
      participantActor('m000000001', '203.0.113.9'),
      Array.from({ length: 52 }, (_, i) => ({ resource: 'answers' as const, id: `m${i}`, action: 'save' })),
      '2026-01-10T08:00:00+00:00',
    );
    await recordChange(
      db,
      consoleActor(admin, '2001:db8:85a3::8a2e:370:7334'),
      { resource: 'member', id: 'm000000001', action: 'update', fields: ['firstname', 'lastname', 'email'] },
      '2026-02-10T09:00:00+00:00',
    );
    await recordChange(
      db,
      apiActor({ userId: admin, credential: { kind: 'apikey', id: 'k000000001' } }, '198.51.100.4'),
      { resource: 'campaign_member', id: 'm000000001', action: 'delete', outcome: 'denied' },
      '2026-03-10T10:00:00+00:00',
    );
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('passes axe-core and fits a phone, in four languages', { timeout: 120_000 }, async () => {
    const problems: string[] = [];
    for (const { language, lang } of LANGUAGES) {
      const context = await browser.newContext({ viewport: PHONE, locale: LOCALES[language] });
      const page = await context.newPage();
      await signInWith(page, `${served.base}${await signInPath(served.instance)}`);
      await page.goto(`${served.base}/console/audit?until=2026-06-30&type=&actor=`);
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      expect(await page.locator('tbody tr').count()).toBe(50);
      expect(await page.locator('a[rel="next"]').count()).toBe(1);
      problems.push(...(await pageProblems(page, `audit ${language}`)));
      await context.close();
    }
    expect(problems).toEqual([]);
  });
});
