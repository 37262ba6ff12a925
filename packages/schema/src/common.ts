import Type, { type TSchema } from 'typebox';

/** A 10-character server-generated id of `[0-9A-Za-z]`. */
export const Id = Type.String({ pattern: '^[0-9A-Za-z]{10}$', description: 'a 10-character id' });

/** A date-time as the server writes it: `2026-11-22T11:46:36+00:00`. */
export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 with UTC offset' });

/**
 * Text that reaches a mail or a page on one line (names, titles, a campaign's name, a subject): the
 * server refuses line breaks, control, bidirectional-control and invisible characters in it.
 */
export const OneLine = {
  'x-text': 'line',
  description: 'one line: no line breaks, control, bidirectional-control or invisible characters',
} as const;

/** Free text that may span lines (descriptions): line breaks (as LF) and tabs kept, other control characters removed. */
export const Lines = {
  'x-text': 'lines',
  description: 'free text: line breaks and tabs are kept, other control characters removed',
} as const;

/** A string that may be null. */
export const NullableString = (options: { maxLength?: number; description?: string } = {}) =>
  Type.Union([Type.String(options), Type.Null()]);

/** An object that goes out as `[]` when it is empty (the spec's rule for config, extra, tags, ...). */
export const ObjectOrEmptyArray = <T extends TSchema>(object: T) =>
  Type.Union([object, Type.Array(Type.Unknown(), { maxItems: 0 })]);

/** Instance-specific custom fields: a flat object of strings, numbers and booleans. */
export const Extra = Type.Record(
  Type.String(),
  Type.Union([Type.String({ maxLength: 4000 }), Type.Number(), Type.Boolean()]),
  {
    description:
      'Instance-specific custom fields: a flat object of string (up to 4000 characters), number or boolean values',
  },
);

/** A boolean on input: true/false, 1/0 and "1"/"0" are all accepted. */
export const CoercedBoolean = Type.Boolean({ description: 'Accepts true/false, 1/0, "1"/"0"' });

/** The success envelope. */
export const Ok = <T extends TSchema>(data: T) => Type.Object({ status: Type.Literal('OK'), data });

/** A business failure: HTTP 200 with a short message in `data`, never an object. */
export const ErrorEnvelope = Type.Object({ status: Type.Literal('ERROR'), data: Type.String() });

/** The answer of an endpoint whose success data is an empty string. */
export const OkEmpty = Ok(Type.Literal(''));

/** The body of a real HTTP error (401, 403, 404, 405, 413, 429, 500): no `status` field. */
export const HttpErrorBody = Type.Object({ error: Type.String(), message: Type.String() });

/** The body of the dupecheck calls: any other key silently answers OK. */
export const DupecheckBody = Type.Object({ value: Type.Optional(Type.Unknown()) });

/** `limit` and `offset` are accepted and ignored on every collection. */
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Unknown({ description: 'Accepted and ignored: the full set is returned' })),
  offset: Type.Optional(Type.Unknown({ description: 'Accepted and ignored: the full set is returned' })),
});

/** The families of the API; each is an OAuth scope. */
export const SCOPES = [
  'members',
  'groups',
  'campaigns',
  'reports',
  'settings',
  'samples',
  'webhooks',
  'audit',
] as const;
export type Scope = (typeof SCOPES)[number];
