import {
  ListQuery,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookPatch,
  WebhookTestResult,
  WebhookWithSecret,
} from '@assay/schema';
import Type from 'typebox';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/actor.js';
import { ok } from '../http/envelope.js';
import { type ApiInstance, idParams, requireEmptyBody, responses } from '../http/route-schema.js';
import * as webhooks from './webhooks.service.js';

const tags = ['webhooks'];
const params = idParams('webhookid');
const guard = 'webhooks' as const;
/** The attempts one call lists, newest first. */
const DELIVERIES_SHOWN = 1000;

/** The webhooks family (docs/webhooks.md): subscriptions to signed events. */
export async function webhookRoutes(app: ApiInstance, deps: AppContext) {
  app.get(
    '/webhooks',
    {
      config: { guard },
      schema: {
        tags,
        summary: 'Every subscription (no secrets)',
        querystring: ListQuery,
        response: responses(Type.Array(Webhook)),
      },
    },
    async () => ok(await webhooks.listWebhooks(deps)),
  );

  app.post(
    '/webhooks',
    {
      config: { guard },
      schema: {
        tags,
        summary: 'Subscribe a URL to events; the answer holds the secret, shown once',
        body: WebhookCreate,
        response: responses(WebhookWithSecret),
      },
    },
    async (request) => ok(await webhooks.createWebhook(deps, actorOf(request), request.body)),
  );

  app.get(
    '/webhooks/:webhookid',
    {
      config: { guard },
      schema: { tags, summary: 'One subscription', params, response: responses(Webhook) },
    },
    async (request) => ok(await webhooks.getWebhook(deps, request.params.webhookid)),
  );

  app.patch(
    '/webhooks/:webhookid',
    {
      config: { guard },
      schema: {
        tags,
        summary: 'Change url, events, description or enabled (enabling again clears the failing streak)',
        params,
        body: WebhookPatch,
        response: responses(Webhook),
      },
    },
    async (request) =>
      ok(await webhooks.patchWebhook(deps, request.params.webhookid, request.body, actorOf(request))),
  );

  app.delete(
    '/webhooks/:webhookid',
    {
      config: { guard },
      schema: {
        tags,
        summary: 'Delete a subscription with its queued messages and its deliveries',
        params,
        response: responses(Type.Literal('')),
      },
    },
    async (request) => {
      await webhooks.deleteWebhook(deps, request.params.webhookid, actorOf(request));
      return ok('');
    },
  );

  const emptyBody = { validatorCompiler: () => (value: unknown) => ({ value }) };
  app.post(
    '/webhooks/:webhookid/rotate',
    {
      config: { guard },
      schema: {
        tags,
        summary: 'A new secret (shown once); the old one keeps signing for 24 hours (empty body)',
        params,
        response: responses(WebhookWithSecret),
      },
      ...emptyBody,
    },
    async (request) => {
      requireEmptyBody(request.body);
      return ok(await webhooks.rotateSecret(deps, request.params.webhookid, actorOf(request)));
    },
  );

  app.post(
    '/webhooks/:webhookid/test',
    {
      config: { guard },
      schema: {
        tags,
        summary: 'Queue a webhook.test event to this subscription (empty body)',
        params,
        response: responses(WebhookTestResult),
      },
      ...emptyBody,
    },
    async (request) => {
      requireEmptyBody(request.body);
      return ok(await webhooks.testWebhook(deps, request.params.webhookid, actorOf(request)));
    },
  );

  app.get(
    '/webhooks/:webhookid/deliveries',
    {
      config: { guard },
      schema: {
        tags,
        summary: `The attempts at delivering this subscription's messages, newest first (the last ${DELIVERIES_SHOWN})`,
        params,
        querystring: ListQuery,
        response: responses(Type.Array(WebhookDelivery)),
      },
    },
    async (request) => ok(await webhooks.listDeliveries(deps, request.params.webhookid, DELIVERIES_SHOWN)),
  );
}
