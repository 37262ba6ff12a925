import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { databaseSnapshot, snapshotChanges } from '../helpers/database-snapshot.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, participant, startInstance } from '../helpers/instance.js';
import { multipartForm } from '../helpers/multipart-form.js';

/** How many addresses of one shape (ids taken out) the walk opens: enough to reach every page. */
const PER_SHAPE = 2;
/** What a session's use moves forward by itself: its last sight (sessions.service.ts, `currentSession`). */
const LEFT_OUT = ['console_sessions.last_seen'];

/**
 * A GET changes nothing (STYLE.md, habit 19): an admin's browser opens every console page it can
 * reach by the links of the pages, from the dashboard and the pages the forms lead to, on an
 * instance holding something of everything (campaigns, a completed participation and its report,
 * mails, a webhook, clients and keys, an invited user, uploads, drafts of both wizards), and after
 * each page the whole database is as it was. Anything a page changed is named with the page. (The
 * participant pages: test/questionnaire/link-scanners.test.ts; the sign-in link: sign-in.test.ts.)
 */
for (const dialect of dialects) {
  describe(`every console page a GET opens changes nothing (${dialect})`, () => {
    let instance: Instance;
    let admin: ConsoleBrowser;
    /** The pages that forms lead to (no link names them): the walk starts with them too. */
    const formPages = [
      '/console/campaigns/new/check',
      '/console/reports/new/pick',
      '/console/reports/new/check',
    ];

    beforeAll(async () => {
      instance = await startInstance(dialect, { env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } });
      admin = await new ConsoleBrowser(instance).signIn();

      // A campaign with a group and members, invited; one has answered and sent (a report).
      const group = await instance.call('POST', '/groups', { body: { name: 'Walked group' } });
      const groupid = group.json.data.groupid as string;
      const p = await participant(instance, {
        sendreportdelivery: true,
        alias: 'walked',
        config: { selfregistration: { register: true, signup: true } },
      });
      const subject = await instance.call('PATCH', `/campaigns/${p.campaignid}/members/${p.memberid}`, {
        body: { extra: { role: 'self' } },
      });
      expect(subject.json.status, subject.body).toBe('OK');
      const other = await instance.call('POST', '/members', {
        body: { email: email('walk'), firstname: 'Wal', lastname: 'Ker', groupid },
      });
      await instance.call('POST', `/campaigns/${p.campaignid}/members/${other.json.data.memberid}`);
      await instance.call('POST', `/campaigns/${p.campaignid}/members/invite`);
      const person = new FormBrowser(instance);
      await person.get(`/q/${p.token}`);
      await person.post(`/q/${p.token}`, {});
      for (let page = 1; page <= 4; page++) {
        const shown = await person.get(`/q/${p.token}/page/${page}`);
        const fields: Record<string, string> = { action: 'continue' };
        for (const [tag] of shown.body.matchAll(/<input[^>]*type="radio"[^>]*>/g)) {
          const name = /name="([^"]+)"/.exec(tag)?.[1];
          if (name) fields[name] = '3';
        }
        await person.post(`/q/${p.token}/page/${page}`, fields);
      }
      await person.get(`/q/${p.token}/check`);
      expect((await person.post(`/q/${p.token}/check`, { action: 'send' })).headers.location).toBe(
        `/q/${p.token}/done`,
      );

      // What the console keeps of its own: a webhook, a client, a key, an invited user.
      await admin.get('/console/webhooks/new');
      const hook = await admin.post('/console/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: 'report.created',
        description: 'Walked',
      });
      expect(hook.statusCode).toBe(201);
      await admin.get('/console/access/clients/new');
      const client = await admin.post('/console/access/clients', {
        name: 'Walked app',
        redirects: 'https://app.example.test/back',
        scopes: 'members',
      });
      expect(client.statusCode).toBe(201);
      await admin.get('/console/access/keys/new');
      expect(
        (await admin.post('/console/access/keys', { name: 'Walked key', scopes: 'members' })).statusCode,
      ).toBe(201);
      await admin.get('/console/access/users');
      const invited = await admin.post('/console/access/users/invite', {
        email: email('user'),
        firstname: 'In',
        lastname: 'Vited',
        language: 'enUS',
      });
      expect(invited.statusCode).toBe(303);

      // Drafts and uploads of this session: the walk must leave them as they are.
      await admin.get('/console/campaigns/new/name');
      expect(
        (await admin.post('/console/campaigns/new/name', { name: 'Half-made campaign' })).statusCode,
      ).toBe(303);
      await admin.get('/console/reports/new');
      const draft = await admin.post('/console/reports/new', {
        kind: 'complete',
        source: 'reports',
        variant: 'leadership360',
      });
      expect(draft.statusCode).toBe(303);
      for (const [url, fields] of [
        ['/console/members/import', { pasted: `email,firstname,lastname\n${email('up')},Up,Loaded` }],
        ['/console/reports/import', { variant: 'leadership360', pasted: `memberid,Q1\n${p.memberid},3` }],
      ] as const) {
        await admin.get(url);
        const { payload, contentType } = multipartForm({ csrf: admin.csrf, ...fields });
        const uploaded = await instance.app.inject({
          method: 'POST',
          url,
          headers: {
            'content-type': contentType,
            cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          },
          payload,
        });
        expect(uploaded.statusCode, uploaded.body).toBe(303);
        formPages.push(String(uploaded.headers.location));
      }
    });
    afterAll(() => instance?.close());

    it('opens every page reachable by a link and changes nothing in the database', async () => {
      const opened: string[] = [];
      const changed: string[] = [];
      const shapes = new Map<string, number>();
      const queue = ['/console', ...formPages];
      while (queue.length > 0) {
        const url = queue.shift() as string;
        if (opened.includes(url)) continue;
        const shape = url.replace(/[A-Za-z0-9_-]{10,}/g, ':id');
        if ((shapes.get(shape) ?? 0) >= PER_SHAPE) continue;
        shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
        opened.push(url);
        const before = await databaseSnapshot(instance, LEFT_OUT);
        const response = await admin.get(url);
        const changes = snapshotChanges(before, await databaseSnapshot(instance, LEFT_OUT));
        if (changes.length > 0) changed.push(`GET ${url} (${response.statusCode}): ${changes.join('; ')}`);
        const next: string[] = [];
        if (typeof response.headers.location === 'string') next.push(response.headers.location);
        if (String(response.headers['content-type']).startsWith('text/html')) {
          for (const [, href] of response.body.matchAll(/href="([^"]+)"/g)) next.push(href as string);
        }
        for (const link of next) {
          const path = link.replaceAll('&amp;', '&').replaceAll('&#x3D;', '=').replace(/#.*/, '');
          // Signing out is a form (a POST); everything else a link names is opened.
          if (path.startsWith('/') && !path.startsWith('//') && !opened.includes(path)) queue.push(path);
        }
      }
      expect(changed).toEqual([]);
      // The walk reached the pages that used to change something, and the rest of the console.
      const reached = opened.map((url) => url.replace(/[A-Za-z0-9_-]{10,}/g, ':id'));
      for (const page of [
        '/console/reports/:id/pdf',
        '/console/reports/:id/pdf?download=1',
        '/console/reports/new?campaign=:id',
        '/console/reports/new/check',
        '/console/campaigns/new/name',
        '/console/members/import/:id',
        '/console/reports/import/:id',
        '/console/webhooks/:id',
        '/console/access/users/:id',
        '/console/campaigns/:id/answering',
        '/console/audit',
      ]) {
        expect(reached, page).toContain(page);
      }
      expect(opened.length).toBeGreaterThan(80);
    });
  });
}
