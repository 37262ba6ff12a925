import type { AuditEntry } from '@assay/schema';
import { formatDate, parseDate } from '../util/dates.js';
import type { AuditRow } from './audit.repository.js';

/** An entry as every reader gives it (the API, `assay audit list --json`, the console's table). */
export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    // Written in the wire form; an entry written with milliseconds is given in it too.
    at: formatDate(parseDate(row.at) ?? new Date(row.at)),
    actor: {
      type: row.actor_type,
      id: row.actor_id,
      userid: row.user_id,
      channel: row.channel,
      address: row.address,
    },
    resource: { type: row.resource_type, id: row.resource_id },
    action: row.action,
    fields: row.fields === null ? [] : row.fields.split(' '),
    outcome: row.outcome,
  };
}
