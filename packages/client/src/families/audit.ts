import { asIs } from '../normalise.js';
import type { Transport } from '../transport.js';
import type { AuditEntry, AuditQuery } from '../types.js';

/** The audit family (scope `audit`): the audit log, read only (docs/audit.md). */
export class Audit {
  constructor(private readonly http: Transport) {}

  /**
   * GET /audit: entries newest first (100 unless `limit`, at most 1000). The next page: the same
   * query with `before` set to the last entry's `seq`.
   */
  list(query: AuditQuery = {}): Promise<AuditEntry[]> {
    return this.http.call('GET', '/audit', asIs<AuditEntry[]>, { query: { ...query } });
  }
}
