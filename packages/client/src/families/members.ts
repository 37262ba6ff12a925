import { list, memberCampaign, memberDetail, memberListItem, memberReport, one } from '../normalise.js';
import type { Transport } from '../transport.js';
import type {
  MemberCampaign,
  MemberCreate,
  MemberDetail,
  MemberImport,
  MemberImportResult,
  MemberListItem,
  MemberPatch,
  MemberReport,
} from '../types.js';
import { type DupecheckResult, dupecheck, nothing, seg } from './shared.js';

/** Options of a CSV import (they travel in the query string, as a CSV body has no room for them). */
export interface MemberCsvImportOptions {
  /** Put every imported member in this group. */
  groupId?: string;
  /** Update the members whose e-mail exists instead of refusing those rows. */
  update?: boolean;
}

/** The members family (scope `members`). */
export class Members {
  constructor(private readonly http: Transport) {}

  /** GET /members: every member, list shape (phone, company, jobtitle and the group's name). */
  list(): Promise<MemberListItem[]> {
    return this.http.call('GET', '/members', list(memberListItem));
  }

  /** POST /members: `email`, `firstname` and `lastname` are required; answers the detail shape. */
  create(member: MemberCreate): Promise<MemberDetail> {
    return this.http.call('POST', '/members', one(memberDetail), { body: { json: member } });
  }

  /**
   * POST /members/import as JSON: `{ members, groupid?, update? }`. Valid rows are kept, failed rows
   * reported by their 1-based position.
   */
  import(body: MemberImport): Promise<MemberImportResult> {
    return this.http.call('POST', '/members/import', undefined, { body: { json: body } });
  }

  /** POST /members/import as CSV (`text/csv`, a header row of field names, UTF-8). */
  importCsv(csv: string, options: MemberCsvImportOptions = {}): Promise<MemberImportResult> {
    return this.http.call('POST', '/members/import', undefined, {
      body: { text: csv, contentType: 'text/csv; charset=utf-8' },
      query: {
        groupid: options.groupId,
        update: options.update === undefined ? undefined : options.update ? 1 : 0,
      },
    });
  }

  /** POST /members/dupecheck: is this e-mail address already a member's? */
  dupecheck(email: string): Promise<DupecheckResult> {
    return dupecheck(this.http, '/members/dupecheck', email);
  }

  /** GET /members/{memberid}: one member, detail shape (groupid, createdon, extra, ...). */
  get(memberId: string): Promise<MemberDetail> {
    return this.http.call('GET', `/members/${seg(memberId)}`, one(memberDetail));
  }

  /**
   * PATCH /members/{memberid}: any subset of the writable fields. The group cannot change here (the
   * API refuses it with `Access denied`): use `groups.addMember`, `groups.removeMember` or
   * `groups.moveMember`.
   */
  update(memberId: string, patch: MemberPatch): Promise<MemberDetail> {
    return this.http.call('PATCH', `/members/${seg(memberId)}`, one(memberDetail), { body: { json: patch } });
  }

  /** DELETE /members/{memberid}: erases the member, its memberships and its reports. */
  delete(memberId: string): Promise<void> {
    return this.http.call('DELETE', `/members/${seg(memberId)}`, nothing);
  }

  /** GET /members/{memberid}/reports: MemberReport (`id` a numeric string, `tags` JSON-encoded). */
  reports(memberId: string): Promise<MemberReport[]> {
    return this.http.call('GET', `/members/${seg(memberId)}/reports`, list(memberReport));
  }

  /** GET /members/{memberid}/campaigns: the member's campaign memberships. */
  campaigns(memberId: string): Promise<MemberCampaign[]> {
    return this.http.call('GET', `/members/${seg(memberId)}/campaigns`, list(memberCampaign));
  }
}
