import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

// Issue 22, item 5: a body with several problems answers one message naming each, in the order of
// the schema's fields (the interface document's order), still a plain string in a JSend ERROR.

for (const dialect of dialects) {
  describe(`every problem of a body named at once (${dialect})`, () => {
    let instance: Instance;
    let memberid: string;
    let groupid: string;
    let campaignid: string;
    const count = async (table: 'members' | 'groups' | 'campaigns' | 'reports') =>
      Number(
        (
          await instance.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** The answer to a refused body: HTTP 200, status ERROR, data a string. */
    const refusal = async (method: string, url: string, body: unknown) => {
      const response = await instance.call(method, url, { body });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json.status).toBe('ERROR');
      expect(typeof response.json.data).toBe('string');
      return response.json.data as string;
    };

    beforeAll(async () => {
      instance = await startInstance(dialect);
      const member = await instance.call('POST', '/members', {
        body: { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.test' },
      });
      memberid = member.json.data.memberid;
      const group = await instance.call('POST', '/groups', { body: { name: 'Team', alias: 'team' } });
      groupid = group.json.data.groupid;
      const variant = (await instance.call('GET', '/settings/reports')).json.data[0];
      const campaign = await instance.call('POST', '/campaigns', {
        body: {
          name: 'Spring',
          variant: variant.alias ?? variant.variant,
          start: '2026-11-22T10:00:00+00:00',
        },
      });
      expect(campaign.json.status, campaign.body).toBe('OK');
      campaignid = campaign.json.data.campaignid;
    });
    afterAll(() => instance.close());

    it('names each problem of a member, in the fields order, and creates nothing', async () => {
      const before = await count('members');
      expect(await refusal('POST', '/members', { firstname: 'Grace', email: 'not-an-address' })).toBe(
        'lastname: is required; email: must be a valid e-mail address',
      );
      expect(
        await refusal('POST', '/members', { title: 7, firstname: 'Grace', email: 'x@', level: 'boss' }),
      ).toBe(
        'title: must be a string; lastname: is required; email: must be a valid e-mail address; ' +
          'level: must be one of ceofounder, ceofounderwithteam, ceofounderalone, teamleader, employee, guest, null',
      );
      expect(await count('members')).toBe(before);
    });

    it('names each problem of a member change and changes nothing', async () => {
      expect(
        await refusal('PATCH', `/members/${memberid}`, { lastname: '', status: 'gone', testuser: 'perhaps' }),
      ).toBe(
        'lastname: must not be empty; status: must be one of active, inactive, null; testuser: must be a boolean',
      );
      const member = await instance.call('GET', `/members/${memberid}`);
      expect(member.json.data).toMatchObject({ lastname: 'Lovelace', status: 'active', testuser: false });
    });

    it('names each problem of a group, in the fields order', async () => {
      const before = await count('groups');
      expect(await refusal('POST', '/groups', { alias: 'has space', type: 'club' })).toBe(
        'name: is required; type: must be one of company, team, folder, null; alias: must be letters, digits, _ and - only',
      );
      expect(
        await refusal('PATCH', `/groups/${groupid}`, { name: '', parentgroup: 'nowhere', status: 'asleep' }),
      ).toBe(
        'name: must not be empty; parentgroup: must be a groupid or root; status: must be one of active, inactive',
      );
      expect(await count('groups')).toBe(before);
      expect((await instance.call('GET', `/groups/${groupid}`)).json.data.name).toBe('Team');
    });

    it('names each problem of a campaign, nested ones at their parent field', async () => {
      const before = await count('campaigns');
      expect(
        await refusal('POST', '/campaigns', {
          autoinvite: 'sometimes',
          reminderoffset: { amount: 'two', unit: 'fortnight' },
          reminderrepeat: 500,
        }),
      ).toBe(
        'name: is required; start: is required; autoinvite: must be one of none, fixed, instant; ' +
          'reminderoffset.amount: must be a whole number; reminderoffset.unit: must be one of day, week; ' +
          'reminderrepeat: must be at most 100; variant: is required',
      );
      expect(
        await refusal('PATCH', `/campaigns/${campaignid}`, {
          name: '',
          start: 'soon',
          autoreminder: 'often',
        }),
      ).toBe(
        'name: must not be empty; start: must be a date such as 2026-11-22T11:46:36+00:00; autoreminder: must be a boolean',
      );
      expect(await count('campaigns')).toBe(before);
      expect((await instance.call('GET', `/campaigns/${campaignid}`)).json.data.name).toBe('Spring');
    });

    it('names each problem of a report body', async () => {
      const before = await count('reports');
      expect(
        await refusal('POST', '/reports', {
          name: 'n'.repeat(256),
          selectedReportsMaster: 'm'.repeat(101),
          campaignid: 5,
        }),
      ).toBe(
        'name: must be at most 255 characters; selectedReportsMaster: must be at most 100 characters; campaignid: must be a string',
      );
      expect(
        await refusal('PATCH', '/reports/abcdefghij', { name: '', tags: ['ok', ''], testcase: 'yes' }),
      ).toBe(
        'name: must not be empty; tags[1]: must not be empty; testcase: must be one of true, false, 0, 1',
      );
      expect(await count('reports')).toBe(before);
    });

    it('shows each problem of the console member form next to its own field, and in the summary', async () => {
      const browser = await new ConsoleBrowser(instance).signIn();
      const before = await count('members');
      const response = await browser.post('/console/members/new', {
        email: 'not-an-address',
        firstname: 'Grace',
        lastname: '',
      });
      expect(response.statusCode).toBe(400);
      for (const [field, text] of [
        ['lastname', 'lastname: must not be empty'],
        ['email', 'email: must be a valid e-mail address'],
      ]) {
        expect(response.body).toContain(`href="#field-${field}">${text}</a>`);
        expect(response.body).toContain(`id="field-${field}-error"`);
        expect(response.body).toContain(`aria-describedby="field-${field}-error"`);
      }
      expect(response.body).not.toContain('id="field-firstname-error"');
      // The API names the same two, in one message.
      expect(
        await refusal('POST', '/members', { email: 'not-an-address', firstname: 'Grace', lastname: '' }),
      ).toBe('lastname: must not be empty; email: must be a valid e-mail address');
      expect(await count('members')).toBe(before);
    });

    it('keeps a one-problem message exactly as it was', async () => {
      expect(await refusal('POST', '/members', { firstname: 'Grace', email: 'grace@example.test' })).toBe(
        'lastname: is required',
      );
      expect(await refusal('POST', '/groups', { name: 'Other' })).toBe('alias: is required');
    });
  });
}
