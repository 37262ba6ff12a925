import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEPS, type Step } from '../../src/console/wizard-steps.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

/** The text of HTML as a browser shows it (the few entities Handlebars writes). */
const htmlText = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x60;/g, '`')
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&');

/** The message next to a field on a page (the first one). */
const fieldMessage = (html: string) => {
  const match =
    /<p id="[^"]+" class="error-message"><span class="visually-hidden">[^<]*<\/span> ([^<]*)<\/p>/.exec(html);
  return match ? htmlText(match[1] as string) : undefined;
};

/** Good answers for every page, in order. */
const GOOD: Record<Step, Record<string, string>> = {
  name: { name: 'Spring review' },
  variant: { variant: 'bigfive' },
  language: { language: 'nlNL' },
  start: { 'start-day': '1', 'start-month': '3', 'start-year': '2030', 'start-time': '09:00' },
  closing: { closingtype: 'date' },
  end: { 'end-day': '1', 'end-month': '4', 'end-year': '2030', 'end-time': '' },
  participation: { participation: 'register' },
  signup: { alias: '', maxparticipants: '25' },
  invitation: { autoinvite: 'fixed' },
  'invite-offset': { 'invite-amount': '2', 'invite-unit': 'day' },
  reminders: { autoreminder: 'yes' },
  'reminder-schedule': { 'reminder-amount': '1', 'reminder-unit': 'week', reminderrepeat: '3' },
  mails: { sendmemberconfirmation: '1' },
};

/** The API body the good answers before a page make (what the wizard sends so far). */
const API_BASE = {
  name: 'Spring review',
  variant: 'bigfive',
  language: 'nlNL',
  start: '2030-03-01T09:00:00+00:00',
};

const path = (step: Step | 'check') => `/console/campaigns/new/${step}`;

/** Answers every page before `step` well, in order. */
async function walkTo(browser: ConsoleBrowser, step: Step | 'check') {
  const last = step === 'check' ? STEPS.length : STEPS.indexOf(step);
  for (const one of STEPS.slice(0, last)) {
    const response = await browser.post(path(one), GOOD[one]);
    expect(response.statusCode, `${one}: ${fieldMessage(response.body)}`).toBe(303);
  }
}

describe.each(dialects)('the campaign wizard (%s)', (dialect) => {
  let instance: Instance;

  beforeAll(async () => {
    instance = await startInstance(dialect);
  });
  afterAll(async () => {
    await instance?.close();
  });

  const countCampaigns = async () =>
    Number(
      (
        await instance.db.kysely
          .selectFrom('campaigns')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('walks through every page by forms, checks the answers and creates the campaign as the API does', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    const start = await browser.get('/console/campaigns/new');
    expect(start.statusCode).toBe(303);
    expect(start.headers.location).toBe(path('name'));
    let at: string = path('name');
    for (const step of STEPS) {
      expect(at).toBe(path(step));
      const page = await browser.get(at);
      expect(page.statusCode, step).toBe(200);
      const response = await browser.post(at, GOOD[step]);
      expect(response.statusCode, `${step}: ${fieldMessage(response.body)}`).toBe(303);
      at = response.headers.location as string;
    }
    expect(at).toBe(path('check'));
    const check = await browser.get(at);
    expect(check.statusCode).toBe(200);
    expect(check.body).toContain('Spring review');
    expect(check.body).toContain('/console/campaigns/new/preview/campaign_invitation');
    expect(check.body).toContain('/console/campaigns/new/preview/confirmation_member');
    expect(check.body).not.toContain('/console/campaigns/new/preview/campaign_reportdelivery');
    const before = await countCampaigns();
    const created = await browser.post(path('check'), {});
    expect(created.statusCode).toBe(303);
    const id = /^\/console\/campaigns\/([0-9A-Za-z]{10})$/.exec(created.headers.location as string)?.[1];
    expect(id).toBeDefined();
    expect(await countCampaigns()).toBe(before + 1);
    const campaign = (await instance.call('GET', `/campaigns/${id}`)).json.data;
    expect(campaign).toMatchObject({
      name: 'Spring review',
      variant: 'bigfive',
      language: 'nlNL',
      start: '2030-03-01T09:00:00+00:00',
      end: '2030-04-01T00:00:00+00:00',
      closingtype: 'date',
      config: { selfregistration: { signup: true, register: true }, maxparticipants: 25 },
      autoinvite: 'fixed',
      inviteoffset: { amount: 2, unit: 'day' },
      autoreminder: true,
      reminderoffset: { amount: 1, unit: 'week' },
      reminderrepeat: 3,
      sendmemberconfirmation: true,
      sendreportdelivery: false,
      autogenerated: true,
      accesstype: 'owner',
    });
    // The draft is gone: a new wizard starts empty.
    expect((await browser.get('/console/campaigns/new')).headers.location).toBe(path('name'));
    expect((await browser.get(path('name'))).body).not.toContain('value="Spring review"');
  });

  it('asks only the pages that apply, and leaves their fields out', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'closing');
    const open = await browser.post(path('closing'), { closingtype: 'open' });
    expect(open.headers.location).toBe(path('participation'));
    // The end page does not apply to an open campaign.
    expect((await browser.get(path('end'))).statusCode).toBe(303);
    expect((await browser.post(path('participation'), { participation: 'members' })).headers.location).toBe(
      path('invitation'),
    );
    expect((await browser.post(path('invitation'), { autoinvite: 'none' })).headers.location).toBe(
      path('reminders'),
    );
    expect((await browser.post(path('reminders'), { autoreminder: 'no' })).headers.location).toBe(
      path('mails'),
    );
    expect((await browser.post(path('mails'), {})).headers.location).toBe(path('check'));
    const created = await browser.post(path('check'), {});
    const id = (created.headers.location as string).split('/').at(-1);
    const campaign = (await instance.call('GET', `/campaigns/${id}`)).json.data;
    expect(campaign).toMatchObject({
      closingtype: 'open',
      end: null,
      config: { maxparticipants: -1 },
      autoinvite: 'none',
      inviteoffset: null,
      autoreminder: false,
      sendmemberconfirmation: false,
      sendreportdelivery: false,
    });
  });

  // Each bad answer, and the API body that says the same: the page shows the API's own message.
  const BAD: { step: Step; form: Record<string, string>; api: Record<string, unknown> }[] = [
    { step: 'name', form: { name: '' }, api: { name: '' } },
    { step: 'name', form: { name: '   ' }, api: { name: '   ' } },
    { step: 'name', form: { name: 'x'.repeat(256) }, api: { name: 'x'.repeat(256) } },
    { step: 'name', form: { name: 'two\u202elines' }, api: { name: 'two\u202elines' } },
    { step: 'variant', form: { variant: 'nope' }, api: { variant: 'nope' } },
    { step: 'variant', form: { variant: '' }, api: { variant: '' } },
    { step: 'language', form: { language: 'xxXX' }, api: { language: 'xxXX' } },
    { step: 'language', form: { language: '' }, api: { language: '' } },
    {
      step: 'start',
      form: { 'start-day': '31', 'start-month': '2', 'start-year': '2030', 'start-time': '' },
      api: { start: '2030-02-31T00:00:00Z' },
    },
    {
      step: 'start',
      form: { 'start-day': '', 'start-month': '', 'start-year': '', 'start-time': '' },
      api: { start: '' },
    },
    {
      step: 'start',
      form: { 'start-day': '1', 'start-month': '3', 'start-year': '2030', 'start-time': '25:00' },
      api: { start: '2030-03-01T25:00:00Z' },
    },
    { step: 'closing', form: { closingtype: '' }, api: { closingtype: '' } },
    {
      step: 'end',
      form: { 'end-day': '1', 'end-month': '2', 'end-year': '2030', 'end-time': '' },
      api: { closingtype: 'date', end: '2030-02-01T00:00:00+00:00' },
    },
    {
      step: 'end',
      form: { 'end-day': '1', 'end-month': '3', 'end-year': '2030', 'end-time': '09:00' },
      api: { closingtype: 'date', end: '2030-03-01T09:00:00+00:00' },
    },
    {
      step: 'signup',
      form: { alias: 'has space', maxparticipants: '' },
      api: { alias: 'has space', config: { selfregistration: { signup: true, register: true } } },
    },
    {
      step: 'signup',
      form: { alias: '', maxparticipants: '-5' },
      api: { config: { selfregistration: { signup: true, register: true }, maxparticipants: '-5' } },
    },
    {
      step: 'signup',
      form: { alias: '', maxparticipants: 'many' },
      api: { config: { selfregistration: { signup: true, register: true }, maxparticipants: 'many' } },
    },
    { step: 'invitation', form: { autoinvite: '' }, api: { autoinvite: '' } },
    {
      step: 'invite-offset',
      form: { 'invite-amount': 'soon', 'invite-unit': 'day' },
      api: { autoinvite: 'fixed', inviteoffset: { amount: 'soon', unit: 'day' } },
    },
    {
      step: 'invite-offset',
      form: { 'invite-amount': '2', 'invite-unit': '' },
      api: { autoinvite: 'fixed', inviteoffset: { amount: '2', unit: '' } },
    },
    { step: 'reminders', form: { autoreminder: '' }, api: { autoreminder: '' } },
    {
      step: 'reminder-schedule',
      form: { 'reminder-amount': '0', 'reminder-unit': 'day', reminderrepeat: '3' },
      api: { autoreminder: true, reminderoffset: { amount: '0', unit: 'day' }, reminderrepeat: '3' },
    },
    {
      step: 'reminder-schedule',
      form: { 'reminder-amount': '2', 'reminder-unit': 'day', reminderrepeat: '0' },
      api: { autoreminder: true, reminderoffset: { amount: '2', unit: 'day' }, reminderrepeat: '0' },
    },
    {
      step: 'reminder-schedule',
      form: { 'reminder-amount': '2', 'reminder-unit': 'day', reminderrepeat: '101' },
      api: { autoreminder: true, reminderoffset: { amount: '2', unit: 'day' }, reminderrepeat: '101' },
    },
  ];

  it.each(BAD.map((bad, index) => ({ ...bad, index })))(
    '$step refuses $form with the message the API gives for the same input',
    async ({ step, form, api }) => {
      const browser = await new ConsoleBrowser(instance).signIn();
      await walkTo(browser, step);
      const answer = await instance.call('POST', '/campaigns', { body: { ...API_BASE, ...api } });
      expect(answer.json.status).toBe('ERROR');
      const draftBefore = await instance.db.kysely.selectFrom('console_drafts').select(['data']).execute();
      const count = await countCampaigns();
      const page = await browser.post(path(step), form);
      expect(page.statusCode).toBe(400);
      expect(fieldMessage(page.body)).toBe(answer.json.data);
      expect(page.body).toContain('<title>Error: ');
      expect(page.body).toContain('class="error-summary"');
      // Nothing changed: the draft holds what it held, no campaign was made.
      expect(await instance.db.kysely.selectFrom('console_drafts').select(['data']).execute()).toEqual(
        draftBefore,
      );
      expect(await countCampaigns()).toBe(count);
    },
  );

  it('refuses a taken sign-up link as the API does', async () => {
    const taken = await instance.call('POST', '/campaigns', {
      body: { ...API_BASE, alias: `taken-${dialect}` },
    });
    expect(taken.json.status).toBe('OK');
    const again = await instance.call('POST', '/campaigns', {
      body: { ...API_BASE, alias: `taken-${dialect}` },
    });
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'signup');
    const page = await browser.post(path('signup'), { alias: `taken-${dialect}`, maxparticipants: '' });
    expect(page.statusCode).toBe(400);
    expect(fieldMessage(page.body)).toBe(again.json.data);
    expect(again.json.data).toBe('alias: already exists');
  });

  it('asks to choose who may take part (no API field holds the choice)', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'participation');
    const page = await browser.post(path('participation'), {});
    expect(page.statusCode).toBe(400);
    expect(fieldMessage(page.body)).toBe('Select one of the options');
  });

  it('keeps the answers through a reload, and Change links come back to the check page', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'check');
    // Another request of the same session (a reload) finds every answer.
    const name = await browser.get(path('name'));
    expect(name.body).toContain('value="Spring review"');
    expect((await browser.get(path('language'))).body).toMatch(/value="nlNL" checked/);
    const check = await browser.get(path('check'));
    expect(check.body).toContain('href="/console/campaigns/new/name?return&#x3D;check"');
    const change = await browser.get(`${path('name')}?return=check`);
    expect(change.body).toContain('name="return" value="check"');
    const changed = await browser.post(path('name'), { name: 'Autumn review', return: 'check' });
    expect(changed.headers.location).toBe(path('check'));
    // Closing by date asks for the end only when it was not answered.
    const auto = await browser.post(path('closing'), { closingtype: 'auto', return: 'check' });
    expect(auto.headers.location).toBe(path('check'));
    const back = await browser.post(path('closing'), { closingtype: 'date', return: 'check' });
    expect(back.headers.location).toBe(path('check'));
    expect((await browser.get(path('check'))).body).toContain('Autumn review');
  });

  it('shows on the check page a problem an answer made for another page, and refuses to create', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'check');
    // A start after the end: the start page takes it (its own field is fine), the check page
    // shows the API's message at the end, and Create sends the operator to the end page.
    const later = { ...GOOD.start, 'start-year': '2031', return: 'check' };
    const moved = await browser.post(path('start'), later);
    expect(moved.headers.location).toBe(path('check'));
    const answer = await instance.call('POST', '/campaigns', {
      body: { ...API_BASE, start: '2031-03-01T09:00:00Z', closingtype: 'date', end: '2030-04-01T00:00:00Z' },
    });
    expect(answer.json.data).toBe('end: must be after start');
    const check = await browser.get(path('check'));
    expect(check.statusCode).toBe(200);
    expect(check.body).toContain('<title>Error: ');
    expect(check.body).toMatch(/<a href="#row-\d+">end: must be after start<\/a>/);
    const count = await countCampaigns();
    const refused = await browser.post(path('check'), {});
    expect(refused.statusCode).toBe(400);
    expect(fieldMessage(refused.body)).toBe('end: must be after start');
    expect(refused.body).toContain('name="return" value="check"');
    expect(await countCampaigns()).toBe(count);
    const fixed = await browser.post(path('end'), { ...GOOD.end, 'end-year': '2032', return: 'check' });
    expect(fixed.headers.location).toBe(path('check'));
    expect((await browser.get(path('check'))).body).not.toContain('error-summary');
  });

  it('keeps a draft for its own session only, and forgets it when the session ends', async () => {
    const first = await new ConsoleBrowser(instance).signIn();
    await walkTo(first, 'language');
    const second = await new ConsoleBrowser(instance).signIn();
    expect((await second.get('/console/campaigns/new')).headers.location).toBe(path('name'));
    expect((await second.get(path('name'))).body).not.toContain('value="Spring review"');
    const drafts = () => instance.db.kysely.selectFrom('console_drafts').select('id').execute();
    const before = (await drafts()).length;
    await first.post('/console/sign-out', {});
    expect((await drafts()).length).toBe(before - 1);
  });

  it('shows a page skipped over as the first one still to answer', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    const early = await browser.get(path('mails'));
    expect(early.statusCode).toBe(303);
    expect(early.headers.location).toBe(path('name'));
    expect((await browser.get(path('check'))).headers.location).toBe(path('name'));
    expect((await browser.get('/console/campaigns/new/nothing')).statusCode).toBe(404);
  });

  it('refuses a form without the session token and changes nothing', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'check');
    const drafts = await instance.db.kysely.selectFrom('console_drafts').select(['data']).execute();
    const count = await countCampaigns();
    const forged = await browser.post(path('name'), { name: 'Forged' }, null);
    expect(forged.statusCode).toBe(403);
    const wrong = await browser.post(path('check'), {}, 'x'.repeat(43));
    expect(wrong.statusCode).toBe(403);
    expect(await instance.db.kysely.selectFrom('console_drafts').select(['data']).execute()).toEqual(drafts);
    expect(await countCampaigns()).toBe(count);
  });

  it('shows a name of <script> and right-to-left text escaped and isolated', async () => {
    const browser = await new ConsoleBrowser(instance).signIn();
    await walkTo(browser, 'check');
    await browser.post(path('name'), { name: '<script>alert(1)</script> مرحبا', return: 'check' });
    const check = await browser.get(path('check'));
    expect(check.body).not.toContain('<script>alert(1)');
    expect(check.body).toContain('<bdi>&lt;script&gt;alert(1)&lt;/script&gt; مرحبا</bdi>');
    const name = await browser.get(path('name'));
    expect(name.body).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt; مرحبا"');
  });

  it('needs a signed-in operator', async () => {
    const anonymous = new ConsoleBrowser(instance);
    const page = await anonymous.get(path('name'));
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toMatch(/^\/console\/sign-in/);
  });

  describe('mail previews', () => {
    const LANGUAGES = [
      { language: 'enUS', subject: 'Invitation to take part in Spring review', lang: 'en' },
      { language: 'nlNL', subject: 'Uitnodiging voor Spring review', lang: 'nl' },
      { language: 'esES', subject: 'Invitación para participar en Spring review', lang: 'es' },
      { language: 'frFR', subject: 'Invitation à participer à Spring review', lang: 'fr' },
    ];
    const mailText = (html: string) =>
      htmlText(/<pre class="mail-text"[^>]*>([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? '');

    it.each(LANGUAGES)(
      'previews each mail of a draft, then of the campaign, in its language ($language)',
      async ({ language, subject, lang }) => {
        const browser = await new ConsoleBrowser(instance).signIn();
        await walkTo(browser, 'check');
        await browser.post(path('language'), { language, return: 'check' });
        const texts = new Map<string, string>();
        for (const stage of ['campaign_invitation', 'campaign_reminder', 'confirmation_member']) {
          const page = await browser.get(`/console/campaigns/new/preview/${stage}`);
          expect(page.statusCode, stage).toBe(200);
          expect(page.body).toContain('Alex Sample &lt;alex.sample@example.com&gt;');
          expect(page.body).toMatch(new RegExp(`<pre class="mail-text" dir="auto" lang="${lang}`));
          texts.set(stage, mailText(page.body));
          const html = await browser.get(`/console/campaigns/new/preview/${stage}/html`);
          expect(html.statusCode).toBe(200);
          expect(html.headers['content-security-policy']).toBe(
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
          );
          expect(html.body).toMatch(/^<!doctype html>/i);
        }
        const invitation = await browser.get('/console/campaigns/new/preview/campaign_invitation');
        expect(htmlText(invitation.body)).toContain(subject);
        expect(texts.get('campaign_invitation')).toContain('/q/SAMPLE-TOKEN');
        // Once created, the campaign's previews are the same mails.
        const created = await browser.post(path('check'), {});
        const id = (created.headers.location as string).split('/').at(-1) as string;
        for (const [stage, text] of texts) {
          const page = await browser.get(`/console/campaigns/${id}/preview/${stage}`);
          expect(page.statusCode).toBe(200);
          expect(mailText(page.body)).toBe(text);
          expect(page.body).toContain(`href="/console/campaigns/${id}"`);
        }
        const html = await browser.get(`/console/campaigns/${id}/preview/campaign_reminder/html`);
        expect(html.headers['content-security-policy']).toContain('sandbox');
      },
    );

    it('answers 404 for an unknown stage or campaign', async () => {
      const browser = await new ConsoleBrowser(instance).signIn();
      expect((await browser.get('/console/campaigns/new/preview/nothing')).statusCode).toBe(404);
      expect(
        (await browser.get('/console/campaigns/AAAAAAAAAA/preview/campaign_invitation')).statusCode,
      ).toBe(404);
    });
  });
});
