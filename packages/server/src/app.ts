import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { auditRoutes } from './audit/audit.routes.js';
import { authorizeRoutes } from './auth/authorize.routes.js';
import { ClientVersionCache } from './auth/client-cache.js';
import { oauthRoutes } from './auth/oauth.routes.js';
import { FailureLimiter } from './auth/rate-limit.js';
import { RevokedTokenCache } from './auth/revocations.js';
import { tokenRoutes } from './auth/token.routes.js';
import { TokenService } from './auth/tokens.js';
import { campaignRoutes } from './campaigns/campaigns.routes.js';
import type { Config } from './config.js';
import { consolePages } from './console/console.plugin.js';
import type { AppContext } from './context.js';
import { type Db, isDatabaseUnavailable, ping } from './db/database.js';
import { BusinessError } from './domain/errors.js';
import { groupRoutes } from './groups/groups.routes.js';
import { auditRefusals } from './http/audit-refusals.js';
import { allowCrossOrigin } from './http/cross-origin.js';
import {
  handleClientError,
  handleError,
  handleFrameworkError,
  installMethodRules,
} from './http/error-handler.js';
import { openapiOptions } from './http/openapi.js';
import { lazyChildLogger } from './http/request-logger.js';
import { type GuardedRoute, guardRoutes } from './http/route-guard.js';
import { API_PREFIX } from './http/route-schema.js';
import { checkSecretRoute, withoutSecrets } from './http/secret-paths.js';
import { cutOffSlowReaders } from './http/send-timeout.js';
import { routeValidatorCompiler } from './http/validator.js';
import { Scheduler } from './jobs/scheduler.js';
import { MailDelivery } from './mail/delivery.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { memberRoutes } from './members/members.routes.js';
import { participantPages } from './questionnaire/pages.plugin.js';
import { reportListRoutes, reportRoutes, sampleRoutes } from './reports/reports.routes.js';
import { settingsRoutes } from './settings/settings.routes.js';
import { utf8Body } from './util/text.js';
import { loadInstanceVariants } from './variants/load-variants.js';
import type { VariantRegistry } from './variants/variant.types.js';
import { WebhookDelivery } from './webhooks/delivery.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route under /api/v1, a line per method, with what guards it (http/route-guard.ts). */
    apiRoutes: readonly GuardedRoute[];
  }
}

export interface BuildOptions {
  config: Config;
  database: Db;
  /** The variants; by default the built-ins and those in ASSAY_VARIANTS_DIR, loaded now. */
  variants?: VariantRegistry;
  /** The moment it is; tests pass a clock of their own to drive campaigns without waiting. */
  clock?: () => Date;
  /**
   * Run the scheduler and the mail delivery worker in this process (the default). Tests that
   * drive them by hand turn them off.
   */
  background?: boolean;
  /** Where the log lines go (standard output by default); tests read what was logged. */
  logStream?: { write(line: string): void };
}

/** What the log says about a request: the secrets some paths carry are left out (http/secret-paths.ts). */
const redactedRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: withoutSecrets(request.url),
  hostname: request.hostname,
  remoteAddress: request.ip,
});

/** Trust the nearest `hops` proxies (what Fastify does with a number, which its types do not take). */
const hopsOf = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The whole platform as a Fastify app; tests build it without listening. */
export async function buildApp({
  config,
  database,
  variants,
  clock = () => new Date(),
  background = true,
  logStream,
}: BuildOptions): Promise<FastifyInstance> {
  const accessLog = config.logLevel === 'debug' || config.logLevel === 'trace';
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            serializers: { req: redactedRequest },
            ...(logStream ? { stream: logStream } : {}),
          },
    bodyLimit: 1024 * 1024,
    // Behind a proxy the caller's address (for the token endpoint's guessing limit) is forwarded.
    trustProxy: typeof config.trustProxy === 'number' ? hopsOf(config.trustProxy) : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // A path the router cannot even read (bad percent-encoding, a huge segment) names no resource.
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    // One line per request only when debugging: at load the access log would dominate the cost.
    logController: new LogController({ disableRequestLogging: !accessLog }),
    // Without the access log a request's logger is made only if something is logged.
    ...(accessLog ? {} : { childLoggerFactory: lazyChildLogger }),
  });
  // A route with a secret in its path that the logs would show stops start-up here.
  app.addHook('onRoute', checkSecretRoute);
  // A client that takes nothing of its answer for ASSAY_SEND_TIMEOUT_SECONDS is cut off.
  cutOffSlowReaders(app.server, config.sendTimeoutSeconds);
  database.attachLog(app.log);
  const context: AppContext = {
    config,
    db: database.kysely,
    dialect: database.dialect,
    tokens: new TokenService(database.kysely),
    clients: new ClientVersionCache(database.kysely, database.freshness),
    revoked: new RevokedTokenCache(database.kysely, database.freshness),
    // Guesses at any process on the same PostgreSQL count against one budget (auth/rate-limit.ts).
    limiter: new FailureLimiter(config.tokenFailuresPerMinute, clock).share(
      database.kysely,
      database.dialect,
      'credentials',
    ),
    signInLimiter: new FailureLimiter(config.tokenFailuresPerMinute, clock).share(
      database.kysely,
      database.dialect,
      'sign-in',
    ),
    variants: variants ?? loadInstanceVariants(config),
    clock,
    mailQueued: () => {
      delivery?.notify();
      webhookDelivery?.notify();
    },
    campaignsDue: () => scheduler?.wake(),
  };
  // Both work from the database alone, so any number of processes may run them side by side.
  const delivery = background
    ? new MailDelivery({
        db: database.kysely,
        dialect: database.dialect,
        variants: context.variants,
        smtpUrl: config.smtpUrl,
        mailFrom: config.mailFrom,
        clock,
        leaseMs: config.mailLeaseSeconds * 1000,
        log: app.log,
      })
    : undefined;
  const webhookDelivery = background
    ? new WebhookDelivery({
        db: database.kysely,
        dialect: database.dialect,
        policy: { allowPrivate: config.webhookAllowPrivate, allowHttp: config.webhookAllowHttp },
        mailFrom: config.mailFrom,
        // The owner of a subscription disabled for failing is mailed.
        onDisabled: () => delivery?.notify(),
        clock,
        leaseMs: config.mailLeaseSeconds * 1000,
        log: app.log,
      })
    : undefined;
  const scheduler = background
    ? new Scheduler(context, { tickSeconds: config.tickSeconds, log: app.log })
    : undefined;
  app.addHook('onReady', async () => {
    delivery?.start();
    webhookDelivery?.start();
    scheduler?.start();
  });
  app.addHook('onClose', async () => {
    await scheduler?.stop();
    await delivery?.stop();
    await webhookDelivery?.stop();
  });

  // The schema that documents a route validates it too; the answer is shaped by the services.
  app.setValidatorCompiler(routeValidatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler(handleError);
  const wrongMethod = installMethodRules(app);
  // Declared up front so every request object keeps one shape (Fastify's advice for speed).
  app.decorateRequest('principal', null as unknown as FastifyRequest['principal']);
  const apiRoutes: GuardedRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);

  // Fastify parses text/plain by default; JSON is the only body type here.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // A path no route serves is 404 whatever its body: the route is decided before the body.
    if (request.is404) return done(null, undefined);
    const decoded = utf8Body(body as Buffer, request.headers['content-type']);
    if (decoded === undefined) return done(new BusinessError('body: must be UTF-8'), undefined);
    const text = decoded.trim();
    if (text === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return done(new BusinessError('body: not valid JSON'), undefined);
    }
    done(null, parsed);
  });
  // JSON is the only body type here; the token endpoint, the sign-in form and the CSV import add
  // their own types in their own plugin scope, so no other route ever parses a form or a text.

  // Web pages of the origins the operator names may call the token surfaces (http/cross-origin.ts).
  allowCrossOrigin(app, config.corsOrigins);

  // The document of every API route, from the routes' own schemas (http/openapi.ts).
  await app.register(swagger, openapiOptions(config, context.variants, apiRoutes));
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Everything the page needs is served by the instance: no outside hosts, and no upgrade to
    // https, which would break the page on an instance served over plain http.
    transformStaticCSP: (header) =>
      header
        .replace(' upgrade-insecure-requests;', '')
        .replace(' validator.swagger.io', '')
        .replaceAll(' https:', ''),
  });

  // The participant pages: their own scope (form bodies, page headers, HTML errors).
  await app.register(participantPages, context);
  // The operator console: its own scope too (sessions, forms, page headers, HTML errors).
  await app.register((scope) => consolePages(scope, context), { prefix: '/console' });

  // OAuth 2.0 as the RFCs define it (token, revocation, metadata), beside the interface's endpoint.
  await app.register(oauthRoutes, context);
  // MCP over Streamable HTTP, with the protected resource metadata its clients start from.
  await app.register((scope) => mcpRoutes(scope, context));

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ping(database.kysely);
    } catch (error) {
      // The database cannot be reached: unavailable, which is what the probe asks. Anything else is
      // a fault of its own, answered 500 and logged like any other.
      if (!isDatabaseUnavailable(error)) throw error;
      return reply.code(503).send({ status: 'unavailable' });
    }
    return { status: 'ok' };
  });

  await app.register(
    async (api) => {
      // Answers hold personal data and tokens: never kept by a cache on the way, never read as
      // another type than they say.
      api.addHook('onRequest', (_request, reply, done) => {
        reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
        done();
      });
      // Every route says what guards it (a scope family, or public); one that does not stops
      // start-up here, so a new route is never open by accident.
      guardRoutes(api, context, { wrongMethod, seen: apiRoutes });
      // A write refused (401, 403) or failed (another 4xx, a 5xx) leaves an audit entry of its own.
      auditRefusals(api, context.db, API_PREFIX, context.clock);
      api.get('/openapi.json', { schema: { hide: true }, config: { guard: 'public' } }, async () =>
        app.swagger(),
      );
      await api.register(tokenRoutes, context);
      await api.register(authorizeRoutes, context);
      await api.register(memberRoutes, context);
      await api.register(groupRoutes, context);
      await api.register(campaignRoutes, context);
      await api.register(reportRoutes, context);
      await api.register(reportListRoutes, context);
      await api.register(sampleRoutes, context);
      await api.register(settingsRoutes, context);
      await api.register(webhookRoutes, context);
      await api.register(auditRoutes, context);
    },
    { prefix: API_PREFIX },
  );
  return app;
}
