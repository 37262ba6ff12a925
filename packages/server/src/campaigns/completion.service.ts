import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { makePersonalReports } from '../reports/personal.service.js';
import { isLanguage } from '../variants/variant.types.js';
import { queueCompletionMails } from './campaign-mail.service.js';
import { type CampaignDeps, nowOf } from './campaigns.service.js';
import type { CampaignMemberRow, CampaignRow } from './campaigns.table.js';

/** The link at which a participant opens the report made from their answers. */
export const reportLink = (deps: Pick<CampaignDeps, 'config'>, token: string) =>
  `${deps.config.questionnaireUrl}/r/${token}`;

/** The member's questionnaire link, `sessionurl` from the moment they start. */
export const sessionUrl = (deps: Pick<CampaignDeps, 'config'>, token: string) =>
  `${deps.config.questionnaireUrl}/q/${token}`;

function objectOf(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * A participant's completion, inside the caller's transaction (which holds the campaign member's
 * row locked): the personal report made by the reports service from the checked answers, status
 * `completed` with `datecompleted` and `results` `{ status, reportid }`, and the completion mails
 * queued. A member already completed gets its report id back and nothing happens again, so a
 * second submit (the back button, two tabs) can never make a second report or mail.
 * The caller wakes the mail worker after the commit.
 */
export async function completeParticipation(
  deps: CampaignDeps,
  trx: Transaction<Database>,
  campaign: CampaignRow,
  member: CampaignMemberRow,
  answers: Readonly<Record<string, number | string>>,
): Promise<string> {
  if (member.status === 'completed') {
    const done = objectOf(member.results)?.reportid;
    if (typeof done === 'string') return done;
  }
  const variant = deps.variants.get(campaign.variant);
  if (!variant) throw new BusinessError(`variant: ${campaign.variant} is not installed`);
  const now = nowOf(deps);
  const extra = objectOf(member.extra);
  const role = typeof extra?.role === 'string' && extra.role !== '' ? extra.role : null;
  const [reportId] = await makePersonalReports(
    trx,
    [
      {
        variant,
        language:
          isLanguage(campaign.language) && variant.languages.includes(campaign.language)
            ? campaign.language
            : variant.defaultLanguage,
        memberId: member.member_id,
        testuser: member.testuser === 1,
        answers,
        campaignId: campaign.id,
        token: member.token,
        extra,
        role,
        date: now,
        createdBy: null,
      },
    ],
    now,
  );
  await trx
    .updateTable('campaign_members')
    .set({
      status: 'completed',
      datecompleted: now,
      datestarted: member.datestarted ?? now,
      // A member completed without opening the link (the demo) has started all the same.
      sessionurl: member.sessionurl || sessionUrl(deps, member.token),
      results: JSON.stringify({ status: 'completed', reportid: reportId }),
    })
    .where('id', '=', member.id)
    .execute();
  await queueCompletionMails(deps, trx, campaign, member, reportLink(deps, member.token));
  return reportId as string;
}
