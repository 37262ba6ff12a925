import { MAIL_STAGES } from '@assay/schema';
import { cliActor } from '../audit/actor.js';
import { previewMail } from '../campaigns/campaign-mail.service.js';
import { findCampaign } from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, shareCampaign, unshareCampaign } from '../campaigns/campaigns.service.js';
import { BusinessError } from '../domain/errors.js';
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
