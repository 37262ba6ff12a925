import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { nowText } from '../util/dates.js';
import type { Actor } from './actor.js';
import { insertAuditRows, type NewAuditRow } from './audit.repository.js';

/**
 * What an audit entry is about. One word per kind of thing a change touches; `campaign_member`
 * entries carry the member's id (the campaign's is in the change's own entry), so that everything
 * about one person is found by their id (the participant's data export reads it so).
 */
export type AuditResource =
  | 'member'
  | 'group'
  | 'campaign'
  | 'campaign_member'
  | 'answers'
  | 'report'
  | 'settings'
  | 'user'
  | 'client'
  | 'apikey'
  | 'session'
  | 'webhook'
  | 'mail'
  | 'audit_log';

/** How an attempted change ended: made, refused for its credentials, or refused for its content. */
export type AuditOutcome = 'succeeded' | 'denied' | 'failed';

/** One change, as the code that makes it describes it. */
export interface Change {
  resource: AuditResource;
  /** The id of the thing changed (null for a singleton like the settings, or a thing never made). */
  id: string | null;
  /** What was done: `create`, `update`, `delete`, `erase`, `invite`, `complete`, ... */
  action: string;
  /** The names of the fields changed (an update); never their values. */
  fields?: readonly string[];
  outcome?: AuditOutcome;
}

/** The row of one change. */
export function auditRow(actor: Actor, change: Change, at: string): NewAuditRow {
  return {
    at,
    actor_type: actor.type,
    actor_id: actor.id,
    user_id: actor.userId,
    channel: actor.channel,
    address: actor.address,
    resource_type: change.resource,
    resource_id: change.id,
    action: change.action,
    fields: change.fields && change.fields.length > 0 ? [...change.fields].join(' ') : null,
    outcome: change.outcome ?? 'succeeded',
  };
}

/**
 * Records a change in the transaction that makes it: the entry exists exactly when the change
 * does (a rolled back change leaves none). Pass the transaction, never the bare database, unless
 * the change is a refusal recorded after its rollback.
 */
export async function recordChange(
  trx: Transaction<Database> | Kysely<Database>,
  actor: Actor,
  change: Change,
  at: string = nowText(),
): Promise<void> {
  await insertAuditRows(trx, [auditRow(actor, change, at)]);
}

/** Records many changes of one kind at once (an import, an invitation of thousands). */
export async function recordChanges(
  trx: Transaction<Database> | Kysely<Database>,
  actor: Actor,
  changes: readonly Change[],
  at: string = nowText(),
): Promise<void> {
  if (changes.length === 0) return;
  await insertAuditRows(
    trx,
    changes.map((change) => auditRow(actor, change, at)),
  );
}
