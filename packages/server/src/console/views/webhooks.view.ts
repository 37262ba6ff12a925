import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '@assay/schema';
import { fill } from '../../pages/strings.js';
import { consoleDateTime, consoleNumber } from '../format.js';
import { refusalIn, splitProblem } from '../refusals.js';
import { webhooksStrings } from '../webhooks-strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** What the webhook form was given, to show it again with its problems. */
export interface WebhookFormValues {
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string;
}

export type WebhookField = 'url' | 'events' | 'description';
export interface WebhookProblem {
  readonly field: WebhookField;
  readonly text: string;
}

const EMPTY: WebhookFormValues = { url: '', events: [], description: '' };
export const webhookHref = (id: string) => `/console/webhooks/${encodeURIComponent(id)}`;

/**
 * A service's refusal (`url: …`, `events: …`, `description: …`, or a target refused by the
 * SSRF guard) as the form's problem, translated, by the field it names (the address when it
 * names none).
 */
export function webhookProblem(viewer: Viewer, message: string): WebhookProblem {
  const named = splitProblem(message).field;
  const field: WebhookField = named === 'events' || named === 'description' ? named : 'url';
  return { field, text: refusalIn(viewer.language, message) };
}

/** The events of a subscription in plain words, each with its name. */
const eventWords = (viewer: Viewer, events: readonly string[]) => {
  const w = webhooksStrings(viewer.language);
  return events.map((event) => ({
    name: event,
    text: w.eventWords[event as keyof typeof w.eventWords] ?? event,
  }));
};

/** Whether a webhook is on (or why it is off), and since when it fails, in the viewer's words. */
function stateOf(viewer: Viewer, webhook: Webhook) {
  const w = webhooksStrings(viewer.language);
  return {
    status: webhook.enabled
      ? w.enabled
      : webhook.disabledreason
        ? fill(w.disabledBecause, { reason: webhook.disabledreason })
        : w.disabled,
    failing: webhook.failingsince
      ? fill(w.failingSince, { date: consoleDateTime(viewer.language, webhook.failingsince) })
      : undefined,
  };
}

/** The list: every subscription of the instance, oldest first. */
export function webhooksView(
  viewer: Viewer,
  input: { webhooks: readonly Webhook[]; notice?: string },
): ConsoleView {
  const w = webhooksStrings(viewer.language);
  return {
    template: 'console/webhooks',
    model: {
      ...chrome(viewer, 'webhooks'),
      w,
      title: w.title,
      notice: input.notice,
      webhooks: input.webhooks.map((webhook) => ({
        href: webhookHref(webhook.webhookid),
        url: webhook.url,
        description: webhook.description,
        events: eventWords(viewer, webhook.events),
        ...stateOf(viewer, webhook),
        off: !webhook.enabled,
        created: consoleDateTime(viewer.language, webhook.created),
      })),
    },
  };
}

/** The form that adds a webhook (no `webhook`) or changes one. */
export function webhookFormView(
  viewer: Viewer,
  input: { webhook?: Webhook; values?: WebhookFormValues; problems?: readonly WebhookProblem[] } = {},
): ConsoleView {
  const w = webhooksStrings(viewer.language);
  const { webhook } = input;
  const values =
    input.values ??
    (webhook ? { url: webhook.url, events: webhook.events, description: webhook.description ?? '' } : EMPTY);
  const problems = input.problems ?? [];
  const errorOf = (field: WebhookField) => problems.find((problem) => problem.field === field)?.text;
  const title = webhook ? w.editTitle : w.newTitle;
  return {
    template: 'console/webhook-form',
    model: {
      ...chrome(viewer, 'webhooks'),
      w,
      title,
      action: webhook ? `${webhookHref(webhook.webhookid)}/edit` : '/console/webhooks',
      submit: webhook ? w.save : w.create,
      cancelHref: webhook ? webhookHref(webhook.webhookid) : '/console/webhooks',
      values,
      urlError: errorOf('url'),
      eventsError: errorOf('events'),
      descriptionError: errorOf('description'),
      eventChoices: WEBHOOK_EVENTS.map((event, index) => ({
        id: index === 0 ? 'events' : `event-${event.replace('.', '-')}`,
        value: event,
        text: w.eventWords[event],
        checked: values.events.includes(event),
      })),
      errors:
        problems.length > 0
          ? problems.map((problem) => ({ href: `#${problem.field}`, text: problem.text }))
          : undefined,
    },
  };
}

/** One webhook: what it sends where, its latest deliveries, and what can be done with it. */
export function webhookView(
  viewer: Viewer,
  input: { webhook: Webhook; deliveries: readonly WebhookDelivery[]; notice?: string },
): ConsoleView {
  const w = webhooksStrings(viewer.language);
  const { webhook } = input;
  const href = webhookHref(webhook.webhookid);
  const number = (n: number) => consoleNumber(viewer.language, n);
  return {
    template: 'console/webhook',
    model: {
      ...chrome(viewer, 'webhooks'),
      w,
      title: webhook.url,
      notice: input.notice,
      url: webhook.url,
      description: webhook.description,
      events: eventWords(viewer, webhook.events),
      ...stateOf(viewer, webhook),
      enabled: webhook.enabled,
      created: consoleDateTime(viewer.language, webhook.created),
      updated: consoleDateTime(viewer.language, webhook.updated),
      editHref: `${href}/edit`,
      testAction: `${href}/test`,
      enableAction: `${href}/${webhook.enabled ? 'disable' : 'enable'}`,
      rotateAction: `${href}/rotate`,
      deleteHref: `${href}/delete`,
      deliveries: input.deliveries.map((delivery) => ({
        when: consoleDateTime(viewer.language, delivery.at),
        event: delivery.event,
        attempt: number(delivery.attempt),
        answer: delivery.httpstatus === null ? (delivery.error ?? '') : `HTTP ${delivery.httpstatus}`,
        ok: delivery.httpstatus !== null && delivery.httpstatus >= 200 && delivery.httpstatus < 300,
        duration: fill(w.milliseconds, { ms: number(delivery.durationms) }),
        message:
          w.messageStatuses[delivery.messagestatus as keyof typeof w.messageStatuses] ??
          delivery.messagestatus,
      })),
    },
  };
}

/** A new secret (of a webhook added, or rotated), shown once. */
export function webhookSecretView(viewer: Viewer, webhook: Webhook & { secret: string }): ConsoleView {
  const w = webhooksStrings(viewer.language);
  return {
    template: 'console/webhook-secret',
    model: {
      ...chrome(viewer, 'webhooks'),
      w,
      title: w.secretTitle,
      url: webhook.url,
      secret: webhook.secret,
      backHref: webhookHref(webhook.webhookid),
    },
  };
}

/** "Delete the webhook to …?" with its button. */
export function webhookDeleteView(viewer: Viewer, webhook: Webhook): ConsoleView {
  const w = webhooksStrings(viewer.language);
  const href = webhookHref(webhook.webhookid);
  return {
    template: 'console/webhook-delete',
    model: {
      ...chrome(viewer, 'webhooks'),
      w,
      title: w.deleteTitle,
      body: fill(w.deleteBody, { url: webhook.url }),
      action: `${href}/delete`,
      cancelHref: href,
    },
  };
}
