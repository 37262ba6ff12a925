import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cliActor } from '../audit/actor.js';
import type { Db } from '../db/database.js';
import { BusinessError } from '../domain/errors.js';
import { eraseMember, resolveMember } from '../members/erasure.service.js';
import { exportMemberData } from '../members/member-data.service.js';
import type { VariantRegistry } from '../variants/variant.types.js';

/**
 * `assay members export-data ID|EMAIL [--out FILE]`: everything held about a person as one JSON
 * document. With `--out` it is written beside the target under a temporary name, readable by its
 * owner only (it is personal data), and renamed once whole; without it, it is the output.
 */
export async function exportData(
  db: Db,
  variants: VariantRegistry,
  idOrEmail: string,
  out: string | undefined,
): Promise<{ text: string; file?: string }> {
  const memberId = await resolveMember(db.kysely, idOrEmail);
  const text = `${JSON.stringify(await exportMemberData(db.kysely, variants, memberId), null, 2)}\n`;
  if (out === undefined) return { text };
  const target = path.resolve(out);
  const partial = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(4).toString('hex')}.part`,
  );
  try {
    fs.writeFileSync(partial, text, { flag: 'wx', mode: 0o600 });
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { text, file: target };
}

/**
 * `assay members erase ID|EMAIL --yes`: the erasure DELETE /members/{id} makes (erasure.service.ts).
 * It cannot be undone, so without `--yes` nothing is erased and the line says how to confirm.
 */
export async function erase(db: Db, idOrEmail: string, confirmed: boolean): Promise<string> {
  const memberId = await resolveMember(db.kysely, idOrEmail);
  if (!confirmed) {
    throw new BusinessError(
      `members erase: member ${memberId} and everything held about them would be erased for good; run again with --yes`,
    );
  }
  const erased = await eraseMember(db.kysely, db.dialect, memberId, cliActor());
  return `erased member ${erased.memberid}: ${erased.participations} campaign places, ${erased.reports} reports, ${erased.mails} mails`;
}
