import type { Kysely } from 'kysely';
import { auditRowsAbout } from '../audit/audit.repository.js';
import { parseMemberExtra, parseMemberTags, parseResults } from '../campaigns/campaign-members.repository.js';
import type { Database } from '../db/database.js';
import { notFound } from '../domain/errors.js';
import { parseMailParams } from '../mail/outbox.repository.js';
import { renderMail } from '../mail/render.js';
import { parseReportObject } from '../reports/reports.repository.js';
import { nowText } from '../util/dates.js';
import { caseFold } from '../util/text.js';
import type { VariantRegistry } from '../variants/variant.types.js';
import * as data from './member-data.repository.js';
import * as repo from './members.repository.js';

/** The name and version of the export's shape (docs/privacy.md describes it). */
export const MEMBER_DATA_FORMAT = 'assay-member-data/1';

/** Everything held about one person (GDPR art. 15), as one JSON document. */
export interface MemberData {
  format: typeof MEMBER_DATA_FORMAT;
  exported: string;
  member: Record<string, unknown>;
  group: { groupid: string; name: string } | null;
  participations: Record<string, unknown>[];
  reports: Record<string, unknown>[];
  mails: Record<string, unknown>[];
  webhookevents: Record<string, unknown>[];
  audit: Record<string, unknown>[];
}

/** The subject a mail had (or would have): rendered again from its stored params, as `mail show` does. */
function subjectOf(variants: VariantRegistry, params: string): string | null {
  const mail = parseMailParams(params);
  // A mail of a variant no longer installed cannot be rendered; its other facts still are theirs.
  if ('variant' in mail && variants.get(mail.variant) === undefined) return null;
  return renderMail(variants, mail).subject;
}

/**
 * The data export of a member (by id): their record, group, campaign places with the answers given,
 * personal reports with their scores, the mails sent to them or about them (dates and subjects),
 * the webhook events about them and the audit entries about them or made by them.
 */
export async function exportMemberData(
  db: Kysely<Database>,
  variants: VariantRegistry,
  memberId: string,
): Promise<MemberData> {
  const member = await repo.findMember(db, memberId);
  if (!member) throw notFound('member');
  const group = member.group_id ? await data.groupOf(db, member.group_id) : undefined;
  const participations = await data.participationsOf(db, memberId);
  const reports = await data.reportsOf(db, memberId);
  const mails = await data.mailsOf(
    db,
    memberId,
    [memberId, ...participations.map((place) => place.id)],
    caseFold(member.email),
  );
  const events = await data.webhookMessagesOf(db, memberId);
  const audit = await auditRowsAbout(db, memberId);
  return {
    format: MEMBER_DATA_FORMAT,
    exported: nowText(),
    member: {
      memberid: member.id,
      title: member.title,
      firstname: member.firstname,
      middlename: member.middlename,
      lastname: member.lastname,
      email: member.email,
      phone: member.phone,
      company: member.company,
      jobtitle: member.jobtitle,
      status: member.status,
      level: member.level,
      testuser: member.testuser === 1,
      extra: repo.parseExtra(member.extra),
      createdon: member.created,
    },
    group: group ? { groupid: group.id, name: group.name } : null,
    participations: participations.map((place) => ({
      campaignid: place.campaign_id,
      campaign: place.campaign_name,
      variant: place.variant,
      status: place.status,
      title: place.title,
      firstname: place.firstname,
      middlename: place.middlename,
      lastname: place.lastname,
      email: place.email,
      extra: parseMemberExtra(place.extra),
      tags: parseMemberTags(place.tags),
      results: parseResults(place.results),
      created: place.created,
      dateinvited: place.dateinvited,
      datestarted: place.datestarted,
      datecompleted: place.datecompleted,
      datereminded: place.datereminded,
      countreminded: place.countreminded,
      answers: data.parseAnswers(place.answers),
    })),
    reports: reports.map((report) => ({
      reportid: report.id,
      type: report.type,
      variant: report.variant,
      language: report.language,
      campaignid: report.campaign_id,
      status: report.status,
      date: report.date,
      created: report.created,
      answers: parseReportObject(report.raw),
      scores: parseReportObject(report.processed),
    })),
    mails: mails.map((mail) => ({
      mailid: mail.id,
      campaignid: mail.campaign_id,
      stage: mail.stage,
      recipient: mail.recipient,
      status: mail.status,
      subject: subjectOf(variants, mail.params),
      created: mail.created,
      sent: mail.sent_at,
    })),
    webhookevents: events.map((event) => ({
      messageid: event.id,
      subscriptionid: event.subscription_id,
      event: event.event_type,
      body: data.parseEventBody(event.payload),
      status: event.status,
      created: event.created,
      delivered: event.delivered_at,
    })),
    audit: audit.map((entry) => ({
      at: entry.at,
      actor: entry.actor_type,
      actorid: entry.actor_id,
      channel: entry.channel,
      // An operator's address is the operator's, not theirs: shown only for what they did themselves.
      address: entry.actor_type === 'member' && entry.actor_id === memberId ? entry.address : null,
      resource: entry.resource_type,
      resourceid: entry.resource_id,
      action: entry.action,
      fields: entry.fields === null ? null : entry.fields.split(' '),
      outcome: entry.outcome,
    })),
  };
}
