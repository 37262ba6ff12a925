import type { Insertable, Selectable, Updateable } from 'kysely';

export interface MemberTable {
  id: string;
  title: string | null;
  firstname: string;
  middlename: string | null;
  lastname: string;
  email: string;
  /** `caseFold(email)`: what makes an address unique regardless of case. */
  email_key: string;
  phone: string;
  company: string;
  jobtitle: string;
  status: string | null;
  level: string | null;
  testuser: number;
  group_id: string | null;
  /** JSON text of a flat object. */
  extra: string;
  created: string;
}
export type MemberRow = Selectable<MemberTable>;
export type NewMemberRow = Insertable<MemberTable>;
export type MemberUpdate = Updateable<MemberTable>;
