import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { makeCampaign } from './campaign-fixtures.js';

const ownRetention = (instance: Instance, campaignId: string) =>
  instance.db.kysely
    .selectFrom('campaign_retention')
    .select('days')
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();

for (const dialect of dialects) {
  describe(`console: a campaign's retention (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;

    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { ASSAY_RETENTION_DAYS: '365' } });
      browser = await new ConsoleBrowser(instance).signIn();
    });
    afterAll(() => instance.close());

    it("shows the retention among the campaign's settings, and sets and clears it through its form", async () => {
      const id = await makeCampaign(instance);
      const page = await browser.get(`/console/campaigns/${id}`);
      expect(page.body).toContain('Retention of answers and reports');
      expect(page.body).toContain('<bdi>365 days (the instance)</bdi>');
      expect(page.body).toContain(`href="/console/campaigns/${id}/retention"`);

      const form = await browser.get(`/console/campaigns/${id}/retention`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('id="setting-retention"');
      expect(form.body).toContain('Fewer than the instance’s 365');
      expect(form.body).toContain('value=""');

      const saved = await browser.post(`/console/campaigns/${id}/retention`, { value: ' 90 ' });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(`/console/campaigns/${id}?done=saved#settings`);
      expect(await ownRetention(instance, id)).toEqual({ days: 90 });
      expect((await browser.get(`/console/campaigns/${id}`)).body).toContain(
        '<bdi>90 days (this campaign)</bdi>',
      );
      expect((await browser.get(`/console/campaigns/${id}/retention`)).body).toContain('value="90"');

      const entry = await instance.db.kysely
        .selectFrom('audit_log')
        .select(['actor_type', 'channel', 'action', 'fields'])
        .where('resource_type', '=', 'campaign')
        .where('resource_id', '=', id)
        .where('fields', '=', 'retention')
        .execute();
      expect(entry).toEqual([
        { actor_type: 'user', channel: 'console', action: 'update', fields: 'retention' },
      ]);

      const cleared = await browser.post(`/console/campaigns/${id}/retention`, { value: '' });
      expect(cleared.statusCode).toBe(303);
      expect(await ownRetention(instance, id)).toBeUndefined();
    });

    it('refuses a retention that is not shorter, or not a number of days, next to the field', async () => {
      const id = await makeCampaign(instance);
      const refused: [string, string][] = [
        ['365', 'days: must be fewer than the instance&#x27;s retention of 365 days'],
        ['1000', 'days: must be fewer than the instance&#x27;s retention of 365 days'],
        ['0', 'days: must be between 1 and 36500, got 0'],
        ['-1', 'days: must be a whole number of days, got &quot;-1&quot;'],
        ['<b>x</b>', 'days: must be a whole number of days, got &quot;&lt;b&gt;x&lt;/b&gt;&quot;'],
      ];
      for (const [value, message] of refused) {
        const response = await browser.post(`/console/campaigns/${id}/retention`, { value });
        expect(response.statusCode, value).toBe(400);
        expect(response.body, value).toContain('id="setting-retention-error"');
        expect(response.body, value).toContain(message);
        expect(response.body, value).toMatch(/<title>Error: /);
      }
      expect(await ownRetention(instance, id)).toBeUndefined();
      // Without the form's token nothing is changed.
      const forged = await browser.post(`/console/campaigns/${id}/retention`, { value: '30' }, null);
      expect(forged.statusCode).toBe(403);
      expect(await ownRetention(instance, id)).toBeUndefined();
      expect((await browser.get('/console/campaigns/ZZZZZZZZZZ/retention')).statusCode).toBe(404);
      expect(
        (await browser.post('/console/campaigns/ZZZZZZZZZZ/retention', { value: '30' })).statusCode,
      ).toBe(404);
    });

    it('speaks the console languages', async () => {
      const id = await makeCampaign(instance);
      const expected: Record<string, string> = {
        nlNL: 'Bewaartermijn van antwoorden en rapporten',
        esES: 'Conservación de respuestas e informes',
        frFR: 'Conservation des réponses et des rapports',
      };
      for (const [language, label] of Object.entries(expected)) {
        const speaker = await new ConsoleBrowser(instance, '127.0.0.1', {
          'accept-language': `${language.slice(0, 2)}-${language.slice(2)}`,
        }).signIn();
        expect((await speaker.get(`/console/campaigns/${id}`)).body, language).toContain(label);
        expect((await speaker.get(`/console/campaigns/${id}/retention`)).body, language).toContain(label);
      }
    });
  });
}
