import {
  campaignDetail,
  campaignListItem,
  campaignMember,
  campaignMemberListItem,
  list,
  memberReport,
  one,
  report,
} from '../normalise.js';
import { toBoolean } from '../tolerant.js';
import type { Transport } from '../transport.js';
import type {
  CampaignCreate,
  CampaignDetail,
  CampaignListItem,
  CampaignMailRequest,
  CampaignMember,
  CampaignMemberListItem,
  CampaignMemberPatch,
  CampaignMembersAdd,
  CampaignMembersAdded,
  CampaignPatch,
  MemberReport,
  Report,
} from '../types.js';
import { type DupecheckResult, dupecheck, nothing, seg } from './shared.js';

/** A mail request that only lists the recipients: Assay's `dryrun`. */
export type DryRun = CampaignMailRequest & { dryrun: true };

/** The campaigns family (scope `campaigns`). */
export class Campaigns {
  constructor(private readonly http: Transport) {}

  /** GET /campaigns: every campaign, list shape (with `batchrelation`, `campaigngroupid`). */
  list(): Promise<CampaignListItem[]> {
    return this.http.call('GET', '/campaigns', list(campaignListItem));
  }

  /** POST /campaigns: `name`, `variant` and `start` are required; answers the detail shape. */
  create(campaign: CampaignCreate): Promise<CampaignDetail> {
    return this.http.call('POST', '/campaigns', one(campaignDetail), { body: { json: campaign } });
  }

  /** POST /campaigns/dupecheck: is this alias taken? (It matches the alias, not the name.) */
  dupecheck(alias: string): Promise<DupecheckResult> {
    return dupecheck(this.http, '/campaigns/dupecheck', alias);
  }

  /** GET /campaigns/{campaignid}: detail shape (creator, extraParams, access, relations). */
  get(campaignId: string): Promise<CampaignDetail> {
    return this.http.call('GET', `/campaigns/${seg(campaignId)}`, one(campaignDetail));
  }

  /** PATCH /campaigns/{campaignid}: any subset; `variant` and `language` are fixed at create. */
  update(campaignId: string, patch: CampaignPatch): Promise<CampaignDetail> {
    return this.http.call('PATCH', `/campaigns/${seg(campaignId)}`, one(campaignDetail), {
      body: { json: patch },
    });
  }

  /** DELETE /campaigns/{campaignid}: the campaign and its memberships; its reports stay. */
  delete(campaignId: string): Promise<void> {
    return this.http.call('DELETE', `/campaigns/${seg(campaignId)}`, nothing);
  }

  /** GET /campaigns/{campaignid}/reports. */
  reports(campaignId: string): Promise<Report[]> {
    return this.http.call('GET', `/campaigns/${seg(campaignId)}/reports`, list(report));
  }

  /** GET /campaigns/{campaignid}/members: list shape (groupalias, groupname, memberextra). */
  members(campaignId: string): Promise<CampaignMemberListItem[]> {
    return this.http.call('GET', `/campaigns/${seg(campaignId)}/members`, list(campaignMemberListItem));
  }

  /** POST /campaigns/{campaignid}/members: `{ memberids }` and/or `{ groupid, subgroups }`. */
  addMembers(campaignId: string, body: CampaignMembersAdd): Promise<CampaignMembersAdded> {
    return this.http.call('POST', `/campaigns/${seg(campaignId)}/members`, undefined, {
      body: { json: body },
    });
  }

  /** DELETE /campaigns/{campaignid}/members/all. */
  removeAllMembers(campaignId: string): Promise<void> {
    return this.http.call('DELETE', `/campaigns/${seg(campaignId)}/members/all`, nothing);
  }

  /**
   * POST /campaigns/{campaignid}/members/invite: mails the invitation at once to every member with
   * status `new` (or those of `memberids`). With `{ dryrun: true }` nothing is sent and the answer
   * is the member ids that would be mailed (without it, the call resolves to undefined). `dryrun` is Assay's: an instance that does not know it
   * sends the mails, and the client then throws an Error saying so.
   */
  invite(campaignId: string, request: DryRun): Promise<string[]>;
  invite(campaignId: string, request?: CampaignMailRequest): Promise<string[] | undefined>;
  invite(campaignId: string, request?: CampaignMailRequest): Promise<string[] | undefined> {
    return this.mail('invite', campaignId, request);
  }

  /**
   * POST /campaigns/{campaignid}/members/remind: mails a reminder at once to every member invited or
   * started, below `reminderrepeat`. `{ dryrun: true }` as for `invite`.
   */
  remind(campaignId: string, request: DryRun): Promise<string[]>;
  remind(campaignId: string, request?: CampaignMailRequest): Promise<string[] | undefined>;
  remind(campaignId: string, request?: CampaignMailRequest): Promise<string[] | undefined> {
    return this.mail('remind', campaignId, request);
  }

  private async mail(
    stage: 'invite' | 'remind',
    campaignId: string,
    request: CampaignMailRequest | undefined,
  ): Promise<string[] | undefined> {
    const path = `/campaigns/${seg(campaignId)}/members/${stage}`;
    const data = await this.http.call<unknown>('POST', path, undefined, {
      body: request === undefined ? undefined : { json: request },
    });
    if (Array.isArray(data)) return data as string[];
    if (toBoolean(request?.dryrun)) {
      throw new Error(
        `POST ${path}: the instance ignored dryrun and answered ${JSON.stringify(data)}: the mails were sent`,
      );
    }
    return undefined;
  }

  /** GET /campaigns/{campaignid}/members/{memberid}: one campaign member (with `group`). */
  getMember(campaignId: string, memberId: string): Promise<CampaignMember> {
    return this.http.call(
      'GET',
      `/campaigns/${seg(campaignId)}/members/${seg(memberId)}`,
      one(campaignMember),
    );
  }

  /** POST /campaigns/{campaignid}/members/{memberid} (ids in the path, empty body). */
  addMember(campaignId: string, memberId: string): Promise<void> {
    return this.http.call('POST', `/campaigns/${seg(campaignId)}/members/${seg(memberId)}`, nothing);
  }

  /** PATCH /campaigns/{campaignid}/members/{memberid}: `extra` (the role), `tags`, `mailconfig`, `testuser`. */
  updateMember(campaignId: string, memberId: string, patch: CampaignMemberPatch): Promise<CampaignMember> {
    return this.http.call(
      'PATCH',
      `/campaigns/${seg(campaignId)}/members/${seg(memberId)}`,
      one(campaignMember),
      { body: { json: patch } },
    );
  }

  /** DELETE /campaigns/{campaignid}/members/{memberid}. */
  removeMember(campaignId: string, memberId: string): Promise<void> {
    return this.http.call('DELETE', `/campaigns/${seg(campaignId)}/members/${seg(memberId)}`, nothing);
  }

  /** PATCH /campaigns/{campaignid}/members/{memberid}/reset: the member may take the questionnaire again. */
  resetMember(campaignId: string, memberId: string): Promise<void> {
    return this.http.call('PATCH', `/campaigns/${seg(campaignId)}/members/${seg(memberId)}/reset`, nothing);
  }

  /** GET /campaigns/{campaignid}/members/{memberid}/reports: MemberReport. */
  memberReports(campaignId: string, memberId: string): Promise<MemberReport[]> {
    return this.http.call(
      'GET',
      `/campaigns/${seg(campaignId)}/members/${seg(memberId)}/reports`,
      list(memberReport),
    );
  }
}
