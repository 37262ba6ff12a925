import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, type Instance, participant, startInstance } from '../helpers/instance.js';

const PAGES = [
  Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
  ['Remarks1', 'Remarks2'],
];

/**
 * The report link `/r/<token>` after the campaign lets go of its member (docs/questionnaire.md,
 * "The report link"): the report is the participant's, so the link keeps serving it when the member
 * is removed from the campaign or the campaign is deleted (both keep the report); it stops when the
 * report itself, or the member, is deleted.
 */
for (const dialect of dialects) {
  describe(`the report link when the campaign lets go (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(async () => {
      await instance?.close();
    });

    /** A member who completed a leadership360 campaign through the pages: its ids and token. */
    const completed = async () => {
      const { campaignid, memberid, token } = await participant(instance, { sendreportdelivery: true });
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${token}`);
      for (const [index, codes] of PAGES.entries()) {
        const values = Object.fromEntries(codes.map((code) => [code, index === 3 ? '' : '3']));
        await browser.get(`/q/${token}/page/${index + 1}`);
        await browser.post(`/q/${token}/page/${index + 1}`, { ...values, action: 'continue' });
      }
      await browser.get(`/q/${token}/check`);
      expect((await browser.post(`/q/${token}/check`, { action: 'send' })).statusCode).toBe(303);
      const reportid = (await instance.call('GET', `/campaigns/${campaignid}/members/${memberid}`)).json.data
        .results.reportid as string;
      return { campaignid, memberid, token, reportid };
    };
    /** The report link (the PDF itself) and its older address. */
    const page = (token: string) => instance.app.inject({ method: 'GET', url: `/r/${token}` });
    const open = (token: string) => instance.app.inject({ method: 'GET', url: `/r/${token}/pdf` });

    it('keeps serving the report after the member is removed from the campaign, and stops when the report is deleted', async () => {
      const { campaignid, memberid, token, reportid } = await completed();
      expect((await open(token)).headers['content-type']).toBe('application/pdf');
      expect(
        (await instance.call('DELETE', `/campaigns/${campaignid}/members/${memberid}`)).json.status,
      ).toBe('OK');
      // The questionnaire is closed to a removed member; the report made from their answers is theirs.
      expect((await instance.app.inject({ method: 'GET', url: `/q/${token}` })).statusCode).toBe(410);
      expect((await page(token)).headers['content-type']).toBe('application/pdf');
      const after = await open(token);
      expect(after.statusCode).toBe(200);
      expect(after.headers['content-type']).toBe('application/pdf');
      expect(after.headers['cache-control']).toBe('private, no-store');
      expect((await instance.call('DELETE', `/reports/${reportid}`)).json.status).toBe('OK');
      for (const gone of [await page(token), await open(token)]) {
        expect(gone.statusCode).toBe(410);
        expect(gone.headers['content-type']).toContain('text/html');
      }
    });

    it('keeps serving the report after the campaign is deleted, and stops when the member is erased', async () => {
      const { campaignid, memberid, token } = await completed();
      expect((await instance.call('DELETE', `/campaigns/${campaignid}`)).json.status).toBe('OK');
      expect((await page(token)).statusCode).toBe(200);
      expect((await open(token)).headers['content-type']).toBe('application/pdf');
      expect((await instance.call('DELETE', `/members/${memberid}`)).json.status).toBe('OK');
      for (const gone of [await page(token), await open(token)]) {
        expect(gone.statusCode).toBeGreaterThanOrEqual(404);
        expect(gone.headers['content-type']).toContain('text/html');
      }
    });
  });
}
