import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { DATABASE_RETRY_AFTER, pageStatusOf } from '../http/error-handler.js';
import { acceptForms } from '../http/form-body.js';
import { setPageHeaders } from '../pages/security.js';
import { stringsFor } from '../pages/strings.js';
import { acceptedLanguage, pageKit } from './page-kit.js';
import { questionnaireRoutes } from './questionnaire.routes.js';
import { raterRoutes, signupRoutes } from './signup.routes.js';
import { messageView } from './views/page-view.js';

/**
 * The participant's side, one scope of its own: the questionnaire at /q/<token>, the report at
 * /r/<token>, self-registration at /s/<alias>, with their form bodies, page headers and HTML errors.
 * It holds no route itself: the route plugins below do.
 */
export async function participantPages(app: FastifyInstance, deps: AppContext) {
  // Pages for people, not operations of the API: they stay out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  // Forms post URL-encoded bodies; the parser lives in this scope only.
  acceptForms(app);
  app.addHook('onRequest', async (_request, reply) => {
    setPageHeaders(reply);
  });
  const kit = pageKit(deps.config);
  app.setErrorHandler((error, request, reply) => {
    const t = stringsFor(acceptedLanguage(request.headers['accept-language']));
    const status = pageStatusOf(error);
    const clientError = status !== undefined && status >= 400 && status < 500;
    const reason = error instanceof Error ? error.message : String(error);
    const unavailable = !clientError && isDatabaseUnavailable(error);
    // The visitor's mistake (a body too large, a wrong type) is no fault of ours: one line, no stack,
    // so that nobody can fill the error log from a made-up link.
    if (clientError) request.log.info({ statusCode: status, reason }, 'participant page refused');
    else if (unavailable) request.log.warn({ reason }, 'participant page: database unavailable');
    else request.log.error({ err: error }, 'participant page failed');
    if (unavailable) reply.header('retry-after', DATABASE_RETRY_AFTER);
    return kit.show(
      reply,
      clientError ? status : unavailable ? 503 : 500,
      messageView({ t }, t.errorTitle, [t.errorBody]),
    );
  });

  await app.register(questionnaireRoutes, deps);
  await app.register(signupRoutes, deps);
  await app.register(raterRoutes, deps);
}
