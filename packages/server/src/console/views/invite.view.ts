import type { UserRow } from '../../auth/auth.table.js';
import { MIN_PASSWORD_LENGTH } from '../../auth/user-rules.js';
import { fill } from '../../pages/strings.js';
import type { Language } from '../../variants/variant.types.js';
import { accessStrings } from '../access-strings.js';
import { consoleDateTime } from '../format.js';
import {
  INVITATION_LIFETIME_MS,
  type InvitationField,
  type PendingInvitation,
} from '../invitations.service.js';
import { type InviteStrings, inviteStrings } from '../invite-strings.js';
import { refusalIn } from '../refusals.js';
import { CONSOLE_LANGUAGES, consoleStrings } from '../strings.js';
import { usersView } from './access.view.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** What the "Invite a user" form was given, to show it again with its problems. */
export interface InviteFormValues {
  readonly email: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly admin: boolean;
  readonly language: string;
}

/** A problem of one field of the form, as the service words it (after the field's name). */
export interface InviteProblem {
  readonly field: InvitationField;
  readonly text: string;
}

const DAYS = Math.round(INVITATION_LIFETIME_MS / 86_400_000);

/** A service's words in the viewer's language: the console's own where it has them, else translated. */
function problemText(i: InviteStrings, language: Language, problem: InviteProblem): string {
  if (problem.field === 'email' && problem.text === 'is required') return i.required;
  if (problem.field === 'firstname' && problem.text === 'must not be empty') return i.firstnameMissing;
  if (problem.field === 'lastname' && problem.text === 'must not be empty') return i.lastnameMissing;
  return refusalIn(language, problem.text);
}

/** The form's model: values, each field's problem, the language choice (the viewer's by default). */
export function inviteFormModel(
  viewer: Viewer,
  values: InviteFormValues | undefined,
  problems: readonly InviteProblem[] = [],
) {
  const i = inviteStrings(viewer.language);
  const c = consoleStrings(viewer.language);
  const shown = values ?? { email: '', firstname: '', lastname: '', admin: false, language: viewer.language };
  const errorOf = (field: InvitationField) => {
    const problem = problems.find((p) => p.field === field);
    return problem ? problemText(i, viewer.language, problem) : undefined;
  };
  return {
    i,
    intro: fill(i.intro, { days: DAYS }),
    values: shown,
    errors: problems.length
      ? problems.map((p) => ({ href: `#invite-${p.field}`, text: problemText(i, viewer.language, p) }))
      : undefined,
    emailError: errorOf('email'),
    firstnameError: errorOf('firstname'),
    lastnameError: errorOf('lastname'),
    languageError: errorOf('language'),
    languages: CONSOLE_LANGUAGES.map((language) => ({
      value: language,
      text: c.languageNames[language],
      selected: language === shown.language,
    })),
  };
}

/** The users list with the "Invite a user" form under it, and a notice after a change. */
export function usersPageView(
  viewer: Viewer,
  input: {
    users: readonly Parameters<typeof usersView>[1]['users'][number][];
    invitations: ReadonlyMap<string, PendingInvitation>;
    values?: InviteFormValues;
    problems?: readonly InviteProblem[];
    notice?: string;
  },
): ConsoleView {
  const view = usersView(viewer, { users: input.users, invitations: input.invitations });
  const invite = inviteFormModel(viewer, input.values, input.problems);
  return {
    template: view.template,
    model: { ...view.model, invite, errors: invite.errors, notice: input.notice },
  };
}

/** "Are you sure?" before an invitation is sent again or cancelled. */
export function invitationConfirmView(
  viewer: Viewer,
  user: Pick<UserRow, 'id' | 'firstname' | 'lastname' | 'email'>,
  action: 'resend' | 'cancel',
): ConsoleView {
  const i = inviteStrings(viewer.language);
  const href = `/console/access/users/${encodeURIComponent(user.id)}`;
  const name = [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email;
  const heading = action === 'resend' ? i.resend : i.cancel;
  return {
    template: 'console/access-confirm',
    model: {
      ...chrome(viewer, 'access'),
      a: accessStrings(viewer.language),
      title: heading,
      body: fill(action === 'resend' ? i.resendBody : i.cancelBody, { name }),
      action: `${href}/invitation/${action}`,
      button: heading,
      cancel: href,
    },
  };
}

export type PasswordProblem = 'missing' | 'too-short' | 'mismatch';

/** The public page where an invited user chooses their password (with the form's own token). */
export function choosePasswordView(
  viewer: Viewer,
  input: {
    action: string;
    csrf: string;
    name: string;
    email: string;
    expires: string;
    problem?: PasswordProblem;
  },
): ConsoleView {
  const i = inviteStrings(viewer.language);
  const problem = input.problem;
  const error =
    problem === 'missing'
      ? { field: 'password', text: i.passwordMissing }
      : problem === 'too-short'
        ? { field: 'password', text: fill(i.tooShort, { min: MIN_PASSWORD_LENGTH }) }
        : problem === 'mismatch'
          ? { field: 'confirm', text: i.mismatch }
          : undefined;
  return {
    template: 'console/invitation-password',
    model: {
      ...chrome(viewer),
      // No session yet: the double-submit cookie's token, as the sign-in page's.
      csrf: input.csrf,
      i,
      title: i.passwordTitle,
      action: input.action,
      intro: fill(i.passwordIntro, { name: input.name, email: input.email }),
      email: input.email,
      passwordHint: fill(i.passwordHint, { min: MIN_PASSWORD_LENGTH }),
      until: fill(i.linkUntil, { date: consoleDateTime(viewer.language, input.expires) }),
      errors: error ? [{ href: `#${error.field}`, text: error.text }] : undefined,
      passwordError: error?.field === 'password' ? error.text : undefined,
      confirmError: error?.field === 'confirm' ? error.text : undefined,
    },
  };
}

/** A used, expired, replaced or unknown invitation link: a clear page, not an error. */
export function deadInvitationView(viewer: Viewer): ConsoleView {
  const i = inviteStrings(viewer.language);
  return {
    template: 'console/message',
    model: {
      ...chrome(viewer),
      title: i.deadTitle,
      heading: i.deadTitle,
      paragraphs: [i.deadBody, i.deadHelp],
      link: { href: '/console/sign-in', text: i.signIn },
    },
  };
}
