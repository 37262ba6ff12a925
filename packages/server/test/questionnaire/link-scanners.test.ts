import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMailParams } from '../../src/mail/outbox.repository.js';
import { renderMail } from '../../src/mail/render.js';
import { databaseSnapshot, snapshotChanges } from '../helpers/database-snapshot.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, type Instance, participant, startInstance } from '../helpers/instance.js';
import { variants } from './fixtures.js';

/** leadership360's pages: 8, 8 and 8 scale questions, then two optional remarks. */
const PAGES = [
  Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
  Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
  ['Remarks1', 'Remarks2'],
];
const pageOf = (index: number, value = '3') =>
  Object.fromEntries(
    (PAGES[index] as string[]).map((code) => [code, code.startsWith('Remarks') ? '' : value]),
  );

/**
 * Mail scanners, link previews and prefetchers fetch every link of a message (STYLE.md, habit 19: a
 * GET changes nothing). Every link of the mails a participant gets, and every page a scanner can
 * reach from them, fetched again and again with plain GETs (and HEADs), leaves the database as it
 * was: the member's status, dates and `sessionurl`, the webhook outbox, the audit log, the mail
 * outbox, the report's `lastopened`. The participant's first POST (the start button, or the first
 * page saved) starts them, exactly once: one `campaignmember.started` message, one audit entry.
 */
for (const dialect of dialects) {
  describe(`link scanners change nothing (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      // The subscription below sends to this machine (nothing is delivered: no worker runs here).
      instance = await startInstance(dialect, { env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } });
      // A subscription to every event a participant's pages can cause: what would be sent is queued.
      const hook = await instance.call('POST', '/webhooks', {
        body: {
          url: 'http://127.0.0.1:9/hook',
          events: ['campaignmember.started', 'campaignmember.completed', 'report.created'],
          description: 'Link scanners',
        },
      });
      expect(hook.json.status, hook.body).toBe('OK');
    });
    afterAll(async () => {
      await instance?.close();
    });

    /** A 360's subject (who may nominate raters) in a campaign that sends reports, invited by mail. */
    const invited = async () => {
      const p = await participant(instance, { sendreportdelivery: true });
      const patched = await instance.call('PATCH', `/campaigns/${p.campaignid}/members/${p.memberid}`, {
        body: { extra: { role: 'self' } },
      });
      expect(patched.json.status, patched.body).toBe('OK');
      const sent = await instance.call('POST', `/campaigns/${p.campaignid}/members/invite`);
      expect(sent.json.status, sent.body).toBe('OK');
      return p;
    };

    /** The links of the member's mail of `stage`, read from the outbox and rendered as it is sent. */
    const mailLinks = async (memberid: string, stage: string) => {
      const row = await instance.db.kysely
        .selectFrom('mail_outbox')
        .select('params')
        .where('member_id', '=', memberid)
        .where('stage', '=', stage)
        .executeTakeFirstOrThrow();
      const mail = renderMail(variants, parseMailParams(row.params));
      const links = new Set<string>();
      for (const text of [mail.text, mail.html]) {
        for (const [link] of text.matchAll(/https?:\/\/[^\s"'<>]+/g))
          links.add(link.replaceAll('&amp;', '&'));
      }
      return [...links];
    };

    /**
     * A scanner: each address fetched with HEAD and GET, without cookies, its redirects and the
     * links and form addresses of the pages it gets followed within the instance. Answers what it
     * fetched.
     */
    const scan = async (start: readonly string[]) => {
      const fetched: string[] = [];
      const queue = [...start];
      while (queue.length > 0 && fetched.length < 60) {
        const url = queue.shift() as string;
        if (fetched.includes(url)) continue;
        fetched.push(url);
        await instance.app.inject({ method: 'HEAD', url });
        const response = await instance.app.inject({ method: 'GET', url });
        const next: string[] = [];
        if (typeof response.headers.location === 'string') next.push(response.headers.location);
        if (String(response.headers['content-type']).startsWith('text/html')) {
          for (const [, found] of response.body.matchAll(/(?:href|action)="([^"]+)"/g))
            next.push(
              (found as string).replaceAll('&amp;', '&').replaceAll('&#x3D;', '=').replace(/#.*/, ''),
            );
        }
        queue.push(...next.filter((link) => link.startsWith('/') && !link.startsWith('//')));
      }
      return fetched;
    };

    /** Each link of the instance as a path to fetch; a link elsewhere would be a test failure. */
    const onInstance = (links: readonly string[]) =>
      links.map((link) => {
        expect(link.startsWith(instance.config.questionnaireUrl), link).toBe(true);
        const url = new URL(link);
        return `${url.pathname}${url.search}`;
      });

    /** Every GET a scanner or a prefetcher could make of a participation's pages. */
    const everyPage = (token: string) => [
      `/q/${token}`,
      `/q/${token}/page/1`,
      `/q/${token}/page/4`,
      `/q/${token}/saved`,
      `/q/${token}/check`,
      `/q/${token}/done`,
      `/q/${token}/raters`,
      `/r/${token}`,
      `/r/${token}/pdf`,
    ];

    const startedMessages = async (memberid: string) =>
      (
        await instance.db.kysely
          .selectFrom('webhook_outbox')
          .select('payload')
          .where('event_type', '=', 'campaignmember.started')
          .execute()
      ).filter((row) => JSON.parse(row.payload).data.memberid === memberid);
    const startEntries = (memberid: string) =>
      instance.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('resource_type', '=', 'campaign_member')
        .where('resource_id', '=', memberid)
        .where('action', '=', 'start')
        .execute();
    const membership = (token: string) =>
      instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('token', '=', token)
        .executeTakeFirstOrThrow();

    it('fetches every link of an invitation again and again and changes nothing; the start button starts once', async () => {
      const p = await invited();
      const links = await mailLinks(p.memberid, 'campaign_invitation');
      expect(links).toContain(`${instance.config.questionnaireUrl}/q/${p.token}`);
      const before = await databaseSnapshot(instance);
      for (let round = 0; round < 3; round++) {
        const fetched = await scan([...onInstance(links), ...everyPage(p.token)]);
        expect(fetched).toContain(`/q/${p.token}/raters`);
      }
      expect(snapshotChanges(before, await databaseSnapshot(instance))).toEqual([]);
      expect(await membership(p.token)).toMatchObject({
        status: 'invited',
        datestarted: null,
        sessionurl: '',
      });

      // The participant: the link, then "Start now".
      const browser = new FormBrowser(instance);
      const start = await browser.get(`/q/${p.token}`);
      expect(start.body).toContain(`<form method="post" action="/q/${p.token}"`);
      expect(snapshotChanges(before, await databaseSnapshot(instance))).toEqual([]);
      const started = await browser.post(`/q/${p.token}`, {});
      expect(started.headers.location).toBe(`/q/${p.token}/page/1`);
      const row = await membership(p.token);
      expect(row.status).toBe('started');
      expect(row.datestarted).not.toBeNull();
      expect(row.sessionurl).toBe(`${instance.config.questionnaireUrl}/q/${p.token}`);
      const messages = await startedMessages(p.memberid);
      expect(messages).toHaveLength(1);
      expect(JSON.parse(messages[0]?.payload as string).data).toEqual({
        campaignid: p.campaignid,
        memberid: p.memberid,
        datestarted: row.datestarted,
      });
      expect(await startEntries(p.memberid)).toEqual([
        expect.objectContaining({ actor_type: 'member', actor_id: p.memberid, channel: 'participant' }),
      ]);
      // What the start changed: the member's row, one message, one entry; nothing else.
      const changed = snapshotChanges(before, await databaseSnapshot(instance)).map((line) =>
        line.slice(0, line.indexOf(':')),
      );
      expect(changed.sort()).toEqual(['audit_log', 'campaign_members', 'webhook_outbox']);

      // The button again, a page saved, the scanner again: still started once.
      await browser.post(`/q/${p.token}`, {});
      await browser.get(`/q/${p.token}/page/1`);
      expect(
        (await browser.post(`/q/${p.token}/page/1`, { ...pageOf(0), action: 'continue' })).statusCode,
      ).toBe(303);
      await scan(everyPage(p.token));
      expect(await startedMessages(p.memberid)).toHaveLength(1);
      expect(await startEntries(p.memberid)).toHaveLength(1);
      expect((await membership(p.token)).datestarted).toBe(row.datestarted);
    });

    it('starts a participant whose first POST is a page saved, once, even beside the start button', async () => {
      const p = await invited();
      const before = await databaseSnapshot(instance);
      // Straight to a page's address (a bookmark, the back button): opening it starts nothing.
      const browser = new FormBrowser(instance);
      expect((await browser.get(`/q/${p.token}/page/1`)).statusCode).toBe(200);
      expect(snapshotChanges(before, await databaseSnapshot(instance))).toEqual([]);
      // The page saved "for later" and the start button of another tab, at once.
      const [saved, started] = await Promise.all([
        browser.post(`/q/${p.token}/page/1`, { ...pageOf(0), action: 'later' }),
        browser.post(`/q/${p.token}`, {}),
      ]);
      expect(saved.headers.location).toBe(`/q/${p.token}/saved`);
      expect(started.statusCode).toBe(303);
      const row = await membership(p.token);
      expect(row.status).toBe('started');
      expect(row.datestarted).not.toBeNull();
      expect(JSON.parse(row.answers)).toMatchObject({ Q1: 3, Q8: 3 });
      expect(await startedMessages(p.memberid)).toHaveLength(1);
      expect(await startEntries(p.memberid)).toHaveLength(1);
      // Another page: saved, no second start.
      await browser.post(`/q/${p.token}/page/2`, { ...pageOf(1), action: 'continue' });
      expect(JSON.parse((await membership(p.token)).answers)).toMatchObject({ Q9: 3 });
      expect(await startedMessages(p.memberid)).toHaveLength(1);
      expect(await startEntries(p.memberid)).toHaveLength(1);
    });

    it('fetches every link of the report mail again and again and records nothing; the button records the opening', async () => {
      const p = await invited();
      const browser = new FormBrowser(instance);
      await browser.get(`/q/${p.token}`);
      for (const index of PAGES.keys()) {
        await browser.get(`/q/${p.token}/page/${index + 1}`);
        await browser.post(`/q/${p.token}/page/${index + 1}`, { ...pageOf(index), action: 'continue' });
      }
      await browser.get(`/q/${p.token}/check`);
      expect((await browser.post(`/q/${p.token}/check`, { action: 'send' })).headers.location).toBe(
        `/q/${p.token}/done`,
      );
      const links = await mailLinks(p.memberid, 'campaign_reportdelivery');
      expect(links).toContain(`${instance.config.questionnaireUrl}/r/${p.token}`);
      const before = await databaseSnapshot(instance);
      for (let round = 0; round < 3; round++) {
        const fetched = await scan([...onInstance(links), ...everyPage(p.token)]);
        expect(fetched).toContain(`/r/${p.token}/pdf`);
      }
      expect(snapshotChanges(before, await databaseSnapshot(instance))).toEqual([]);

      // The participant: the confirmation's button records the opening, then leads to the PDF.
      const done = await browser.get(`/q/${p.token}/done`);
      expect(done.body).toContain(`<form method="post" action="/r/${p.token}"`);
      const opened = await browser.post(`/r/${p.token}`, {});
      expect(opened.headers.location).toBe(`/r/${p.token}`);
      const changes = snapshotChanges(before, await databaseSnapshot(instance));
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatch(/^reports: /);
      const [report] = (await instance.call('GET', `/members/${p.memberid}/reports`)).json.data;
      expect(report.lastopened).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    });
  });
}
