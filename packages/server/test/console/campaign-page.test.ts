import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { addToCampaign, makeCampaign, makeMembers } from './campaign-fixtures.js';

const memberRow = (instance: Instance, campaignId: string, memberId: string) =>
  instance.db.kysely
    .selectFrom('campaign_members')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();

for (const dialect of dialects) {
  describe(`console: the campaign page (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
    });
    afterAll(() => instance.close());

    it('shows an empty campaign: summary, progress, settings with Change links, no members, no failed mail', async () => {
      const id = await makeCampaign(instance, { name: 'Empty <script>alert(1)</script>' });
      const page = await browser.get(`/console/campaigns/${id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<bdi>Empty &lt;script&gt;alert(1)&lt;/script&gt;</bdi>');
      expect(page.body).not.toContain('<script>alert(1)');
      expect(page.body).toContain('This campaign has no members yet.');
      expect(page.body).toContain('No mail of this campaign has failed.');
      expect(page.body).toContain('id="mail"');
      expect(page.body).toContain(`href="/console/campaigns/${id}/settings/name"`);
      expect(page.body).not.toContain(`/settings/variant"`);
      expect(page.body).toContain('Set when the campaign was created');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).toMatch(/<script src="\/console\/assets\/console\.js\?v=[0-9a-f]+" defer><\/script>/);
    });

    it('lists the members a page of 100 at a time, filtered by status as links, with the failed mails', async () => {
      const id = await makeCampaign(instance);
      const ids = await makeMembers(instance, 102, (i) =>
        i === 0 ? { firstname: 'שרה', lastname: '<i>Cohen</i>' } : {},
      );
      await addToCampaign(instance, id, ids);
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({
          status: 'completed',
          datecompleted: '2026-02-01T10:00:00+00:00',
          results: '{"status":"completed","reportid":"rep1234567"}',
        })
        .where('campaign_id', '=', id)
        .where('member_id', '=', ids[5] as string)
        .execute();
      const all = await browser.get(`/console/campaigns/${id}`);
      expect(all.body).toContain('All (102)');
      expect(all.body).toContain('Completed (1)');
      expect(all.body).toContain('Page 1 of 2');
      expect((all.body.match(/<tr>\n<td><bdi>/g) ?? []).length).toBe(100);
      const second = await browser.get(`/console/campaigns/${id}?page=2`);
      // Members are listed by id (random), so the one named here is on either page.
      expect(all.body + second.body).toContain('<bdi>שרה &lt;i&gt;Cohen&lt;/i&gt;</bdi>');
      expect((second.body.match(/<tr>\n<td><bdi>/g) ?? []).length).toBe(2);
      const past = await browser.get(`/console/campaigns/${id}?page=999`);
      expect(past.body).toContain('Page 2 of 2');
      expect((past.body.match(/<tr>\n<td><bdi>/g) ?? []).length).toBe(2);
      const completed = await browser.get(`/console/campaigns/${id}?status=completed`);
      expect((completed.body.match(/<tr>\n<td><bdi>/g) ?? []).length).toBe(1);
      expect(completed.body).toContain('Report rep1234567');
      expect(completed.body).toMatch(/href="[^"]*status&#x3D;completed#members" aria-current="page"/);
      const started = await browser.get(`/console/campaigns/${id}?status=started`);
      expect(started.body).toContain('No member of this campaign has this status.');

      const progress = await browser.get(`/console/campaigns/${id}/progress.json`);
      expect(progress.json()).toMatchObject({ figures: { new: '101', completed: '1' } });

      await instance.call('POST', `/campaigns/${id}/members/invite`);
      await instance.db.kysely
        .updateTable('mail_outbox')
        .set({ status: 'failed', last_response: '550 <b>mailbox unavailable</b>' })
        .where('campaign_id', '=', id)
        .where('member_id', '=', ids[1] as string)
        .execute();
      const withMail = await browser.get(`/console/campaigns/${id}`);
      expect(withMail.body).toContain('550 &lt;b&gt;mailbox unavailable&lt;/b&gt;');
    });

    it('adds members by group and from a searchable list, each through the API service', async () => {
      const id = await makeCampaign(instance);
      const ids = await makeMembers(instance, 3, (i) => ({ lastname: `Zed${i}` }));
      const group = await instance.call('POST', '/groups', {
        body: { name: 'Sales <team>', alias: `sales${Date.now()}` },
      });
      const groupId = group.json.data.groupid as string;
      await instance.call('POST', `/groups/${groupId}/members/${ids[0]}`);
      await instance.call('POST', `/groups/${groupId}/members/${ids[1]}`);

      const add = await browser.get(`/console/campaigns/${id}/members/add`);
      expect(add.body).toContain('<bdi>Sales &lt;team&gt;</bdi>');
      const none = await browser.post(`/console/campaigns/${id}/members/add`, { by: 'group' });
      expect(none.statusCode).toBe(400);
      expect(none.body).toContain('Choose at least one group');
      expect(none.body).toMatch(/<title>Error: /);

      const byGroup = await browser.post(`/console/campaigns/${id}/members/add`, {
        by: 'group',
        groupid: [groupId],
      });
      expect(byGroup.statusCode).toBe(303);
      const after = await browser.get(byGroup.headers.location as string);
      expect(after.body).toContain('2 members added');

      const search = await browser.get(`/console/campaigns/${id}/members/add?q=zed2`);
      expect(search.body).toContain(`value="${ids[2]}"`);
      expect(search.body).not.toContain(`value="${ids[0]}"`);
      const chosen = await browser.post(`/console/campaigns/${id}/members/add`, {
        by: 'list',
        memberid: [ids[2] as string],
      });
      expect(chosen.statusCode).toBe(303);
      expect((await instance.call('GET', `/campaigns/${id}/members`)).json.data).toHaveLength(3);
      const forged = await browser.post(
        `/console/campaigns/${id}/members/add`,
        { by: 'list', memberid: ['x'] },
        'forged',
      );
      expect(forged.statusCode).toBe(403);
    });

    it('adds the members of several groups all at once, or none when one group is refused', async () => {
      const id = await makeCampaign(instance);
      const ids = await makeMembers(instance, 3);
      const groupOf = async (name: string, members: string[]) => {
        const made = await instance.call('POST', '/groups', {
          body: { name: `${name} ${Date.now()}`, alias: `${name}${Date.now()}` },
        });
        const groupId = made.json.data.groupid as string;
        for (const member of members) await instance.call('POST', `/groups/${groupId}/members/${member}`);
        return groupId;
      };
      const first = await groupOf('first', [ids[0] as string, ids[1] as string]);
      // Deleted in another tab after the form was shown: the second group is refused.
      const second = await groupOf('second', []);
      expect((await instance.call('DELETE', `/groups/${second}`)).json.status).toBe('OK');
      const inCampaign = () =>
        instance.db.kysely
          .selectFrom('campaign_members')
          .select('member_id')
          .where('campaign_id', '=', id)
          .execute();
      const addEntries = () =>
        instance.db.kysely
          .selectFrom('audit_log')
          .select('seq')
          .where('resource_type', '=', 'campaign')
          .where('resource_id', '=', id)
          .where('action', '=', 'add')
          .execute();

      const refused = await browser.post(`/console/campaigns/${id}/members/add`, {
        by: 'group',
        groupid: [first, second],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toMatch(/<title>Error: /);
      expect(await inCampaign()).toEqual([]);
      expect(await addEntries()).toEqual([]);

      const third = await groupOf('third', [ids[1] as string, ids[2] as string]);
      const both = await browser.post(`/console/campaigns/${id}/members/add`, {
        by: 'group',
        groupid: [first, third],
      });
      expect(both.statusCode).toBe(303);
      expect(both.headers.location).toContain('added=3&');
      expect((await inCampaign()).map((row) => row.member_id).sort()).toEqual([...ids].sort());
      // One user action, one change: a single entry for the three added.
      expect(await addEntries()).toHaveLength(1);
    });

    it('removes and resets a member only after a confirmation page', async () => {
      const id = await makeCampaign(instance);
      const [one, two] = await makeMembers(instance, 2);
      await addToCampaign(instance, id, [one as string, two as string]);
      await instance.db.kysely
        .updateTable('campaign_members')
        .set({
          status: 'started',
          datestarted: '2026-02-01T10:00:00+00:00',
          dateinvited: '2026-01-02T10:00:00+00:00',
        })
        .where('member_id', '=', two as string)
        .execute();

      const confirm = await browser.get(`/console/campaigns/${id}/members/${one}/remove`);
      expect(confirm.body).toContain('Remove First0 Last0 from this campaign?');
      expect(await memberRow(instance, id, one as string)).toBeDefined();
      expect(
        (await browser.post(`/console/campaigns/${id}/members/${one}/remove`, {}, null)).statusCode,
      ).toBe(403);
      expect(await memberRow(instance, id, one as string)).toBeDefined();
      const removed = await browser.submit(`/console/campaigns/${id}/members/${one}/remove`, {});
      expect(removed.body).toContain('The member was removed from the campaign');
      expect(await memberRow(instance, id, one as string)).toBeUndefined();

      const reset = await browser.get(`/console/campaigns/${id}/members/${two}/reset`);
      expect(reset.body).toContain('Reset First1 Last1?');
      expect((await memberRow(instance, id, two as string))?.status).toBe('started');
      await browser.submit(`/console/campaigns/${id}/members/${two}/reset`, {});
      expect((await memberRow(instance, id, two as string))?.status).toBe('invited');
      expect((await browser.get(`/console/campaigns/${id}/members/nosuchmemb/remove`)).statusCode).toBe(404);
    });

    it("edits a setting through patchCampaign, showing the API's message next to the field", async () => {
      const id = await makeCampaign(instance, { name: 'Before' });
      const form = await browser.get(`/console/campaigns/${id}/settings/name`);
      expect(form.body).toContain('value="Before"');
      const saved = await browser.post(`/console/campaigns/${id}/settings/name`, { value: 'After' });
      expect(saved.statusCode).toBe(303);
      expect((await instance.call('GET', `/campaigns/${id}`)).json.data.name).toBe('After');

      const empty = await browser.post(`/console/campaigns/${id}/settings/name`, { value: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toMatch(/<title>Error: /);
      expect(empty.body).toContain('id="setting-name-error"');
      expect(empty.body).toMatch(/name: [^<]+/);

      const endParts = { 'end-day': '1', 'end-month': '1', 'end-year': '2099', 'end-time': '09:00' };
      const end = await browser.post(`/console/campaigns/${id}/settings/end`, endParts);
      expect(end.statusCode).toBe(400);
      expect(end.body).toContain('end: only a campaign whose closingtype is date has an end');
      // The date as typed comes back, in the wizard's day, month, year and time.
      expect(end.body).toContain(
        'id="end-year" name="end-year" type="text" inputmode="numeric" value="2099"',
      );
      expect(end.body).toContain('href="#end-day"');

      // A date: shown as its parts in UTC, saved from them.
      const startForm = await browser.get(`/console/campaigns/${id}/settings/start`);
      const start = new Date((await instance.call('GET', `/campaigns/${id}`)).json.data.start);
      expect(startForm.body).toContain(
        `name="start-year" type="text" inputmode="numeric" value="${start.getUTCFullYear()}"`,
      );
      expect(startForm.body).toContain(
        `name="start-day" type="text" inputmode="numeric" value="${start.getUTCDate()}"`,
      );
      const moved = await browser.post(`/console/campaigns/${id}/settings/start`, {
        'start-day': '2',
        'start-month': '3',
        'start-year': '2026',
        'start-time': '8:15',
      });
      expect(moved.statusCode).toBe(303);
      expect((await instance.call('GET', `/campaigns/${id}`)).json.data.start).toBe(
        '2026-03-02T08:15:00+00:00',
      );
      const nonsense = await browser.post(`/console/campaigns/${id}/settings/start`, {
        'start-day': '31',
        'start-month': '2',
        'start-year': '2026',
        'start-time': '',
      });
      expect(nonsense.statusCode).toBe(400);
      expect(nonsense.body).toContain('id="start-day-error"');
      expect((await instance.call('GET', `/campaigns/${id}`)).json.data.start).toBe(
        '2026-03-02T08:15:00+00:00',
      );

      const variant = await browser.post(`/console/campaigns/${id}/settings/variant`, { value: 'bigfive' });
      expect(variant.statusCode).toBe(400);
      expect(variant.body).toContain('variant: cannot change after the campaign is created');
      expect((await instance.call('GET', `/campaigns/${id}`)).json.data.variant).toBe('teamscan');

      const radios = await browser.post(`/console/campaigns/${id}/settings/sendreportdelivery`, {
        value: 'true',
      });
      expect(radios.statusCode).toBe(303);
      expect((await instance.call('GET', `/campaigns/${id}`)).json.data.sendreportdelivery).toBe(true);
      expect((await browser.get(`/console/campaigns/${id}/settings/nosuch`)).statusCode).toBe(404);
    });

    it("groups a 360's subjects with their raters, roles and nomination state", async () => {
      const id = await makeCampaign(instance, { variant: 'leadership360' });
      const [subject, peer, manager, alone] = await makeMembers(instance, 4);
      await addToCampaign(instance, id, [subject, peer, manager, alone] as string[]);
      for (const [rater, role] of [
        [peer, 'peer'],
        [manager, 'manager'],
      ] as const) {
        const patched = await instance.call('PATCH', `/campaigns/${id}/members/${rater}`, {
          body: { extra: { role, subject } },
        });
        expect(patched.json.status, patched.body).toBe('OK');
      }
      const page = await browser.get(`/console/campaigns/${id}`);
      expect(page.body).toContain('Subjects and raters');
      expect(page.body).toContain('Raters of First0 Last0');
      expect(page.body).toContain('2 raters asked (Manager: 1, Peer: 1); 0 completed');
      expect(page.body).toContain('Has not asked anyone for feedback yet');
      expect(page.body).not.toContain('Raters of First1 Last1');
    });

    it('says how answering goes: the median time to send, and the page each unfinished member is on', async () => {
      const id = await makeCampaign(instance);
      const ids = await makeMembers(instance, 7);
      await addToCampaign(instance, id, ids);
      const before = await browser.get(`/console/campaigns/${id}`);
      expect(before.body).not.toContain(`/console/campaigns/${id}/answering`);
      const tokens = await instance.db.kysely
        .selectFrom('campaign_members')
        .select(['member_id', 'token'])
        .where('campaign_id', '=', id)
        .execute();
      const tokenOf = (memberId: string) => tokens.find((row) => row.member_id === memberId)?.token as string;
      const likert = (from: number, to: number) =>
        Object.fromEntries(Array.from({ length: to - from + 1 }, (_, i) => [`Q${from + i}`, '4']));
      const pages = [likert(1, 8), likert(9, 16), { ...likert(17, 20), Remarks1: 'A secret remark' }];
      /** Opens the member's link, starts, and saves its first `saved` pages, through the pages. */
      const answer = async (memberId: string, saved: number, send = false) => {
        const participant = new FormBrowser(instance);
        const token = tokenOf(memberId);
        await participant.get(`/q/${token}`);
        expect((await participant.post(`/q/${token}`, {})).statusCode).toBe(303);
        for (const [index, fields] of pages.slice(0, saved).entries()) {
          await participant.get(`/q/${token}/page/${index + 1}`);
          const posted = await participant.post(`/q/${token}/page/${index + 1}`, {
            ...fields,
            action: 'continue',
          });
          expect(posted.statusCode, posted.body).toBe(303);
        }
        if (send) {
          await participant.get(`/q/${token}/check`);
          expect((await participant.post(`/q/${token}/check`, { action: 'send' })).statusCode).toBe(303);
        }
      };
      const [started, onePage, allPages, tenMinutes, thirtyMinutes, imported] = ids as string[];
      await answer(started as string, 0);
      await answer(onePage as string, 1);
      await answer(allPages as string, 3);
      await answer(tenMinutes as string, 3, true);
      await answer(thirtyMinutes as string, 3, true);
      await answer(imported as string, 3, true);
      // The moments, set to known values: 10 and 30 minutes; a completion with no time between
      // starting and sending (as an import makes) is not timed.
      for (const [memberId, minutes] of [
        [tenMinutes, 10],
        [thirtyMinutes, 30],
        [imported, 0],
      ] as const) {
        await instance.db.kysely
          .updateTable('campaign_members')
          .set({
            datestarted: '2026-03-01T09:00:00+00:00',
            datecompleted: new Date(Date.parse('2026-03-01T09:00:00Z') + minutes * 60_000)
              .toISOString()
              .replace(/\.\d{3}Z$/, '+00:00'),
          })
          .where('campaign_id', '=', id)
          .where('member_id', '=', memberId as string)
          .execute();
      }

      const campaignPage = await browser.get(`/console/campaigns/${id}`);
      expect(campaignPage.body).toContain(
        `<a class="link" href="/console/campaigns/${id}/answering">How answering goes: time to send, and the page each person is on</a>`,
      );
      const page = await browser.get(`/console/campaigns/${id}/answering`);
      expect(page.statusCode).toBe(200);
      const text = page.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(text).toContain('How answering goes');
      expect(text).toContain(
        'Median time from starting to sending: 20 min (of 2 who sent it from its pages).',
      );
      expect(text).toContain('Started and not sent yet (3), by where they are');
      const rows = [
        ...page.body.matchAll(
          /<tr><td>(Page \d of 3|Check your answers[^<]*)(?:<br><span class="muted"><bdi>([^<]*)<\/bdi><\/span>)?<\/td><td>(\d+)<\/td><\/tr>/g,
        ),
      ].map((match) => [match[1], match[3]]);
      expect(rows).toEqual([
        ['Page 1 of 3', '1'],
        ['Page 2 of 3', '1'],
        ['Page 3 of 3', '0'],
        ['Check your answers (every page saved)', '1'],
      ]);
      // Each page with its title, in the operator's language.
      expect(page.body).toContain('Page 1 of 3<br><span class="muted"><bdi>Purpose and trust</bdi></span>');
      // Counts only: no answer on the page.
      expect(page.body).not.toContain('A secret remark');

      // In the operator's language.
      await instance.db.kysely.updateTable('console_sessions').set({ language: 'nlNL' }).execute();
      const dutch = (await browser.get(`/console/campaigns/${id}/answering`)).body.replace(/\s+/g, ' ');
      expect(dutch).toContain('Hoe het invullen gaat');
      expect(dutch).toContain('20 min (van 2 die hem via de pagina’s verstuurden)');
      expect(dutch).toContain('Pagina 1 van 3');
      await instance.db.kysely.updateTable('console_sessions').set({ language: 'enUS' }).execute();

      // Nobody there yet: said so; an unknown campaign, or one signed out: as every campaign page.
      const fresh = await makeCampaign(instance);
      const empty = await browser.get(`/console/campaigns/${fresh}/answering`);
      expect(empty.statusCode).toBe(200);
      expect(empty.body).toContain('Nobody has sent the questionnaire from its pages yet.');
      expect(empty.body).toContain('Everybody who started has sent the questionnaire.');
      expect((await browser.get('/console/campaigns/nosuchcamp/answering')).statusCode).toBe(404);
      const anonymous = await new ConsoleBrowser(instance).get(`/console/campaigns/${id}/answering`);
      expect(anonymous.statusCode).toBe(303);
    });

    it('answers 404 for an unknown campaign, and sends a signed-out operator to sign in', async () => {
      expect((await browser.get('/console/campaigns/nosuchcamp')).statusCode).toBe(404);
      const anonymous = await new ConsoleBrowser(instance).get('/console/campaigns/nosuchcamp');
      expect(anonymous.statusCode).toBe(303);
    });
  });
}
