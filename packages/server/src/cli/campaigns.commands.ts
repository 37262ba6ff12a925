import { MAIL_STAGES } from '@assay/schema';
import { cliActor } from '../audit/actor.js';
import { previewMail } from '../campaigns/campaign-mail.service.js';
import { findCampaign } from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, shareCampaign, unshareCampaign } from '../campaigns/campaigns.service.js';
import { BusinessError } from '../domain/errors.js';
import {
  type CampaignRetentionView,
  campaignRetentionOf,
  setCampaignRetention,
} from '../retention/retention.service.js';
import { isLanguage, type MailStage } from '../variants/variant.types.js';

/** `assay campaigns share|unshare ...` and `assay mail preview`: each answers what the CLI prints. */

export async function share(deps: CampaignDeps, campaignId: string, email: string): Promise<string> {
  const added = await shareCampaign(deps.db, campaignId, email, cliActor());
  return added
    ? `campaign ${campaignId} shared with ${email} (editor)`
    : `${email} already has access to campaign ${campaignId}`;
}

export async function unshare(deps: CampaignDeps, campaignId: string, email: string): Promise<string> {
  const removed = await unshareCampaign(deps.db, campaignId, email, cliActor());
  return removed
    ? `campaign ${campaignId} is no longer shared with ${email}`
    : `campaign ${campaignId} was not shared with ${email} (an owner keeps access)`;
}

/** A campaign's retention as one line: what applies, and the instance's beside it. */
export function retentionLine(campaignId: string, view: CampaignRetentionView): string {
  const instance = view.instance === null ? 'keeps them until deleted' : `keeps them ${view.instance} days`;
  if (view.own === null) {
    return `campaign ${campaignId} follows the instance's retention of answers and personal reports: it ${instance}`;
  }
  return `campaign ${campaignId} keeps its answers and personal reports ${view.own} days (the instance ${instance})`;
}

/**
 * `assay campaigns retention ID [--days N | --clear]`: sets, clears or shows a campaign's own,
 * shorter retention (the rules of the console's form: retention.service.ts).
 */
export async function retention(
  deps: CampaignDeps,
  campaignId: string,
  change: { days?: string; clear?: boolean },
): Promise<string> {
  if (change.days === undefined && !change.clear) {
    return retentionLine(campaignId, await campaignRetentionOf(deps, campaignId));
  }
  const view = await setCampaignRetention(
    deps,
    cliActor(),
    campaignId,
    change.clear ? null : (change.days as string),
  );
  return retentionLine(campaignId, view);
}

/**
 * The mail a stage of a campaign would send, rendered for a sample member, in the campaign's
 * language or another the variant offers. Nothing is queued or sent.
 */
export async function preview(
  deps: CampaignDeps,
  options: { campaign: string; stage: string; language?: string; html?: boolean },
): Promise<string[]> {
  if (!(MAIL_STAGES as readonly string[]).includes(options.stage)) {
    throw new BusinessError(`stage: must be one of ${MAIL_STAGES.join(', ')}, got "${options.stage}"`);
  }
  const campaign = await findCampaign(deps.db, options.campaign);
  if (!campaign) throw new BusinessError(`campaign: no campaign ${options.campaign}`);
  const variant = deps.variants.get(campaign.variant);
  const language = options.language ?? campaign.language;
  if (!isLanguage(language) || (variant && !variant.languages.includes(language))) {
    throw new BusinessError(
      `language: the variant ${campaign.variant} offers ${variant?.languages.join(', ') ?? '-'}, not "${language}"`,
    );
  }
  const mail = await previewMail(deps, campaign, options.stage as MailStage, language);
  return [
    `From: ${deps.config.mailFrom}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Template: ${mail.template}  Language: ${language}`,
    '',
    ...(options.html ? mail.html : mail.text).replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'),
  ];
}
