import type { Transaction } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChanges } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { questionnaireLink, reportLink } from '../questionnaire/links.js';
import { makePersonalReports } from '../reports/personal.service.js';
import { isLanguage } from '../variants/variant.types.js';
import { queueEvent } from '../webhooks/events.js';
import { queueCompletionMails } from './campaign-mail.service.js';
import { markCompleted, parseMemberExtra, parseResults } from './campaign-members.repository.js';
import { type CampaignDeps, nowOf } from './campaigns.service.js';
import type { CampaignMemberRow, CampaignRow } from './campaigns.table.js';

/**
 * A participant's completion, inside the caller's transaction (which holds the campaign member's
 * row locked): the personal report made by the reports service from the checked answers, status
 * `completed` with `datecompleted` and `results` `{ status, reportid }`, and the completion mails
 * queued. A member already completed gets its report id back and nothing happens again, so a
 * second submit (the back button, two tabs) can never make a second report or mail.
 * The entries (the member's completion and the report made) are written with it, by `actor`.
 * The caller wakes the mail worker after the commit.
 */
export async function completeParticipation(
  deps: CampaignDeps,
  trx: Transaction<Database>,
  campaign: CampaignRow,
  member: CampaignMemberRow,
  answers: Readonly<Record<string, number | string>>,
  actor: Actor,
): Promise<string> {
  if (member.status === 'completed') {
    const done = parseResults(member.results)?.reportid;
    if (typeof done === 'string') return done;
  }
  const variant = deps.variants.get(campaign.variant);
  if (!variant) throw new BusinessError(`variant: ${campaign.variant} is not installed`);
  const now = nowOf(deps);
  const extra = parseMemberExtra(member.extra);
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
  await markCompleted(trx, member.id, {
    now,
    // A member completed without opening the link (the demo) has started all the same.
    datestarted: member.datestarted ?? now,
    sessionurl: member.sessionurl || questionnaireLink(deps, member.token),
    reportId: reportId as string,
  });
  await queueEvent(
    trx,
    'campaignmember.completed',
    { campaignid: campaign.id, memberid: member.member_id, datecompleted: now, reportid: reportId as string },
    { now, orderKey: member.member_id },
  );
  await queueCompletionMails(deps, trx, campaign, member, reportLink(deps, member.token));
  await recordChanges(trx, actor, [
    { resource: 'campaign_member', id: member.member_id, action: 'complete' },
    { resource: 'report', id: reportId as string, action: 'create' },
  ]);
  return reportId as string;
}
