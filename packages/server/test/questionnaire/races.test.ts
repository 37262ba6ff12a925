// A page's answers are saved in one statement that merges them into what is stored at that moment
// (questionnaire.repository.ts). These races check what that must hold without a transaction:
// pages sent at once keep each other's answers, a reset or a send racing with a page lets nothing
// be written after it, and a campaign that is not open takes nothing. Each race runs 15 rounds.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeAnswers, saveOpenPage } from '../../src/questionnaire/questionnaire.repository.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

/** The pages of leadership360: three of eight likert items, then the two remarks. */
const PAGES = [
  Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
  ['Remarks1', 'Remarks2'],
] as const;
const answersOf = (codes: readonly string[], value: string) =>
  Object.fromEntries(codes.map((code) => [code, value]));
const ROUNDS = 15;

for (const dialect of dialects) {
  describe(`questionnaire pages racing (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(async () => {
      await instance?.close();
    });

    const stored = (memberid: string) =>
      instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('member_id', '=', memberid)
        .executeTakeFirstOrThrow();

    /** A member of a new leadership360 campaign (open since January, or as `campaign` says). */
    const participant = async (campaign: Record<string, unknown> = {}) => {
      const made = await instance.call('POST', '/campaigns', {
        body: { name: 'Race', variant: 'leadership360', start: '2026-01-01T09:00:00+00:00', ...campaign },
      });
      expect(made.json.status, made.body).toBe('OK');
      const campaignid = made.json.data.campaignid as string;
      const member = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'Rae', lastname: 'Race' },
      });
      const memberid = member.json.data.memberid as string;
      await instance.call('POST', `/campaigns/${campaignid}/members/${memberid}`);
      return { campaignid, memberid, token: (await stored(memberid)).token };
    };

    it('saves nothing on a campaign not open yet or closed', async () => {
      for (const campaign of [
        { start: '2099-01-01T09:00:00+00:00' },
        { closingtype: 'date', start: '2026-01-01T09:00:00+00:00', end: '2026-01-02T09:00:00+00:00' },
      ]) {
        const closed = Boolean(campaign.end);
        const { token, memberid } = await participant(campaign);
        // The form token comes from the page of an open participation: the form itself is valid.
        const open = await participant();
        const browser = new FormBrowser(instance);
        await browser.get(`/q/${open.token}/page/1`);
        const shown = await browser.get(`/q/${token}/page/1`);
        const post = await browser.post(`/q/${token}/page/1`, {
          ...answersOf(PAGES[0], '4'),
          action: 'continue',
        });
        expect([shown.statusCode, post.statusCode]).toEqual(closed ? [410, 410] : [200, 200]);
        expect(post.body).toContain(
          closed ? 'This questionnaire has closed' : 'This questionnaire is not open yet',
        );
        expect((await stored(memberid)).answers).toBe('{}');
      }
    });

    it('two browsers sending different pages at once keep both; a blank answer removes a saved one', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { token, memberid } = await participant();
        const browsers = [
          new FormBrowser(instance),
          new FormBrowser(instance),
          new FormBrowser(instance),
        ] as const;
        await Promise.all(browsers.map((browser, i) => browser.get(`/q/${token}/page/${i + 1}`)));
        const results = await Promise.all([
          browsers[0].post(`/q/${token}/page/1`, { ...answersOf(PAGES[0], '4'), action: 'continue' }),
          browsers[1].post(`/q/${token}/page/2`, { ...answersOf(PAGES[1], '2'), action: 'continue' }),
          browsers[2].post(`/q/${token}/page/3`, { ...answersOf(PAGES[2], '5'), Q17: '', action: 'later' }),
        ]);
        expect(results.map((result) => result.statusCode)).toEqual([303, 303, 303]);
        const expected: Record<string, number> = {};
        for (const [codes, value] of [
          [PAGES[0], 4],
          [PAGES[1], 2],
          [PAGES[2], 5],
        ] as const) {
          for (const code of codes) if (code !== 'Q17') expected[code] = value;
        }
        expect(JSON.parse((await stored(memberid)).answers)).toEqual(expected);

        const again = await browsers[0].post(`/q/${token}/page/1`, {
          ...answersOf(PAGES[0], '3'),
          Q1: '',
          action: 'later',
        });
        expect(again.statusCode).toBe(303);
        const after = JSON.parse((await stored(memberid)).answers);
        expect(after).toMatchObject({ Q2: 3, Q9: 2 });
        expect(after.Q1).toBeUndefined();
      }
    });

    it('a reset racing with a page: nothing is saved under the new link', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { token, memberid, campaignid } = await participant();
        const browser = new FormBrowser(instance);
        await browser.get(`/q/${token}/page/1`);
        const [post] = await Promise.all([
          browser.post(`/q/${token}/page/1`, { ...answersOf(PAGES[0], '4'), action: 'continue' }),
          instance.call('PATCH', `/campaigns/${campaignid}/members/${memberid}/reset`),
        ]);
        expect([303, 410]).toContain(post.statusCode);
        const row = await stored(memberid);
        expect(row.token).not.toBe(token);
        expect(row.answers).toBe('{}');
      }
    });

    it('a page racing with the send: the report has the answers stored, nothing is written after', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { token, memberid } = await participant();
        const answering = new FormBrowser(instance);
        const sending = new FormBrowser(instance);
        await answering.get(`/q/${token}/page/1`);
        for (const [i, codes] of PAGES.entries()) {
          const values = i === 3 ? { Remarks1: 'Fine', Remarks2: '' } : answersOf(codes, '3');
          const sent = await answering.post(`/q/${token}/page/${i + 1}`, { ...values, action: 'continue' });
          expect(sent.statusCode).toBe(303);
        }
        await sending.get(`/q/${token}/check`);
        await answering.get(`/q/${token}/page/1`);
        const [save, send] = await Promise.all([
          answering.post(`/q/${token}/page/1`, { ...answersOf(PAGES[0], '5'), action: 'continue' }),
          sending.post(`/q/${token}/check`, { action: 'send' }),
        ]);
        expect(send.headers.location).toBe(`/q/${token}/done`);
        expect(save.statusCode).toBe(303);
        const row = await stored(memberid);
        expect(row.status).toBe('completed');
        const report = await instance.db.kysely
          .selectFrom('reports')
          .select('raw')
          .where('token', '=', token)
          .executeTakeFirstOrThrow();
        const raw = JSON.parse(report.raw);
        const answers = JSON.parse(row.answers);
        expect(raw.Q1).toBe(answers.Q1);
        expect(raw.Q8).toBe(answers.Q8);
      }
    });

    it.runIf(dialect === 'postgres')(
      "a page save's commit without the WAL flush stays its own: the connection's next statements wait for it",
      async () => {
        const { token, memberid } = await participant();
        // The one statement saves for a member who has started: the start button first.
        const browser = new FormBrowser(instance);
        await browser.get(`/q/${token}`);
        expect((await browser.post(`/q/${token}`, {})).statusCode).toBe(303);
        const { id } = await stored(memberid);
        // One connection of the pool, so that the setting a page save makes is read where it was made.
        await instance.db.kysely.connection().execute(async (connection) => {
          const setting = async () =>
            (
              await sql<{ value: string }>`select current_setting('synchronous_commit') as value`.execute(
                connection,
              )
            ).rows[0]?.value;
          expect(await setting()).toBe('on');
          expect(await mergeAnswers(connection, 'postgres', { id, token }, { Q1: 4 })).toBe('{"Q1": 4}');
          const saved = await saveOpenPage(
            connection,
            token,
            'leadership360',
            new Date().toISOString(),
            { Q2: 5 },
            '127.0.0.1',
          );
          expect(JSON.parse(saved ?? '')).toEqual({ Q1: 4, Q2: 5 });
          expect(await setting()).toBe('on');
          // A statement that writes nothing (a wrong token) leaves the setting alone too.
          expect(await mergeAnswers(connection, 'postgres', { id, token: 'x' }, { Q3: 1 })).toBeUndefined();
          expect(await setting()).toBe('on');
        });
        expect(JSON.parse((await stored(memberid)).answers)).toEqual({ Q1: 4, Q2: 5 });
      },
    );
  });
}
