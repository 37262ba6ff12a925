import { asIs } from '../normalise.js';
import type { Transport } from '../transport.js';
import type {
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookPatch,
  WebhookTestResult,
  WebhookWithSecret,
} from '../types.js';
import { nothing, seg } from './shared.js';

/** The webhooks family (scope `webhooks`): subscriptions to signed events (docs/webhooks.md). */
export class Webhooks {
  constructor(private readonly http: Transport) {}

  /** GET /webhooks: every subscription, without secrets. */
  list(): Promise<Webhook[]> {
    return this.http.call('GET', '/webhooks', asIs<Webhook[]>);
  }

  /** POST /webhooks: the answer holds `secret` (`whsec_...`), shown this once. */
  create(webhook: WebhookCreate): Promise<WebhookWithSecret> {
    return this.http.call('POST', '/webhooks', asIs<WebhookWithSecret>, { body: { json: webhook } });
  }

  /** GET /webhooks/{webhookid}. */
  get(webhookId: string): Promise<Webhook> {
    return this.http.call('GET', `/webhooks/${seg(webhookId)}`, asIs<Webhook>);
  }

  /** PATCH /webhooks/{webhookid}: url, events, description, enabled. */
  update(webhookId: string, patch: WebhookPatch): Promise<Webhook> {
    return this.http.call('PATCH', `/webhooks/${seg(webhookId)}`, asIs<Webhook>, { body: { json: patch } });
  }

  /** DELETE /webhooks/{webhookid}. */
  delete(webhookId: string): Promise<void> {
    return this.http.call('DELETE', `/webhooks/${seg(webhookId)}`, nothing);
  }

  /** POST /webhooks/{webhookid}/rotate: a new secret, shown once; the old one signs for 24 hours more. */
  rotate(webhookId: string): Promise<WebhookWithSecret> {
    return this.http.call('POST', `/webhooks/${seg(webhookId)}/rotate`, asIs<WebhookWithSecret>);
  }

  /** POST /webhooks/{webhookid}/test: queues a `webhook.test` event; answers its webhook-id. */
  test(webhookId: string): Promise<WebhookTestResult> {
    return this.http.call('POST', `/webhooks/${seg(webhookId)}/test`, asIs<WebhookTestResult>);
  }

  /** GET /webhooks/{webhookid}/deliveries: the attempts, newest first. */
  deliveries(webhookId: string): Promise<WebhookDelivery[]> {
    return this.http.call('GET', `/webhooks/${seg(webhookId)}/deliveries`, asIs<WebhookDelivery[]>);
  }
}
