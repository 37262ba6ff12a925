import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { addToCampaign, FUTURE, makeCampaign, makeMembers, outboxCount } from './campaign-fixtures.js';

for (const dialect of dialects) {
  describe(`console: invite and remind with a check page (${dialect})`, () => {
    let instance: Instance;
    let browser: ConsoleBrowser;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      browser = await new ConsoleBrowser(instance).signIn();
    });
    afterAll(() => instance.close());

    it('names the recipients and the mail, queues nothing before the button, then exactly N once', async () => {
      const id = await makeCampaign(instance, { name: 'Spring <b>scan</b>' });
      const ids = await makeMembers(instance, 53);
      // The check page names the first 50 by member id: the name to escape is the first one's.
      const first = [...ids].sort()[0] as string;
      const renamed = await instance.call('PATCH', `/members/${first}`, {
        body: { firstname: 'عليّ', lastname: '<script>x</script>' },
      });
      expect(renamed.json.status, renamed.body).toBe('OK');
      await addToCampaign(instance, id, ids);

      const check = await browser.get(`/console/campaigns/${id}/invite`);
      expect(check.statusCode).toBe(200);
      expect(check.body).toContain('Send 53 invitations');
      expect(check.body).toContain('the first 50 of 53');
      expect(check.body).toContain('and 3 more');
      expect(check.body).not.toContain('<script>x</script>');
      expect(check.body).toContain('&lt;script&gt;x&lt;/script&gt;');
      expect(check.body).toMatch(/Subject:<\/strong> <bdi>[^<]+/);
      expect(await outboxCount(instance, id)).toBe(0);

      const refused = await browser.post(`/console/campaigns/${id}/invite`, {}, 'wrong-token');
      expect(refused.statusCode).toBe(403);
      expect(await outboxCount(instance, id)).toBe(0);

      const sent = await browser.post(`/console/campaigns/${id}/invite`, {});
      expect(sent.statusCode).toBe(303);
      expect(sent.headers.location).toBe(`/console/campaigns/${id}/invite/done?count=53`);
      const done = await browser.get(sent.headers.location as string);
      expect(done.body).toContain('53 invitations queued');
      expect(done.body).toContain(`href="/console/mail?campaign&#x3D;${id}"`);
      expect(await outboxCount(instance, id)).toBe(53);

      const again = await browser.post(`/console/campaigns/${id}/invite`, {});
      expect(again.headers.location).toBe(`/console/campaigns/${id}/invite/done?count=0`);
      expect(await outboxCount(instance, id)).toBe(53);
      expect((await browser.get(`/console/campaigns/${id}/invite`)).body).toContain(
        'there is nobody to invite',
      );
    });

    it('reminds the invited once per check page: the same form posted twice queues nothing more', async () => {
      const id = await makeCampaign(instance, { reminderrepeat: 3 });
      await addToCampaign(instance, id, await makeMembers(instance, 4));
      await browser.post(`/console/campaigns/${id}/invite`, {});
      expect(await outboxCount(instance, id)).toBe(4);

      const check = await browser.get(`/console/campaigns/${id}/remind`);
      expect(check.body).toContain('Send 4 reminders');
      const shown = /name="shown" value="([^"]+)"/.exec(check.body)?.[1] as string;
      expect(await outboxCount(instance, id)).toBe(4);
      const sent = await browser.post(`/console/campaigns/${id}/remind`, { shown });
      expect(sent.headers.location).toBe(`/console/campaigns/${id}/remind/done?count=4`);
      expect(await outboxCount(instance, id)).toBe(8);
      const twice = await browser.post(`/console/campaigns/${id}/remind`, { shown });
      expect(twice.headers.location).toBe(`/console/campaigns/${id}/remind/done?count=0`);
      expect(await outboxCount(instance, id)).toBe(8);
      expect((await browser.get(twice.headers.location as string)).body).toContain('Nothing was queued');
    });

    it('two invitations posted at once queue each mail once', async () => {
      const id = await makeCampaign(instance, { reminderrepeat: 2 });
      await addToCampaign(instance, id, await makeMembers(instance, 5));
      await browser.get(`/console/campaigns/${id}/invite`);
      const answers = await Promise.all([
        browser.post(`/console/campaigns/${id}/invite`, {}),
        browser.post(`/console/campaigns/${id}/invite`, {}),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([303, 303]);
      expect(await outboxCount(instance, id)).toBe(5);
      const shown = /name="shown" value="([^"]+)"/.exec(
        (await browser.get(`/console/campaigns/${id}/remind`)).body,
      )?.[1] as string;
      await Promise.all([
        browser.post(`/console/campaigns/${id}/remind`, { shown }),
        browser.post(`/console/campaigns/${id}/remind`, { shown }),
      ]);
      expect(await outboxCount(instance, id)).toBe(10);
    });

    it("a campaign that is not active says why, with the API's message, and has no button", async () => {
      const id = await makeCampaign(instance, { start: FUTURE });
      await addToCampaign(instance, id, await makeMembers(instance, 2));
      const check = await browser.get(`/console/campaigns/${id}/invite`);
      expect(check.body).toContain('No mail can be sent now');
      expect(check.body).toContain('campaign: is not active yet');
      expect(check.body).not.toContain('Send 2 invitations');
      const posted = await browser.post(`/console/campaigns/${id}/invite`, {});
      expect(posted.statusCode).toBe(409);
      expect(await outboxCount(instance, id)).toBe(0);
    });
  });
}
