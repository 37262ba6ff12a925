import type { AuditEntry, AuditQuery } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { type AuditFilter, listAuditRows } from './audit.repository.js';
import { toAuditEntry } from './audit.wire.js';

/** The entries one read answers unless it asks for another number. */
export const AUDIT_LIMIT_DEFAULT = 100;

/** A validated query (AuditQuery) as the repository's filter. */
export function auditFilterOf(query: AuditQuery): AuditFilter {
  const [resourceType, ...rest] = query.resource?.split('/') ?? [];
  const resourceId = rest.length > 0 ? rest.join('/') : undefined;
  return {
    since: query.since,
    until: query.until,
    actorId: query.actor,
    resourceType,
    resourceId,
    beforeSeq: query.before,
    limit: query.limit ?? AUDIT_LIMIT_DEFAULT,
  };
}

/** The entries a query selects, newest first (GET /audit, `assay audit list`, the console). */
export async function listAuditEntries(db: Kysely<Database>, query: AuditQuery): Promise<AuditEntry[]> {
  return (await listAuditRows(db, auditFilterOf(query))).map(toAuditEntry);
}
