import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConsoleTour, describeInBrowser, LANGUAGES, startConsoleTour } from './browser.js';

// axe-core on every state of the console's reports, in each of the four languages, at a phone's
// width (360 px, nothing scrolls sideways): the list empty, filled and filtered to nothing, a
// report's page, the language form with its error, the delete confirmation.

describeInBrowser('the console’s reports pass axe-core and fit a phone', () => {
  let tour: ConsoleTour;
  const api = (method: string, path: string, body?: unknown) =>
    tour.served.instance.call(method, path, { body });

  beforeAll(async () => {
    tour = await startConsoleTour('console-reports');
  });
  afterAll(() => tour?.close());

  it('every state of the reports, in every language', async () => {
    const { page, violations, go, follow, state, useLanguage } = tour;
    for (const each of LANGUAGES) {
      await useLanguage(each);
      await go('/console/reports');
      await state('list-empty', 200);
    }
    const answers = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`Q${i + 1}`, 1 + (i % 5)]));
    const made: string[] = [];
    for (const [firstname, lastname] of [
      ['Ada', 'Lovelace-with-a-rather-long-name'],
      ['שרה', 'כהן'],
    ]) {
      const member = (
        await api('POST', '/members', { firstname, lastname, email: `${made.length}@example.test` })
      ).json.data.memberid;
      const created = await api('POST', '/reports/import/leadership360', {
        reports: Array.from({ length: 30 }, () => ({ memberid: member, answers })),
      });
      expect(created.json.status, created.body).toBe('OK');
      made.push(...created.json.data.created);
    }
    const report = made[0] as string;
    for (const each of LANGUAGES) {
      await useLanguage(each);
      await go('/console/reports');
      await state('list-filled', 200);
      await go('/console/reports?q=nobody&type=group');
      await state('list-filtered-empty', 200);
      await go(`/console/reports/${report}`);
      await state('report', 200);
      await go(`/console/reports/${report}/language`);
      await state('language-form', 200);
      await page.evaluate(() => {
        const select = document.querySelector('#language') as HTMLSelectElement;
        select.add(new Option('Deutsch', 'deDE', true, true));
      });
      await follow('main button[type=submit]');
      await state('language-form-error', 400);
      await go(`/console/reports/${report}/delete`);
      await state('delete-confirmation', 200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
