import type { Kysely } from 'kysely';
import type { Actor } from '../audit/actor.js';
import { recordChange } from '../audit/audit.service.js';
import type { Database, Dialect } from '../db/database.js';
import { BusinessError, notFound } from '../domain/errors.js';
import { nowText } from '../util/dates.js';
import { checkEmail } from '../util/safe-text.js';
import { caseFold } from '../util/text.js';
import { queueEvent } from '../webhooks/events.js';
import * as data from './member-data.repository.js';
import * as repo from './members.repository.js';

/** What an erasure removed, counted for the command line's summary (never a name). */
export interface Erased {
  memberid: string;
  participations: number;
  reports: number;
  mails: number;
}

/**
 * The member a command names: by id, or by e-mail address when it holds an `@`. A malformed address
 * is refused as such; an unknown one, like an unknown id, is `member not found`.
 */
export async function resolveMember(db: Kysely<Database>, idOrEmail: string): Promise<string> {
  const given = idOrEmail.trim();
  if (given.includes('@')) {
    const checked = checkEmail(given);
    if (!checked.ok || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(checked.value)) {
      throw new BusinessError(`member: ${JSON.stringify(given)} is not an e-mail address`);
    }
    const id = await repo.findMemberIdByEmail(db, checked.value);
    if (id === undefined) throw notFound('member');
    return id;
  }
  if (!(await repo.findMember(db, given))) throw notFound('member');
  return given;
}

/**
 * Erases a member (GDPR art. 17), in one transaction, so that nothing left names them:
 * - their row, and with it (the foreign keys cascade) their group membership, their campaign places
 *   (answers, tokens, the name and address copied into each), their personal reports and the links
 *   group reports kept to those reports;
 * - a 360 group report whose subject (its master report) they are: it is about them;
 * - every mail sent to them or speaking of them (a `confirmation_admin` carries their name), sent or
 *   not; the reasons group reports gave for leaving out their free-text answers;
 * - console uploads and wizard drafts that hold their address.
 * Group reports of many keep their statistics, which name no one (docs/decisions.md). Webhook
 * messages and audit entries hold ids only and stay: `member.deleted` is queued, and the erasure is
 * recorded (`member`, id, `erase`). On SQLite the write-ahead log is then checkpointed and emptied,
 * so that the old page images go from disk too (`secure_delete` zeroes them in the file itself).
 */
export async function eraseMember(
  db: Kysely<Database>,
  dialect: Dialect,
  memberId: string,
  actor: Actor,
): Promise<Erased> {
  const erased = await db.transaction().execute(async (trx) => {
    const member = await repo.findMember(trx, memberId);
    if (!member) return undefined;
    const places = await data.campaignMemberIdsOf(trx, memberId);
    const reports = (await data.reportsOf(trx, memberId)).map((report) => report.id);
    const emailKey = caseFold(member.email);
    const mails = await data.deleteMailsOf(trx, memberId, [memberId, ...places], emailKey);
    await data.deleteSubjectGroupReports(trx, reports);
    await data.deleteVerbatimReasonsOf(trx, reports);
    await data.deleteConsoleCopiesNaming(trx, emailKey);
    if (!(await repo.deleteMember(trx, memberId))) return undefined;
    const now = nowText();
    await queueEvent(
      trx,
      'member.deleted',
      { memberid: memberId, deleted: now },
      { now, orderKey: memberId },
    );
    await recordChange(trx, actor, { resource: 'member', id: memberId, action: 'erase' }, now);
    return { memberid: memberId, participations: places.length, reports: reports.length, mails };
  });
  if (!erased) throw notFound('member');
  await data.checkpointLog(db, dialect);
  return erased;
}
