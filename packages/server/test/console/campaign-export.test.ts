import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { addToCampaign, makeCampaign, makeMembers } from './campaign-fixtures.js';

for (const dialect of dialects) {
  describe(`console: the campaign's downloads (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;
    let id: string;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
      id = await makeCampaign(instance, { name: 'Pulse' });
      await addToCampaign(instance, id, await makeMembers(instance, 3, (i) => ({ firstname: `@${i}` })));
    });
    afterAll(() => instance.close());

    it('links the CSV, Excel and comments downloads, which are the API export byte for byte', async () => {
      const page = await browser.get(`/console/campaigns/${id}`);
      // As Handlebars escapes them: = is &#x3D;, & is &amp;.
      for (const query of ['format&#x3D;csv', 'format&#x3D;xlsx', 'format&#x3D;csv&amp;part&#x3D;verbatims'])
        expect(page.body).toContain(`href="/console/campaigns/${id}/export?${query}" download`);
      expect(page.body).toContain('Members and scores (CSV)');
      for (const query of ['format=csv', 'format=csv&part=verbatims']) {
        const download = await browser.get(`/console/campaigns/${id}/export?${query}`);
        const api = await instance.call('GET', `/campaigns/${id}/export?${query}`);
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(download.headers['content-disposition']).toBe(api.headers['content-disposition']);
        expect(download.body).toBe(api.body);
      }
      expect(
        (await browser.get(`/console/campaigns/${id}/export?format=csv`)).body.split('\r\n').slice(1, 4),
      ).toEqual(expect.arrayContaining([expect.stringContaining(",'@1,")]));
      const excel = await browser.get(`/console/campaigns/${id}/export?format=xlsx`);
      expect(excel.statusCode).toBe(200);
      expect(excel.headers['content-disposition']).toBe(`attachment; filename="campaign-pulse-${id}.xlsx"`);
    });

    it('answers a bad format with the API message, and an unknown campaign with the console page not found', async () => {
      const bad = await browser.get(`/console/campaigns/${id}/export?format=pdf`);
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('format: must be one of csv, xlsx');
      expect(bad.headers['content-type']).toContain('text/html');
      const unknown = await browser.get('/console/campaigns/a1B2c3D4e5/export?format=csv');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['content-type']).toContain('text/html');
    });
  });
}
