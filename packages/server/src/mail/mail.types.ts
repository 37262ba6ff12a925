import type { Language, MailStage } from '../variants/variant.types.js';
import type { WebhookMailParams } from './webhook-mail.js';

/** A person a mail is addressed to or speaks of. */
export interface MailPerson {
  title?: string;
  firstname: string;
  lastname: string;
  email: string;
}

/**
 * Everything a mail is rendered with. It is stored with the outbox row (JSON), so a mail can be
 * rendered again for delivery, a retry, `assay mail show` or a preview, always the same way.
 */
export interface MailParams {
  stage: MailStage;
  language: Language;
  /** The template id: `standard` (shipped with Assay), `variant` (the variant's own mail texts), or another id. */
  template: string;
  /** The variant alias of the campaign. */
  variant: string;
  /** `config.custommailsubject[stage]` of the campaign, when set: replaces the template's subject. */
  subject?: string;
  recipient: MailPerson;
  campaign: {
    id: string;
    name: string;
    /** The closing moment (wire form), or null when the campaign has no end date. */
    end: string | null;
  };
  /** The personal questionnaire link (invitation, reminder) or the report link (report delivery); '' when none. */
  link: string;
  /** Who sends: the inviting user's agency name, else the instance's sender name. */
  sender: string;
  /** The platform user who runs the campaign (its creator), when known. */
  inviter: { firstname: string; lastname: string; email: string } | null;
  /** The member the mail is about (confirmation_admin: who completed), when not the recipient. */
  subjectMember?: { firstname: string; lastname: string };
  /** Estimated minutes the questionnaire takes, from the number of questions. */
  minutes?: number;
}

/** A rendered mail. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The platform's own mails, tied to no campaign or variant: their stages are not the spec's
 * campaign stages (`mailconfig` never names them) and their texts ship with Assay
 * (templates/platform-texts.ts).
 */
export const PLATFORM_STAGES = ['user_invitation'] as const;
export type PlatformStage = (typeof PLATFORM_STAGES)[number];

/** What a platform mail is rendered with; stored with its outbox row as MailParams are. */
export interface PlatformMailParams {
  stage: PlatformStage;
  language: Language;
  /** Always `platform`: the texts shipped with Assay. */
  template: 'platform';
  recipient: MailPerson;
  /** The one-time link the mail carries. */
  link: string;
  /** Who sends: the inviting user's agency name, else the instance's sender name. */
  sender: string;
  /** The platform user who invites. */
  inviter: { firstname: string; lastname: string; email: string } | null;
  /** When the link stops working (wire form). */
  expires: string;
}

/**
 * Any mail of the outbox: a campaign's, or the platform's own (an invitation to become a user; a
 * webhook disabled, to its owner: webhook-mail.ts).
 */
export type OutboxParams = MailParams | PlatformMailParams | WebhookMailParams;

/** True for a platform mail's params (read back from the outbox, so by their stage). */
export function isPlatformMail(params: OutboxParams): params is PlatformMailParams {
  return (PLATFORM_STAGES as readonly unknown[]).includes(params.stage);
}
