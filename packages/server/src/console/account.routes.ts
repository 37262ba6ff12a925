import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { changeOwnPassword } from '../auth/password-sign-in.js';
import type { AppContext } from '../context.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { consoleActorOf, showConsole, viewerOf } from './console-kit.js';
import { endOtherSessions, openSessions } from './sessions.service.js';
import { type AccountOutcome, accountView } from './views/account.view.js';

/** "Your account": the signed-in user's own password and sessions. */
export async function accountRoutes(app: ApiInstance, { db, signInLimiter }: AppContext) {
  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    outcome?: AccountOutcome,
  ) => {
    const operator = request.operator;
    if (!operator) return reply.code(401).send();
    const sessions = await openSessions(db, operator.user.id);
    return showConsole(reply, status, accountView(viewerOf(request), { sessions, outcome }));
  };

  // After a form: `?changed=password`, or `?signedout=N` (how many other sessions ended).
  const Done = Type.Object({
    changed: Type.Optional(Type.String()),
    signedout: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
  });
  app.get('/account', { schema: { querystring: Done } }, async (request, reply) => {
    const { changed, signedout } = request.query;
    if (changed === 'password') return show(request, reply, 200, { kind: 'password-changed' });
    if (signedout !== undefined) {
      return show(request, reply, 200, { kind: 'signed-out-others', count: Number(signedout) });
    }
    return show(request, reply, 200);
  });

  app.post('/account/password', async (request, reply) => {
    const operator = request.operator;
    if (!operator) return reply.code(401).send();
    const form = fieldsOf(request.body);
    const current = typeof form.current === 'string' ? form.current : '';
    const next = typeof form.next === 'string' ? form.next : '';
    if (current === '') return show(request, reply, 400, { kind: 'current-missing' });
    const change = await changeOwnPassword(
      db,
      signInLimiter,
      {
        user: operator.user,
        current,
        next,
        caller: request.ip,
      },
      consoleActorOf(request),
    );
    if (!change.ok) {
      const status = change.reason === 'wait' ? 429 : 400;
      return show(
        request,
        reply,
        status,
        change.reason === 'wait' ? { kind: 'wait', seconds: change.seconds } : { kind: change.reason },
      );
    }
    // A new password closes every other door the old one opened.
    await endOtherSessions(db, operator.user.id, consoleActorOf(request), operator.session);
    return reply.redirect('/console/account?changed=password', 303);
  });

  app.post('/account/sessions', async (request, reply) => {
    const operator = request.operator;
    if (!operator) return reply.code(401).send();
    const count = await endOtherSessions(db, operator.user.id, consoleActorOf(request), operator.session);
    return reply.redirect(`/console/account?signedout=${count}`, 303);
  });
}
