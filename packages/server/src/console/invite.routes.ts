import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { consoleActor } from '../audit/actor.js';
import { platformUser, platformUsers } from '../auth/auth.service.js';
import { passwordProblem } from '../auth/user-rules.js';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { checkCsrf, csrfToken } from '../pages/security.js';
import {
  chosenLanguage,
  consoleActorOf,
  refusalOf,
  sessionCookieHeader,
  showConsole,
  showWait,
  signedDone,
  viewerOf,
} from './console-kit.js';
import {
  acceptInvitation,
  cancelInvitation,
  type InvitationField,
  invitationProblems,
  inviteUser,
  openInvitation,
  pendingInvitation,
  pendingInvitations,
  resendInvitation,
} from './invitations.service.js';
import { inviteStrings } from './invite-strings.js';
import { splitProblem } from './refusals.js';
import { endSession, startSession } from './sessions.service.js';
import { userView } from './views/access.view.js';
import { formExpiredView, type Viewer } from './views/console-view.js';
import {
  choosePasswordView,
  deadInvitationView,
  type InviteFormValues,
  invitationConfirmView,
  type PasswordProblem,
  usersPageView,
} from './views/invite.view.js';
import { waitView } from './views/sign-in.view.js';

const ADMIN = { console: 'admin' } as const;
const PUBLIC = { console: 'public' } as const;
const InvitationAction = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  action: Type.Union([Type.Literal('resend'), Type.Literal('cancel')]),
});
// No length limit here: any text that is not a link's secret gets the invitation's own clear page.
const Secret = Type.Object({ secret: Type.String() });

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function formOf(body: unknown, fallbackLanguage: string): InviteFormValues {
  const fields = fieldsOf(body);
  return {
    email: text(fields.email).slice(0, 320),
    firstname: text(fields.firstname).slice(0, 1000),
    lastname: text(fields.lastname).slice(0, 1000),
    admin: fields.admin === '1',
    language: text(fields.language) || fallbackLanguage,
  };
}

/** A service's refusal (`field: words`) as a problem of the form's field. */
function problemOf(message: string): { field: InvitationField; text: string } {
  const { field, text: words } = splitProblem(message);
  return ['email', 'firstname', 'lastname', 'language'].includes(field)
    ? { field: field as InvitationField, text: words }
    : { field: 'email', text: words };
}

/**
 * Inviting a platform user by mail (admins), and the public page of the mailed link where the
 * invitee chooses a password and is signed in. The users list and a user's page show the
 * invitation (access.routes.ts). A link that opens nothing, on the page or its form, is a guess
 * counted against the caller's sign-in budget, as a wrong password on the sign-in page.
 */
export async function inviteRoutes(app: ApiInstance, deps: AppContext) {
  const { db, config, clock, signInLimiter } = deps;
  const secure = config.publicUrl.startsWith('https:');
  const managerId = (request: FastifyRequest) => {
    if (!request.operator) throw new Error('console route without an operator');
    return request.operator.user.id;
  };

  app.post('/access/users/invite', { config: ADMIN }, async (request, reply) => {
    const viewer = viewerOf(request);
    const values = formOf(request.body, viewer.language);
    const input = { ...values };
    let problems = invitationProblems(input);
    if (problems.length === 0) {
      try {
        const user = await inviteUser(deps, managerId(request), input, consoleActorOf(request));
        return reply.redirect(`/console/access/users/${encodeURIComponent(user.id)}?changed=invited`, 303);
      } catch (error) {
        if (!(error instanceof BusinessError)) throw error;
        problems = [problemOf(error.message)];
      }
    }
    return showConsole(
      reply,
      400,
      usersPageView(viewer, {
        users: await platformUsers(db),
        invitations: await pendingInvitations(db, clock()),
        values,
        problems,
      }),
    );
  });

  const userOr404 = (id: string) => platformUser(db, id);

  app.get(
    '/access/users/:id/invitation/:action',
    { config: ADMIN, schema: { params: InvitationAction } },
    async (request, reply) => {
      const user = await userOr404(request.params.id);
      return showConsole(reply, 200, invitationConfirmView(viewerOf(request), user, request.params.action));
    },
  );

  app.post(
    '/access/users/:id/invitation/:action',
    { config: ADMIN, schema: { params: InvitationAction } },
    async (request, reply) => {
      const user = await userOr404(request.params.id);
      const href = `/console/access/users/${encodeURIComponent(user.id)}`;
      try {
        if (request.params.action === 'resend') {
          await resendInvitation(deps, managerId(request), user.id, consoleActorOf(request));
          return reply.redirect(`${href}?changed=resent`, 303);
        }
        await cancelInvitation(db, consoleActorOf(request), user.id);
      } catch (error) {
        // Nothing to resend or cancel any more (accepted, or cancelled in another tab): say so.
        const problem = splitProblem(refusalOf(request, error)).text;
        const invitation = await pendingInvitation(db, user.id, clock());
        const self = user.id === managerId(request);
        return showConsole(reply, 400, userView(viewerOf(request), { user, self, problem, invitation }));
      }
      const name = [user.firstname, user.lastname].filter(Boolean).join(' ') || user.email;
      return reply.redirect(`/console/access/users?${signedDone(request, name)}`, 303);
    },
  );

  /** The invitation page speaks the invitation's language unless one was chosen at its foot. */
  const inviteeViewer = (request: FastifyRequest, language: Viewer['language']): Viewer => ({
    ...viewerOf(request),
    language: chosenLanguage(request) ?? language,
  });

  const showPasswordPage = async (
    request: FastifyRequest,
    secret: string,
    reply: FastifyReply,
    status: number,
    problem?: PasswordProblem,
  ) => {
    const guess = await signInLimiter.guess(request.ip, () => openInvitation(db, secret, clock()));
    if (guess.wait !== undefined) return showWait(reply, guess.wait, waitView(viewerOf(request), guess.wait));
    const invitation = guess.found;
    if (!invitation) return showConsole(reply, 404, deadInvitationView(viewerOf(request)));
    return showConsole(
      reply,
      status,
      choosePasswordView(inviteeViewer(request, invitation.language), {
        action: `/console/invitation/${encodeURIComponent(secret)}`,
        csrf: csrfToken(request, reply, secure),
        name: invitation.name,
        email: invitation.email,
        expires: invitation.expires,
        problem,
      }),
    );
  };

  app.get('/invitation/:secret', { config: PUBLIC, schema: { params: Secret } }, async (request, reply) =>
    showPasswordPage(request, request.params.secret, reply, 200),
  );

  app.post('/invitation/:secret', { config: PUBLIC, schema: { params: Secret } }, async (request, reply) => {
    const form = fieldsOf(request.body);
    // A form from another site (or an old one) changes nothing: the page again, with a new token.
    if (!checkCsrf(request, form.csrf, secure)) {
      const viewer = viewerOf(request);
      const back = () => ({
        href: `/console/invitation/${encodeURIComponent(request.params.secret)}`,
        text: inviteStrings(viewer.language).passwordTitle,
      });
      return showConsole(reply, 403, formExpiredView(viewer, back));
    }
    const password = text(form.password);
    const problem: PasswordProblem | undefined =
      password === ''
        ? 'missing'
        : passwordProblem(password)
          ? 'too-short'
          : password !== text(form.confirm)
            ? 'mismatch'
            : undefined;
    if (problem) return showPasswordPage(request, request.params.secret, reply, 400, problem);
    const guess = await signInLimiter.guess(request.ip, () =>
      acceptInvitation(db, request.params.secret, password, clock(), request.ip),
    );
    if (guess.wait !== undefined) return showWait(reply, guess.wait, waitView(viewerOf(request), guess.wait));
    const accepted = guess.found;
    if (!accepted) return showConsole(reply, 404, deadInvitationView(viewerOf(request)));
    // Whoever was signed in on this browser is not the invitee: that session ends here.
    if (request.operator) await endSession(db, request.operator.session, consoleActorOf(request));
    const language = chosenLanguage(request) ?? accepted.language;
    const secret = await startSession(db, consoleActor(accepted.userId, request.ip), clock(), language);
    reply.header('set-cookie', sessionCookieHeader(secure, secret));
    return reply.redirect('/console', 303);
  });
}
