import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  apiKeyFor,
  apiKeysOf,
  clientFor,
  clientsOf,
  createApiKey,
  createClient,
  deactivateUser,
  deleteClient,
  type Manager,
  parseScopes,
  platformUser,
  platformUsers,
  reactivateUser,
  redirectUrisFromText,
  revokeApiKey,
  setUserRole,
  updateClientScopes,
} from '../auth/auth.service.js';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { formValues } from '../http/form-body.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { fill } from '../pages/strings.js';
import {
  consoleActorOf,
  doneText,
  refusalOf,
  showConsole,
  showSecret,
  signedDone,
  viewerOf,
} from './console-kit.js';
import { pendingInvitation, pendingInvitations } from './invitations.service.js';
import { inviteStrings } from './invite-strings.js';
import { splitProblem } from './refusals.js';
import { endOtherSessions } from './sessions.service.js';
import {
  type AccessFormValues,
  clientFormView,
  clientsView,
  clientView,
  confirmView,
  formProblems,
  keyFormView,
  keysView,
  secretShownView,
  USER_ACTIONS,
  type UserAction,
  userConfirmView,
  userView,
} from './views/access.view.js';
import { usersPageView } from './views/invite.view.js';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const UserActionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  action: Type.Union(USER_ACTIONS.map((action) => Type.Literal(action))),
});
const Changed = Type.Object({ changed: Type.Optional(Type.String({ maxLength: 10 })) });
const ADMIN = { console: 'admin' } as const;
const Done = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 300 })),
  sig: Type.Optional(Type.String({ maxLength: 100 })),
});

/** The signed-in operator as the auth service's manager of clients and keys. */
function managerOf(request: FastifyRequest): Manager {
  const operator = request.operator;
  if (!operator) throw new Error('console route without an operator');
  return { id: operator.user.id, role: operator.user.role };
}

function formOf(body: unknown): AccessFormValues {
  const fields = fieldsOf(body);
  return {
    name: typeof fields.name === 'string' ? fields.name : '',
    scopes: formValues(body, 'scopes'),
    redirects: typeof fields.redirects === 'string' ? fields.redirects : '',
  };
}

/**
 * Access: OAuth clients and API keys. Every signed-in user manages their own; an admin sees and
 * manages everyone's. The same auth service as `assay clients …` and `assay apikeys …`.
 */
export async function accessRoutes(app: ApiInstance, { db, clock }: AppContext) {
  app.get('/access', async (_request, reply) => reply.redirect('/console/access/clients', 303));

  app.get('/access/clients', { schema: { querystring: Done } }, async (request, reply) =>
    showConsole(
      reply,
      200,
      clientsView(viewerOf(request), {
        clients: await clientsOf(db, managerOf(request)),
        deleted: doneText(request, request.query),
      }),
    ),
  );

  app.get('/access/clients/new', async (request, reply) =>
    showConsole(reply, 200, clientFormView(viewerOf(request))),
  );

  app.post('/access/clients', async (request, reply) => {
    const viewer = viewerOf(request);
    const values = formOf(request.body);
    try {
      const issued = await createClient(
        db,
        {
          name: values.name,
          userId: managerOf(request).id,
          scopes: parseScopes(values.scopes.join(' ')),
          redirectUris: redirectUrisFromText(values.redirects),
        },
        consoleActorOf(request),
      );
      return showSecret(
        reply,
        201,
        secretShownView(viewer, {
          kind: 'client',
          id: issued.client_id,
          name: values.name.trim(),
          secret: issued.client_secret,
        }),
      );
    } catch (error) {
      if (!(error instanceof BusinessError)) throw error;
      const problems = formProblems(viewer.language, error);
      return showConsole(reply, 400, clientFormView(viewer, { values, problems }));
    }
  });

  app.get('/access/clients/:id', { schema: { params: Id } }, async (request, reply) => {
    const client = await clientFor(db, managerOf(request), request.params.id);
    return showConsole(reply, 200, clientView(viewerOf(request), client));
  });

  app.post('/access/clients/:id/rotate', { schema: { params: Id } }, async (request, reply) => {
    const client = await clientFor(db, managerOf(request), request.params.id);
    // A client that registered itself has no secret (the page says so and offers no rotation).
    if (client.registration) return showConsole(reply, 400, clientView(viewerOf(request), client));
    const issued = await updateClientScopes(
      db,
      managerOf(request),
      client.id,
      undefined,
      consoleActorOf(request),
    );
    return showSecret(
      reply,
      200,
      secretShownView(viewerOf(request), {
        kind: 'client',
        id: client.id,
        name: client.name,
        secret: issued.client_secret,
      }),
    );
  });

  app.get('/access/clients/:id/delete', { schema: { params: Id } }, async (request, reply) => {
    const client = await clientFor(db, managerOf(request), request.params.id);
    const href = `/console/access/clients/${encodeURIComponent(client.id)}`;
    return showConsole(
      reply,
      200,
      confirmView(viewerOf(request), {
        kind: 'delete-client',
        name: client.name,
        action: `${href}/delete`,
        cancel: href,
      }),
    );
  });

  app.post('/access/clients/:id/delete', { schema: { params: Id } }, async (request, reply) => {
    const client = await clientFor(db, managerOf(request), request.params.id);
    await deleteClient(db, managerOf(request), client.id, consoleActorOf(request));
    return reply.redirect(`/console/access/clients?${signedDone(request, client.name)}`, 303);
  });

  app.get('/access/keys', { schema: { querystring: Done } }, async (request, reply) =>
    showConsole(
      reply,
      200,
      keysView(viewerOf(request), {
        keys: await apiKeysOf(db, managerOf(request)),
        revoked: doneText(request, request.query),
      }),
    ),
  );

  app.get('/access/keys/new', async (request, reply) =>
    showConsole(reply, 200, keyFormView(viewerOf(request))),
  );

  app.post('/access/keys', async (request, reply) => {
    const viewer = viewerOf(request);
    const values = formOf(request.body);
    try {
      const { apikey } = await createApiKey(
        db,
        { userId: managerOf(request).id, scopes: parseScopes(values.scopes.join(' ')), name: values.name },
        consoleActorOf(request),
      );
      return showSecret(
        reply,
        201,
        secretShownView(viewer, { kind: 'key', name: values.name.trim(), secret: apikey }),
      );
    } catch (error) {
      if (!(error instanceof BusinessError)) throw error;
      const problems = formProblems(viewer.language, error);
      return showConsole(reply, 400, keyFormView(viewer, { values, problems }));
    }
  });

  app.get('/access/keys/:id/revoke', { schema: { params: Id } }, async (request, reply) => {
    const key = await apiKeyFor(db, managerOf(request), request.params.id);
    return showConsole(
      reply,
      200,
      confirmView(viewerOf(request), {
        kind: 'revoke-key',
        name: key.name || key.id,
        action: `/console/access/keys/${encodeURIComponent(key.id)}/revoke`,
        cancel: '/console/access/keys',
      }),
    );
  });

  app.post('/access/keys/:id/revoke', { schema: { params: Id } }, async (request, reply) => {
    const key = await apiKeyFor(db, managerOf(request), request.params.id);
    await revokeApiKey(db, managerOf(request), key.id, consoleActorOf(request));
    return reply.redirect(`/console/access/keys?${signedDone(request, key.name || key.id)}`, 303);
  });

  // Platform users: admins only (every other user gets 403 from the console's hook).
  const userOr404 = (id: string) => platformUser(db, id);

  app.get('/access/users', { config: ADMIN, schema: { querystring: Done } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const cancelled = doneText(request, request.query);
    return showConsole(
      reply,
      200,
      usersPageView(viewer, {
        users: await platformUsers(db),
        invitations: await pendingInvitations(db, clock()),
        notice:
          cancelled === undefined
            ? undefined
            : fill(inviteStrings(viewer.language).cancelled, { name: cancelled }),
      }),
    );
  });

  app.get(
    '/access/users/:id',
    { config: ADMIN, schema: { params: Id, querystring: Changed } },
    async (request, reply) => {
      const user = await userOr404(request.params.id);
      const viewer = viewerOf(request);
      const i = inviteStrings(viewer.language);
      const { changed } = request.query;
      return showConsole(
        reply,
        200,
        userView(viewer, {
          user,
          self: user.id === managerOf(request).id,
          changed: changed !== undefined,
          invitation: await pendingInvitation(db, user.id, clock()),
          notice:
            changed === 'invited'
              ? fill(i.sent, { email: user.email })
              : changed === 'resent'
                ? i.resent
                : undefined,
        }),
      );
    },
  );

  app.get(
    '/access/users/:id/:action',
    { config: ADMIN, schema: { params: UserActionParams } },
    async (request, reply) => {
      const user = await userOr404(request.params.id);
      return showConsole(reply, 200, userConfirmView(viewerOf(request), user, request.params.action));
    },
  );

  app.post(
    '/access/users/:id/:action',
    { config: ADMIN, schema: { params: UserActionParams } },
    async (request, reply) => {
      const user = await userOr404(request.params.id);
      const action: UserAction = request.params.action;
      const me = managerOf(request).id;
      const actor = consoleActorOf(request);
      try {
        if (user.id === me) throw new BusinessError('user: you cannot change your own role or access here');
        if (action === 'make-admin') await setUserRole(db, user.id, 'admin', actor);
        if (action === 'remove-admin') await setUserRole(db, user.id, 'user', actor);
        if (action === 'reactivate') await reactivateUser(db, user.id, actor);
        if (action === 'deactivate') {
          await deactivateUser(db, actor, user.id);
          // Every console session of theirs ends now (the sessions belong to the console).
          await endOtherSessions(db, user.id, actor);
        }
      } catch (error) {
        const problem = splitProblem(refusalOf(request, error)).text;
        const invitation = await pendingInvitation(db, user.id, clock());
        return showConsole(
          reply,
          400,
          userView(viewerOf(request), { user, self: user.id === me, problem, invitation }),
        );
      }
      return reply.redirect(`/console/access/users/${encodeURIComponent(user.id)}?changed=1`, 303);
    },
  );
}
