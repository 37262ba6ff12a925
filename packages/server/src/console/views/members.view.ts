import type { MemberCampaign, MemberDetail, MemberReport } from '@assay/schema';
import type { MemberListPage } from '../../members/members.service.js';
import { fill } from '../../pages/strings.js';
import { consoleDate } from '../format.js';
import { type MembersStrings, membersStrings } from '../members-strings.js';
import { problemsOf } from '../refusals.js';
import type { ConsoleStrings } from '../strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** A member's name as people read it: title, first, middle and last name. */
export const memberName = (m: {
  title?: string | null;
  firstname: string;
  middlename?: string | null;
  lastname: string;
}) => [m.title, m.firstname, m.middlename, m.lastname].filter((part) => part && part.trim() !== '').join(' ');

/** A business error's message (`field: problem`) split into its field and the whole message. */
export function errorOf(message: string, fields: readonly string[]): { field: string; text: string } {
  const field = /^([a-z]+)(?:[.:])/.exec(message)?.[1];
  return { field: field && fields.includes(field) ? field : (fields[0] ?? ''), text: message };
}

/**
 * A refusal that names several problems (`lastname: is required; email: ...`, see
 * validation/validator.ts) as one error per field, when each names a distinct field of the form;
 * else the whole message as one error (errorOf).
 */
export function errorsOf(message: string, fields: readonly string[]): { field: string; text: string }[] {
  const parts = problemsOf(message);
  const each = parts.map((part) => ({ field: /^([a-z]+)(?:[.:[])/.exec(part)?.[1] ?? '', text: part }));
  const distinct = new Set(each.map((error) => error.field));
  return parts.length > 1 &&
    distinct.size === parts.length &&
    each.every((error) => fields.includes(error.field))
    ? each
    : [errorOf(message, fields)];
}

/** The text inputs of a form, each with its label, value and (when it failed) its error. */
export function textFields(
  fields: readonly { name: string; label: string; optional?: boolean; hint?: string; type?: string }[],
  values: Readonly<Record<string, string>>,
  errors: { field: string; text: string } | readonly { field: string; text: string }[] | undefined,
  t: { errorHidden: string },
  m: Pick<MembersStrings, 'optional'>,
) {
  const list = errors === undefined ? [] : 'field' in errors ? [errors] : errors;
  return fields.map((field) => {
    const id = `field-${field.name}`;
    const error = list.find((each) => each.field === field.name);
    const failed = error !== undefined;
    const describedBy = [field.hint ? `${id}-hint` : '', failed ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ');
    return {
      id,
      name: field.name,
      type: field.type ?? 'text',
      label: field.optional ? `${field.label}${m.optional}` : field.label,
      hint: field.hint,
      value: values[field.name] ?? '',
      error: failed ? error?.text : undefined,
      errorHidden: t.errorHidden,
      describedBy: describedBy || undefined,
      autocomplete: 'off',
    };
  });
}

const statusText = (m: MembersStrings, status: string | null) =>
  status === 'inactive' ? m.statusInactive : status === 'active' ? m.statusActive : '';

/** Where a page of the list is: the search and the member to page from. */
export function memberListHref(q: string | undefined, at?: { after?: string; before?: string }): string {
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (at?.after) query.set('after', at.after);
  if (at?.before) query.set('before', at.before);
  const text = query.toString();
  return text ? `/console/members?${text}` : '/console/members';
}

/**
 * The member list: a search form (GET, `?q=`), a page of members by e-mail with their group, and
 * Previous/Next links (keyset paging, see `memberListPage`).
 */
export function memberListView(viewer: Viewer, input: { q?: string; page: MemberListPage }): ConsoleView {
  const base = chrome(viewer, 'members');
  const m = membersStrings(viewer.language);
  const q = input.q?.trim() || undefined;
  const rows = input.page.rows.map((row) => ({
    href: `/console/members/${row.id}`,
    name: memberName(row),
    email: row.email,
    group: row.group_name ?? undefined,
    groupHref: row.group_id ? `/console/groups#group-${row.group_id}` : undefined,
    status: statusText(m, row.status),
  }));
  const { previous, next } = input.page;
  return {
    template: 'console/members',
    model: {
      ...base,
      m,
      title: m.membersTitle,
      q: q ?? '',
      searched: q !== undefined,
      caption: q ? fill(m.searchCaption, { q }) : m.membersCaption,
      rows,
      empty: rows.length === 0 && !previous ? (q ? fill(m.noResults, { q }) : m.noMembersYet) : undefined,
      pagination:
        previous || next
          ? {
              previous: previous ? memberListHref(q, { before: previous }) : undefined,
              next: next ? memberListHref(q, { after: next }) : undefined,
            }
          : undefined,
    },
  };
}

const participation = (m: MembersStrings, status: MemberCampaign['status']) =>
  ({
    new: m.participationNew,
    invited: m.participationInvited,
    started: m.participationStarted,
    completed: m.participationCompleted,
  })[status];

const campaignStatus = (c: ConsoleStrings, status: MemberCampaign['campaignstatus']) =>
  status === 'active' ? c.statusActive : status === 'inactive' ? c.statusUpcoming : c.statusEnded;

export interface MemberPageInput {
  readonly member: MemberDetail;
  readonly row: { phone: string; company: string; jobtitle: string };
  readonly group?: { id: string; name: string };
  readonly campaigns: readonly MemberCampaign[];
  readonly reports: readonly MemberReport[];
}

/** A member's page: details, group, campaigns with the member's status in each, reports. */
export function memberView(viewer: Viewer, input: MemberPageInput): ConsoleView {
  const base = chrome(viewer, 'members');
  const { c } = base;
  const m = membersStrings(viewer.language);
  const { member, row } = input;
  const name = memberName(member) || member.email;
  const detail = (key: string, value: string | undefined, href?: string) => ({ key, value, href });
  return {
    template: 'console/member',
    model: {
      ...base,
      m,
      title: name,
      name,
      editHref: `/console/members/${member.memberid}/edit`,
      dataHref: `/console/members/${member.memberid}/data`,
      details: [
        detail(m.fieldEmail, member.email),
        detail(m.fieldTitle, member.title ?? ''),
        detail(m.fieldFirstname, member.firstname),
        detail(m.fieldMiddlename, member.middlename ?? ''),
        detail(m.fieldLastname, member.lastname),
        detail(m.fieldPhone, row.phone),
        detail(m.fieldCompany, row.company),
        detail(m.fieldJobtitle, row.jobtitle),
        detail(m.fieldStatus, statusText(m, member.status)),
        detail(
          m.fieldGroup,
          input.group?.name ?? m.noGroup,
          input.group ? `/console/groups#group-${input.group.id}` : undefined,
        ),
        detail(m.fieldCreated, consoleDate(viewer.language, member.createdon)),
      ],
      campaigns: input.campaigns.map((row) => ({
        href: `/console/campaigns/${row.campaignid}`,
        name: row.name || row.alias,
        campaignStatus: campaignStatus(c, row.campaignstatus),
        statusClass: `tag--${row.campaignstatus === 'inactive' ? 'upcoming' : row.campaignstatus}`,
        participation: participation(m, row.status),
      })),
      reports: input.reports.map((row) => ({
        type: row.type,
        variant: row.variant,
        campaign: row.campaignname ?? row.campaignalias ?? '',
        date: consoleDate(viewer.language, row.date),
      })),
    },
  };
}

/** The member form's fields, in their order; the optional ones may be left empty. */
export const MEMBER_FORM_FIELDS = [
  'email',
  'title',
  'firstname',
  'middlename',
  'lastname',
  'phone',
  'company',
  'jobtitle',
] as const;
export type MemberFormField = (typeof MEMBER_FORM_FIELDS)[number];

/** The form to add a member (no `memberId`) or edit one, with a business error next to its field. */
export function memberFormView(
  viewer: Viewer,
  input: { memberId?: string; values: Readonly<Record<string, string>>; error?: string },
): ConsoleView {
  const base = chrome(viewer, 'members');
  const m = membersStrings(viewer.language);
  const errors = input.error ? errorsOf(input.error, MEMBER_FORM_FIELDS) : [];
  const labels: Record<MemberFormField, string> = {
    email: m.fieldEmail,
    title: m.fieldTitle,
    firstname: m.fieldFirstname,
    middlename: m.fieldMiddlename,
    lastname: m.fieldLastname,
    phone: m.fieldPhone,
    company: m.fieldCompany,
    jobtitle: m.fieldJobtitle,
  };
  const required = new Set(['email', 'firstname', 'lastname']);
  const fields = textFields(
    MEMBER_FORM_FIELDS.map((name) => ({
      name,
      label: labels[name],
      optional: !required.has(name),
      type: name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text',
    })),
    input.values,
    errors,
    base.t,
    m,
  );
  const heading = input.memberId ? m.editMemberTitle : m.addMemberTitle;
  return {
    template: 'console/member-form',
    model: {
      ...base,
      m,
      title: heading,
      heading,
      action: input.memberId ? `/console/members/${input.memberId}/edit` : '/console/members/new',
      cancel: input.memberId ? `/console/members/${input.memberId}` : '/console/members',
      submit: input.memberId ? m.save : m.addMember,
      fields,
      errors:
        errors.length > 0
          ? errors.map((error) => ({ href: `#field-${error.field}`, text: error.text }))
          : undefined,
    },
  };
}
