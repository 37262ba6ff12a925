import { cliActor } from '../audit/actor.js';
import { findFirstAdmin } from '../auth/auth.repository.js';
import { changeUser } from '../auth/auth.service.js';
import {
  findCampaignMember,
  memberExtraText,
  updateCampaignMember,
} from '../campaigns/campaign-members.repository.js';
import { addMembers } from '../campaigns/campaign-members.service.js';
import { findCampaign } from '../campaigns/campaigns.repository.js';
import { type CampaignDeps, createCampaign } from '../campaigns/campaigns.service.js';
import { completeParticipation } from '../campaigns/completion.service.js';
import { BusinessError } from '../domain/errors.js';
import { findGroupIdByAlias } from '../groups/groups.repository.js';
import { addMember, createGroup } from '../groups/groups.service.js';
import { importMembers } from '../members/members.service.js';
import { checkAnswers } from '../reports/answers.js';
import { createGroupReport } from '../reports/group.service.js';
import { syntheticAnswers } from '../reports/samples.js';
import { formatDate } from '../util/dates.js';
import type { Language } from '../variants/variant.types.js';

const DEMO_ALIAS = 'demo-northwind';

const FIRST = [
  'Ana',
  'Bram',
  'Chloé',
  'Daan',
  'Elena',
  'Fatima',
  'Gonzalo',
  'Hélène',
  'Isabel',
  'Joris',
  'Kofi',
  'Léa',
  'Marta',
  'Noah',
  'Olivia',
  'Pablo',
  'Quentin',
  'Rosa',
  'Sem',
  'Thijs',
  'Úrsula',
  'Vincent',
  'Wen',
  'Yara',
  'Zoë',
  'Amélie',
  'Björn',
  'Carmen',
  'Dirk',
  'Emma',
];
const LAST = [
  'García',
  'de Vries',
  'Lefèvre',
  'Jansen',
  'Martínez',
  'Bakker',
  'Moreau',
  'Visser',
  'Fernández',
  'Dubois',
  'Smit',
  'López',
  'Laurent',
  'Meijer',
  'Sánchez',
  'Bos',
  'Girard',
  'Mulder',
  'Ruiz',
  'Bonnet',
  'Peeters',
  'Núñez',
  'Mercier',
  'van Dijk',
  'Castro',
  'Fontaine',
  'Hendriks',
  'Ortega',
  'Rousseau',
  'Kok',
  'Okafor',
];

export interface DemoSummary {
  groups: number;
  members: number;
  campaigns: string[];
  personalReports: number;
  groupReports: { type: string; reportid: string; name: string }[];
}

/**
 * Fills an instance with a believable data set through the same services the API uses: a group
 * tree, 200 members, a bigfive campaign, a leadership360 round for three subjects, a teamscan, the
 * personal reports of completed questionnaires, and one group report of each type. Refuses to run
 * twice on one instance (the demo's top group alias is taken).
 */
export async function runDemo(deps: CampaignDeps, now = new Date()): Promise<DemoSummary> {
  const db = deps.db;
  const admin = await findFirstAdmin(db);
  if (!admin) throw new BusinessError('user: there is no admin user yet: run `assay setup` first');
  if ((await findGroupIdByAlias(db, DEMO_ALIAS)) !== undefined)
    throw new BusinessError('the demo data is already on this instance (group alias demo-northwind)');
  const caller = { userId: admin.id };
  if (admin.agencyname === '' && admin.agencyfooter === '') {
    await changeUser(
      db,
      admin.id,
      {
        agencyname: 'Northwind People Consulting',
        agencyfooter: 'Northwind People Consulting · Keizersgracht 1, Amsterdam · hello@northwind.example',
        color: '#1d4e89',
      },
      cliActor(),
      () => {
        throw new BusinessError('user: the admin user went away');
      },
    );
  }

  // The tree: a company with four teams, engineering split in two.
  const group = async (
    name: string,
    alias: string,
    type: 'company' | 'team' | 'folder',
    parentgroup = 'root',
  ) =>
    (
      await createGroup(db, cliActor(), caller, {
        name,
        alias,
        type,
        parentgroup,
        description: null,
      })
    ).groupid;
  const company = await group('Northwind Traders', DEMO_ALIAS, 'company');
  const sales = await group('Sales', 'demo-sales', 'team', company);
  const engineering = await group('Engineering', 'demo-engineering', 'folder', company);
  const platform = await group('Platform team', 'demo-platform', 'team', engineering);
  const mobile = await group('Mobile team', 'demo-mobile', 'team', engineering);
  const people = await group('People & Culture', 'demo-people', 'team', company);
  const teams = [sales, platform, mobile, people];

  // 200 members, spread over the teams (a few in no group).
  const stamp = now.getTime().toString(36);
  const rows = Array.from({ length: 200 }, (_, i) => {
    const firstname = FIRST[i % FIRST.length] as string;
    const lastname = LAST[(i * 7) % LAST.length] as string;
    const local = `${firstname}.${lastname}`
      .normalize('NFKD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    return {
      email: `${local}.${i}.${stamp}@northwind.example`,
      firstname,
      lastname,
      jobtitle: i % 10 === 0 ? 'Team lead' : 'Specialist',
      company: 'Northwind Traders',
      level: i % 10 === 0 ? 'teamleader' : 'employee',
    };
  });
  const imported = await importMembers(db, cliActor(), { members: rows });
  const members = imported.created;
  for (const [i, id] of members.entries()) {
    if (i >= 190) continue;
    await addMember(db, cliActor(), teams[i % teams.length] as string, id);
  }
  const membersOf = (team: string) => members.filter((_, i) => i < 190 && teams[i % teams.length] === team);

  const start = formatDate(new Date(now.getTime() - 14 * 86_400_000));
  const campaigns: string[] = [];
  let personalReports = 0;
  const complete = async (campaignId: string, memberIds: string[], share: number, seedBase: number) => {
    const campaign = await findCampaign(db, campaignId);
    if (!campaign) throw new Error(`demo: campaign ${campaignId} went missing`);
    const variant = deps.variants.get(campaign.variant);
    if (!variant) throw new BusinessError(`variant: ${campaign.variant} is not installed`);
    const reports: string[] = [];
    for (const [i, memberId] of memberIds.entries()) {
      await updateCampaignMember(db, campaignId, memberId, { status: 'invited', dateinvited: start });
      if (i >= Math.ceil(memberIds.length * share)) continue;
      const reportId = await db.transaction().execute(async (trx) => {
        const member = await findCampaignMember(trx, campaignId, memberId);
        if (!member) throw new Error(`demo: member ${memberId} is not in campaign ${campaignId}`);
        const answers = checkAnswers(
          variant,
          syntheticAnswers(variant, campaign.language as Language, seedBase + i),
        );
        return completeParticipation(deps, trx, campaign, member, answers, cliActor());
      });
      reports.push(reportId);
      personalReports++;
    }
    return reports;
  };
  const campaign = async (name: string, variant: string, language?: string) => {
    const made = await createCampaign(
      deps,
      caller,
      {
        name,
        variant,
        start,
        ...(language ? { language } : {}),
        closingtype: 'open',
      },
      cliActor(),
    );
    campaigns.push(made.campaignid);
    return made.campaignid;
  };

  // Big Five for engineering: three in four have answered.
  const bigfive = await campaign('Big Five – Engineering 2026', 'bigfive');
  const engineers = [...membersOf(platform), ...membersOf(mobile)];
  await addMembers(deps, bigfive, { groupid: engineering, subgroups: true }, cliActor());
  const bigfiveReports = await complete(bigfive, engineers, 0.75, 1);

  // Team scan for sales, in Dutch.
  const teamscan = await campaign('Teamscan Sales Q4', 'teamscan', 'nlNL');
  const sellers = membersOf(sales);
  await addMembers(deps, teamscan, { groupid: sales }, cliActor());
  const teamscanReports = await complete(teamscan, sellers, 0.8, 500);

  // A 360 round: three subjects from People & Culture, each with a manager, three peers and three
  // direct reports (peers and reports from Sales).
  const hr = membersOf(people);
  const feedback: { subject: string; self: string; raters: string[] }[] = [];
  for (let s = 0; s < 3; s++) {
    const subject = hr[s] as string;
    const id = await campaign(`Leadership 360 – round ${s + 1}`, 'leadership360');
    const cast: [string, string][] = [
      [subject, 'self'],
      [hr[3 + s] as string, 'manager'],
      ...[0, 1, 2].map((k): [string, string] => [sellers[s * 6 + k] as string, 'peer']),
      ...[3, 4, 5].map((k): [string, string] => [sellers[s * 6 + k] as string, 'directreport']),
    ];
    await addMembers(deps, id, { memberids: cast.map(([memberId]) => memberId) }, cliActor());
    for (const [memberId, role] of cast) {
      await updateCampaignMember(db, id, memberId, { extra: memberExtraText({ role, subject }) });
    }
    const made = await complete(
      id,
      cast.map(([memberId]) => memberId),
      1,
      900 + s * 10,
    );
    feedback.push({ subject, self: made[0] as string, raters: made.slice(1) });
  }

  const groupReports: DemoSummary['groupReports'] = [];
  const report = async (body: Record<string, unknown>) => {
    const made = await createGroupReport(deps, caller, body, cliActor());
    groupReports.push({ type: made.type, reportid: made.reportid, name: made.name ?? '' });
  };
  await report({
    reportType: 'group',
    variant: 'bigfive',
    name: 'Engineering – team profile',
    selectedReports: bigfiveReports.join(','),
  });
  await report({
    reportType: 'groupanon',
    variant: 'bigfive',
    name: 'Engineering – anonymous profile',
    selectedReports: bigfiveReports.join(','),
  });
  await report({
    reportType: 'condensed',
    variant: 'bigfive',
    name: 'Engineering – overview',
    selectedReports: bigfiveReports.slice(0, 24).join(','),
  });
  await report({
    reportType: 'complete',
    variant: 'bigfive',
    name: 'Platform team – complete',
    selectedReports: bigfiveReports.slice(0, 5).join(','),
  });
  await report({
    reportType: 'group',
    variant: 'teamscan',
    language: 'nlNL',
    name: 'Teamscan Sales – resultaten',
    selectedReports: teamscanReports.join(','),
  });
  for (const round of feedback) {
    await report({
      reportType: 'group',
      variant: 'leadership360',
      name: '360 feedback',
      selectedReportsMaster: round.self,
      selectedReports: round.raters.join(','),
    });
  }
  const groups = 6;
  return { groups, members: members.length, campaigns, personalReports, groupReports };
}
