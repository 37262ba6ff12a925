import { describe, expect, it } from 'vitest';
import type { Viewer } from '../../../src/console/views/console-view.js';
import {
  mailPreviewView,
  stagesOf,
  wizardCheckView,
  wizardStepView,
} from '../../../src/console/views/wizard.view.js';
import {
  applies,
  campaignBody,
  dateText,
  firstUnanswered,
  nextStep,
  previousStep,
  readStep,
  STEPS,
  stepOfMessage,
} from '../../../src/console/wizard-steps.js';
import { wizardStrings } from '../../../src/console/wizard-strings.js';
import { renderPage } from '../../../src/pages/render.js';
import { questionnaireMinutes } from '../../../src/questionnaire/duration.js';
import { builtinVariantsDir, loadVariants } from '../../../src/variants/load-variants.js';
import { LANGUAGES } from '../../../src/variants/variant.types.js';

const variants = loadVariants([builtinVariantsDir()]).list();
const viewer = (language: Viewer['language'] = 'enUS'): Viewer => ({
  language,
  user: { firstname: 'Ada', lastname: 'Admin', email: 'ada@example.test', role: 'admin' },
  csrf: 'token',
  path: '/console/campaigns/new/name',
});
const render = (view: ReturnType<typeof wizardStepView>) =>
  renderPage(view.template, view.model as never, '/console/assets');

const COMPLETE = {
  name: 'Spring',
  variant: 'bigfive',
  language: 'frFR',
  'start-day': '1',
  'start-month': '3',
  'start-year': '2030',
  'start-time': '9:05',
  closingtype: 'open',
  participation: 'members',
  autoinvite: 'none',
  autoreminder: 'no',
  sendmemberconfirmation: '0',
  sendreportdelivery: '1',
};

describe('the wizard steps', () => {
  it('asks the conditional pages only when their answer calls for them', () => {
    expect(applies('end', { closingtype: 'date' })).toBe(true);
    expect(applies('end', { closingtype: 'auto' })).toBe(false);
    expect(applies('signup', { participation: 'register' })).toBe(true);
    expect(applies('signup', { participation: 'members' })).toBe(false);
    expect(applies('invite-offset', { autoinvite: 'fixed' })).toBe(true);
    expect(applies('reminder-schedule', { autoreminder: 'no' })).toBe(false);
    expect(applies('language', {})).toBe(false);
  });

  it('goes forward and back over the pages that apply', () => {
    expect(firstUnanswered({})).toBe('name');
    expect(firstUnanswered(COMPLETE)).toBeUndefined();
    expect(nextStep('closing', COMPLETE)).toBe('participation');
    expect(nextStep('closing', { ...COMPLETE, closingtype: 'date' })).toBe('end');
    expect(previousStep('invitation', COMPLETE)).toBe('participation');
    expect(previousStep('name', COMPLETE)).toBeUndefined();
    expect(nextStep('mails', COMPLETE)).toBeUndefined();
  });

  it('reads only the fields of its page; an unticked box is 0', () => {
    expect(readStep('name', { name: 'A', variant: 'x' })).toEqual({ name: 'A' });
    expect(readStep('mails', { sendreportdelivery: '1' })).toEqual({
      sendmemberconfirmation: '0',
      sendreportdelivery: '1',
    });
    expect(readStep('signup', {})).toEqual({ alias: '', maxparticipants: '' });
  });

  it('makes moments in UTC from the date parts; nothing from nothing', () => {
    expect(dateText(COMPLETE, 'start')).toBe('2030-03-01T09:05:00Z');
    expect(dateText({ 'end-day': '2', 'end-month': '12', 'end-year': '2030' }, 'end')).toBe(
      '2030-12-02T00:00:00Z',
    );
    expect(dateText({}, 'end')).toBe('');
  });

  it('builds the body of POST /campaigns from the pages that apply', () => {
    expect(campaignBody(COMPLETE)).toEqual({
      name: 'Spring',
      variant: 'bigfive',
      language: 'frFR',
      start: '2030-03-01T09:05:00Z',
      closingtype: 'open',
      autoinvite: 'none',
      autoreminder: false,
      sendmemberconfirmation: false,
      sendreportdelivery: true,
    });
    // An end answered for a campaign that no longer closes by date is left out.
    expect(
      campaignBody({ ...COMPLETE, 'end-day': '1', 'end-month': '1', 'end-year': '2031', 'end-time': '' }).end,
    ).toBe(undefined);
    const signup = campaignBody({
      ...COMPLETE,
      participation: 'signup',
      alias: ' spring ',
      maxparticipants: '9',
    });
    expect(signup.alias).toBe('spring');
    expect(signup.config).toEqual({
      selfregistration: { signup: true, register: false },
      maxparticipants: '9',
    });
    expect(Object.keys(campaignBody(COMPLETE, 'variant'))).toEqual(['name', 'variant']);
  });

  it('sends each API message to the page and field it is about', () => {
    expect(stepOfMessage('end: must be after start')).toEqual({ step: 'end', field: 'end-day' });
    expect(stepOfMessage('config.maxparticipants: must be at least -1')).toEqual({
      step: 'signup',
      field: 'maxparticipants',
    });
    expect(stepOfMessage('reminderoffset.unit: must be one of day, week')).toEqual({
      step: 'reminder-schedule',
      field: 'reminder-unit',
    });
    expect(stepOfMessage('alias: already exists')).toEqual({ step: 'signup', field: 'alias' });
    expect(stepOfMessage('admins: no member x')).toBeUndefined();
  });
});

describe('the wizard views', () => {
  it('shows each variant with its description and the duration the mails state', () => {
    const view = wizardStepView(viewer(), {
      step: 'variant',
      answers: {},
      variants,
      signupPrefix: 'https://q/s/',
    });
    const html = render(view);
    for (const variant of variants) {
      expect(html).toContain(variant.texts.enUS?.['variant.name'] as string);
      expect(html).toContain(`About ${questionnaireMinutes(variant)} minutes`);
    }
    expect(html).toContain(
      '<h1 class="heading-l legend-heading">Which questionnaire do participants answer?</h1>',
    );
    expect(view.model.backHref).toBe('/console/campaigns/new/name');
  });

  it('puts the message next to its field, in the summary and the title', () => {
    const view = wizardStepView(viewer(), {
      step: 'start',
      answers: { 'start-day': '31', 'start-month': '2' },
      problem: { step: 'start', field: 'start-day', message: 'start: must be a date' },
      variants,
      signupPrefix: 'https://q/s/',
    });
    const html = render(view);
    expect(html).toMatch(/<title>Error: /);
    expect(html).toContain('<a href="#start-day">start: must be a date</a>');
    expect(html).toContain('id="start-day-error"');
    expect(html).toContain('aria-describedby="start-hint start-day-error"');
    expect(html).toContain('value="31"');
  });

  it('says "choose one" in the console language where no API field holds the choice', () => {
    for (const language of LANGUAGES) {
      const view = wizardStepView(viewer(language), {
        step: 'participation',
        answers: {},
        problem: { step: 'participation', field: 'participation' },
        variants,
        signupPrefix: 'https://q/s/',
      });
      expect(render(view)).toContain(wizardStrings(language).chooseOne);
    }
  });

  it('returns to the check page from a Change link', () => {
    const view = wizardStepView(viewer(), {
      step: 'name',
      answers: COMPLETE,
      returnTo: 'check',
      variants,
      signupPrefix: 'https://q/s/',
    });
    expect(view.model.backHref).toBe('/console/campaigns/new/check');
    expect(render(view)).toContain('name="return" value="check"');
  });

  it('lists every answer that applies with its Change link, and the mails that go out', () => {
    const view = wizardCheckView(viewer('nlNL'), {
      answers: COMPLETE,
      variants,
      signupPrefix: 'https://q/s/',
    });
    const rows = view.model.rows as { step: string; value: string; href: string }[];
    expect(rows.map((row) => row.step)).toEqual([
      'name',
      'variant',
      'language',
      'start',
      'closing',
      'participation',
      'invitation',
      'reminders',
      'mails',
    ]);
    expect(rows.find((row) => row.step === 'language')?.value).toBe('Français');
    expect(rows.find((row) => row.step === 'start')?.value).toContain('2030');
    expect(rows[0]?.href).toBe('/console/campaigns/new/name?return=check');
    expect(stagesOf(COMPLETE)).toEqual([
      'campaign_invitation',
      'campaign_reminder',
      'campaign_reportdelivery',
    ]);
    expect(STEPS).toContain('mails');
  });

  it('shows a preview escaped, in the mail language', () => {
    const view = mailPreviewView(viewer(), {
      stage: 'campaign_invitation',
      mail: {
        from: 'Assay <a@b.c>',
        to: 'Alex Sample <alex.sample@example.com>',
        subject: '<b>Hi</b>',
        text: 'Hello <script>alert(1)</script>',
        html: '<p>x</p>',
        template: 'standard',
        language: 'esES',
      },
      htmlHref: '/x/html',
      backHref: '/console/campaigns/new/check',
      backText: 'Back',
    });
    const html = renderPage(view.template, view.model as never, '/console/assets');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('Hello &lt;script&gt;');
    expect(html).toContain('lang="es"');
    expect(html).not.toContain('<p>x</p>');
  });
});
