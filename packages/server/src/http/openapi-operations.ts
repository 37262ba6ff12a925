/**
 * The operationId of every operation of the OpenAPI document, by method and documented path: the
 * typed client's words (`client.members.list()` is `membersList`), so a generated client and the
 * typed one read alike. Stable: a generated client's method names come from here, so an id never
 * changes once published. An operation missing here gets one made from its method and path.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'POST /auth/access_token': 'authAccessToken',
  'GET /auth/authorize': 'authAuthorize',
  'POST /auth/authorize': 'authAuthorizeSubmit',

  'GET /members': 'membersList',
  'POST /members': 'membersCreate',
  'POST /members/import': 'membersImport',
  'POST /members/dupecheck': 'membersDupecheck',
  'GET /members/{memberid}': 'membersGet',
  'PATCH /members/{memberid}': 'membersUpdate',
  'DELETE /members/{memberid}': 'membersDelete',
  'GET /members/{memberid}/reports': 'membersReports',
  'GET /members/{memberid}/campaigns': 'membersCampaigns',

  'GET /groups': 'groupsList',
  'POST /groups': 'groupsCreate',
  'GET /groups/members': 'groupsMembersInGroups',
  'GET /groups/nogroup/members': 'groupsMembersWithoutGroup',
  'POST /groups/dupecheck': 'groupsDupecheck',
  'GET /groups/{groupid}': 'groupsGet',
  'PATCH /groups/{groupid}': 'groupsUpdate',
  'DELETE /groups/{groupid}': 'groupsDelete',
  'GET /groups/{groupid}/members': 'groupsMembers',
  'POST /groups/{groupid}/members/{memberid}': 'groupsAddMember',
  'DELETE /groups/{groupid}/members/{memberid}': 'groupsRemoveMember',
  'POST /groups/{groupid}/member/{memberid}': 'groupsAddMemberLegacy',
  'GET /groups/{groupid}/reports': 'groupsReports',
  'GET /groups/{groupid}/reports/counts': 'groupsReportCounts',

  'GET /campaigns': 'campaignsList',
  'POST /campaigns': 'campaignsCreate',
  'POST /campaigns/dupecheck': 'campaignsDupecheck',
  'GET /campaigns/{campaignid}': 'campaignsGet',
  'PATCH /campaigns/{campaignid}': 'campaignsUpdate',
  'DELETE /campaigns/{campaignid}': 'campaignsDelete',
  'GET /campaigns/{campaignid}/reports': 'campaignsReports',
  'GET /campaigns/{campaignid}/members': 'campaignsMembers',
  'POST /campaigns/{campaignid}/members': 'campaignsAddMembers',
  'DELETE /campaigns/{campaignid}/members/all': 'campaignsRemoveAllMembers',
  'POST /campaigns/{campaignid}/members/invite': 'campaignsInvite',
  'POST /campaigns/{campaignid}/members/remind': 'campaignsRemind',
  'GET /campaigns/{campaignid}/members/{memberid}': 'campaignsGetMember',
  'POST /campaigns/{campaignid}/members/{memberid}': 'campaignsAddMember',
  'PATCH /campaigns/{campaignid}/members/{memberid}': 'campaignsUpdateMember',
  'DELETE /campaigns/{campaignid}/members/{memberid}': 'campaignsRemoveMember',
  'PATCH /campaigns/{campaignid}/members/{memberid}/reset': 'campaignsResetMember',
  'GET /campaigns/{campaignid}/members/{memberid}/reports': 'campaignsMemberReports',

  'GET /reports': 'reportsList',
  'POST /reports': 'reportsCreate',
  'GET /reports/counts': 'reportsCounts',
  'GET /reports/search/{term}': 'reportsSearch',
  'GET /reports/filtered/{variant}/{entitytype}/{entityid}': 'reportsFiltered',
  'GET /reports/verbatims': 'reportsVerbatims',
  'GET /reports/summary/{variant}': 'reportsSummaryDefinition',
  'POST /reports/summary': 'reportsSummary',
  'POST /reports/import/{variant}': 'reportsImport',
  'GET /reports/{reportid}': 'reportsPdf',
  'PATCH /reports/{reportid}': 'reportsUpdate',
  'DELETE /reports/{reportid}': 'reportsDelete',
  'GET /reports/{reportid}/short': 'reportsShort',
  'GET /reports/{reportid}/data': 'reportsData',
  'GET /reports/{reportid}/usage': 'reportsUsage',
  'POST /reports/{reportid}/recalc': 'reportsRecalc',

  'GET /samples': 'samplesList',
  'GET /samples/{variant}/{language}': 'samplesPdf',

  'GET /settings/config': 'settingsConfig',
  'GET /settings/config/short': 'settingsConfigShort',
  'GET /settings/reports': 'settingsReportVariants',
  'GET /settings/reports/{reportalias}/datastructure': 'settingsDatastructure',
  'GET /settings/reports/{reportalias}/textkeys': 'settingsTextKeys',
  'GET /settings/reports/{reportalias}/{lang}/texts': 'settingsTexts',

  'GET /webhooks': 'webhooksList',
  'POST /webhooks': 'webhooksCreate',
  'GET /webhooks/{webhookid}': 'webhooksGet',
  'PATCH /webhooks/{webhookid}': 'webhooksUpdate',
  'DELETE /webhooks/{webhookid}': 'webhooksDelete',
  'POST /webhooks/{webhookid}/rotate': 'webhooksRotate',
  'POST /webhooks/{webhookid}/test': 'webhooksTest',
  'GET /webhooks/{webhookid}/deliveries': 'webhooksDeliveries',

  'GET /audit': 'auditList',
};

/** An id for an operation the table does not name: its method and path in camelCase. */
export function madeOperationId(method: string, path: string): string {
  const words = [method.toLowerCase(), ...path.split(/[^A-Za-z0-9]+/).filter(Boolean)];
  return words.map((word, index) => (index === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join('');
}

/** The tags of the document, each described (an operation's tag is its family). */
export const TAGS = [
  {
    name: 'auth',
    description: 'OAuth 2.0: the token endpoint of the interface and the Authorization Code sign-in page.',
  },
  {
    name: 'members',
    description: 'People who take part in assessments: create, change, import, find duplicates.',
  },
  { name: 'groups', description: 'A tree of folders of members; a member is in at most one group.' },
  {
    name: 'campaigns',
    description: 'Invitations of members to one questionnaire of one variant, with the e-mails they send.',
  },
  {
    name: 'reports',
    description: 'Personal and group reports: lists, the PDF, the answers, summaries and imports.',
  },
  { name: 'samples', description: 'A sample personal report of every variant and language.' },
  { name: 'settings', description: 'The installed report variants, their languages, questions and texts.' },
  {
    name: 'webhooks',
    description:
      'Subscriptions to signed events (Standard Webhooks 1.0), their secrets and their deliveries.',
  },
  {
    name: 'audit',
    description:
      'The audit log, read only: who changed what, when and through which door (ids, never values).',
  },
];
