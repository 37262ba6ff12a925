import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { type AuditRow, listAuditRows } from '../../src/audit/audit.repository.js';
import { queueMails } from '../../src/mail/outbox.repository.js';
import { formatDate } from '../../src/util/dates.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// Issue 23, part 3: a mail of the outbox queued again, one by one or all failed ones at once, from
// the console (as the signed-in user) or the command line, is in the audit log: one entry a mail,
// naming its id, never its recipient.

describe.each(dialects)('the audit log of the mail outbox (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let adminId: string;
  const recipients: string[] = [];

  const assay = (...args: string[]) =>
    runAssay([
      ...args,
      '--data',
      instance.config.dataDir,
      ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
    ]);
  const entries = async (id: string): Promise<AuditRow[]> =>
    (await listAuditRows(instance.db.kysely, { limit: 100, resourceType: 'mail', resourceId: id })).reverse();
  /** A failed mail in the outbox (its content plays no part in a retry). */
  const failedMail = async (): Promise<string> => {
    const recipient = email('mailed');
    recipients.push(recipient);
    const [id] = await queueMails(
      instance.db.kysely,
      [
        {
          dedupeKey: `${recipient}:user_invitation:1`,
          campaignId: null,
          memberId: null,
          stage: 'user_invitation',
          sequence: 1,
          recipient,
          params: { language: 'enUS', template: 'default' } as never,
        },
      ],
      { now: formatDate(new Date()), messageIdDomain: 'mail.example.test' },
    );
    await instance.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('id', '=', id as string)
      .execute();
    return id as string;
  };

  beforeAll(async () => {
    instance = await startInstance(dialect);
    adminId = (
      await instance.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.test')
        .executeTakeFirstOrThrow()
    ).id;
    admin = await new ConsoleBrowser(instance, '192.0.2.20').signIn();
  });
  afterAll(() => instance?.close());

  it('records a retry in the console as the user, and a refused second one not at all', async () => {
    const id = await failedMail();
    expect((await admin.post(`/console/mail/${id}/retry`, {})).statusCode).toBe(303);
    // Queued now: nothing to retry, nothing recorded.
    expect((await admin.post(`/console/mail/${id}/retry`, {})).statusCode).toBe(303);
    expect(
      (await entries(id)).map((row) => [row.actor_type, row.actor_id, row.channel, row.address, row.action]),
    ).toEqual([['user', adminId, 'console', '192.0.2.20', 'retry']]);
  });

  it('records every failed mail queued again at once, one entry each, from the console and the command line', async () => {
    const console = [await failedMail(), await failedMail()];
    expect((await admin.post('/console/mail/retry-failed', {})).statusCode).toBe(303);
    for (const id of console) expect((await entries(id)).map((row) => row.channel)).toEqual(['console']);

    const one = await failedMail();
    expect((await assay('mail', 'retry', one)).code).toBe(0);
    const all = [await failedMail(), await failedMail()];
    expect((await assay('mail', 'retry', '--failed')).code).toBe(0);
    for (const id of [one, ...all]) {
      expect(
        (await entries(id)).map((row) => [row.actor_type, row.actor_id, row.channel, row.action]),
      ).toEqual([['cli', cliActor().id, 'cli', 'retry']]);
    }
    // A refused retry (a queued mail) leaves no entry.
    expect((await assay('mail', 'retry', one)).code).not.toBe(0);
    expect(await entries(one)).toHaveLength(1);
  });

  it('names no recipient', async () => {
    const all = JSON.stringify(await listAuditRows(instance.db.kysely, { limit: 1000 }));
    for (const recipient of recipients) expect(all).not.toContain(recipient);
    expect(all).not.toContain('@');
  });
});
