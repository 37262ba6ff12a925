import type { Generated, Insertable, Selectable } from 'kysely';

/** A subscription: where events go, signed with its secret. */
export interface WebhookSubscriptionTable {
  id: string;
  owner_id: string | null;
  url: string;
  /** Space-separated event types. */
  events: string;
  description: string | null;
  enabled: number;
  /** `whsec_<base64>`. */
  secret: string;
  /** The secret before the last rotation: it signs too until `previous_until`. */
  previous_secret: string | null;
  previous_until: string | null;
  /** The first failed attempt since the last delivered one. */
  failing_since: string | null;
  /** Nothing of it is sent before this: its receiver stopped answering (delivery.ts). */
  hold_until: string | null;
  disabled_reason: string | null;
  created: string;
  updated: string;
}
export type SubscriptionRow = Selectable<WebhookSubscriptionTable>;

export type WebhookStatus = 'queued' | 'sending' | 'delivered' | 'failed';

/** One event for one subscription, written in the transaction of the change that causes it. */
export interface WebhookOutboxTable {
  seq: Generated<number>;
  id: string;
  subscription_id: string;
  event_type: string;
  /** A member's messages are delivered in `seq` order; null: any order. */
  order_key: string | null;
  payload: string;
  status: WebhookStatus;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  lease_owner: string | null;
  created: string;
  delivered_at: string | null;
}
export type MessageRow = Selectable<WebhookOutboxTable>;
export type NewMessageRow = Insertable<WebhookOutboxTable>;

/** One attempt at delivering a message. */
export interface WebhookAttemptTable {
  id: Generated<number>;
  message_id: string;
  subscription_id: string;
  attempt: number;
  at: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
}
