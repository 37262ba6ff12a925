import Type, { type Static } from 'typebox';
import { CoercedBoolean, DateTime, Id, Lines, NullableString } from './common.js';

/** The events a subscription may ask for (docs/webhooks.md gives each one's data). */
export const WEBHOOK_EVENTS = [
  'campaignmember.invited',
  'campaignmember.started',
  'campaignmember.completed',
  'report.created',
  'report.deleted',
  'campaign.ended',
  'member.deleted',
  'mail.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const EventName = Type.Enum(WEBHOOK_EVENTS, { description: `one of ${WEBHOOK_EVENTS.join(', ')}` });
const Events = Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'https (http only where the operator allows it); not a loopback, private or link-local address',
});
const Description = Type.Union([Type.String({ maxLength: 1000, ...Lines }), Type.Null()]);

/** A subscription, as every answer but create and rotate gives it (no secret). */
export const Webhook = Type.Object(
  {
    webhookid: Id,
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: NullableString(),
    enabled: Type.Boolean(),
    disabledreason: NullableString({
      description: 'why the server disabled it (failing for 3 days), else null',
    }),
    failingsince: Type.Union([DateTime, Type.Null()], {
      description: 'the first failed attempt since the last delivered one',
    }),
    created: DateTime,
    updated: DateTime,
  },
  { additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;

/** Create and rotate answer the secret, once: it is never shown again. */
export const WebhookWithSecret = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({ description: '`whsec_` and the base64 key: shown once, keep it' }),
  },
  { additionalProperties: false },
);
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;

/** POST /webhooks. */
export const WebhookCreate = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  { additionalProperties: true },
);
export type WebhookCreate = Static<typeof WebhookCreate>;

/** PATCH /webhooks/{webhookid}: any subset. */
export const WebhookPatch = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(CoercedBoolean),
  },
  { additionalProperties: true },
);
export type WebhookPatch = Static<typeof WebhookPatch>;

/** One attempt at delivering a message, newest first. */
export const WebhookDelivery = Type.Object(
  {
    messageid: Type.String({ description: 'the webhook-id header: msg_ and the message id' }),
    event: Type.String(),
    attempt: Type.Integer({ minimum: 1 }),
    at: DateTime,
    httpstatus: Type.Union([Type.Integer(), Type.Null()]),
    error: NullableString({ description: 'why there was no answer (timeout, refused address), else null' }),
    durationms: Type.Integer({ minimum: 0 }),
    messagestatus: Type.String({ description: 'queued, sending, delivered or failed' }),
  },
  { additionalProperties: false },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** POST /webhooks/{webhookid}/test: the message queued. */
export const WebhookTestResult = Type.Object({ messageid: Type.String() }, { additionalProperties: false });
export type WebhookTestResult = Static<typeof WebhookTestResult>;
