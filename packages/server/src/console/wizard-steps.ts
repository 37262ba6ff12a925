import type { DraftAnswers } from './drafts.repository.js';

/**
 * The campaign wizard's questions, one a page, in order; what each keeps in the draft, when it
 * applies, and the API fields it answers. Pure: the routes read forms with it, build the body of
 * POST /campaigns from the answers with `campaignBody`, and send an API message (`field: problem`)
 * back to the page of its field with `stepOfMessage`.
 */
export const STEPS = [
  'name',
  'variant',
  'language',
  'start',
  'closing',
  'end',
  'participation',
  'signup',
  'invitation',
  'invite-offset',
  'reminders',
  'reminder-schedule',
  'mails',
] as const;
export type Step = (typeof STEPS)[number];

export const isStep = (value: unknown): value is Step => (STEPS as readonly unknown[]).includes(value);

export const CLOSING_CHOICES = ['date', 'auto', 'open'] as const;
export const PARTICIPATION_CHOICES = ['members', 'signup', 'register'] as const;
export const INVITE_CHOICES = ['none', 'instant', 'fixed'] as const;
export const UNIT_CHOICES = ['day', 'week'] as const;
export const MAIL_CHOICES = ['sendmemberconfirmation', 'sendreportdelivery'] as const;

const DATE_PARTS = ['day', 'month', 'year', 'time'] as const;
const dateFields = (prefix: string) => DATE_PARTS.map((part) => `${prefix}-${part}`);

/** The form fields of each page: what its form posts and the draft keeps. */
export const STEP_FIELDS: Readonly<Record<Step, readonly string[]>> = {
  name: ['name'],
  variant: ['variant'],
  language: ['language'],
  start: dateFields('start'),
  closing: ['closingtype'],
  end: dateFields('end'),
  participation: ['participation'],
  signup: ['alias', 'maxparticipants'],
  invitation: ['autoinvite'],
  'invite-offset': ['invite-amount', 'invite-unit'],
  reminders: ['autoreminder'],
  'reminder-schedule': ['reminder-amount', 'reminder-unit', 'reminderrepeat'],
  mails: [...MAIL_CHOICES],
};

/** Whether a page is asked, given the answers so far. */
export function applies(step: Step, answers: DraftAnswers): boolean {
  switch (step) {
    case 'language':
      return answers.variant !== undefined;
    case 'end':
      return answers.closingtype === 'date';
    case 'signup':
      return answers.participation === 'signup' || answers.participation === 'register';
    case 'invite-offset':
      return answers.autoinvite === 'fixed';
    case 'reminder-schedule':
      return answers.autoreminder === 'yes';
    default:
      return true;
  }
}

/** A page is answered once the draft holds every one of its fields (an optional one as ''). */
export const answered = (step: Step, answers: DraftAnswers) =>
  STEP_FIELDS[step].every((field) => answers[field] !== undefined);

/** The pages asked for these answers, in order. */
export const stepsFor = (answers: DraftAnswers): Step[] => STEPS.filter((step) => applies(step, answers));

/** The first page asked and not answered yet; undefined when every one is. */
export const firstUnanswered = (answers: DraftAnswers): Step | undefined =>
  stepsFor(answers).find((step) => !answered(step, answers));

/** The page asked before `step` (undefined for the first). */
export function previousStep(step: Step, answers: DraftAnswers): Step | undefined {
  const asked = stepsFor(answers);
  const at = STEPS.indexOf(step);
  return asked.filter((one) => STEPS.indexOf(one) < at).at(-1);
}

/** The page asked after `step` (undefined after the last). */
export function nextStep(step: Step, answers: DraftAnswers): Step | undefined {
  const at = STEPS.indexOf(step);
  return stepsFor(answers).find((one) => STEPS.indexOf(one) > at);
}

/**
 * The page's answers from a posted form: each of its fields as text (absent: ''); a checkbox
 * as '1' when ticked, '0' when not. Fields of other pages are ignored.
 */
export function readStep(step: Step, form: Record<string, unknown>): DraftAnswers {
  const answers: Record<string, string> = {};
  for (const field of STEP_FIELDS[step]) {
    if (step === 'mails') answers[field] = form[field] === '1' ? '1' : '0';
    else {
      const value = form[field];
      answers[field] = typeof value === 'string' ? value.slice(0, 10_000) : '';
    }
  }
  return answers;
}

const pad = (value: string) => (/^\d$/.test(value) ? `0${value}` : value);

/**
 * A moment as the API takes it, from the date input's parts: `2027-03-27T09:00:00Z` (UTC; the API writes it back as +00:00).
 * Parts that make no date give text the API refuses, so its message is the one shown; nothing
 * at all gives ''.
 */
export function dateText(answers: DraftAnswers, prefix: 'start' | 'end'): string {
  const [day = '', month = '', year = '', time = ''] = DATE_PARTS.map((part) =>
    (answers[`${prefix}-${part}`] ?? '').trim(),
  );
  if (!day && !month && !year && !time) return '';
  const clock =
    time === ''
      ? '00:00'
      : time.replace(/^(\d{1,2})[:.](\d{2})$/, (_, h: string, m: string) => `${pad(h)}:${m}`);
  return `${year}-${pad(month)}-${pad(day)}T${clock}:00Z`;
}

/**
 * The date input's parts (as `dateText` reads them) of a moment as the API gives it
 * (`2026-12-01T09:00:00+00:00`), in UTC; none for '' or text that is no moment.
 */
export function dateParts(text: string, prefix: string): Record<string, string> {
  const date = text === '' ? undefined : new Date(text);
  if (!date || Number.isNaN(date.getTime())) return {};
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    [`${prefix}-day`]: String(date.getUTCDate()),
    [`${prefix}-month`]: String(date.getUTCMonth() + 1),
    [`${prefix}-year`]: String(date.getUTCFullYear()),
    [`${prefix}-time`]: `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`,
  };
}

const offset = (amount: string | undefined, unit: string | undefined) => ({
  amount: (amount ?? '').trim(),
  unit: unit ?? '',
});

/**
 * The body of POST /campaigns that the answers make: the fields of the pages asked (up to and
 * with `upTo` when given), as the API reads them; a field not answered is left out (the API's
 * default). Numbers stay the text typed: the API's validator reads whole numbers from text, and
 * its message for text that is none is the one shown.
 */
export function campaignBody(answers: DraftAnswers, upTo?: Step): Record<string, unknown> {
  const last = upTo === undefined ? STEPS.length - 1 : STEPS.indexOf(upTo);
  const asked = stepsFor(answers).filter((step) => STEPS.indexOf(step) <= last && answered(step, answers));
  const body: Record<string, unknown> = {};
  for (const step of asked) {
    switch (step) {
      case 'name':
      case 'variant':
      case 'language':
        body[step] = answers[step];
        break;
      case 'start':
      case 'end':
        body[step] = dateText(answers, step);
        break;
      case 'closing':
        body.closingtype = answers.closingtype;
        break;
      case 'participation':
        // Only the members added later: no self-registration (the API's default).
        if (answers.participation === 'signup' || answers.participation === 'register') {
          body.config = {
            selfregistration: { signup: true, register: answers.participation === 'register' },
          };
        }
        break;
      case 'signup': {
        const alias = (answers.alias ?? '').trim();
        const max = (answers.maxparticipants ?? '').trim();
        if (alias !== '') body.alias = alias;
        if (max !== '') body.config = { ...(body.config as object), maxparticipants: max };
        break;
      }
      case 'invitation':
        body.autoinvite = answers.autoinvite;
        break;
      case 'invite-offset':
        body.inviteoffset = offset(answers['invite-amount'], answers['invite-unit']);
        break;
      case 'reminders':
        body.autoreminder =
          answers.autoreminder === 'yes'
            ? true
            : answers.autoreminder === 'no'
              ? false
              : answers.autoreminder;
        break;
      case 'reminder-schedule':
        body.reminderoffset = offset(answers['reminder-amount'], answers['reminder-unit']);
        body.reminderrepeat = (answers.reminderrepeat ?? '').trim();
        break;
      case 'mails':
        for (const field of MAIL_CHOICES) body[field] = answers[field] === '1';
        break;
    }
  }
  return body;
}

/** The pages whose choice no API field holds: an answer outside their choices is no answer. */
export function choiceMissing(step: Step, answers: DraftAnswers): string | undefined {
  if (
    step === 'participation' &&
    !(PARTICIPATION_CHOICES as readonly unknown[]).includes(answers.participation)
  )
    return 'participation';
  return undefined;
}

/** The page and form field an API message (`field: problem`) is about; undefined for none of ours. */
export function stepOfMessage(message: string): { step: Step; field: string } | undefined {
  const path = message.slice(0, Math.max(0, message.indexOf(':')));
  const head = path.split('.')[0] ?? '';
  const rest = path.split('.').slice(1).join('.');
  if (head === 'name' || head === 'variant' || head === 'language') return { step: head, field: head };
  if (head === 'start' || head === 'end') return { step: head, field: `${head}-day` };
  if (head === 'closingtype') return { step: 'closing', field: 'closingtype' };
  if (head === 'alias') return { step: 'signup', field: 'alias' };
  if (head === 'config') {
    return rest.startsWith('maxparticipants')
      ? { step: 'signup', field: 'maxparticipants' }
      : { step: 'participation', field: 'participation' };
  }
  if (head === 'autoinvite') return { step: 'invitation', field: 'autoinvite' };
  if (head === 'inviteoffset')
    return { step: 'invite-offset', field: rest === 'unit' ? 'invite-unit' : 'invite-amount' };
  if (head === 'autoreminder') return { step: 'reminders', field: 'autoreminder' };
  if (head === 'reminderoffset')
    return { step: 'reminder-schedule', field: rest === 'unit' ? 'reminder-unit' : 'reminder-amount' };
  if (head === 'reminderrepeat') return { step: 'reminder-schedule', field: 'reminderrepeat' };
  if (head === 'sendmemberconfirmation' || head === 'sendreportdelivery')
    return { step: 'mails', field: head };
  return undefined;
}
