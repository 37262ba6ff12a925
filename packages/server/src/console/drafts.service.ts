import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { formatDate } from '../util/dates.js';
import { randomId } from '../util/ids.js';
import type { ConsoleSessionRow } from './console.table.js';
import * as repo from './drafts.repository.js';

export type { DraftAnswers } from './drafts.repository.js';

/** The wizards whose answers are kept as drafts. */
export type DraftKind = 'campaign' | 'group-report' | 'group-report-made';

/** The session's draft of a wizard: its answers so far (none yet: empty). */
export async function loadDraft(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  kind: DraftKind,
): Promise<repo.DraftAnswers> {
  return (await repo.findDraft(db, session.id_hash, kind)) ?? {};
}

/** Keeps a wizard's answers for the session (the whole set, replacing what was kept). */
export async function saveDraft(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  kind: DraftKind,
  answers: repo.DraftAnswers,
  now: Date,
): Promise<void> {
  await repo.upsertDraft(db, {
    id: randomId(),
    sessionIdHash: session.id_hash,
    kind,
    answers,
    now: formatDate(now),
  });
}

/** Forgets a wizard's answers (done, or started again). */
export async function discardDraft(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  kind: DraftKind,
): Promise<void> {
  await repo.deleteDraft(db, session.id_hash, kind);
}

/** Takes a wizard's answers away (deleting them) for the one request that finds them; else none. */
export async function takeDraft(
  db: Kysely<Database>,
  session: ConsoleSessionRow,
  kind: DraftKind,
): Promise<repo.DraftAnswers | undefined> {
  return repo.takeDraft(db, session.id_hash, kind);
}
