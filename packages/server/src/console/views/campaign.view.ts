import type { CampaignDetail, CampaignMemberListItem } from '@assay/schema';
import type { ActivityEntry } from '../../campaigns/activity.service.js';
import type { MailRecipients } from '../../campaigns/campaign-mail.service.js';
import type { CampaignFigures } from '../../campaigns/figures.service.js';
import type { OutboxMail } from '../../mail/outbox.service.js';
import { fill } from '../../pages/strings.js';
import { reportLink } from '../../questionnaire/links.js';
import type { CampaignRetentionView } from '../../retention/retention.service.js';
import type { Variant } from '../../variants/variant.types.js';
import { type CampaignStrings, campaignStrings } from '../campaign-strings.js';
import { consoleDate, consoleDateTime, consoleNumber } from '../format.js';
import { groupReportStrings } from '../group-report-strings.js';
import { type ConsoleStrings, consoleStrings } from '../strings.js';
import { dateParts, dateText } from '../wizard-steps.js';
import { wizardStrings } from '../wizard-strings.js';
import { activityView } from './activity.view.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';
import { campaignProgress, variantName } from './dashboard.view.js';
import { retentionSetting } from './retention.view.js';
import { dateInputModel } from './wizard.view.js';

/** Members a page of the campaign's members table shows. */
export const MEMBERS_PAGE_SIZE = 100;
/** Recipients a check page names (the rest are counted). */
export const RECIPIENTS_SHOWN = 50;
/** Members a page of the "choose members" list shows. */
export const CANDIDATES_PAGE_SIZE = 50;

export const MEMBER_FILTERS = ['all', 'new', 'invited', 'started', 'completed'] as const;
export type MemberFilter = (typeof MEMBER_FILTERS)[number];
type MemberStatus = Exclude<MemberFilter, 'all'>;

export const memberFilterOf = (value: unknown): MemberFilter =>
  (MEMBER_FILTERS as readonly unknown[]).includes(value) ? (value as MemberFilter) : 'all';

/** A page number from the query: 1 unless a whole number from 1 on. */
export const pageOf = (value: unknown): number => {
  const page = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return page >= 1 ? page : 1;
};

const statusLabel = (s: CampaignStrings, status: string) =>
  status === 'new'
    ? s.statusNew
    : status === 'invited'
      ? s.statusInvited
      : status === 'started'
        ? s.statusStarted
        : status === 'completed'
          ? s.statusCompleted
          : status;

const campaignStatusText = (c: ConsoleStrings, status: CampaignDetail['status']) =>
  status === 'active' ? c.statusActive : status === 'inactive' ? c.statusUpcoming : c.statusEnded;
const campaignStatusClass = (status: CampaignDetail['status']) =>
  status === 'inactive' ? 'tag--upcoming' : `tag--${status}`;

export const personName = (row: { firstname: string; lastname: string; email: string }) =>
  [row.firstname, row.lastname].filter(Boolean).join(' ') || row.email;

const campaignName = (campaign: Pick<CampaignDetail, 'name' | 'alias'>) => campaign.name || campaign.alias;
export const campaignHref = (id: string) => `/console/campaigns/${id}`;

/** The settings of a campaign the console edits, one page each, and how each is asked. */
export const SETTINGS = {
  name: { kind: 'text' },
  description: { kind: 'textarea' },
  alias: { kind: 'text' },
  start: { kind: 'date' },
  end: { kind: 'date' },
  closingtype: { kind: 'radios', options: ['date', 'auto', 'open'] },
  autoinvite: { kind: 'radios', options: ['none', 'fixed', 'instant'] },
  autoreminder: { kind: 'radios', options: ['true', 'false'] },
  reminderrepeat: { kind: 'number' },
  sendmemberconfirmation: { kind: 'radios', options: ['true', 'false'] },
  sendreportdelivery: { kind: 'radios', options: ['true', 'false'] },
  // Fixed when the campaign is created: shown without a Change link; posted anyway, the API says no.
  variant: { kind: 'text', fixed: true },
  language: { kind: 'text', fixed: true },
} as const satisfies Record<string, { kind: string; options?: readonly string[]; fixed?: boolean }>;
export type SettingField = keyof typeof SETTINGS;

export const isSettingField = (value: unknown): value is SettingField =>
  typeof value === 'string' && Object.hasOwn(SETTINGS, value);

const fieldLabel = (s: CampaignStrings, field: SettingField): string =>
  ({
    name: s.fieldName,
    description: s.fieldDescription,
    alias: s.fieldAlias,
    start: s.fieldStart,
    end: s.fieldEnd,
    closingtype: s.fieldClosingtype,
    autoinvite: s.fieldAutoinvite,
    autoreminder: s.fieldAutoreminder,
    reminderrepeat: s.fieldReminderrepeat,
    sendmemberconfirmation: s.fieldSendmemberconfirmation,
    sendreportdelivery: s.fieldSendreportdelivery,
    variant: s.fieldVariant,
    language: s.fieldLanguage,
  })[field];

const optionLabel = (s: CampaignStrings, option: string): string =>
  ({
    date: s.closingDate,
    auto: s.closingAuto,
    open: s.closingOpen,
    none: s.autoinviteNone,
    fixed: s.autoinviteFixed,
    instant: s.autoinviteInstant,
    true: s.yes,
    false: s.no,
  })[option] ?? option;

/** A setting's stored value as the form holds it (`true`/`false` for switches, '' for none). */
export function settingValue(campaign: CampaignDetail, field: SettingField): string {
  const value = campaign[field];
  if (value === null || value === undefined) return '';
  return String(value);
}

/** A setting's value as the summary shows it, in the console's language. */
function settingText(
  viewer: Viewer,
  s: CampaignStrings,
  campaign: CampaignDetail,
  field: SettingField,
  variant?: Variant,
) {
  const c = chrome(viewer).c;
  const value = settingValue(campaign, field);
  if (field === 'variant') return variantName(variant, campaign.variant, viewer.language);
  if (field === 'language') return c.languageNames[value as keyof ConsoleStrings['languageNames']] ?? value;
  if (value === '') return s.notSet;
  const kind = SETTINGS[field].kind;
  if (kind === 'date') return consoleDateTime(viewer.language, value);
  if (kind === 'radios') return optionLabel(s, value);
  return value;
}

export interface CampaignPageInput {
  readonly campaign: CampaignDetail;
  readonly variant: Variant | undefined;
  /** The page of members shown (of `filter`). */
  readonly members: readonly CampaignMemberListItem[];
  readonly filter: MemberFilter;
  readonly page: number;
  /** The campaign's failed mails, newest first. */
  readonly failedMails: readonly OutboxMail[];
  /** A 360's members, all of them, to group subjects with their raters; undefined for other variants. */
  readonly everyone?: readonly CampaignMemberListItem[];
  /** Which page of a 360's subjects is shown (1-based). */
  readonly subjectPage?: number;
  /** What the last action did, shown in a banner. */
  readonly notice?: string;
  /** The campaign's activity, newest first (campaigns/activity.service.ts); none shown when undefined. */
  readonly activity?: readonly ActivityEntry[];
  /** Seconds between the optional progress refreshes (the script reads it). */
  readonly refreshSeconds?: number;
  /** Where the questionnaire is served: a member's report link (`/r/<token>`) starts with it. */
  readonly questionnaireUrl?: string;
  /** The campaign's retention of answers and reports, shown (with its Change link) among the settings. */
  readonly retention?: CampaignRetentionView;
}

/** True when the variant's participants may ask others for feedback (a 360). */
export const is360 = (variant: Variant | undefined) =>
  variant?.roles.some((role) => role.canaddparticipants) ?? false;

const roleLabel = (variant: Variant | undefined, language: string, role: string) => {
  const texts = variant?.texts[language as keyof Variant['texts']] ?? variant?.texts[variant.defaultLanguage];
  return texts?.[`role.${role}`] ?? role;
};

const roleOrder = (variant: Variant | undefined, role: string) => {
  const index = variant?.roles.findIndex((entry) => entry.role === role) ?? -1;
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
};

const extraOf = (member: CampaignMemberListItem): Record<string, unknown> =>
  member.extra && typeof member.extra === 'object' ? (member.extra as Record<string, unknown>) : {};

const reportOf = (member: CampaignMemberListItem): string | undefined => {
  const results = member.results as unknown;
  if (!results || typeof results !== 'object' || Array.isArray(results)) return undefined;
  const id = (results as Record<string, unknown>).reportid;
  return typeof id === 'string' ? id : undefined;
};

/** How many of a 360's subjects (each with their raters) one campaign page shows. */
export const SUBJECTS_PAGE_SIZE = 25;

/** A 360's subjects, a page at a time, each with their raters beneath (role, status) and how far their nomination is. */
export function subjectsAndRaters(
  viewer: Viewer,
  variant: Variant | undefined,
  everyone: readonly CampaignMemberListItem[],
  subjectPage = 1,
) {
  const s = campaignStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  const ratersOf = new Map<string, CampaignMemberListItem[]>();
  for (const member of everyone) {
    const subject = extraOf(member).subject;
    if (typeof subject !== 'string') continue;
    const raters = ratersOf.get(subject);
    if (raters) raters.push(member);
    else ratersOf.set(subject, [member]);
  }
  const subjects = everyone.filter((member) => typeof extraOf(member).subject !== 'string');
  const pages = Math.max(1, Math.ceil(subjects.length / SUBJECTS_PAGE_SIZE));
  const page = Math.min(Math.max(1, subjectPage), pages);
  const shown = subjects.slice((page - 1) * SUBJECTS_PAGE_SIZE, page * SUBJECTS_PAGE_SIZE);
  return {
    pages,
    page,
    list: shown.map((subject, index) => {
      const raters = ratersOf.get(subject.memberid) ?? [];
      const byRole = new Map<string, number>();
      for (const rater of raters) {
        const role = String(extraOf(rater).role ?? '');
        byRole.set(role, (byRole.get(role) ?? 0) + 1);
      }
      const completed = raters.filter((rater) => rater.status === 'completed').length;
      return {
        id: `subject-${index + 1}`,
        name: personName(subject),
        caption: fill(s.ratersCaption, { name: personName(subject) }),
        status: fill(s.subjectStatus, { status: statusLabel(s, subject.status) }),
        nomination:
          raters.length === 0
            ? s.nominationNone
            : fill(s.nominationState, {
                count: number(raters.length),
                // In the variant's order of roles.
                roles: [...byRole]
                  .sort(([a], [b]) => roleOrder(variant, a) - roleOrder(variant, b))
                  .map(([role, count]) =>
                    fill(s.roleCount, {
                      role: roleLabel(variant, viewer.language, role),
                      count: number(count),
                    }),
                  )
                  .join(', '),
                completed: number(completed),
              }),
        raters: raters.map((rater) => ({
          name: personName(rater),
          email: rater.email,
          role: roleLabel(variant, viewer.language, String(extraOf(rater).role ?? '')),
          status: statusLabel(s, rater.status),
        })),
      };
    }),
  };
}

/** The subjects' part of the page model: one page of them, with links to the others. */
function subjectsModel(input: CampaignPageInput, viewer: Viewer) {
  const c = consoleStrings(viewer.language);
  const { list, page, pages } = subjectsAndRaters(
    viewer,
    input.variant,
    input.everyone ?? [],
    input.subjectPage,
  );
  const href = (to: number) => {
    const query = new URLSearchParams();
    if (input.filter !== 'all') query.set('status', input.filter);
    if (input.page > 1) query.set('page', String(input.page));
    if (to > 1) query.set('subjects', String(to));
    const text = query.toString();
    return `${campaignHref(input.campaign.campaignid)}${text ? `?${text}` : ''}#raters`;
  };
  return {
    list,
    pagination:
      pages > 1
        ? {
            previous: page > 1 ? href(page - 1) : undefined,
            next: page < pages ? href(page + 1) : undefined,
            text: fill(c.pageOf, {
              page: consoleNumber(viewer.language, page),
              pages: consoleNumber(viewer.language, pages),
            }),
          }
        : undefined,
  };
}

function membersHref(campaignId: string, filter: MemberFilter, page = 1) {
  const query = new URLSearchParams();
  if (filter !== 'all') query.set('status', filter);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return `${campaignHref(campaignId)}${text ? `?${text}` : ''}#members`;
}

const stageText = (s: CampaignStrings, stage: string) =>
  stage === 'campaign_invitation'
    ? s.stageInvitation
    : stage === 'campaign_reminder'
      ? s.stageReminder
      : stage;

/**
 * The campaign page: summary and progress, settings with Change links, the members table (filters
 * by status as links, paged), a 360's subjects and raters, and the campaign's failed mails.
 */
export function campaignPageView(viewer: Viewer, input: CampaignPageInput): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const { c } = base;
  const s = campaignStrings(viewer.language);
  const language = viewer.language;
  const { campaign } = input;
  const id = campaign.campaignid;
  const counts = campaign.memberstatuscount;
  const number = (n: number) => consoleNumber(language, n);
  const total = counts.new + counts.invited + counts.started + counts.completed;
  const filterTotal = input.filter === 'all' ? total : counts[input.filter as MemberStatus];
  const pages = Math.max(1, Math.ceil(filterTotal / MEMBERS_PAGE_SIZE));
  const page = Math.min(input.page, pages);
  const filterLabel = (filter: MemberFilter) => (filter === 'all' ? s.filterAll : statusLabel(s, filter));
  const settings = (Object.keys(SETTINGS) as SettingField[]).map((field) => {
    const fixed = 'fixed' in SETTINGS[field];
    return {
      key: field,
      label: fieldLabel(s, field),
      value: settingText(viewer, s, campaign, field, input.variant),
      ...(fixed ? { fixed: s.fixedSetting } : { href: `${campaignHref(id)}/settings/${field}` }),
    };
  });
  return {
    template: 'console/campaign',
    model: {
      ...base,
      activity: input.activity ? activityView(language, input.activity) : undefined,
      s,
      title: campaignName(campaign),
      campaignId: id,
      groupReport: {
        href: `/console/reports/new?campaign=${encodeURIComponent(id)}`,
        text: groupReportStrings(language).makeFromCampaign,
      },
      name: campaignName(campaign),
      status: campaignStatusText(c, campaign.status),
      statusClass: campaignStatusClass(campaign.status),
      notice: input.notice,
      summary: [
        { label: s.fieldVariant, value: variantName(input.variant, campaign.variant, language) },
        { label: s.fieldLanguage, value: settingText(viewer, s, campaign, 'language') },
        {
          label: c.colDates,
          value: campaign.end
            ? fill(c.dateRange, {
                start: consoleDate(language, campaign.start),
                end: consoleDate(language, campaign.end),
              })
            : fill(c.dateFrom, { start: consoleDate(language, campaign.start) }),
        },
      ],
      progress: campaignProgress(viewer, counts),
      // "How answering goes" has a page of its own: counting where people are reads their answers.
      answeringHref: counts.started + counts.completed > 0 ? `${campaignHref(id)}/answering` : undefined,
      progressUrl: `${campaignHref(id)}/progress.json`,
      refreshSeconds: input.refreshSeconds ?? 30,
      script: 'console.js',
      inviteHref: `${campaignHref(id)}/invite`,
      remindHref: `${campaignHref(id)}/remind`,
      // The API's export (GET /campaigns/{id}/export), by the console's own address.
      downloads: [
        { href: `${campaignHref(id)}/export?format=csv`, text: s.downloadCsv },
        { href: `${campaignHref(id)}/export?format=xlsx`, text: s.downloadExcel },
        { href: `${campaignHref(id)}/export?format=csv&part=verbatims`, text: s.downloadVerbatims },
      ],
      addHref: `${campaignHref(id)}/members/add`,
      settings: input.retention ? [...settings, retentionSetting(viewer, id, input.retention)] : settings,
      filters: MEMBER_FILTERS.map((filter) => ({
        href: membersHref(id, filter),
        text: fill(s.filterCount, {
          label: filterLabel(filter),
          count: number(filter === 'all' ? total : counts[filter]),
        }),
        current: filter === input.filter,
      })),
      membersCaption: fill(s.membersCaption, { filter: filterLabel(input.filter).toLowerCase() }),
      rows: input.members.map((member) => {
        const name = personName(member);
        const memberHref = `${campaignHref(id)}/members/${encodeURIComponent(member.memberid)}`;
        const reportId = reportOf(member);
        return {
          name,
          email: member.email,
          status: statusLabel(s, member.status),
          statusClass: `tag--member-${member.status}`,
          invited: consoleDate(language, member.dateinvited),
          reminders: number(Number(member.countreminded ?? 0)),
          started: consoleDate(language, member.datestarted),
          completed: consoleDate(language, member.datecompleted),
          report: reportId ? fill(s.report, { id: reportId }) : '',
          reportHref: reportId ? `/console/reports/${encodeURIComponent(reportId)}` : undefined,
          reportLink:
            reportId && input.questionnaireUrl !== undefined
              ? reportLink({ config: { questionnaireUrl: input.questionnaireUrl } }, member.token)
              : undefined,
          removeHref: `${memberHref}/remove`,
          resetHref: `${memberHref}/reset`,
          forName: fill(s.forName, { name }),
        };
      }),
      empty: input.members.length === 0 ? (total === 0 ? s.noMembersYet : s.noMembersMatch) : undefined,
      pagination:
        pages > 1
          ? {
              previous: page > 1 ? membersHref(id, input.filter, page - 1) : undefined,
              next: page < pages ? membersHref(id, input.filter, page + 1) : undefined,
              text: fill(c.pageOf, { page: number(page), pages: number(pages) }),
            }
          : undefined,
      subjects: input.everyone ? subjectsModel(input, viewer) : undefined,
      failedMails: input.failedMails.map((mail) => ({
        recipient: mail.recipient,
        stage: stageText(s, mail.stage),
        date: consoleDateTime(language, mail.created),
        attempts: number(mail.attempts),
        response: mail.lastresponse ?? '',
      })),
    },
  };
}

/** A duration in the viewer's words: under a minute, minutes, or hours and minutes. */
export function durationText(language: Viewer['language'], s: CampaignStrings, seconds: number): string {
  const number = (n: number) => consoleNumber(language, n);
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return s.underAMinute;
  if (minutes < 60) return fill(s.minutes, { minutes: number(minutes) });
  return fill(s.hoursMinutes, { hours: number(Math.floor(minutes / 60)), minutes: number(minutes % 60) });
}

/**
 * "How answering goes" (its own page, linked from the campaign's progress once anybody started):
 * the median time from starting to sending, and a row per page, then the check page, with the
 * number of people who started and have not sent who are there.
 */
export function answeringView(
  viewer: Viewer,
  campaign: CampaignDetail,
  variant: Variant,
  figures: CampaignFigures,
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const s = campaignStrings(viewer.language);
  const language = viewer.language;
  const number = (n: number) => consoleNumber(language, n);
  const texts = variant.texts[language] ?? variant.texts[variant.defaultLanguage];
  const pages = variant.pages.length;
  const unfinished = figures.onPage.reduce((sum, count) => sum + count, 0) + figures.atCheck;
  return {
    template: 'console/campaign-answering',
    model: {
      ...base,
      s,
      title: `${s.answering}: ${campaignName(campaign)}`,
      campaignName: campaignName(campaign),
      median:
        figures.medianSeconds === undefined
          ? s.noneTimed
          : fill(s.medianTime, {
              duration: durationText(language, s, figures.medianSeconds),
              count: number(figures.timed),
            }),
      caption: fill(s.unfinishedCaption, { count: number(unfinished) }),
      none: unfinished === 0 ? s.noneUnfinished : undefined,
      rows: [
        ...figures.onPage.map((count, index) => ({
          place: fill(s.onPage, { page: number(index + 1), pages: number(pages) }),
          title: texts?.[`page.${variant.pages[index]?.code}.title`],
          count: number(count),
        })),
        { place: s.onCheck, title: undefined, count: number(figures.atCheck) },
      ],
      campaignHref: campaignHref(campaign.campaignid),
    },
  };
}

/** The figures progress.json answers: the page's script puts them in place. */
export function progressJson(viewer: Viewer, counts: CampaignDetail['memberstatuscount']) {
  const progress = campaignProgress(viewer, counts);
  return {
    figures: Object.fromEntries(progress.figures.map((figure) => [figure.key, figure.value])),
    bar: progress.bar,
    text: progress.text,
  };
}

export interface SettingFormInput {
  readonly value?: string;
  /** A date setting's parts as posted (`end-day`, … `end-time`), shown again with its error. */
  readonly parts?: Readonly<Record<string, string>>;
  readonly error?: string;
}

/** The page that changes one setting of the campaign: one question, the API's message next to it. */
export function settingView(
  viewer: Viewer,
  campaign: CampaignDetail,
  field: SettingField,
  form: SettingFormInput = {},
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const s = campaignStrings(viewer.language);
  const spec = SETTINGS[field];
  const value = form.value ?? settingValue(campaign, field);
  const label = fieldLabel(s, field);
  const hint = spec.kind === 'number' ? s.emptyHint : undefined;
  const id = `setting-${field}`;
  // A date is asked as the wizard asks it: day, month, year and time (UTC).
  let date: ReturnType<typeof dateInputModel> | undefined;
  if (spec.kind === 'date') {
    const parts = form.parts ?? dateParts(settingValue(campaign, field), field);
    const w = wizardStrings(viewer.language);
    const model = dateInputModel(w, {
      prefix: field,
      legend: label,
      value: (name) => parts[name] ?? '',
      error: form.error,
      asHeading: true,
    });
    date = { ...model, hint: field === 'end' ? `${w.dateHint} ${s.emptyHint}` : w.dateHint };
  }
  const describedBy = [hint ? `${id}-hint` : '', form.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    template: 'console/campaign-setting',
    model: {
      ...base,
      s,
      title: fill(s.changeTitle, { field: label }),
      heading: label,
      campaignName: campaignName(campaign),
      action: `${campaignHref(campaign.campaignid)}/settings/${field}`,
      backHref: campaignHref(campaign.campaignid),
      cancelHref: `${campaignHref(campaign.campaignid)}#settings`,
      field: {
        id,
        name: 'value',
        label,
        hint,
        error: form.error,
        errorHidden: base.t.errorHidden,
        value,
        describedBy: describedBy || undefined,
        type: spec.kind === 'number' ? 'text' : 'text',
        textarea: spec.kind === 'textarea',
        date,
        radios:
          spec.kind === 'radios'
            ? spec.options.map((option, index) => ({
                id: index === 0 ? id : `${id}-${option}`,
                value: option,
                text: optionLabel(s, option),
                checked: option === value,
              }))
            : undefined,
      },
      errors: form.error ? [{ href: date ? `#${date.id}` : `#${id}`, text: form.error }] : undefined,
    },
  };
}

/**
 * What a posted setting means for PATCH /campaigns/{id}: the one field, typed as the API reads
 * JSON. A date comes as its parts (`start-day`, … `start-time`; nothing at all is none).
 */
export function settingPatch(
  field: SettingField,
  fields: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const spec = SETTINGS[field];
  const raw = spec.kind === 'date' ? dateText(fields, field as 'start' | 'end') : (fields.value ?? '');
  const text = spec.kind === 'textarea' ? raw.replace(/\r\n/g, '\n') : raw.trim();
  if (spec.kind === 'date' || spec.kind === 'number') {
    if (text === '') return { [field]: null };
    return { [field]: spec.kind === 'number' && /^-?\d+$/.test(text) ? Number(text) : text };
  }
  if (spec.kind === 'radios' && (text === 'true' || text === 'false')) return { [field]: text === 'true' };
  return { [field]: text };
}

export interface AddMembersInput {
  readonly groups: readonly { id: string; name: string }[];
  readonly candidates: readonly { id: string; firstname: string; lastname: string; email: string }[];
  readonly search: string;
  readonly page: number;
  readonly more: boolean;
  readonly error?: { field: 'groups' | 'members'; text: string };
}

/** Adding members: by group (checkboxes) or chosen from a searchable, paged list of members not in the campaign. */
export function addMembersView(
  viewer: Viewer,
  campaign: CampaignDetail,
  input: AddMembersInput,
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const { c } = base;
  const s = campaignStrings(viewer.language);
  const id = campaign.campaignid;
  const here = `${campaignHref(id)}/members/add`;
  const listHref = (page: number) => {
    const query = new URLSearchParams();
    if (input.search) query.set('q', input.search);
    if (page > 1) query.set('page', String(page));
    const text = query.toString();
    return `${here}${text ? `?${text}` : ''}#choose`;
  };
  const error = input.error;
  return {
    template: 'console/campaign-add',
    model: {
      ...base,
      s,
      title: fill(s.addTitle, { campaign: campaignName(campaign) }),
      campaignName: campaignName(campaign),
      backHref: campaignHref(id),
      action: here,
      groups: input.groups.map((group, index) => ({
        id: index === 0 ? 'groups' : `groups-${index + 1}`,
        value: group.id,
        name: group.name,
      })),
      groupsError: error?.field === 'groups' ? error.text : undefined,
      search: input.search,
      candidates: input.candidates.map((member, index) => ({
        id: index === 0 ? 'members' : `members-${index + 1}`,
        value: member.id,
        name: personName(member),
        email: member.email,
      })),
      membersError: error?.field === 'members' ? error.text : undefined,
      errors: error ? [{ href: `#${error.field}`, text: error.text }] : undefined,
      errorHidden: base.t.errorHidden,
      pagination:
        input.page > 1 || input.more
          ? {
              previous: input.page > 1 ? listHref(input.page - 1) : undefined,
              next: input.more ? listHref(input.page + 1) : undefined,
              text: fill(c.pageOf, {
                page: input.page,
                pages: input.more ? `${input.page + 1}+` : input.page,
              }),
            }
          : undefined,
    },
  };
}

/** The notice of an add: how many were added, and how many the campaign had no room for. */
export function addedNotice(language: Viewer['language'], added: number, full: number): string {
  const s = campaignStrings(language);
  const text = added === 1 ? s.addedOne : fill(s.added, { count: consoleNumber(language, added) });
  return full > 0 ? `${text}. ${fill(s.skippedFull, { count: consoleNumber(language, full) })}` : text;
}

/** The question before removing or resetting a member: what it does, and one button. */
export function memberActionView(
  viewer: Viewer,
  campaign: CampaignDetail,
  member: { memberid: string; firstname: string; lastname: string; email: string },
  action: 'remove' | 'reset',
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const s = campaignStrings(viewer.language);
  const name = personName(member);
  const heading = fill(action === 'remove' ? s.removeTitle : s.resetTitle, { name });
  return {
    template: 'console/campaign-member-action',
    model: {
      ...base,
      s,
      title: heading,
      heading,
      name,
      email: member.email,
      campaignName: campaignName(campaign),
      body: action === 'remove' ? s.removeBody : s.resetBody,
      button: action === 'remove' ? s.removeConfirm : s.resetConfirm,
      warning: action === 'remove',
      action: `${campaignHref(campaign.campaignid)}/members/${encodeURIComponent(member.memberid)}/${action}`,
      backHref: `${campaignHref(campaign.campaignid)}#members`,
    },
  };
}

/**
 * The check page before invitations or reminders go out: who gets one (the first 50 and the count),
 * the mail as the first recipient will get it (subject and text part), and one button that names
 * the count. Nothing is sent before that button.
 */
export function mailCheckView(
  viewer: Viewer,
  campaign: CampaignDetail,
  kind: 'invite' | 'remind',
  recipients: MailRecipients,
  shownAt: string,
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const s = campaignStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  const count = recipients.members.length;
  const shown = recipients.members.slice(0, RECIPIENTS_SHOWN);
  const first = recipients.members[0];
  const title = kind === 'invite' ? s.inviteTitle : s.remindTitle;
  const button =
    kind === 'invite'
      ? count === 1
        ? s.sendInvitationsOne
        : fill(s.sendInvitations, { count: number(count) })
      : count === 1
        ? s.sendRemindersOne
        : fill(s.sendReminders, { count: number(count) });
  return {
    template: 'console/campaign-mail-check',
    model: {
      ...base,
      s,
      title,
      heading: title,
      campaignName: campaignName(campaign),
      backHref: campaignHref(campaign.campaignid),
      refused: recipients.refused,
      nobody:
        !recipients.refused && count === 0
          ? kind === 'invite'
            ? s.nobodyToInvite
            : s.nobodyToRemind
          : undefined,
      who: kind === 'invite' ? s.inviteWho : s.remindWho,
      caption:
        count > RECIPIENTS_SHOWN
          ? fill(s.recipientsFirst, { shown: number(RECIPIENTS_SHOWN), count: number(count) })
          : s.recipientsCaption,
      recipients:
        count > 0 ? shown.map((member) => ({ name: personName(member), email: member.email })) : undefined,
      more:
        count > RECIPIENTS_SHOWN ? fill(s.andMore, { count: number(count - RECIPIENTS_SHOWN) }) : undefined,
      preview:
        first && recipients.preview
          ? {
              heading: fill(s.preview, { name: personName(first) }),
              subject: recipients.preview.subject,
              text: recipients.preview.text,
            }
          : undefined,
      action: `${campaignHref(campaign.campaignid)}/${kind}`,
      shownAt,
      button: count > 0 && !recipients.refused ? button : undefined,
    },
  };
}

/** After the button: how many were queued, a link to the campaign's outbox and back to the campaign. */
export function mailResultView(
  viewer: Viewer,
  campaign: CampaignDetail,
  kind: 'invite' | 'remind',
  count: number,
): ConsoleView {
  const base = chrome(viewer, 'campaigns');
  const s = campaignStrings(viewer.language);
  const number = consoleNumber(viewer.language, count);
  const heading =
    kind === 'invite'
      ? count === 1
        ? s.invitationsQueuedOne
        : fill(s.invitationsQueued, { count: number })
      : count === 1
        ? s.remindersQueuedOne
        : fill(s.remindersQueued, { count: number });
  return {
    template: 'console/campaign-mail-done',
    model: {
      ...base,
      s,
      title: heading,
      heading,
      campaignName: campaignName(campaign),
      body: count > 0 ? s.queuedBody : s.queuedNone,
      outboxHref: `/console/mail?${new URLSearchParams({ campaign: campaign.campaignid })}`,
      campaignHref: campaignHref(campaign.campaignid),
    },
  };
}
