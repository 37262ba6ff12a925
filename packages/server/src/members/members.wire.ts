import type { GroupMember } from '@assay/schema';
import type { MemberListRow } from './members.repository.js';
import { parseExtra } from './members.repository.js';
import type { MemberRow } from './members.table.js';

/** A list row is already named as on the wire; only testuser is 0/1 on SQLite. */
export function toListItem(row: MemberListRow): MemberListRow {
  row.testuser = row.testuser === 1 || row.testuser === true;
  return row;
}

/** A member as the groups family shows it. */
export function toGroupMember(row: MemberRow): GroupMember {
  return {
    memberid: row.id,
    title: row.title,
    firstname: row.firstname,
    middlename: row.middlename,
    lastname: row.lastname,
    email: row.email,
    status: row.status,
    level: row.level,
    testuser: row.testuser === 1,
    extra: parseExtra(row.extra) as GroupMember['extra'],
  };
}
