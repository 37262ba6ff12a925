import type { ApiKeyListing, ClientListing } from '../../auth/auth.repository.js';
import type { UserRow } from '../../auth/auth.table.js';
import { grantableScopes, ScopesBeyondRole } from '../../auth/scope-rules.js';
import type { BusinessError } from '../../domain/errors.js';
import { fill } from '../../pages/strings.js';
import type { Language } from '../../variants/variant.types.js';
import { type AccessStrings, accessStrings } from '../access-strings.js';
import { consoleDateTime } from '../format.js';
import type { PendingInvitation } from '../invitations.service.js';
import { inviteStrings } from '../invite-strings.js';
import { problemsOf, refusalIn, splitProblem } from '../refusals.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** A problem with one field of a form: the field's id and what to say. */
export interface FieldProblem {
  readonly field: 'name' | 'scopes' | 'redirects';
  readonly text: string;
}

/** What a create form was given, to show it again with its problems. */
export interface AccessFormValues {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly redirects: string;
}

const EMPTY: AccessFormValues = { name: '', scopes: [], redirects: '' };

/**
 * A service's refusal (`field: problem`, in English) as a problem of a form field; the fields the
 * console names itself (an empty name, no scope) in the viewer's words, the others translated
 * (refusals.ts).
 */
export function problemOf(a: AccessStrings, message: string, language: Language): FieldProblem {
  const { field, text } = splitProblem(message);
  const translated = () => refusalIn(language, text);
  if (field === 'name')
    return { field: 'name', text: text === 'must not be empty' ? a.nameMissing : translated() };
  if (field === 'scopes') return { field: 'scopes', text: a.scopesMissing };
  if (field === 'redirect-uri') return { field: 'redirects', text: translated() };
  return { field: 'name', text: refusalIn(language, message) };
}

/**
 * A service's refusal of a client or key form as the problems of its fields, in the viewer's
 * language: scopes beyond the owner's role next to the scopes, naming them (from the error's own
 * fields); any other refusal by `problemOf`.
 */
export function formProblems(language: Language, error: BusinessError): FieldProblem[] {
  if (error instanceof ScopesBeyondRole)
    return [{ field: error.field, text: refusalIn(language, error.problem) }];
  const a = accessStrings(language);
  return problemsOf(error.message).map((problem) => problemOf(a, problem, language));
}

const scopeWords = (a: AccessStrings, scopes: string) =>
  scopes
    .split(' ')
    .filter(Boolean)
    .map((scope) => a.scopeWords[scope as keyof AccessStrings['scopeWords']] ?? scope);

function formModel(
  viewer: Viewer,
  a: AccessStrings,
  values: AccessFormValues,
  problems: readonly FieldProblem[],
) {
  const errorOf = (field: FieldProblem['field']) => problems.find((p) => p.field === field)?.text;
  return {
    errors: problems.length ? problems.map((p) => ({ href: `#${p.field}`, text: p.text })) : undefined,
    nameError: errorOf('name'),
    scopesError: errorOf('scopes'),
    redirectsError: errorOf('redirects'),
    values,
    // Only what the viewer's role may use (auth/scope-rules.ts): a client or key is the viewer's own.
    scopeChoices: grantableScopes(viewer.user?.role ?? 'user').map((scope, index) => ({
      id: index === 0 ? 'scopes' : `scope-${scope}`,
      value: scope,
      text: a.scopeWords[scope],
      checked: values.scopes.includes(scope),
    })),
  };
}

/** The clients list: the viewer's own, or everyone's with their owner for an admin. */
export function clientsView(
  viewer: Viewer,
  input: { clients: readonly ClientListing[]; deleted?: string },
): ConsoleView {
  const a = accessStrings(viewer.language);
  const admin = viewer.user?.role === 'admin';
  return {
    template: 'console/access-clients',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: a.clientsTitle,
      admin,
      notice: input.deleted === undefined ? undefined : fill(a.clientDeleted, { name: input.deleted }),
      clients: input.clients.map((client) => ({
        href: `/console/access/clients/${encodeURIComponent(client.id)}`,
        name: client.name,
        id: client.id,
        scopes: scopeWords(a, client.scopes),
        registered: client.registration !== null,
        owner: client.registration === 'unclaimed' ? a.unclaimed : client.user_email,
        created: consoleDateTime(viewer.language, client.created),
      })),
    },
  };
}

/** The form that creates a client: name, scopes as checkboxes in plain words, return addresses. */
export function clientFormView(
  viewer: Viewer,
  input: { values?: AccessFormValues; problems?: readonly FieldProblem[] } = {},
): ConsoleView {
  const a = accessStrings(viewer.language);
  return {
    template: 'console/access-client-form',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: a.newClient,
      ...formModel(viewer, a, input.values ?? EMPTY, input.problems ?? []),
    },
  };
}

/** One client: what it may do, where it returns to, and the forms that rotate or delete it. */
export function clientView(viewer: Viewer, client: ClientListing): ConsoleView {
  const a = accessStrings(viewer.language);
  const href = `/console/access/clients/${encodeURIComponent(client.id)}`;
  return {
    template: 'console/access-client',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: client.name,
      name: client.name,
      id: client.id,
      scopes: scopeWords(a, client.scopes),
      redirects: client.redirect_uris,
      registered: client.registration !== null,
      owner:
        viewer.user?.role !== 'admin'
          ? undefined
          : client.registration === 'unclaimed'
            ? a.unclaimed
            : client.user_email,
      created: consoleDateTime(viewer.language, client.created),
      rotateAction: `${href}/rotate`,
      deleteHref: `${href}/delete`,
    },
  };
}

/** A secret (a client's, or an API key) shown once, with GOV.UK Notify's warning. */
export function secretShownView(
  viewer: Viewer,
  input:
    | { kind: 'client'; id: string; name: string; secret: string }
    | { kind: 'key'; name: string; secret: string },
): ConsoleView {
  const a = accessStrings(viewer.language);
  return {
    template: 'console/access-secret',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: input.kind === 'client' ? a.secretTitle : a.keyTitle,
      name: input.name,
      clientId: input.kind === 'client' ? input.id : undefined,
      secretLabel: input.kind === 'client' ? a.secret : a.key,
      secret: input.secret,
      back:
        input.kind === 'client'
          ? { href: '/console/access/clients', text: a.backToClients }
          : { href: '/console/access/keys', text: a.keysTitle },
    },
  };
}

/** "Are you sure?" before a client is deleted or a key revoked. */
export function confirmView(
  viewer: Viewer,
  input: { kind: 'delete-client' | 'revoke-key'; name: string; action: string; cancel: string },
): ConsoleView {
  const a = accessStrings(viewer.language);
  const client = input.kind === 'delete-client';
  return {
    template: 'console/access-confirm',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: client ? a.deleteTitle : a.revokeTitle,
      body: fill(client ? a.deleteBody : a.revokeBody, { name: input.name }),
      action: input.action,
      button: client ? a.delete : a.revoke,
      cancel: input.cancel,
    },
  };
}

/** The API keys list: the viewer's own, or everyone's with their owner for an admin. */
export function keysView(
  viewer: Viewer,
  input: { keys: readonly ApiKeyListing[]; revoked?: string },
): ConsoleView {
  const a = accessStrings(viewer.language);
  return {
    template: 'console/access-keys',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: a.keysTitle,
      admin: viewer.user?.role === 'admin',
      notice: input.revoked === undefined ? undefined : fill(a.keyRevoked, { name: input.revoked }),
      keys: input.keys.map((key) => ({
        name: key.name || key.id,
        scopes: scopeWords(a, key.scopes),
        owner: key.user_email,
        created: consoleDateTime(viewer.language, key.created),
        status: key.revoked
          ? fill(a.revokedOn, { date: consoleDateTime(viewer.language, key.revoked) })
          : a.active,
        revokeHref: key.revoked ? undefined : `/console/access/keys/${encodeURIComponent(key.id)}/revoke`,
      })),
    },
  };
}

/** The form that creates an API key: a name and what it may read. */
export function keyFormView(
  viewer: Viewer,
  input: { values?: AccessFormValues; problems?: readonly FieldProblem[] } = {},
): ConsoleView {
  const a = accessStrings(viewer.language);
  return {
    template: 'console/access-key-form',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: a.newKey,
      ...formModel(viewer, a, input.values ?? EMPTY, input.problems ?? []),
    },
  };
}

/** What can be done to a user from their page, each after a confirmation. */
export const USER_ACTIONS = ['make-admin', 'remove-admin', 'deactivate', 'reactivate'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

type ListedUser = Pick<UserRow, 'id' | 'email' | 'firstname' | 'lastname' | 'role' | 'deactivated'>;

const nameOf = (user: ListedUser) => [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email;

function userRow(viewer: Viewer, a: AccessStrings, user: ListedUser, invitation?: PendingInvitation) {
  const i = inviteStrings(viewer.language);
  return {
    href: `/console/access/users/${encodeURIComponent(user.id)}`,
    name: nameOf(user),
    email: user.email,
    role: user.role === 'admin' ? a.admin : a.user,
    status: user.deactivated
      ? `${a.deactivated} ${consoleDateTime(viewer.language, user.deactivated)}`
      : invitation
        ? invitation.expired
          ? i.expired
          : i.invited
        : a.active,
  };
}

/** Every platform user (admins only), an invited one as such. */
export function usersView(
  viewer: Viewer,
  input: { users: readonly ListedUser[]; invitations?: ReadonlyMap<string, PendingInvitation> },
): ConsoleView {
  const a = accessStrings(viewer.language);
  return {
    template: 'console/access-users',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: a.usersTitle,
      users: input.users.map((user) => userRow(viewer, a, user, input.invitations?.get(user.id))),
    },
  };
}

/**
 * One user: details and the actions that apply (the other admin role, (re)activation, and while
 * they are invited: when the invitation was sent and expires, resend or cancel it).
 */
export function userView(
  viewer: Viewer,
  input: {
    user: ListedUser;
    self: boolean;
    changed?: boolean;
    problem?: string;
    invitation?: PendingInvitation;
    notice?: string;
  },
): ConsoleView {
  const a = accessStrings(viewer.language);
  const i = inviteStrings(viewer.language);
  const { user, invitation } = input;
  const href = `/console/access/users/${encodeURIComponent(user.id)}`;
  const actions: { href: string; text: string }[] = [];
  if (!input.self) {
    if (invitation) {
      if (!user.deactivated) actions.push({ href: `${href}/invitation/resend`, text: i.resend });
      actions.push({ href: `${href}/invitation/cancel`, text: i.cancel });
    }
    actions.push(
      user.role === 'admin'
        ? { href: `${href}/remove-admin`, text: a.removeAdmin }
        : { href: `${href}/make-admin`, text: a.makeAdmin },
    );
    actions.push(
      user.deactivated
        ? { href: `${href}/reactivate`, text: a.reactivate }
        : { href: `${href}/deactivate`, text: a.deactivate },
    );
  }
  const when = (moment: string) => consoleDateTime(viewer.language, moment);
  return {
    template: 'console/access-user',
    model: {
      ...chrome(viewer, 'access'),
      a,
      i,
      title: nameOf(user),
      errors: input.problem ? [{ href: '#actions', text: input.problem }] : undefined,
      notice: input.notice ?? (input.changed ? a.userChanged : undefined),
      ...userRow(viewer, a, user, invitation),
      invitation: invitation
        ? fill(invitation.expired ? i.sentExpired : i.sentExpires, {
            sent: when(invitation.sent),
            expires: when(invitation.expires),
          })
        : undefined,
      actions,
    },
  };
}

/** "Are you sure?" before a user's role or activation changes. */
export function userConfirmView(viewer: Viewer, user: ListedUser, action: UserAction): ConsoleView {
  const a = accessStrings(viewer.language);
  const href = `/console/access/users/${encodeURIComponent(user.id)}`;
  const words: Record<UserAction, readonly [string, string]> = {
    'make-admin': [a.makeAdmin, a.makeAdminBody],
    'remove-admin': [a.removeAdmin, a.removeAdminBody],
    deactivate: [a.deactivate, a.deactivateBody],
    reactivate: [a.reactivate, a.reactivateBody],
  };
  const [heading, body] = words[action];
  return {
    template: 'console/access-confirm',
    model: {
      ...chrome(viewer, 'access'),
      a,
      title: heading,
      body: fill(body, { name: nameOf(user) }),
      action: `${href}/${action}`,
      button: heading,
      cancel: href,
    },
  };
}
