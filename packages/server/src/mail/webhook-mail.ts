import { asOneLine } from '../util/safe-text.js';
import type { MailPerson, RenderedMail } from './mail.types.js';
import { escapeHtml } from './templates/handlebars.js';
import { htmlDocument } from './templates/layout.js';

/**
 * The mail telling a subscription's owner that it was disabled for failing 3 days in a row
 * (docs/webhooks.md). A platform mail, tied to no campaign or variant: its own template id
 * (`webhook`) and stage, in English (platform users have no language of their own yet).
 */
export const WEBHOOK_MAIL_STAGE = 'webhook_disabled';

export interface WebhookMailParams {
  stage: typeof WEBHOOK_MAIL_STAGE;
  language: 'enUS';
  template: 'webhook';
  recipient: MailPerson;
  webhook: { id: string; url: string; reason: string };
}

/** True for the params of this mail, read back from the outbox. */
export function isWebhookMail(params: unknown): params is WebhookMailParams {
  return (
    typeof params === 'object' &&
    params !== null &&
    (params as { template?: unknown }).template === 'webhook' &&
    (params as { stage?: unknown }).stage === WEBHOOK_MAIL_STAGE
  );
}

const line = (value: unknown) => (typeof value === 'string' ? asOneLine(value).trim() : '');

export function renderWebhookMail(params: WebhookMailParams): RenderedMail {
  const name = line(params.recipient?.firstname) || 'there';
  const id = line(params.webhook?.id);
  const url = line(params.webhook?.url);
  const reason = line(params.webhook?.reason);
  const subject = `Webhook ${id} disabled: its deliveries failed for 3 days`;
  const paragraphs = [
    `Hello ${name},`,
    `The webhook subscription ${id} to ${url} was disabled: ${reason}.`,
    'Events for it are no longer queued. Once the receiver answers again, enable it with ' +
      `PATCH /api/v1/webhooks/${id} {"enabled": true} or \`assay webhooks update ${id} --enabled true\`; ` +
      `\`assay webhooks deliveries ${id}\` shows the last answers.`,
  ];
  return {
    subject,
    text: paragraphs.join('\n\n'),
    html: htmlDocument(
      'en-US',
      escapeHtml(subject),
      paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
      '',
    ),
  };
}
