import type { WebhookEvent } from '@assay/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { BusinessError } from '../domain/errors.js';
import { formValues } from '../http/form-body.js';
import { type ApiInstance, fieldsOf } from '../http/route-schema.js';
import { fill } from '../pages/strings.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  patchWebhook,
  rotateSecret,
  testWebhook,
} from '../webhooks/webhooks.service.js';
import { consoleActorOf, doneText, showConsole, showSecret, signedDone, viewerOf } from './console-kit.js';
import { problemsOf } from './refusals.js';
import {
  type WebhookFormValues,
  type WebhookProblem,
  webhookDeleteView,
  webhookFormView,
  webhookHref,
  webhookProblem,
  webhookSecretView,
  webhooksView,
  webhookView,
} from './views/webhooks.view.js';
import { webhooksStrings } from './webhooks-strings.js';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Done = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 300 })),
  sig: Type.Optional(Type.String({ maxLength: 100 })),
  changed: Type.Optional(Type.String({ maxLength: 20 })),
  test: Type.Optional(Type.String({ maxLength: 100 })),
});
/** How many delivery attempts the webhook's page lists. */
const DELIVERIES_SHOWN = 50;

function formOf(body: unknown): WebhookFormValues {
  const fields = fieldsOf(body);
  return {
    url: typeof fields.url === 'string' ? fields.url.trim() : '',
    events: formValues(body, 'events'),
    description: typeof fields.description === 'string' ? fields.description.trim() : '',
  };
}

/** The events ticked, as the service takes them: it checks each name itself (an unknown one is refused). */
const eventsOf = (values: WebhookFormValues) => values.events as WebhookEvent[];

/** What the form's own check finds before the service is asked: no address, no event. */
function formProblems(request: FastifyRequest, values: WebhookFormValues): WebhookProblem[] {
  const w = webhooksStrings(viewerOf(request).language);
  const problems: WebhookProblem[] = [];
  if (values.url === '') problems.push({ field: 'url', text: w.urlMissing });
  if (values.events.length === 0) problems.push({ field: 'events', text: w.eventsMissing });
  return problems;
}

/** A service's refusal as the form's problems, each by its field. */
const refusedProblems = (request: FastifyRequest, error: unknown): WebhookProblem[] => {
  if (!(error instanceof BusinessError)) throw error;
  return problemsOf(error.message).map((message) => webhookProblem(viewerOf(request), message));
};

/**
 * Webhooks (Standard Webhooks subscriptions): list, add (the secret shown once), change, turn
 * off and on, send a test event, a new secret, delete, and the latest deliveries. Any signed-in
 * user, as any token with the `webhooks` scope may; the same service as `/api/v1/webhooks` and
 * `assay webhooks …`, so the same checks (the SSRF guard included) and audit entries.
 */
export async function webhookRoutes(app: ApiInstance, deps: AppContext) {
  const page = async (request: FastifyRequest, reply: FastifyReply, id: string, notice?: string) =>
    showConsole(
      reply,
      200,
      webhookView(viewerOf(request), {
        webhook: await getWebhook(deps, id),
        deliveries: await listDeliveries(deps, id, DELIVERIES_SHOWN),
        notice,
      }),
    );

  app.get('/webhooks', { schema: { querystring: Done } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const deleted = doneText(request, request.query);
    return showConsole(
      reply,
      200,
      webhooksView(viewer, {
        webhooks: await listWebhooks(deps),
        notice:
          deleted === undefined
            ? undefined
            : fill(webhooksStrings(viewer.language).deleted, { name: deleted }),
      }),
    );
  });

  app.get('/webhooks/new', async (request, reply) =>
    showConsole(reply, 200, webhookFormView(viewerOf(request))),
  );

  app.post('/webhooks', async (request, reply) => {
    const viewer = viewerOf(request);
    const values = formOf(request.body);
    let problems = formProblems(request, values);
    if (problems.length === 0) {
      try {
        const created = await createWebhook(deps, consoleActorOf(request), {
          url: values.url,
          events: eventsOf(values),
          ...(values.description === '' ? {} : { description: values.description }),
        });
        return showSecret(reply, 201, webhookSecretView(viewer, created));
      } catch (error) {
        problems = refusedProblems(request, error);
      }
    }
    return showConsole(reply, 400, webhookFormView(viewer, { values, problems }));
  });

  app.get('/webhooks/:id', { schema: { params: Id, querystring: Done } }, async (request, reply) => {
    const w = webhooksStrings(viewerOf(request).language);
    const { changed, test } = request.query;
    const notice =
      test !== undefined
        ? fill(w.testQueued, { id: test })
        : changed === 'enabled'
          ? w.enabledNotice
          : changed === 'disabled'
            ? w.disabledNotice
            : changed === 'saved'
              ? w.savedNotice
              : undefined;
    return page(request, reply, request.params.id, notice);
  });

  app.get('/webhooks/:id/edit', { schema: { params: Id } }, async (request, reply) =>
    showConsole(
      reply,
      200,
      webhookFormView(viewerOf(request), { webhook: await getWebhook(deps, request.params.id) }),
    ),
  );

  app.post('/webhooks/:id/edit', { schema: { params: Id } }, async (request, reply) => {
    const webhook = await getWebhook(deps, request.params.id);
    const values = formOf(request.body);
    let problems = formProblems(request, values);
    if (problems.length === 0) {
      try {
        await patchWebhook(
          deps,
          webhook.webhookid,
          { url: values.url, events: eventsOf(values), description: values.description },
          consoleActorOf(request),
        );
        return reply.redirect(`${webhookHref(webhook.webhookid)}?changed=saved`, 303);
      } catch (error) {
        problems = refusedProblems(request, error);
      }
    }
    return showConsole(reply, 400, webhookFormView(viewerOf(request), { webhook, values, problems }));
  });

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(`/webhooks/:id/${action}`, { schema: { params: Id } }, async (request, reply) => {
      const webhook = await getWebhook(deps, request.params.id);
      await patchWebhook(deps, webhook.webhookid, { enabled }, consoleActorOf(request));
      return reply.redirect(`${webhookHref(webhook.webhookid)}?changed=${action}d`, 303);
    });
  }

  app.post('/webhooks/:id/test', { schema: { params: Id } }, async (request, reply) => {
    const id = request.params.id;
    try {
      const { messageid } = await testWebhook(deps, id, consoleActorOf(request));
      return reply.redirect(`${webhookHref(id)}?test=${encodeURIComponent(messageid)}`, 303);
    } catch (error) {
      // Turned off meanwhile (in another tab): its page says where it stands.
      if (!(error instanceof BusinessError)) throw error;
      return reply.redirect(webhookHref(id), 303);
    }
  });

  app.post('/webhooks/:id/rotate', { schema: { params: Id } }, async (request, reply) => {
    const rotated = await rotateSecret(deps, request.params.id, consoleActorOf(request));
    return showSecret(reply, 200, webhookSecretView(viewerOf(request), rotated));
  });

  app.get('/webhooks/:id/delete', { schema: { params: Id } }, async (request, reply) =>
    showConsole(reply, 200, webhookDeleteView(viewerOf(request), await getWebhook(deps, request.params.id))),
  );

  app.post('/webhooks/:id/delete', { schema: { params: Id } }, async (request, reply) => {
    const webhook = await getWebhook(deps, request.params.id);
    await deleteWebhook(deps, webhook.webhookid, consoleActorOf(request));
    return reply.redirect(`/console/webhooks?${signedDone(request, webhook.url)}`, 303);
  });
}
