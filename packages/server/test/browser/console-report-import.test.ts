import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConsoleTour, describeInBrowser, LANGUAGES, startConsoleTour } from './browser.js';

// The import of answers as reports in Chromium: a real file chosen in the form, the check page with
// its errors, the file fixed, confirmed, imported; axe-core on each state in each of the four
// languages, at a phone's width (360 px, nothing scrolls sideways).

const CODES = Array.from({ length: 24 }, (_, i) => `Q${i + 1}`);

describeInBrowser('the console’s import of answers passes axe-core and fits a phone', () => {
  let tour: ConsoleTour;
  beforeAll(async () => {
    tour = await startConsoleTour('console-report-import');
  });
  afterAll(() => tour?.close());

  it('upload, check page with errors, check page, confirm, in every language', async () => {
    const { served, page, violations, go, follow, state, useLanguage } = tour;
    const made = await served.instance.call('POST', '/members', {
      body: { email: 'ada@example.test', firstname: 'Ada', lastname: 'Lovelace' },
    });
    const ada = made.json.data.memberid as string;
    const header = `memberid,email,role,${CODES.join(',')},Remarks1`;
    const fours = CODES.map(() => '4').join(',');
    let imported = 0;
    for (const each of LANGUAGES) {
      await useLanguage(each);

      await go('/console/reports');
      await follow('main a[href="/console/reports/import"]');
      await state('form', 200);
      await follow('main button[type=submit]');
      await state('form-errors', 400);

      await page.locator('#field-variant').selectOption('leadership360');
      await page.locator('#field-file').setInputFiles({
        name: 'answers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${header}\n${ada},,,${fours},"Good, mostly"\n,nobody-with-a-very-long-address-indeed@example.test,peer,${fours},\nZZZZZZZZZZ,,boss,${fours},שלום\n`,
        ),
      });
      await follow('main button[type=submit]');
      await state('check-errors', 200);
      expect(await page.locator('.error-cell').count()).toBe(2);

      await follow('main a.button');
      await page.locator('#field-variant').selectOption('leadership360');
      await page.locator('#field-file').setInputFiles({
        name: 'answers.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${header}\n${ada},,,${fours},"Good, mostly"\n,ada@example.test,peer,${fours},שלום\n`,
        ),
      });
      await follow('main button[type=submit]');
      await state('check-ok', 200);
      await follow('main form button[type=submit]');
      await state('done', 200);
      imported += 2;
      const reports = await served.instance.db.kysely.selectFrom('reports').select('id').execute();
      expect(reports).toHaveLength(imported);
      await follow('main a[href^="/console/reports?"]');
      expect(tour.status).toBe(200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
