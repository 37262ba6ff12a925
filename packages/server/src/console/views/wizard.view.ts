import { MAIL_STAGES } from '@assay/schema';
import type { MailPreview } from '../../campaigns/campaign-mail.service.js';
import { fill } from '../../pages/strings.js';
import { questionnaireMinutes } from '../../questionnaire/duration.js';
import type { MailStage } from '../../variants/variant.types.js';
import { isLanguage, type Language, type Variant } from '../../variants/variant.types.js';
import type { DraftAnswers } from '../drafts.repository.js';
import { consoleDateTime } from '../format.js';
import { refusalIn } from '../refusals.js';
import type { WizardProblem } from '../wizard.service.js';
import {
  applies,
  CLOSING_CHOICES,
  campaignBody,
  dateText,
  INVITE_CHOICES,
  MAIL_CHOICES,
  PARTICIPATION_CHOICES,
  previousStep,
  type Step,
} from '../wizard-steps.js';
import { type WizardStrings, wizardStrings } from '../wizard-strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { variantName } from './dashboard.view.js';

export const WIZARD_PATH = '/console/campaigns/new';
export const stepHref = (step: Step, returnTo?: 'check') =>
  `${WIZARD_PATH}/${step}${returnTo ? '?return=check' : ''}`;
export const CHECK_HREF = `${WIZARD_PATH}/check`;

/** A variant's own words in a language (its default language's when it has none there). */
function variantText(variant: Variant, language: string, key: string): string | undefined {
  const texts = variant.texts[language as Language] ?? variant.texts[variant.defaultLanguage];
  return texts?.[key];
}

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly hint?: string;
  /** A second line of the hint (a questionnaire's duration and languages). */
  readonly meta?: string;
  readonly lang?: string;
}

export interface StepInput {
  readonly step: Step;
  /** What the fields show: the draft's answers, or what was just posted when it was refused. */
  readonly answers: DraftAnswers;
  readonly problem?: WizardProblem;
  readonly returnTo?: 'check';
  readonly variants: readonly Variant[];
  /** The sign-up link's start: `<questionnaire URL>/s/`. */
  readonly signupPrefix: string;
}

type Block = Record<string, unknown>;

/**
 * A moment asked as day, month, year and time (UTC) in fields `<prefix>-day` … `<prefix>-time`
 * (partials/console-date-input.hbs; `dateText` reads them back): the wizard's dates and a
 * campaign's date settings. The error summary links to `#<prefix>-day`.
 */
export function dateInputModel(
  w: WizardStrings,
  input: {
    prefix: string;
    legend: string;
    value: (name: string) => string;
    error?: string;
    asHeading?: boolean;
  },
) {
  const { prefix, error } = input;
  const part = (name: string, label: string, size: string) => ({
    id: `${prefix}-${name}`,
    name: `${prefix}-${name}`,
    label,
    value: input.value(`${prefix}-${name}`),
    size,
  });
  return {
    id: `${prefix}-day`,
    legend: input.legend,
    asHeading: input.asHeading,
    hint: w.dateHint,
    hintId: `${prefix}-hint`,
    error,
    errorId: `${prefix}-day-error`,
    describedBy: [`${prefix}-hint`, error ? `${prefix}-day-error` : ''].filter(Boolean).join(' '),
    parts: [part('day', w.day, '2'), part('month', w.month, '2'), part('year', w.year, '4')],
    time: { ...part('time', w.time, '5'), hint: w.timeHint, hintId: `${prefix}-time-hint` },
  };
}

/** A page's problem in the viewer's words: the service's refusal translated, or "choose one". */
const problemText = (w: WizardStrings, language: Language, problem: WizardProblem) =>
  problem.message === undefined ? w.chooseOne : refusalIn(language, problem.message);

/** One question page of the wizard: its question, fields, message and Continue button. */
export function wizardStepView(viewer: Viewer, input: StepInput): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const w = wizardStrings(viewer.language);
  const { step, answers, problem } = input;
  const errorOf = (field: string) =>
    problem && problem.field === field ? problemText(w, viewer.language, problem) : undefined;
  const value = (field: string) => answers[field] ?? '';

  const text = (field: string, label: string, hint?: string, extra: Block = {}): Block => {
    const error = errorOf(field);
    return {
      isText: true,
      id: field,
      name: field,
      label,
      hint,
      value: value(field),
      error,
      describedBy: [hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' '),
      ...extra,
    };
  };
  const radios = (field: string, legend: string, choices: readonly Choice[], hint?: string): Block => {
    const error = errorOf(field);
    return {
      isRadios: true,
      id: field,
      name: field,
      legend,
      hint,
      error,
      describedBy: [hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' '),
      options: choices.map((choice, index) => ({
        ...choice,
        // The first option carries the field's id: the error summary's link lands on it.
        id: index === 0 ? field : `${field}-${choice.value}`,
        hintId: choice.hint || choice.meta ? `${field}-${choice.value}-hint` : undefined,
        checked: value(field) === choice.value,
      })),
    };
  };
  const date = (prefix: 'start' | 'end', legend: string): Block => ({
    isDate: true,
    ...dateInputModel(w, { prefix, legend, value, error: errorOf(`${prefix}-day`) }),
  });
  const units: Choice[] = [
    { value: 'day', label: w.days },
    { value: 'week', label: w.weeks },
  ];
  const variant = input.variants.find((one) => one.alias === answers.variant);

  let heading: string;
  let intro: string | undefined;
  let blocks: Block[];
  switch (step) {
    case 'name':
      heading = w.nameQuestion;
      blocks = [text('name', heading, w.nameHint, { wide: true })];
      break;
    case 'variant':
      heading = w.variantQuestion;
      blocks = [
        radios(
          'variant',
          heading,
          input.variants.map((one) => {
            const minutes = questionnaireMinutes(one);
            const description = variantText(one, viewer.language, 'variant.description');
            return {
              value: one.alias,
              label: variantName(one, one.alias, viewer.language),
              hint: description,
              meta: [
                minutes === undefined ? undefined : fill(w.minutes, { minutes }),
                fill(w.languages, {
                  languages: one.languages.map((language) => base.c.languageNames[language]).join(', '),
                }),
              ]
                .filter(Boolean)
                .join(' · '),
            };
          }),
          w.variantHint,
        ),
      ];
      break;
    case 'language':
      heading = w.languageQuestion;
      blocks = [
        radios(
          'language',
          heading,
          (variant?.languages ?? []).map((language) => ({
            value: language,
            label: base.c.languageNames[language],
            lang: base.languages.find((one) => one.value === language)?.lang,
          })),
          w.languageHint,
        ),
      ];
      break;
    case 'start':
      heading = w.startQuestion;
      blocks = [date('start', heading)];
      break;
    case 'closing':
      heading = w.closingQuestion;
      blocks = [
        radios(
          'closingtype',
          heading,
          CLOSING_CHOICES.map((choice) => ({
            value: choice,
            label: { date: w.closingDate, auto: w.closingAuto, open: w.closingOpen }[choice],
            hint: { date: w.closingDateHint, auto: w.closingAutoHint, open: w.closingOpenHint }[choice],
          })),
        ),
      ];
      break;
    case 'end':
      heading = w.endQuestion;
      blocks = [date('end', heading)];
      break;
    case 'participation':
      heading = w.participationQuestion;
      blocks = [
        radios(
          'participation',
          heading,
          PARTICIPATION_CHOICES.map((choice) => ({
            value: choice,
            label: {
              members: w.participationMembers,
              signup: w.participationSignup,
              register: w.participationRegister,
            }[choice],
            hint: {
              members: w.participationMembersHint,
              signup: w.participationSignupHint,
              register: w.participationRegisterHint,
            }[choice],
          })),
        ),
      ];
      break;
    case 'signup':
      heading = w.signupQuestion;
      intro = fill(w.signupIntro, { link: `${input.signupPrefix}${value('alias').trim() || '…'}` });
      blocks = [
        text('alias', w.aliasLabel, w.aliasHint, { wide: true }),
        text('maxparticipants', w.maxLabel, w.maxHint, { numeric: true }),
      ];
      break;
    case 'invitation':
      heading = w.invitationQuestion;
      blocks = [
        radios(
          'autoinvite',
          heading,
          INVITE_CHOICES.map((choice) => ({
            value: choice,
            label: { none: w.inviteNone, instant: w.inviteInstant, fixed: w.inviteFixed }[choice],
            hint: { none: w.inviteNoneHint, instant: w.inviteInstantHint, fixed: w.inviteFixedHint }[choice],
          })),
        ),
      ];
      break;
    case 'invite-offset':
      heading = w.inviteOffsetQuestion;
      blocks = [
        text('invite-amount', w.amountLabel, undefined, { numeric: true }),
        radios('invite-unit', w.unitLabel, units),
      ];
      break;
    case 'reminders':
      heading = w.remindersQuestion;
      blocks = [
        radios(
          'autoreminder',
          heading,
          [
            { value: 'yes', label: w.yes },
            { value: 'no', label: w.no },
          ],
          w.remindersHint,
        ),
      ];
      break;
    case 'reminder-schedule':
      heading = w.reminderScheduleQuestion;
      blocks = [
        text('reminder-amount', w.reminderWaitLabel, w.reminderWaitHint, { numeric: true }),
        radios('reminder-unit', w.unitLabel, units),
        text('reminderrepeat', w.reminderRepeatLabel, w.reminderRepeatHint, { numeric: true }),
      ];
      break;
    case 'mails': {
      heading = w.mailsQuestion;
      const error = MAIL_CHOICES.map(errorOf).find(Boolean);
      blocks = [
        {
          isCheckboxes: true,
          id: MAIL_CHOICES[0],
          legend: heading,
          hint: w.mailsHint,
          hintId: 'mails-hint',
          error,
          describedBy: ['mails-hint', error ? 'mails-error' : ''].filter(Boolean).join(' '),
          options: MAIL_CHOICES.map((field) => ({
            id: field,
            name: field,
            label: field === 'sendmemberconfirmation' ? w.mailConfirmation : w.mailReport,
            checked: value(field) === '1',
          })),
        },
      ];
      break;
    }
  }
  // One field: its label or legend is the page's heading; several: each has its own.
  const single = blocks.length === 1;
  for (const block of blocks) block.asHeading = single;
  const previous = previousStep(step, answers);
  const message = problem ? problemText(w, viewer.language, problem) : undefined;
  return {
    template: 'console/wizard-step',
    model: {
      ...base,
      w,
      title: heading,
      caption: w.caption,
      heading,
      intro,
      single,
      blocks,
      action: stepHref(step),
      returnTo: input.returnTo,
      backHref: input.returnTo ? CHECK_HREF : previous ? stepHref(previous) : '/console',
      errors: problem && message ? [{ href: `#${problem.field}`, text: message }] : undefined,
    },
  };
}

/** The stages a campaign of these answers would mail to its participants. */
export function stagesOf(answers: DraftAnswers): MailStage[] {
  return MAIL_STAGES.filter(
    (stage) =>
      stage === 'campaign_invitation' ||
      stage === 'campaign_reminder' ||
      (stage === 'confirmation_member' && answers.sendmemberconfirmation === '1') ||
      (stage === 'campaign_reportdelivery' && answers.sendreportdelivery === '1'),
  );
}

export interface CheckInput {
  readonly answers: DraftAnswers;
  readonly variants: readonly Variant[];
  readonly signupPrefix: string;
  readonly problem?: WizardProblem;
}

/** The check-your-answers page: every answer with its Change link, the mail previews, and Create. */
export function wizardCheckView(viewer: Viewer, input: CheckInput): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const { c } = base;
  const w = wizardStrings(viewer.language);
  const language = viewer.language;
  const { answers } = input;
  const body = campaignBody(answers);
  const variant = input.variants.find((one) => one.alias === answers.variant);
  const span = (amount: string | undefined, which: string | undefined) => {
    const one = (amount ?? '').trim() === '1';
    const word = which === 'week' ? (one ? w.spanWeek : w.spanWeeks) : one ? w.spanDay : w.spanDays;
    return `${(amount ?? '').trim()} ${word}`;
  };
  const moment = (prefix: 'start' | 'end') => {
    const textual = dateText(answers, prefix);
    return consoleDateTime(language, textual) || textual;
  };
  const rows: { step: Step; key: string; value: string; dir?: boolean }[] = [
    { step: 'name', key: w.rowName, value: answers.name ?? '', dir: true },
    {
      step: 'variant',
      key: w.rowVariant,
      value: variant ? variantName(variant, variant.alias, language) : (answers.variant ?? ''),
    },
    {
      step: 'language',
      key: w.rowLanguage,
      value: isLanguage(answers.language) ? c.languageNames[answers.language] : (answers.language ?? ''),
    },
    { step: 'start', key: w.rowStart, value: moment('start') },
    {
      step: 'closing',
      key: w.rowClosing,
      value:
        { date: w.closingDate, auto: w.closingAuto, open: w.closingOpen }[answers.closingtype ?? ''] ??
        answers.closingtype ??
        '',
    },
    { step: 'end', key: w.rowEnd, value: moment('end') },
    {
      step: 'participation',
      key: w.rowParticipation,
      value:
        {
          members: w.participationMembers,
          signup: w.participationSignup,
          register: w.participationRegister,
        }[answers.participation ?? ''] ?? '',
    },
    {
      step: 'signup',
      key: w.rowSignup,
      value: answers.alias?.trim() ? `${input.signupPrefix}${answers.alias.trim()}` : w.generatedLink,
      dir: true,
    },
    {
      step: 'signup',
      key: w.rowMax,
      value: answers.maxparticipants?.trim() ? answers.maxparticipants.trim() : w.noLimit,
    },
    {
      step: 'invitation',
      key: w.rowInvitation,
      value:
        { none: w.inviteNone, instant: w.inviteInstant, fixed: w.inviteFixed }[answers.autoinvite ?? ''] ??
        answers.autoinvite ??
        '',
    },
    {
      step: 'invite-offset',
      key: w.rowInviteOffset,
      value: fill(w.afterStart, { span: span(answers['invite-amount'], answers['invite-unit']) }),
    },
    {
      step: 'reminders',
      key: w.rowReminders,
      value:
        answers.autoreminder === 'yes'
          ? fill(w.reminderSummary, {
              wait: span(answers['reminder-amount'], answers['reminder-unit']),
              repeat: answers.reminderrepeat ?? '',
            })
          : w.no,
    },
    {
      step: 'mails',
      key: w.rowMails,
      value:
        MAIL_CHOICES.filter((field) => answers[field] === '1')
          .map((field) => (field === 'sendmemberconfirmation' ? w.mailConfirmation : w.mailReport))
          .join('; ') || w.none,
    },
  ];
  const problem = input.problem;
  const message = problem ? problemText(w, viewer.language, problem) : undefined;
  const shown = rows
    .filter((row) => applies(row.step, answers))
    .map((row, index) => ({
      ...row,
      id: `row-${index}`,
      href: stepHref(row.step, 'check'),
      error: problem && problem.step === row.step ? message : undefined,
    }));
  const firstError = shown.find((row) => row.error);
  const languageOfMails = isLanguage(body.language) ? body.language : undefined;
  return {
    template: 'console/wizard-check',
    model: {
      ...base,
      w,
      title: w.checkTitle,
      caption: w.caption,
      rows: shown,
      backHref: stepHref('mails'),
      previews: stagesOf(answers).map((stage) => ({
        href: `${WIZARD_PATH}/preview/${stage}`,
        text: w.stageNames[stage],
      })),
      previewLang: languageOfMails
        ? base.languages.find((one) => one.value === languageOfMails)?.lang
        : undefined,
      errors: firstError && message ? [{ href: `#${firstError.id}`, text: message }] : undefined,
    },
  };
}

export interface PreviewInput {
  readonly stage: MailStage;
  readonly mail: MailPreview;
  /** Where the HTML part is served. */
  readonly htmlHref: string;
  readonly backHref: string;
  readonly backText: string;
}

/** A mail as the sample member would receive it: headers, the text part, and a link to the HTML part. */
export function mailPreviewView(viewer: Viewer, input: PreviewInput): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const w: WizardStrings = wizardStrings(viewer.language);
  const stageName = w.stageNames[input.stage];
  const mailLang = base.languages.find((one) => one.value === input.mail.language)?.lang;
  return {
    template: 'console/mail-preview',
    model: {
      ...base,
      w,
      title: fill(w.previewTitle, { stage: stageName }),
      heading: fill(w.previewTitle, { stage: stageName }),
      mail: input.mail,
      mailLang,
      htmlHref: input.htmlHref,
      backHref: input.backHref,
      backText: input.backText,
    },
  };
}
