import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { readPdf } from '../pdf/pdf-reader.js';

const PAST = '2026-01-01T09:00:00+00:00';
const FUTURE = '2099-01-01T09:00:00+00:00';

/** leadership360's pages: 8, 8 and 8 scale questions, then two optional remarks. */
const PAGES = [
  Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
  ['Remarks1', 'Remarks2'],
];

const answersOf = (codes: string[], value: string) => Object.fromEntries(codes.map((code) => [code, value]));

for (const dialect of dialects) {
  describe(`questionnaire pages (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(async () => {
      await instance?.close();
    });

    const participant = async (campaign: Record<string, unknown> = {}) => {
      const made = await instance.call('POST', '/campaigns', {
        body: {
          name: 'Feedback <2026>',
          variant: 'leadership360',
          start: PAST,
          sendreportdelivery: true,
          sendmemberconfirmation: true,
          ...campaign,
        },
      });
      expect(made.json.status, made.body).toBe('OK');
      const campaignid = made.json.data.campaignid as string;
      const memberid = (
        await instance.call('POST', '/members', {
          body: { email: email(), firstname: 'Zoë', lastname: 'Ångström' },
        })
      ).json.data.memberid as string;
      await instance.call('POST', `/campaigns/${campaignid}/members/${memberid}`);
      const row = await instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('campaign_id', '=', campaignid)
        .where('member_id', '=', memberid)
        .executeTakeFirstOrThrow();
      return { campaignid, memberid, token: row.token };
    };
    const membership = (token: string) =>
      instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('token', '=', token)
        .executeTakeFirst();

    it('opens with a start page that changes nothing, starts on its button, and sends the page headers', async () => {
      const { token, campaignid, memberid } = await participant();
      const browser = new FormBrowser(instance);
      const response = await browser.get(`/q/${token}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<html lang="en">');
      expect(response.body).toContain('Feedback &lt;2026&gt;');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      // Opening the link (and its first page) starts nothing: a mail scanner fetches every link.
      await browser.get(`/q/${token}/page/1`);
      expect(await membership(token)).toMatchObject({ status: 'new', datestarted: null, sessionurl: '' });
      // "Start now" posts to the link: started, then the first page.
      expect(response.body).toContain(`<form method="post" action="/q/${token}"`);
      expect((await browser.post(`/q/${token}`, {}, 'forged')).statusCode).toBe(403);
      expect((await membership(token))?.status).toBe('new');
      const started = await browser.post(`/q/${token}`, {});
      expect(started.statusCode).toBe(303);
      expect(started.headers.location).toBe(`/q/${token}/page/1`);
      const row = await membership(token);
      expect(row?.status).toBe('started');
      expect(row?.sessionurl).toBe(`${instance.config.questionnaireUrl}/q/${token}`);
      const api = (await instance.call('GET', `/campaigns/${campaignid}/members/${memberid}`)).json.data;
      expect(api.status).toBe('started');
      expect(api.datestarted).not.toBeNull();
      // The button again (the back button): still started once, on with the first page to answer.
      expect((await browser.post(`/q/${token}`, {})).headers.location).toBe(`/q/${token}/page/1`);
      expect((await membership(token))?.datestarted).toBe(row?.datestarted);
    });

    it('explains missing answers, saves for later, resumes, checks and sends once', async () => {
      const { token, campaignid, memberid } = await participant();
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${token}`);
      const first = await browser.get(`/q/${token}/page/1`);
      expect(first.body).toContain('Page 1 of 4');
      expect(first.body).toContain('<fieldset');
      expect(first.body).not.toContain(' checked');

      // No form token: refused, nothing saved.
      expect(
        (
          await browser.post(
            `/q/${token}/page/1`,
            { ...answersOf(PAGES[0] as string[], '4'), action: 'continue' },
            'forged',
          )
        ).statusCode,
      ).toBe(403);
      expect((await membership(token))?.answers).toBe('{}');

      // Half a page: errors next to the questions and in a summary, answers kept.
      const half = await browser.post(`/q/${token}/page/1`, { Q1: '5', Q2: '4', action: 'continue' });
      expect(half.statusCode).toBe(200);
      expect(half.body).toMatch(/<title>Error: /);
      expect(half.body).toContain('There is a problem');
      expect(half.body).toContain('href="#q-Q3"');
      expect(half.body).toMatch(/id="q-Q1-5"[^>]*value="5" checked/);
      expect(JSON.parse((await membership(token))?.answers ?? '{}')).toEqual({ Q1: 5, Q2: 4 });

      // Save and come back later, then the link resumes on the first incomplete page.
      const later = await browser.post(`/q/${token}/page/1`, {
        ...answersOf(PAGES[0] as string[], '4'),
        action: 'later',
      });
      expect(later.statusCode).toBe(303);
      expect(later.headers.location).toBe(`/q/${token}/saved`);
      expect((await browser.get(`/q/${token}/saved`)).body).toContain('Your answers have been saved');
      const resumed = await browser.get(`/q/${token}`);
      expect(resumed.statusCode).toBe(303);
      expect(resumed.headers.location).toBe(`/q/${token}/page/2`);

      // A value outside the scale is an error, not an answer.
      const bad = await browser.post(`/q/${token}/page/2`, {
        ...answersOf(PAGES[1] as string[], '4'),
        Q9: '9',
        action: 'continue',
      });
      expect(bad.body).toContain('href="#q-Q9"');
      for (const [index, codes] of PAGES.entries()) {
        const values = index === 3 ? { Remarks1: 'Keep <b>going</b>', Remarks2: '' } : answersOf(codes, '4');
        const response = await browser.post(`/q/${token}/page/${index + 1}`, {
          ...values,
          action: 'continue',
        });
        expect(response.statusCode, response.body).toBe(303);
      }
      const check = await browser.get(`/q/${token}/check`);
      expect(check.statusCode).toBe(200);
      expect(check.body).toContain('Keep &lt;b&gt;going&lt;/b&gt;');
      expect(check.body.replaceAll('&#x3D;', '=')).toContain('?return=check#q-Q1');

      // Change an answer from the check page: back to the check page.
      const change = await browser.post(`/q/${token}/page/1`, {
        ...answersOf(PAGES[0] as string[], '2'),
        return: 'check',
        action: 'continue',
      });
      expect(change.headers.location).toBe(`/q/${token}/check`);

      const sent = await browser.post(`/q/${token}/check`, { action: 'send' });
      expect(sent.statusCode).toBe(303);
      expect(sent.headers.location).toBe(`/q/${token}/done`);
      const done = await browser.get(`/q/${token}/done`);
      expect(done.body).toContain('Questionnaire complete');
      expect(done.body).toContain(`/r/${token}`);
      // The back button and the link again: the confirmation, never a second report.
      expect((await browser.post(`/q/${token}/check`, { action: 'send' })).headers.location).toBe(
        `/q/${token}/done`,
      );
      expect((await browser.get(`/q/${token}`)).headers.location).toBe(`/q/${token}/done`);

      const api = (await instance.call('GET', `/campaigns/${campaignid}/members/${memberid}`)).json.data;
      expect(api.status).toBe('completed');
      expect(api.results).toEqual({ status: 'completed', reportid: expect.any(String) });
      const reports = (await instance.call('GET', `/members/${memberid}/reports`)).json.data;
      expect(reports).toHaveLength(1);
      expect(reports[0].reportid).toBe(api.results.reportid);
      expect(reports[0].token).toBe(token);
      const data = (await instance.call('GET', `/reports/${api.results.reportid}/data`)).json.data;
      expect(JSON.parse(data.raw)).toMatchObject({ Q1: 2, Q9: 4, Remarks1: 'Keep <b>going</b>' });
      const mails = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('stage')
        .where('campaign_id', '=', campaignid)
        .execute();
      expect(mails.map((mail) => mail.stage).sort()).toEqual([
        'campaign_reportdelivery',
        'confirmation_member',
      ]);

      // The report link is the PDF itself; it and its older address, HEAD and GET alike, open
      // nothing on record; the confirmation's button does (lastopened), and leads to the link.
      const lastopened = async () =>
        (await instance.call('GET', `/campaigns/${campaignid}/reports`)).json.data[0].lastopened;
      const link = await browser.get(`/r/${token}`);
      expect(link.statusCode).toBe(200);
      expect(link.headers['content-type']).toBe('application/pdf');
      const head = await instance.app.inject({ method: 'HEAD', url: `/r/${token}/pdf` });
      expect(head.headers['content-type']).toBe('application/pdf');
      const pdf = await instance.app.inject({ method: 'GET', url: `/r/${token}/pdf` });
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect((await readPdf(pdf.rawPayload)).text).toContain('Ångström');
      expect(await lastopened()).toBeNull();
      expect((await browser.post(`/r/${token}`, {}, 'forged')).statusCode).toBe(403);
      expect(await lastopened()).toBeNull();
      const opened = await browser.post(`/r/${token}`, {});
      expect(opened.statusCode).toBe(303);
      expect(opened.headers.location).toBe(`/r/${token}`);
      expect(await lastopened()).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('takes the pages of an auto-closing campaign, and ends it when the last member has sent', async () => {
      const { token, campaignid } = await participant({ closingtype: 'auto' });
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${token}/page/1`);
      for (const [index, codes] of PAGES.entries()) {
        const values = index === 3 ? { Remarks1: '', Remarks2: '' } : answersOf(codes, '3');
        expect(
          (await browser.post(`/q/${token}/page/${index + 1}`, { ...values, action: 'continue' })).statusCode,
        ).toBe(303);
      }
      await browser.get(`/q/${token}/check`);
      expect((await browser.post(`/q/${token}/check`, { action: 'send' })).headers.location).toBe(
        `/q/${token}/done`,
      );
      expect((await instance.call('GET', `/campaigns/${campaignid}`)).json.data.status).toBe('ended');
      expect((await browser.get(`/q/${token}`)).headers.location).toBe(`/q/${token}/done`);
    });

    it('makes one report and one set of mails when two browsers send at once', async () => {
      const { token, memberid, campaignid } = await participant();
      const answers: Record<string, number> = {};
      for (const code of PAGES.slice(0, 3).flat()) answers[code] = 3;
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({ answers: JSON.stringify(answers), status: 'started' })
        .where('token', '=', token)
        .execute();
      const one = new FormBrowser(instance);
      const two = new FormBrowser(instance);
      await one.get(`/q/${token}/check`);
      await two.get(`/q/${token}/check`);
      const results = await Promise.all([
        one.post(`/q/${token}/check`, { action: 'send' }),
        two.post(`/q/${token}/check`, { action: 'send' }),
      ]);
      for (const result of results) expect(result.headers.location).toBe(`/q/${token}/done`);
      expect((await instance.call('GET', `/members/${memberid}/reports`)).json.data).toHaveLength(1);
      const mails = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('stage')
        .where('campaign_id', '=', campaignid)
        .execute();
      expect(mails).toHaveLength(2);
    });

    it('says what happened to a link: unknown, reset, removed, not open yet, closed', async () => {
      const browser = new FormBrowser(instance);
      const unknown = await browser.get(`/q/${'x'.repeat(43)}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('This link does not work');
      expect((await browser.get('/q/short')).statusCode).toBe(404);

      const reset = await participant();
      await browser.get(`/q/${reset.token}/page/1`);
      await browser.post(`/q/${reset.token}/page/1`, {
        ...answersOf(PAGES[0] as string[], '4'),
        action: 'continue',
      });
      await instance.call('PATCH', `/campaigns/${reset.campaignid}/members/${reset.memberid}/reset`);
      const replaced = await browser.get(`/q/${reset.token}`);
      expect(replaced.statusCode).toBe(410);
      expect(replaced.body).toContain('This link has been replaced');
      // A page sent after the reset saves nothing and leads to the same explanation.
      const late = await browser.post(`/q/${reset.token}/page/2`, {
        ...answersOf(PAGES[1] as string[], '4'),
        action: 'continue',
      });
      expect(late.statusCode).toBe(410);
      const fresh = await instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('member_id', '=', reset.memberid)
        .executeTakeFirstOrThrow();
      expect(fresh.answers).toBe('{}');
      expect(fresh.token).not.toBe(reset.token);

      const removed = await participant();
      await instance.call('DELETE', `/campaigns/${removed.campaignid}/members/${removed.memberid}`);
      const gone = await browser.get(`/q/${removed.token}`);
      expect(gone.statusCode).toBe(410);
      expect(gone.body).toContain('You are no longer taking part');

      const early = await participant({ start: FUTURE });
      const notOpen = await browser.get(`/q/${early.token}`);
      expect(notOpen.body).toContain('This questionnaire is not open yet');
      expect(notOpen.body).toContain('2099');
      expect((await membership(early.token))?.status).toBe('new');

      const closed = await participant({
        closingtype: 'date',
        start: '2026-01-01T09:00:00+00:00',
        end: '2026-01-02T09:00:00+00:00',
      });
      const ended = await browser.get(`/q/${closed.token}/page/1`);
      expect(ended.statusCode).toBe(410);
      expect(ended.body).toContain('This questionnaire has closed');
    });

    it('speaks the campaign language, and shows a clear page before the report exists', async () => {
      const { token } = await participant({ language: 'nlNL' });
      const browser = new FormBrowser(instance);
      const page = await browser.get(`/q/${token}/page/1`);
      expect(page.body).toContain('<html lang="nl">');
      const report = await browser.get(`/r/${token}`);
      expect(report.statusCode).toBe(404);
      expect(report.body).toContain('<html lang="nl">');
      expect((await browser.get(`/r/${'y'.repeat(43)}`)).statusCode).toBe(404);
    });

    it("says what happened to a link in the campaign's language, or the browser's when it knows no campaign", async () => {
      const dutch = await participant({ language: 'nlNL' });
      await instance.call('PATCH', `/campaigns/${dutch.campaignid}/members/${dutch.memberid}/reset`);
      const reset = await new FormBrowser(instance).get(`/q/${dutch.token}`);
      expect(reset.statusCode).toBe(410);
      expect(reset.body).toContain('<html lang="nl">');
      const unknown = await instance.app.inject({
        method: 'GET',
        url: `/q/${'z'.repeat(43)}`,
        headers: { 'accept-language': 'de-DE, fr;q=0.8, en;q=0.5' },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('<html lang="fr">');
    });

    it('serves its stylesheet from the instance', async () => {
      const page = await new FormBrowser(instance).get(`/q/${(await participant()).token}`);
      const href = /href="([^"]+assay\.css[^"]*)"/.exec(page.body)?.[1] as string;
      const css = await instance.app.inject({ method: 'GET', url: href });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    });
  });
}
