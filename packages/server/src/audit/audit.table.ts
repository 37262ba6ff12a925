import type { Generated } from 'kysely';

/** One entry of the audit log (migration 20261202T1000-audit-log): ids and field names only. */
export interface AuditLogTable {
  /** The order entries were written in (PostgreSQL's bigserial arrives as a string). */
  seq: Generated<number | string>;
  at: string;
  actor_type: string;
  actor_id: string | null;
  user_id: string | null;
  channel: string;
  address: string | null;
  resource_type: string;
  resource_id: string | null;
  action: string;
  /** The names of the fields changed, space-separated; null when the action names them all (create, delete). */
  fields: string | null;
  outcome: string;
}

/** SQLite only: the cutoff the audit retention declares while it prunes (one row, in its transaction). */
export interface AuditPruneTable {
  cutoff: string;
}
