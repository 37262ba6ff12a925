import Type from 'typebox';
import { DateText, isoDate, Nullable } from '../shapes.js';
import { type Tool, tool } from '../tool.js';

export const auditTools: Tool[] = [
  tool({
    name: 'listAuditEntries',
    title: 'Read the audit log',
    description:
      'Lists entries of the audit log, newest first: who changed what (an actor with its type, id, ' +
      'channel and address), when, the kind and id of the thing changed, the action, the names of the ' +
      'fields changed (never their values) and the outcome. Narrow it by moment (`since`, `until`), by ' +
      "actor id, or by `resource` (`member`, or `member/<id>`); for the next page pass the last entry's " +
      '`seq` as `before`.',
    input: Type.Object(
      {
        since: Type.Optional(
          Type.String({ description: 'Entries at or after this date or ISO 8601 moment.' }),
        ),
        until: Type.Optional(Type.String({ description: 'Entries before this date or ISO 8601 moment.' })),
        actor: Type.Optional(Type.String({ description: 'The id of a user, client, API key or member.' })),
        resource: Type.Optional(
          Type.String({ description: 'A kind of thing (`campaign`) or a kind and an id (`campaign/<id>`).' }),
        ),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 100.' })),
        before: Type.Optional(Type.Integer({ minimum: 1, description: 'Only entries older than this seq.' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      entries: Type.Array(
        Type.Object({
          seq: Type.Integer(),
          at: DateText('When the change was made.'),
          actorType: Type.String(),
          actorId: Nullable(Type.String()),
          actingFor: Nullable(Type.String(), 'The user a client or API key acts for.'),
          channel: Type.String(),
          address: Nullable(Type.String()),
          resourceType: Type.String(),
          resourceId: Nullable(Type.String()),
          action: Type.String(),
          fields: Type.Array(Type.String()),
          outcome: Type.String(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    scopes: ['audit'],
    async run(query, { client }) {
      const entries = await client.audit.list(query);
      return {
        structured: {
          entries: entries.map((entry) => ({
            seq: entry.seq,
            at: isoDate(entry.at) ?? entry.at,
            actorType: entry.actor.type,
            actorId: entry.actor.id,
            actingFor: entry.actor.userid,
            channel: entry.actor.channel,
            address: entry.actor.address,
            resourceType: entry.resource.type,
            resourceId: entry.resource.id,
            action: entry.action,
            fields: entry.fields,
            outcome: entry.outcome,
          })),
        },
      };
    },
  }),
];
