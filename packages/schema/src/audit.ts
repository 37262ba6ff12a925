import Type, { type Static } from 'typebox';
import { DateTime } from './common.js';

/** Who made a change, and through which door (docs/audit.md names each type and channel). */
export const AuditActor = Type.Object(
  {
    type: Type.String({ description: 'user, client, apikey, member, cli, system or anonymous' }),
    id: Type.Union([Type.String(), Type.Null()], {
      description: "the user's, client's, key's or member's id, the operating-system user, or null",
    }),
    userid: Type.Union([Type.String(), Type.Null()], {
      description: 'the platform user a client or key acts for, else null',
    }),
    channel: Type.String({ description: 'api, console, cli, participant, scheduler or oauth' }),
    address: Type.Union([Type.String(), Type.Null()], {
      description: "the caller's network address (null for the command line and the scheduler)",
    }),
  },
  { additionalProperties: false },
);
export type AuditActor = Static<typeof AuditActor>;

/** One entry of the audit log: ids and field names, never values. */
export const AuditEntry = Type.Object(
  {
    seq: Type.Integer({ minimum: 1, description: 'the order entries were written in; `before` pages by it' }),
    at: DateTime,
    actor: AuditActor,
    resource: Type.Object(
      {
        type: Type.String({ description: 'member, group, campaign, campaign_member, report, user, ...' }),
        id: Type.Union([Type.String(), Type.Null()], {
          description: 'null for a singleton such as settings',
        }),
      },
      { additionalProperties: false },
    ),
    action: Type.String({ description: 'create, update, delete, erase, invite, complete, prune, ...' }),
    fields: Type.Array(Type.String(), { description: 'the names of the fields an update changed' }),
    outcome: Type.String({ description: 'succeeded, denied or failed' }),
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntry>;

/** The most entries one call answers. */
export const AUDIT_LIMIT_MAX = 1000;

/** GET /audit's filters; the CLI and the console read theirs with the same shape. */
export const AuditQuery = Type.Object({
  since: Type.Optional(
    Type.String({ format: 'date-time', description: 'entries at or after this moment (a date or ISO 8601)' }),
  ),
  until: Type.Optional(
    Type.String({ format: 'date-time', description: 'entries before this moment (a date or ISO 8601)' }),
  ),
  actor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: "the actor's id (a user, client, key, member)",
    }),
  ),
  resource: Type.Optional(
    Type.String({
      pattern: '^[a-z_]{1,32}(/[^/\\s]{1,255})?$',
      description: 'a resource type, or a type and an id such as member/Ab12Cd34Ef',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: AUDIT_LIMIT_MAX,
      description: `at most this many entries, newest first (default 100, at most ${AUDIT_LIMIT_MAX})`,
    }),
  ),
  before: Type.Optional(
    Type.Integer({ minimum: 1, description: 'only entries older than this seq: the next page' }),
  ),
});
export type AuditQuery = Static<typeof AuditQuery>;
