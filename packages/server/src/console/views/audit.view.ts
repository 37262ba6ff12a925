import type { AuditEntry } from '@assay/schema';
import type { ActorType, Channel } from '../../audit/actor.js';
import type { AuditOutcome } from '../../audit/audit.service.js';
import { fill } from '../../pages/strings.js';
import { type AuditStrings, auditStrings } from '../audit-strings.js';
import { consoleDateTime } from '../format.js';
import { type ConsoleView, chrome, type Viewer } from './console-view.js';

/** The entries one page shows. */
export const AUDIT_PAGE_SIZE = 50;

/** The filters of the page, as its GET form sends them (dates as `YYYY-MM-DD`). */
export interface AuditPageQuery {
  readonly since?: string;
  readonly until?: string;
  readonly actor?: string;
  readonly type?: string;
  readonly id?: string;
}

const FILTER_KEYS = ['since', 'until', 'actor', 'type', 'id'] as const;

/** The address of a page of the log: the filters, and the seq to page from. */
export function auditHref(query: AuditPageQuery, before?: number): string {
  const search = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = query[key];
    if (value) search.set(key, value);
  }
  if (before !== undefined) search.set('before', String(before));
  const text = search.toString();
  return text ? `/console/audit?${text}` : '/console/audit';
}

/** Who acted, readably: a user by e-mail, a client or key with the user it acts for. */
function actorText(a: AuditStrings, entry: AuditEntry, emails: ReadonlyMap<string, string>): string {
  const { type, id, userid } = entry.actor;
  const shownId = (type === 'user' && id !== null ? emails.get(id) : undefined) ?? id ?? '';
  const actor = fill(a.actors[type as ActorType] ?? `${type} {id}`, { id: shownId });
  if ((type === 'client' || type === 'apikey') && userid !== null) {
    return fill(a.actingFor, { actor, owner: emails.get(userid) ?? userid });
  }
  return actor;
}

/** The audit log for admins: filters as a GET form, a page of entries newest first, Older and Newest. */
export function auditView(
  viewer: Viewer,
  input: {
    query: AuditPageQuery;
    /** The page's entries and one more when there is an older page. */
    entries: readonly AuditEntry[];
    before?: number;
    /** Users' e-mail addresses by id, to name user actors and the owners of clients and keys. */
    emails: ReadonlyMap<string, string>;
  },
): ConsoleView {
  const a = auditStrings(viewer.language);
  const { query } = input;
  const shown = input.entries.slice(0, AUDIT_PAGE_SIZE);
  const last = shown.at(-1);
  const older = input.entries.length > AUDIT_PAGE_SIZE && last ? auditHref(query, last.seq) : undefined;
  const filtered = FILTER_KEYS.some((key) => query[key]);
  const rows = shown.map((entry) => ({
    when: consoleDateTime(viewer.language, entry.at),
    who: actorText(a, entry, input.emails),
    through: a.channels[entry.actor.channel as Channel] ?? entry.actor.channel,
    address: entry.actor.address,
    what: entry.resource.id === null ? entry.resource.type : `${entry.resource.type} ${entry.resource.id}`,
    action: entry.action,
    fields: entry.fields.join(', '),
    outcome: a.outcomes[entry.outcome as AuditOutcome] ?? entry.outcome,
  }));
  return {
    template: 'console/audit',
    model: {
      ...chrome(viewer, 'audit'),
      a,
      title: a.title,
      since: query.since ?? '',
      until: query.until ?? '',
      actor: query.actor ?? '',
      type: query.type ?? '',
      id: query.id ?? '',
      filtered,
      rows,
      empty: rows.length === 0 ? (filtered || input.before !== undefined ? a.noMatches : a.none) : undefined,
      older,
      newest: input.before !== undefined ? auditHref(query) : undefined,
    },
  };
}
