import type { Insertable, Selectable, Updateable } from 'kysely';

export interface GroupTable {
  id: string;
  alias: string;
  name: string;
  /** `caseFold(name)`: what makes a name unique regardless of case. */
  name_key: string;
  description: string | null;
  /** Null for a group at the root. */
  parent_id: string | null;
  type: string | null;
  status: string;
  /** JSON text. */
  config: string;
  /** JSON text. */
  extra: string;
  creator: string | null;
  created: string;
}
export type GroupRow = Selectable<GroupTable>;
export type NewGroupRow = Insertable<GroupTable>;
export type GroupUpdate = Updateable<GroupTable>;
