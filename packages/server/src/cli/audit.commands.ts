import { AUDIT_LIMIT_MAX, type AuditEntry, AuditQuery } from '@assay/schema';
import { AUDIT_LIMIT_DEFAULT, listAuditEntries } from '../audit/audit-log.service.js';
import type { Db } from '../db/database.js';
import { validate } from '../validation/validator.js';
import { type Command, command } from './command.js';

/**
 * `assay audit list`: the audit log read with the rules of GET /api/v1/audit (the same query
 * shape validates the options, so a bad value is refused with the API's own message).
 */

/** The options as GET /audit's query, validated (`limit: must be at most 1000`). */
export async function auditList(
  db: Db,
  options: { since?: string; until?: string; actor?: string; resource?: string; limit?: string },
): Promise<AuditEntry[]> {
  const query = validate(AuditQuery, options, 'query') as AuditQuery;
  return listAuditEntries(db.kysely, query);
}

const actorText = (entry: AuditEntry) => {
  const { type, id, channel, address } = entry.actor;
  return `${type}${id === null ? '' : ` ${id}`} (${channel}${address === null ? '' : ` ${address}`})`;
};

/** A table: a header, then one line an entry, the columns padded to their widest cell. */
export function auditListLines(entries: readonly AuditEntry[]): string[] {
  if (entries.length === 0) return ['no entries'];
  const rows = [
    ['SEQ', 'AT', 'ACTOR', 'RESOURCE', 'ACTION', 'FIELDS', 'OUTCOME'],
    ...entries.map((entry) => [
      String(entry.seq),
      entry.at,
      actorText(entry),
      entry.resource.id === null ? entry.resource.type : `${entry.resource.type}/${entry.resource.id}`,
      entry.action,
      entry.fields.length === 0 ? '-' : entry.fields.join(','),
      entry.outcome,
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  '),
  );
}

export const AUDIT_COMMANDS: readonly Command[] = [
  command({
    name: 'audit list',
    summary: `the audit log, newest first (${AUDIT_LIMIT_DEFAULT} unless --limit): who changed what, when, through which door`,
    details: [
      'Entries hold ids and the names of changed fields, never values (docs/audit.md).',
      'A date is a day (2026-11-22, midnight UTC) or a moment (2026-11-22T11:46:36+01:00).',
    ],
    options: {
      since: { type: 'string', value: 'DATE', description: 'only entries at or after this date or moment' },
      until: { type: 'string', value: 'DATE', description: 'only entries before this date or moment' },
      actor: {
        type: 'string',
        value: 'ID',
        description: 'only entries by this actor: a user, client, key or member id, or an OS user',
      },
      resource: {
        type: 'string',
        value: 'TYPE[/ID]',
        description: 'only entries about this kind of thing (member), or this one (member/Ab12Cd34Ef)',
      },
      limit: {
        type: 'string',
        value: 'N',
        description: `at most this many (default ${AUDIT_LIMIT_DEFAULT}, at most ${AUDIT_LIMIT_MAX})`,
      },
      json: { type: 'boolean', description: 'print the entries as one JSON array (the API’s shape)' },
    },
    migrate: true,
    async run({ db, values, print, json }) {
      const entries = await auditList(db, {
        since: values.since,
        until: values.until,
        actor: values.actor,
        resource: values.resource,
        limit: values.limit,
      });
      if (values.json) json(entries);
      else for (const line of auditListLines(entries)) print(line);
    },
  }),
];
