import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { DATABASE_RETRY_AFTER, pageStatusOf } from '../http/error-handler.js';
import { acceptForms } from '../http/form-body.js';
import { fieldsOf } from '../http/route-schema.js';
import { CONSOLE_SCRIPT, CONSOLE_SCRIPT_VERSION, STYLESHEET, STYLESHEET_VERSION } from '../pages/render.js';
import { setPageHeaders } from '../pages/security.js';
import { stringsFor } from '../pages/strings.js';
import { accessRoutes } from './access.routes.js';
import { accountRoutes } from './account.routes.js';
import { auditLogRoutes } from './audit-log.routes.js';
import { brandingRoutes } from './branding.routes.js';
import { campaignRoutes } from './campaign.routes.js';
import {
  recordConsoleRoute,
  sessionCsrfMatches,
  sessionSecretOf,
  showConsole,
  viewerOf,
} from './console-kit.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { groupReportPages } from './group-report.routes.js';
import { groupPages } from './groups.routes.js';
import { importPages } from './import.routes.js';
import { inviteRoutes } from './invite.routes.js';
import { mailRoutes } from './mail.routes.js';
import { memberPages } from './members.routes.js';
import { reportImportPages } from './report-import.routes.js';
import { reportPages } from './reports.routes.js';
import { retentionRoutes } from './retention.routes.js';
import { currentSession } from './sessions.service.js';
import { signInRoutes } from './sign-in.routes.js';
import { consoleStrings } from './strings.js';
import { consoleMessage, formExpiredView } from './views/console-view.js';
import { webhookRoutes } from './webhooks.routes.js';
import { wizardRoutes } from './wizard.routes.js';

/**
 * The operator console at /console: server-rendered pages on the participant pages' renderer,
 * layout and stylesheet. Every route needs a signed-in operator unless it says otherwise
 * (`config.console`: `public` for the sign-in pages, `admin` for admins only), so a new page is
 * closed by default; every POST of a signed-in operator carries the session's form token.
 */
export async function consolePages(app: FastifyInstance, deps: AppContext) {
  const { db, config, clock } = deps;
  const secure = config.publicUrl.startsWith('https:');
  const idleMs = config.consoleIdleMinutes * 60_000;

  // Pages for people, not operations of the API: they stay out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
    recordConsoleRoute(app, route);
  });
  acceptForms(app);
  app.decorateRequest('operator', null);

  // What a request may see is decided by its route's declaration alone, never by its path.
  app.addHook('onRequest', async (request, reply) => {
    setPageHeaders(reply);
    const access = request.routeOptions.config?.console;
    // The same for everyone: no session to look up (nor to keep alive).
    if (access === 'asset') return;
    request.operator = (await currentSession(db, sessionSecretOf(request, secure), clock(), idleMs)) ?? null;
    if (access === 'public') return;
    if (!request.operator) {
      // Back to where the operator was going once signed in: a GET's own path; a form posted
      // after the session ended goes back to the console's start (nothing was changed).
      const next = request.method === 'GET' ? request.url : '/console';
      const query = next === '/console' ? '' : `?${new URLSearchParams({ next })}`;
      return reply.redirect(`/console/sign-in${query}`, 303);
    }
    if (access === 'admin' && request.operator.user.role !== 'admin') {
      const c = consoleStrings(viewerOf(request).language);
      return showConsole(reply, 403, consoleMessage(viewerOf(request), c.forbiddenTitle, [c.forbiddenBody]));
    }
  });

  // Every form of a signed-in operator carries the session's token: a page of another site cannot
  // know it, so a forged POST changes nothing. (The public forms check their own token.)
  app.addHook('preHandler', async (request, reply) => {
    const access = request.routeOptions.config?.console;
    if (request.method !== 'POST' || access === 'public' || access === 'asset') return;
    if (!sessionCsrfMatches(request, fieldsOf(request.body).csrf)) {
      return showConsole(reply, 403, formExpiredView(viewerOf(request)));
    }
  });

  const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = viewerOf(request);
    const c = consoleStrings(viewer.language);
    return showConsole(
      reply,
      404,
      consoleMessage(viewer, c.notFoundTitle, [c.notFoundBody], { href: '/console', text: c.goToDashboard }),
    );
  };
  app.setNotFoundHandler(notFound);

  app.setErrorHandler((error, request, reply) => {
    const viewer = viewerOf(request);
    const c = consoleStrings(viewer.language);
    const status = pageStatusOf(error);
    const reason = error instanceof Error ? error.message : String(error);
    if (status === 404) {
      return showConsole(
        reply,
        404,
        consoleMessage(viewer, c.notFoundTitle, [c.notFoundBody], {
          href: '/console',
          text: c.goToDashboard,
        }),
      );
    }
    const clientError = status !== undefined && status >= 400 && status < 500;
    const unavailable = !clientError && isDatabaseUnavailable(error);
    if (clientError) request.log.info({ statusCode: status, reason }, 'console page refused');
    else if (unavailable) request.log.warn({ reason }, 'console page: database unavailable');
    else request.log.error({ err: error }, 'console page failed');
    if (unavailable) reply.header('retry-after', DATABASE_RETRY_AFTER);
    const t = stringsFor(viewer.language);
    return showConsole(
      reply,
      clientError ? (status as number) : unavailable ? 503 : 500,
      consoleMessage(viewer, t.errorTitle, [t.errorBody]),
    );
  });

  // The one stylesheet (the participant pages'), served here too so the console never depends on
  // where the questionnaire is hosted; cached for a year, its address changes with its content.
  const asset = { config: { console: 'asset' as const } };
  app.get('/assets/assay.css', asset, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', `"${STYLESHEET_VERSION}"`)
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );

  // The optional script (progress refresh): revalidated by its version, never required.
  app.get('/assets/console.js', asset, async (_request, reply) =>
    reply
      .header('cache-control', 'public, no-cache')
      .header('etag', `"${CONSOLE_SCRIPT_VERSION}"`)
      .type('text/javascript; charset=utf-8')
      .send(CONSOLE_SCRIPT),
  );

  // Any other path under the assets is no asset: not found, whatever the method, for anyone, and
  // without a session either.
  app.all('/assets/*', asset, notFound);

  await app.register(signInRoutes, deps);
  await app.register(dashboardRoutes, deps);
  await app.register(accountRoutes, deps);
  await app.register(brandingRoutes, deps);
  await app.register(mailRoutes, deps);
  await app.register(wizardRoutes, deps);
  await app.register(campaignRoutes, deps);
  await app.register(retentionRoutes, deps);
  await app.register(memberPages, deps);
  await app.register(groupPages, deps);
  await app.register(importPages, deps);
  await app.register(groupReportPages, deps);
  await app.register(reportPages, deps);
  await app.register(reportImportPages, deps);
  await app.register(accessRoutes, deps);
  await app.register(webhookRoutes, deps);
  await app.register(inviteRoutes, deps);
  await app.register(auditLogRoutes, deps);
}
