import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tick } from '../../src/jobs/scheduler.js';
import { signupStringsFor } from '../../src/pages/signup-strings.js';
import { fill } from '../../src/pages/strings.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import type { Language } from '../../src/variants/variant.types.js';
import { FormBrowser } from '../helpers/form-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { refuseInserts } from '../helpers/refusing-trigger.js';
import { readPdf } from '../pdf/pdf-reader.js';

const PAST = '2026-01-01T09:00:00+00:00';
const variants = loadVariants([builtinVariantsDir()]);

let ipCounter = 0;
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

for (const dialect of dialects) {
  describe(`self-registration and nomination (${dialect})`, () => {
    let instance: Instance;
    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(async () => {
      await instance?.close();
    });

    const campaign = async (fields: Record<string, unknown>) => {
      const made = await instance.call('POST', '/campaigns', {
        body: { name: 'Open day', variant: 'teamscan', start: PAST, ...fields },
      });
      expect(made.json.status, made.body).toBe('OK');
      return made.json.data as { campaignid: string; alias: string };
    };
    const members = (campaignId: string) =>
      instance.db.kysely
        .selectFrom('campaign_members')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .execute();
    const mails = (campaignId: string) =>
      instance.db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .execute();
    const memberByEmail = (address: string) =>
      instance.db.kysely
        .selectFrom('members')
        .selectAll()
        .where('email_key', '=', address.toLowerCase())
        .executeTakeFirst();

    it('answers a clear page for a campaign without self-registration', async () => {
      const { alias } = await campaign({});
      const response = await new FormBrowser(instance, freshIp()).get(`/s/${alias}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('You cannot sign up here');
      expect((await new FormBrowser(instance, freshIp()).get('/s/no-such-alias')).statusCode).toBe(404);
    });

    it('registers a new person, mails the link and never shows it, the same page for a known address', async () => {
      const group = (
        await instance.call('POST', '/groups', {
          body: { name: `Visitors ${Date.now()}`, alias: `visitors${Date.now()}` },
        })
      ).json.data.groupid;
      const { alias, campaignid } = await campaign({
        config: { selfregistration: { register: true, signup: true, group } },
      });
      const browser = new FormBrowser(instance, freshIp());
      const form = await browser.get(`/s/${alias}`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('Sign up to take part');
      expect(form.body).toContain('autocomplete="given-name"');

      const empty = await browser.post(`/s/${alias}`, {
        firstname: '',
        lastname: '',
        email: 'not-an-address',
      });
      expect(empty.body).toMatch(/<title>Error: /);
      expect(empty.body).toContain('Enter your first name');
      expect(empty.body).toContain('Enter an e-mail address in the correct format');

      const address = email('self');
      const done = await browser.post(`/s/${alias}`, {
        firstname: 'Noor',
        lastname: 'Haddad',
        email: address,
      });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Check your e-mail');
      const created = await memberByEmail(address);
      expect(created?.group_id).toBe(group);
      const rows = await members(campaignid);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe('invited');
      expect(done.body).not.toContain(rows[0]?.token as string);
      expect((await mails(campaignid)).map((mail) => mail.recipient)).toEqual([address]);

      // The same address again: the same page, the link mailed again, nothing else.
      const again = await browser.post(`/s/${alias}`, {
        firstname: 'Noor',
        lastname: 'Haddad',
        email: address.toUpperCase(),
      });
      expect(again.body).toContain('Check your e-mail');
      expect(await members(campaignid)).toHaveLength(1);
      expect(await mails(campaignid)).toHaveLength(2);
    });

    it('with signup only, gives a known member the link and an unknown address nothing, on the same page', async () => {
      const { alias, campaignid } = await campaign({ config: { selfregistration: { signup: true } } });
      const known = email('known');
      await instance.call('POST', '/members', { body: { email: known, firstname: 'Kim', lastname: 'Lee' } });
      const browser = new FormBrowser(instance, freshIp());
      const form = await browser.get(`/s/${alias}`);
      expect(form.body).not.toContain('given-name');
      const a = await browser.post(`/s/${alias}`, { email: known });
      const stranger = email('stranger');
      const b = await browser.post(`/s/${alias}`, { email: stranger });
      const strip = (body: string) => body.replace(/[^\s]+@example\.test/g, 'ADDRESS');
      expect(strip(a.body)).toBe(strip(b.body));
      expect(await members(campaignid)).toHaveLength(1);
      expect(await memberByEmail(stranger)).toBeUndefined();
      expect((await mails(campaignid)).map((mail) => mail.recipient)).toEqual([known]);
    });

    it('goes straight on with skipvalidation', async () => {
      const { alias } = await campaign({
        config: { selfregistration: { register: true, skipvalidation: true } },
      });
      const browser = new FormBrowser(instance, freshIp());
      await browser.get(`/s/${alias}`);
      const response = await browser.post(`/s/${alias}`, {
        firstname: 'Ivo',
        lastname: 'Smit',
        email: email('skip'),
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toMatch(/^\/q\/[A-Za-z0-9_-]{43}$/);
    });

    it('holds maxparticipants under concurrent sign-ups', async () => {
      const { alias, campaignid } = await campaign({
        config: { maxparticipants: 2, selfregistration: { register: true } },
      });
      const browsers = Array.from({ length: 5 }, () => new FormBrowser(instance, freshIp()));
      for (const browser of browsers) await browser.get(`/s/${alias}`);
      const answers = await Promise.all(
        browsers.map((browser, i) =>
          browser.post(`/s/${alias}`, { firstname: 'P', lastname: `${i}`, email: email(`max${i}`) }),
        ),
      );
      expect(await members(campaignid)).toHaveLength(2);
      expect(answers.filter((answer) => answer.body.includes('This questionnaire is full'))).toHaveLength(3);
    });

    it('registers in one transaction: a failure adding the participation leaves no member and no group membership', async () => {
      const group = (
        await instance.call('POST', '/groups', {
          body: { name: `Walk-ins ${Date.now()}`, alias: `walkins${Date.now()}` },
        })
      ).json.data.groupid as string;
      const { alias, campaignid } = await campaign({
        config: { selfregistration: { register: true, group } },
      });
      const inGroup = () =>
        instance.db.kysely.selectFrom('members').select('id').where('group_id', '=', group).execute();
      const browser = new FormBrowser(instance, freshIp());
      const address = email('walkin');
      const form = { firstname: 'Rui', lastname: 'Costa', email: address };

      // The database refuses this campaign's participations: the last step of the sign-up fails.
      const allow = await refuseInserts(instance.db.kysely, dialect, {
        table: 'campaign_members',
        column: 'campaign_id',
        value: campaignid,
      });
      try {
        await browser.get(`/s/${alias}`);
        const failed = await browser.post(`/s/${alias}`, form);
        expect(failed.statusCode).toBe(500);
      } finally {
        await allow();
      }
      expect(await memberByEmail(address)).toBeUndefined();
      expect(await inGroup()).toEqual([]);
      expect(await members(campaignid)).toEqual([]);
      expect(await mails(campaignid)).toEqual([]);

      // The same sign-up once the database takes it: member, group, participation and mail at once.
      await browser.get(`/s/${alias}`);
      const done = await browser.post(`/s/${alias}`, form);
      expect(done.body).toContain('Check your e-mail');
      const created = await memberByEmail(address);
      expect(created?.group_id).toBe(group);
      expect((await members(campaignid)).map((row) => [row.member_id, row.status])).toEqual([
        [created?.id, 'invited'],
      ]);
      expect((await mails(campaignid)).map((mail) => mail.recipient)).toEqual([address]);
    });

    it('refuses a form without its token and limits sign-ups per address', async () => {
      const { alias } = await campaign({ config: { selfregistration: { register: true } } });
      const browser = new FormBrowser(instance, freshIp());
      await browser.get(`/s/${alias}`);
      browser.csrf = 'forged';
      expect(
        (await browser.post(`/s/${alias}`, { firstname: 'A', lastname: 'B', email: email() })).statusCode,
      ).toBe(403);
      await browser.get(`/s/${alias}`);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (await browser.post(`/s/${alias}`, { firstname: 'A', lastname: 'B', email: email(`rate${i}`) }))
            .statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
      expect(statuses[10]).toBe(429);
    });

    it('runs a whole 360 round: the subject nominates a manager and three peers, all complete, and the 360 report is made', async () => {
      const made = await instance.call('POST', '/campaigns', {
        body: { name: '360 full round', variant: 'leadership360', start: PAST, autoinvite: 'instant' },
      });
      const campaignid = made.json.data.campaignid as string;
      const subject = (
        await instance.call('POST', '/members', {
          body: { email: email('subj'), firstname: 'Lucía', lastname: 'Núñez' },
        })
      ).json.data.memberid as string;
      await instance.call('POST', `/campaigns/${campaignid}/members/${subject}`);
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${subject}`, {
        body: { extra: { role: 'self' } },
      });
      const subjectToken = (await members(campaignid))[0]?.token as string;
      const browser = new FormBrowser(instance, freshIp());
      await browser.get(`/q/${subjectToken}/raters`);
      const cast = [
        ['Mara', 'Manager', 'manager'],
        ['Piet', 'Peer', 'peer'],
        ['Paula', 'Peer', 'peer'],
        ['Pol', 'Peer', 'peer'],
      ];
      for (const [firstname, lastname, role] of cast) {
        const added = await browser.post(`/q/${subjectToken}/raters`, {
          firstname: firstname as string,
          lastname: lastname as string,
          email: email(role),
          role: role as string,
        });
        expect(added.statusCode, added.body).toBe(303);
      }
      const complete = async (token: string, value: string, remark: string) => {
        const person = new FormBrowser(instance, freshIp());
        await person.get(`/q/${token}/page/1`);
        const pages = [
          Array.from({ length: 8 }, (_, i) => `Q${i + 1}`),
          Array.from({ length: 8 }, (_, i) => `Q${i + 9}`),
          Array.from({ length: 8 }, (_, i) => `Q${i + 17}`),
        ];
        for (const [index, codes] of pages.entries()) {
          const response = await person.post(`/q/${token}/page/${index + 1}`, {
            ...Object.fromEntries(codes.map((code) => [code, value])),
            action: 'continue',
          });
          expect(response.statusCode).toBe(303);
        }
        await person.post(`/q/${token}/page/4`, { Remarks1: remark, Remarks2: '', action: 'continue' });
        await person.get(`/q/${token}/check`);
        expect((await person.post(`/q/${token}/check`, { action: 'send' })).headers.location).toBe(
          `/q/${token}/done`,
        );
      };
      const rows = await members(campaignid);
      expect(rows).toHaveLength(5);
      for (const row of rows) {
        const role = (JSON.parse(row.extra ?? '{}') as { role: string }).role;
        await complete(row.token, role === 'self' ? '5' : '3', `From the ${role}`);
      }
      const reports = (await instance.call('GET', `/campaigns/${campaignid}/reports`)).json.data as {
        reportid: string;
        memberid: string;
        config: { campaignparams: { role: string } };
      }[];
      expect(reports).toHaveLength(5);
      const self = reports.find((report) => report.memberid === subject)?.reportid as string;
      expect(reports.find((report) => report.memberid === subject)?.config.campaignparams).toEqual({
        role: 'self',
      });
      const raters = reports.filter((report) => report.memberid !== subject).map((report) => report.reportid);
      const feedback = await instance.call('POST', '/reports', {
        body: {
          reportType: 'group',
          variant: 'leadership360',
          selectedReportsMaster: self,
          selectedReports: raters.join(','),
        },
      });
      expect(feedback.json.status, feedback.body).toBe('OK');
      expect(feedback.json.data.memberid).toBe(subject);
      const pdf = await instance.app.inject({
        method: 'GET',
        url: `/api/v1/reports/${feedback.json.data.reportid}`,
        headers: { authorization: `Bearer ${await instance.token()}` },
      });
      expect(pdf.headers['content-type']).toBe('application/pdf');
      const text = (await readPdf(pdf.rawPayload)).text;
      expect(text).toContain('Lucía');
      // Three peers meet the minimum: their comments are in, grouped, without names.
      expect(text).toContain('From the peer');
      expect(text).toContain('From the manager');
      expect(text).not.toContain('Paula');
    });

    it("lets a 360's subject nominate raters, who then read about the subject by name", async () => {
      const made = await instance.call('POST', '/campaigns', {
        body: { name: '360 round', variant: 'leadership360', start: PAST, autoinvite: 'instant' },
      });
      const campaignid = made.json.data.campaignid as string;
      const subject = (
        await instance.call('POST', '/members', {
          body: { email: email('subj'), firstname: 'Ana', lastname: 'Silva' },
        })
      ).json.data.memberid as string;
      await instance.call('POST', `/campaigns/${campaignid}/members/${subject}`);
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${subject}`, {
        body: { extra: { role: 'self' } },
      });
      const token = (await members(campaignid))[0]?.token as string;

      const browser = new FormBrowser(instance, freshIp());
      const start = await browser.get(`/q/${token}`);
      expect(start.body).toContain(`/q/${token}/raters`);
      const page = await browser.get(`/q/${token}/raters`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Who gives you feedback');

      const missingRole = await browser.post(`/q/${token}/raters`, {
        firstname: 'Ben',
        lastname: 'Boss',
        email: email('boss'),
      });
      expect(missingRole.body).toContain('Select how this person works with you');
      const self = await browser.post(`/q/${token}/raters`, {
        firstname: 'Ana',
        lastname: 'Silva',
        email: (await members(campaignid))[0]?.email as string,
        role: 'peer',
      });
      expect(self.body).toContain('not your own');

      const bossAddress = email('boss');
      const added = await browser.post(`/q/${token}/raters`, {
        firstname: 'Ben',
        lastname: 'Boss',
        email: bossAddress,
        role: 'manager',
      });
      expect(added.statusCode).toBe(303);
      const listed = await browser.get(added.headers.location as string);
      expect(listed.body).toContain('Ben Boss has been added.');
      const rater = (await members(campaignid)).find((row) => row.email === bossAddress);
      expect(JSON.parse(rater?.extra ?? '{}')).toEqual({
        role: 'manager',
        subject,
        nominated: { firstname: 'Ben', lastname: 'Boss', email: bossAddress },
      });

      const raterPage = await new FormBrowser(instance, freshIp()).get(`/q/${rater?.token}/page/1`);
      expect(raterPage.body).toContain('Ana');
      // A rater cannot nominate.
      expect((await new FormBrowser(instance, freshIp()).get(`/q/${rater?.token}/raters`)).statusCode).toBe(
        303,
      );
    });

    // ---- the audit of the raters page: caps, a rate limit, names, what the list shows ----------

    /** A leadership360 campaign with one subject (role self); its token. */
    const subject360 = async (language: Language = 'enUS', autoinvite = 'instant') => {
      const made = await instance.call('POST', '/campaigns', {
        body: { name: `360 ${language}`, variant: 'leadership360', start: PAST, autoinvite, language },
      });
      expect(made.json.status, made.body).toBe('OK');
      const campaignid = made.json.data.campaignid as string;
      const subject = (
        await instance.call('POST', '/members', {
          body: { email: email('subj'), firstname: 'Sam', lastname: 'Subject' },
        })
      ).json.data.memberid as string;
      await instance.call('POST', `/campaigns/${campaignid}/members/${subject}`);
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${subject}`, {
        body: { extra: { role: 'self' } },
      });
      const token = (await members(campaignid))[0]?.token as string;
      return { campaignid, subject, token };
    };
    /** One nomination from a browser of its own (a fresh address: the rate limit is tested apart). */
    const nominate = async (token: string, fields: Record<string, string>) => {
      const browser = new FormBrowser(instance, freshIp());
      await browser.get(`/q/${token}/raters`);
      return browser.post(`/q/${token}/raters`, fields);
    };
    const raterRows = async (campaignid: string, subject: string) =>
      (await members(campaignid)).filter((row) => row.member_id !== subject);

    it('caps nominations at 2 managers, 10 of any other role and 20 in all: past the cap the page says so and nothing is made or mailed', async () => {
      const { campaignid, subject, token } = await subject360();
      const addresses: string[] = [];
      const add = async (role: string, i: number) => {
        const address = email(`${role}${i}`);
        const response = await nominate(token, {
          firstname: 'Rae',
          lastname: `Ter ${i}`,
          email: address,
          role,
        });
        return { address, response };
      };
      for (const i of [1, 2]) {
        const { address, response } = await add('manager', i);
        expect(response.statusCode, response.body).toBe(303);
        addresses.push(address);
      }
      const third = await add('manager', 3);
      expect(third.response.statusCode).toBe(200);
      expect(third.response.body).toMatch(/<title>Error: /);
      expect(third.response.body).toContain('You have asked 2 people as “Manager”, the most you can ask.');
      expect(await memberByEmail(third.address)).toBeUndefined();

      for (let i = 1; i <= 10; i++) addresses.push((await add('peer', i)).address);
      const eleventhPeer = await add('peer', 11);
      expect(eleventhPeer.response.body).toContain(
        'You have asked 10 people as “Peer”, the most you can ask.',
      );
      expect(await memberByEmail(eleventhPeer.address)).toBeUndefined();
      for (let i = 1; i <= 8; i++) addresses.push((await add('directreport', i)).address);
      expect(await raterRows(campaignid, subject)).toHaveLength(20);

      // 20 in all: the form is gone, the page says why, and a forged post changes nothing.
      const page = await new FormBrowser(instance, freshIp()).get(`/q/${token}/raters`);
      expect(page.body).toContain('You have asked 20 people, the most you can ask.');
      expect(page.body).not.toContain('name="firstname"');
      // A post anyway (the form cookie holds the form token: double submit).
      const late = new FormBrowser(instance, freshIp());
      await late.get(`/q/${token}/raters`);
      late.csrf = late.cookie.slice(late.cookie.indexOf('=') + 1);
      const pastAddress = email('directreport9');
      const past = {
        address: pastAddress,
        response: await late.post(`/q/${token}/raters`, {
          firstname: 'Rae',
          lastname: 'Ter 9',
          email: pastAddress,
          role: 'directreport',
        }),
      };
      expect(past.response.statusCode).toBe(200);
      expect(past.response.body).toMatch(/<title>Error: /);
      expect(past.response.body).toContain('You have asked 20 people, the most you can ask.');
      expect(await memberByEmail(past.address)).toBeUndefined();
      expect(await raterRows(campaignid, subject)).toHaveLength(20);

      // The scheduler invites exactly the subject and the 20 raters.
      await tick({
        db: instance.db.kysely,
        dialect: instance.dialect,
        variants,
        config: instance.config,
        clock: () => new Date(),
        mailQueued: () => {},
        campaignsDue: () => {},
      });
      const recipients = (await mails(campaignid)).map((mail) => mail.recipient.toLowerCase());
      expect(recipients).toHaveLength(21);
      expect(recipients).toEqual(expect.arrayContaining(addresses));
      for (const refused of [third.address, eleventhPeer.address, past.address])
        expect(recipients).not.toContain(refused);
    });

    it('holds the caps when 50 nominations arrive at once (the audit: 50 posts in 0.7 s)', async () => {
      const { campaignid, subject, token } = await subject360();
      const browsers = Array.from({ length: 50 }, () => new FormBrowser(instance, freshIp()));
      for (const browser of browsers) await browser.get(`/q/${token}/raters`);
      const roles = ['manager', 'peer', 'directreport'];
      const addresses = browsers.map((_, i) => email(`burst${i}`));
      const answers = await Promise.all(
        browsers.map((browser, i) =>
          browser.post(`/q/${token}/raters`, {
            firstname: 'Bur',
            lastname: `St ${i}`,
            email: addresses[i] as string,
            role: roles[i % 3] as string,
          }),
        ),
      );
      expect(answers.filter((answer) => answer.statusCode === 303)).toHaveLength(20);
      const rows = await raterRows(campaignid, subject);
      expect(rows).toHaveLength(20);
      const count = (role: string) =>
        rows.filter((row) => (JSON.parse(row.extra ?? '{}') as { role: string }).role === role).length;
      expect(count('manager')).toBe(2);
      expect(count('peer')).toBeLessThanOrEqual(10);
      expect(count('directreport')).toBeLessThanOrEqual(10);
      // Nobody refused became a member.
      const made = (await Promise.all(addresses.map((address) => memberByEmail(address)))).filter(Boolean);
      expect(made).toHaveLength(20);
    });

    it('says the caps in every language', async () => {
      for (const language of ['enUS', 'nlNL', 'esES', 'frFR'] as const) {
        const { token } = await subject360(language);
        for (const i of [1, 2]) {
          const response = await nominate(token, {
            firstname: 'Mia',
            lastname: `Boss ${i}`,
            email: email('mgr'),
            role: 'manager',
          });
          expect(response.statusCode).toBe(303);
        }
        const refused = await nominate(token, {
          firstname: 'Mia',
          lastname: 'Boss 3',
          email: email('mgr'),
          role: 'manager',
        });
        const s = signupStringsFor(language);
        const label = variants.get('leadership360')?.texts[language]?.['role.manager'] as string;
        expect(label).toBeTruthy();
        expect(refused.body).toContain(fill(s.ratersRoleFull, { max: 2, role: label }));
        expect(s.ratersAllFull).toContain('{max}');
        expect(s.ratersCampaignFull.length).toBeGreaterThan(0);
      }
    });

    it('limits nominations to 10 a minute from one address', async () => {
      const { campaignid, subject, token } = await subject360();
      const browser = new FormBrowser(instance, freshIp());
      await browser.get(`/q/${token}/raters`);
      const statuses: number[] = [];
      const addresses: string[] = [];
      for (let i = 0; i < 11; i++) {
        const address = email(`rl${i}`);
        addresses.push(address);
        const response = await browser.post(`/q/${token}/raters`, {
          firstname: 'Ray',
          lastname: `Te ${i}`,
          email: address,
          role: i < 5 ? 'peer' : 'directreport',
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          const wait = Number(response.headers['retry-after']);
          expect(wait).toBeGreaterThan(0);
          expect(wait).toBeLessThanOrEqual(60);
          expect(response.body).toContain('Too many attempts');
        }
      }
      expect(statuses.slice(0, 10).every((status) => status === 303)).toBe(true);
      expect(statuses[10]).toBe(429);
      expect(await raterRows(campaignid, subject)).toHaveLength(10);
      expect(await memberByEmail(addresses[10] as string)).toBeUndefined();
    });

    it('refuses names with a link or a line break, on the raters page and at sign-up, and keeps real names', async () => {
      const { campaignid, subject, token } = await subject360();
      const refused: [string, string, string][] = [
        [
          'Visit http://evil.example/login',
          'Smith',
          'Enter a name without a web address or an e-mail address',
        ],
        ['Ann', 'https://evil.example', 'Enter a name without a web address or an e-mail address'],
        ['www.evil.example', 'Smith', 'Enter a name without a web address or an e-mail address'],
        ['Ann', 'evil.example/login', 'Enter a name without a web address or an e-mail address'],
        ['Ann', 'see evil.com', 'Enter a name without a web address or an e-mail address'],
        ['Ann', 'me@evil.example', 'Enter a name without a web address or an e-mail address'],
        ['Ann\nVisit us', 'Smith', 'Enter the name on one line, without special characters'],
        ['Ann', 'Smith\r', 'Enter the name on one line, without special characters'],
        ['Ann\u202e', 'Smith', 'Enter the name on one line, without special characters'],
      ];
      for (const [firstname, lastname, error] of refused) {
        const address = email('bad');
        const response = await nominate(token, { firstname, lastname, email: address, role: 'peer' });
        expect(response.statusCode, `${firstname} ${lastname}`).toBe(200);
        expect(response.body).toMatch(/<title>Error: /);
        expect(response.body, `${firstname} ${lastname}`).toContain(error);
        expect(await memberByEmail(address)).toBeUndefined();
      }
      expect(await raterRows(campaignid, subject)).toHaveLength(0);
      for (const [firstname, lastname] of [
        ['J.R.R.', 'Tolkien'],
        ['Mary-Ann', "O'Neil"],
        ['Lucía', 'St. John'],
        ['Ph.D', 'Núñez'],
      ] as const) {
        const response = await nominate(token, { firstname, lastname, email: email('ok'), role: 'peer' });
        expect(response.statusCode, `${firstname} ${lastname}`).toBe(303);
      }

      const { alias, campaignid: open } = await campaign({
        config: { selfregistration: { register: true } },
      });
      const browser = new FormBrowser(instance, freshIp());
      await browser.get(`/s/${alias}`);
      for (const [firstname, lastname, error] of refused) {
        const response = await browser.post(`/s/${alias}`, { firstname, lastname, email: email('selfbad') });
        expect(response.statusCode).toBe(200);
        expect(response.body, `${firstname} ${lastname}`).toContain(error);
      }
      expect(await members(open)).toHaveLength(0);
      expect(await mails(open)).toHaveLength(0);
    });

    it("lists what the subject typed, never an existing member's name or anyone's status", async () => {
      const { token } = await subject360();
      const known = email('known');
      await instance.call('POST', '/members', {
        body: { email: known, firstname: 'Katarzyna', lastname: 'Wiśniewska' },
      });
      const response = await nominate(token, {
        firstname: 'Made',
        lastname: 'Up',
        email: known.toUpperCase(),
        role: 'peer',
      });
      expect(response.statusCode).toBe(303);
      const page = await new FormBrowser(instance, freshIp()).get(response.headers.location as string);
      expect(page.body).toContain('Made Up has been added.');
      expect(page.body).toContain('<td><bdi>Made Up</bdi></td>');
      expect(page.body).toContain(known.toUpperCase());
      expect(page.body).not.toContain('Katarzyna');
      expect(page.body).not.toContain('Wiśniewska');
      expect(page.body).not.toContain(known);
      for (const status of ['Not invited yet', 'Invited', 'Started', 'Completed', 'Status'])
        expect(page.body).not.toContain(`>${status}<`);
    });
  });
}
