import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { isJsonObject, parseJsonColumn } from '../db/json-columns.js';

// The console's drafts (drafts.table.ts): a wizard's answers between its pages, one draft of a
// kind per session; they go with the session (the foreign key cascades).

/** A draft's answers: each form field's text as the operator gave it. */
export type DraftAnswers = Readonly<Record<string, string>>;

/** The codec of `data`: a JSON object of strings; anything else in it is dropped. */
export function draftAnswersText(answers: DraftAnswers): string {
  return JSON.stringify(answers);
}

export function parseDraftAnswers(text: string): DraftAnswers {
  const value = parseJsonColumn(text);
  if (!isJsonObject(value)) return {};
  const answers: Record<string, string> = Object.create(null);
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') answers[key] = entry;
  return answers;
}

export async function findDraft(
  db: Kysely<Database>,
  sessionIdHash: string,
  kind: string,
): Promise<DraftAnswers | undefined> {
  const row = await db
    .selectFrom('console_drafts')
    .select('data')
    .where('session_id_hash', '=', sessionIdHash)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row ? parseDraftAnswers(row.data) : undefined;
}

/** Writes a session's draft of a kind, made on its first answer and replaced on each later one. */
export async function upsertDraft(
  db: Kysely<Database>,
  row: { id: string; sessionIdHash: string; kind: string; answers: DraftAnswers; now: string },
): Promise<void> {
  const data = draftAnswersText(row.answers);
  await db
    .insertInto('console_drafts')
    .values({
      id: row.id,
      session_id_hash: row.sessionIdHash,
      kind: row.kind,
      data,
      created: row.now,
      updated: row.now,
    })
    .onConflict((oc) => oc.columns(['session_id_hash', 'kind']).doUpdateSet({ data, updated: row.now }))
    .execute();
}

export async function deleteDraft(db: Kysely<Database>, sessionIdHash: string, kind: string): Promise<void> {
  await db
    .deleteFrom('console_drafts')
    .where('session_id_hash', '=', sessionIdHash)
    .where('kind', '=', kind)
    .execute();
}

/** Deletes a session's draft of a kind and answers what it held: of two requests, one gets it. */
export async function takeDraft(
  db: Kysely<Database>,
  sessionIdHash: string,
  kind: string,
): Promise<DraftAnswers | undefined> {
  const row = await db
    .deleteFrom('console_drafts')
    .where('session_id_hash', '=', sessionIdHash)
    .where('kind', '=', kind)
    .returning('data')
    .executeTakeFirst();
  return row ? parseDraftAnswers(row.data) : undefined;
}
