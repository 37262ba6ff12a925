import type { OutboxStatus } from '../../mail/mail.table.js';
import type { PlatformStage, RenderedMail } from '../../mail/mail.types.js';
import type { OutboxMail } from '../../mail/outbox.service.js';
import { fill } from '../../pages/strings.js';
import type { MailStage } from '../../variants/variant.types.js';
import { consoleDateTime, consoleNumber } from '../format.js';
import { type MailStrings, mailStrings } from '../mail-strings.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

export const MAIL_PAGE_SIZE = 50;
const STATUSES: readonly (OutboxStatus | 'all')[] = [
  'all',
  'queued',
  'sending',
  'sent',
  'failed',
  'captured',
];

/** Where the next page of the list starts: the last mail shown, as `created~id`. */
export const cursorOf = (mail: Pick<OutboxMail, 'created' | 'id'>) => `${mail.created}~${mail.id}`;
export function parseCursor(text: string | undefined): { created: string; id: string } | undefined {
  if (!text) return undefined;
  const at = text.lastIndexOf('~');
  if (at <= 0 || text.length > 200) return undefined;
  return { created: text.slice(0, at), id: text.slice(at + 1) };
}

const stageName = (m: MailStrings, stage: string) =>
  m.stageNames[stage as MailStage | PlatformStage] ?? stage;

/** The address of the list with these filters. */
export function mailListHref(filter: { campaign?: string; status?: OutboxStatus; before?: string }): string {
  const query = new URLSearchParams();
  if (filter.campaign) query.set('campaign', filter.campaign);
  if (filter.status) query.set('status', filter.status);
  if (filter.before) query.set('before', filter.before);
  const text = query.toString();
  return text ? `/console/mail?${text}` : '/console/mail';
}

export interface MailListInput {
  readonly mails: readonly OutboxMail[];
  readonly counts: Readonly<Record<OutboxStatus, number>>;
  readonly campaign?: { id: string; name: string };
  readonly status?: OutboxStatus;
  readonly before?: string;
  readonly smtpConfigured: boolean;
  /** How many mails the last action queued again. */
  readonly queued?: number;
}

/** The outbox: of the instance or one campaign, by status, newest first; retry and send actions. */
export function mailListView(viewer: Viewer, input: MailListInput): ConsoleView {
  const base = chrome(viewer, 'mail');
  const m = mailStrings(viewer.language);
  const number = (n: number) => consoleNumber(viewer.language, n);
  const shown = input.mails.slice(0, MAIL_PAGE_SIZE);
  const more = input.mails.length > MAIL_PAGE_SIZE;
  const campaign = input.campaign?.id;
  const title = input.campaign ? fill(m.titleCampaign, { campaign: input.campaign.name }) : m.title;
  const total = Object.values(input.counts).reduce((a, b) => a + b, 0);
  return {
    template: 'console/mail-list',
    model: {
      ...base,
      m,
      title,
      heading: title,
      campaignHref: campaign ? `/console/campaigns/${campaign}` : undefined,
      campaignName: input.campaign?.name,
      allHref: campaign ? mailListHref({}) : undefined,
      campaignId: campaign,
      filters: STATUSES.map((status) => {
        const count = status === 'all' ? total : input.counts[status];
        return {
          href: mailListHref({ campaign, status: status === 'all' ? undefined : status }),
          text: `${m.statusNames[status]} (${number(count)})`,
          current: (input.status ?? 'all') === status,
        };
      }),
      rows: shown.map((mail) => ({
        href: `/console/mail/${mail.id}`,
        recipient: mail.recipient,
        stage: stageName(m, mail.stage),
        status: m.statusNames[mail.status],
        statusClass: `tag--mail-${mail.status}`,
        created: consoleDateTime(viewer.language, mail.created),
        answer: mail.lastresponse ?? '',
      })),
      empty: shown.length === 0 ? m.none : undefined,
      older: more
        ? mailListHref({ campaign, status: input.status, before: cursorOf(shown.at(-1) as OutboxMail) })
        : undefined,
      newest: input.before ? mailListHref({ campaign, status: input.status }) : undefined,
      failed:
        input.counts.failed > 0
          ? {
              count: input.counts.failed,
              button: fill(m.retryFailedCount, { count: number(input.counts.failed) }),
            }
          : undefined,
      captured:
        input.counts.captured > 0
          ? {
              button:
                input.counts.captured === 1
                  ? m.sendCapturedOne
                  : fill(m.sendCapturedCount, { count: number(input.counts.captured) }),
              canSend: input.smtpConfigured,
            }
          : undefined,
      notice:
        input.queued === undefined
          ? undefined
          : input.queued === 1
            ? m.queuedAgainOne
            : fill(m.queuedAgain, { count: number(input.queued) }),
    },
  };
}

/** One mail: its headers and state, the server's last answer, its text (and a link to its HTML). */
export function mailView(
  viewer: Viewer,
  input: {
    mail: OutboxMail;
    from: string;
    rendered: RenderedMail | { error: string };
    campaign?: { id: string; name: string };
  },
): ConsoleView {
  const base = chrome(viewer, 'mail');
  const m = mailStrings(viewer.language);
  const { mail, rendered } = input;
  const when = (moment: string | null) => consoleDateTime(viewer.language, moment);
  const title = fill(m.mailTitle, { recipient: mail.recipient });
  const row = (key: string, value: string, href?: string) => ({ key, value, href });
  return {
    template: 'console/mail',
    model: {
      ...base,
      m,
      title,
      heading: title,
      backHref: mailListHref({ campaign: mail.campaignid ?? undefined }),
      rows: [
        row(m.status, m.statusNames[mail.status]),
        row(m.from, input.from),
        row(m.to, mail.recipient),
        ...('error' in rendered ? [] : [row(m.subject, rendered.subject)]),
        row(m.stage, stageName(m, mail.stage)),
        row(m.language, mail.language),
        ...(input.campaign
          ? [row(m.campaign, input.campaign.name, `/console/campaigns/${input.campaign.id}`)]
          : []),
        row(m.messageId, mail.messageid),
        row(m.created, when(mail.created)),
        ...(mail.sent ? [row(m.sent, when(mail.sent))] : []),
        ...(mail.nextattempt ? [row(m.nextAttempt, when(mail.nextattempt))] : []),
        row(m.attempts, String(mail.attempts)),
        ...(mail.lastresponse ? [row(m.lastAnswer, mail.lastresponse)] : []),
      ],
      text: 'error' in rendered ? undefined : rendered.text,
      problem: 'error' in rendered ? fill(m.notRenderable, { reason: rendered.error }) : undefined,
      htmlHref: 'error' in rendered ? undefined : `/console/mail/${mail.id}/html`,
      retry:
        mail.status === 'failed' || mail.status === 'captured' ? `/console/mail/${mail.id}/retry` : undefined,
    },
  };
}
