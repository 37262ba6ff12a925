import type { AuditEntry, AuditQuery } from '@assay/schema';
import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../db/database.js';
import { daysBefore, formatDate } from '../util/dates.js';
import { SYSTEM_ACTOR } from './actor.js';
import { type AuditFilter, listAuditRows, pruneAuditRows } from './audit.repository.js';
import { recordChange } from './audit.service.js';
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
  return listAuditEntriesBy(db, auditFilterOf(query));
}

/** The entries a filter selects, newest first (the console's form names type and id apart). */
export async function listAuditEntriesBy(db: Kysely<Database>, filter: AuditFilter): Promise<AuditEntry[]> {
  return (await listAuditRows(db, filter)).map(toAuditEntry);
}

/**
 * The retention: removes the entries older than `days` before `now` and, when it removed any,
 * records that it did, as the scheduler, in the same transaction. Answers how many went.
 */
export async function pruneAuditLog(
  deps: { db: Kysely<Database>; dialect: Dialect },
  now: Date,
  days: number,
): Promise<number> {
  const cutoff = daysBefore(now, days);
  return pruneAuditRows(deps.db, deps.dialect, cutoff, async (trx, removed) => {
    if (removed > 0) {
      await recordChange(
        trx,
        SYSTEM_ACTOR,
        { resource: 'audit_log', id: null, action: 'prune' },
        formatDate(now),
      );
    }
  });
}
