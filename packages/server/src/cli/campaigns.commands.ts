import { MAIL_STAGES } from '@assay/schema';
import { mailContext, memberMail } from '../campaigns/campaign-mail.service.js';
import { findCampaign } from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, shareCampaign, unshareCampaign } from '../campaigns/campaigns.service.js';
import { BusinessError } from '../domain/errors.js';
import { renderMail } from '../mail/render.js';
import { questionnaireLink, reportLink } from '../questionnaire/links.js';
import { isLanguage, type MailStage } from '../variants/variant.types.js';

/** `assay campaigns share|unshare ...` and `assay mail preview`: each answers what the CLI prints. */

export async function share(deps: CampaignDeps, campaignId: string, email: string): Promise<string> {
  const added = await shareCampaign(deps.db, campaignId, email);
  return added
    ? `campaign ${campaignId} shared with ${email} (editor)`
    : `${email} already has access to campaign ${campaignId}`;
}

export async function unshare(deps: CampaignDeps, campaignId: string, email: string): Promise<string> {
  const removed = await unshareCampaign(deps.db, campaignId, email);
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
  const context = await mailContext(deps, deps.db, { ...campaign, language });
  const sample = {
    id: 'preview',
    member_id: 'preview',
    token: 'SAMPLE-TOKEN',
    title: '',
    firstname: 'Alex',
    lastname: 'Sample',
    email: 'alex.sample@example.com',
    extra: null,
    mailconfig: null,
    countreminded: 0,
  };
  const stage = options.stage as MailStage;
  const link =
    stage === 'campaign_invitation' || stage === 'campaign_reminder'
      ? questionnaireLink(deps, sample.token)
      : stage === 'campaign_reportdelivery'
        ? reportLink(deps, sample.token)
        : '';
  const { params } = memberMail(context, sample, stage, 0, link);
  if (stage === 'confirmation_admin') params.subjectMember = { firstname: 'Sam', lastname: 'Example' };
  const mail = renderMail(deps.variants, params);
  return [
    `From: ${deps.config.mailFrom}`,
    `To: ${sample.firstname} ${sample.lastname} <${sample.email}>`,
    `Subject: ${mail.subject}`,
    `Template: ${params.template}  Language: ${language}`,
    '',
    ...(options.html ? mail.html : mail.text).replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'),
  ];
}
