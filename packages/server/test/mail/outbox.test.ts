import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailList,
  mailListLines,
  mailRetry,
  mailRetryFailed,
  mailShow,
} from '../../src/cli/mail.commands.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { MailParams } from '../../src/mail/mail.types.js';
import {
  claimDue,
  countOutbox,
  markFailed,
  markRetry,
  markSent,
  type QueuedMail,
  queueMails,
} from '../../src/mail/outbox.repository.js';
import { messageIdDomain } from '../../src/mail/outbox.service.js';
import { renderMail } from '../../src/mail/render.js';
import { randomId } from '../../src/util/ids.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import type { VariantRegistry } from '../../src/variants/variant.types.js';
import { DATE, dialects, email, migratedDatabase } from '../helpers/instance.js';

const NOW = '2026-11-22T10:00:00+00:00';
const LATER = '2026-11-22T11:00:00+00:00';
const OPTIONS = { now: NOW, messageIdDomain: 'mail.example.test' };
const MAIL_FROM = 'Assay <assay@mail.example.test>';

function reminder(recipient = email(), campaignId: string | null = null): QueuedMail {
  const params: MailParams = {
    stage: 'campaign_reminder',
    language: 'enUS',
    template: 'standard',
    variant: 'teamscan',
    recipient: { firstname: 'Alan', lastname: 'Turing', email: recipient },
    campaign: { id: campaignId ?? 'none', name: 'Team check', end: null },
    link: 'https://assay.example.test/q/abc',
    sender: 'Assay',
    inviter: null,
  };
  return {
    dedupeKey: `${randomId()}:campaign_reminder:1`,
    campaignId,
    memberId: null,
    stage: 'campaign_reminder',
    sequence: 1,
    recipient,
    params,
  };
}

let variants: VariantRegistry;
beforeAll(() => {
  variants = loadVariants([builtinVariantsDir()]);
});

it('takes the Message-ID domain from the sender address', () => {
  expect(messageIdDomain('Assay <assay@mail.example.test>')).toBe('mail.example.test');
  expect(messageIdDomain('noreply@example.org')).toBe('example.org');
});

for (const dialect of dialects) {
  describe(`the outbox (${dialect})`, () => {
    let database: { db: Db; close(): Promise<void> };
    let db: Db['kysely'];
    beforeAll(async () => {
      database = await migratedDatabase(dialect);
      db = database.db.kysely;
    });
    afterAll(() => database.close());

    const row = (id: string) =>
      db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('queues mails as due rows, skipping a dedupe key already there, in chunks', async () => {
      const mail = reminder();
      const [id] = await queueMails(db, [mail, mail], OPTIONS);
      expect(await row(id as string)).toMatchObject({
        dedupe_key: mail.dedupeKey,
        status: 'queued',
        attempts: 0,
        next_attempt_at: NOW,
        created: NOW,
        template: 'standard',
        language: 'enUS',
        stage: 'campaign_reminder',
        sequence: 1,
        message_id: `<${id}@mail.example.test>`,
        lease_until: null,
      });
      expect(JSON.parse((await row(id as string)).params)).toEqual(mail.params);
      expect(await queueMails(db, [mail], OPTIONS)).toEqual([]);

      const many = Array.from({ length: 1201 }, () => reminder());
      const ids = await queueMails(db, [...many, mail], OPTIONS);
      expect(new Set(ids).size).toBe(1201);
    });

    it("queues in the caller's transaction: rolled back, no mail", async () => {
      const mail = reminder();
      await expect(
        db.transaction().execute(async (trx) => {
          expect(await queueMails(trx, [mail], OPTIONS)).toHaveLength(1);
          throw new Error('the state change failed');
        }),
      ).rejects.toThrow('the state change failed');
      const found = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('dedupe_key', '=', mail.dedupeKey)
        .execute();
      expect(found).toEqual([]);
    });

    it('claims due mails under a lease, and only the lease holder records the outcome', async () => {
      // Mails of earlier tests are due too: claim them away first.
      while ((await claimDue(db, dialect, { now: NOW, leaseUntil: LATER, limit: 1000 })).length > 0);
      const ids = await queueMails(db, [reminder(), reminder(), reminder()], OPTIONS);
      const notYet = await queueMails(db, [reminder()], { ...OPTIONS, now: LATER });
      const lease = { now: NOW, leaseUntil: '2026-11-22T10:05:00+00:00' };
      const first = await claimDue(db, dialect, { ...lease, limit: 2 });
      const second = await claimDue(db, dialect, { ...lease, limit: 10 });
      expect([...first, ...second].map((r) => r.id).sort()).toEqual([...ids].sort());
      expect(first.every((r) => r.status === 'sending' && r.attempts === 1)).toBe(true);
      expect(await claimDue(db, dialect, { ...lease, limit: 10 })).toEqual([]);

      const [a, b, c] = [...first, ...second].map((r) => r.id) as [string, string, string];
      const wrong = { leaseUntil: '2026-11-22T10:04:00+00:00' };
      expect(await markFailed(db, dialect, [{ id: a, response: 'x' }], wrong)).toBe(0);
      expect(await markSent(db, dialect, [{ id: a, response: '250 ok' }], { ...lease, now: NOW })).toBe(1);
      expect(await markSent(db, dialect, [{ id: a, response: '250 again' }], { ...lease, now: NOW })).toBe(0);
      const retry = [{ id: b, response: '451 later', nextAttemptAt: LATER }];
      expect(await markRetry(db, dialect, retry, lease)).toBe(1);
      expect(await markFailed(db, dialect, [{ id: c, response: '550 it\'s "gone"' }], lease)).toBe(1);
      expect(await row(a)).toMatchObject({
        status: 'sent',
        sent_at: NOW,
        last_response: '250 ok',
        lease_until: null,
      });
      expect(await row(b)).toMatchObject({
        status: 'queued',
        next_attempt_at: LATER,
        last_response: '451 later',
      });
      expect(await row(c)).toMatchObject({ status: 'failed', last_response: '550 it\'s "gone"' });

      // The retried one and the later one are due at LATER, not before.
      const due = await claimDue(db, dialect, {
        now: LATER,
        leaseUntil: '2026-11-22T11:05:00+00:00',
        limit: 10,
      });
      expect(due.map((r) => r.id).sort()).toEqual([b, ...notYet].sort());
      expect(due.find((r) => r.id === b)?.attempts).toBe(2);
    });

    it('lists, shows and retries mails for the operator', async () => {
      const campaignId = null;
      const recipient = email();
      const [sentId, failedId, otherFailedId] = await queueMails(
        db,
        [reminder(recipient, campaignId), reminder(), reminder()],
        { ...OPTIONS, now: '2026-11-23T09:00:00+00:00' },
      );
      const claimed = await claimDue(db, dialect, {
        now: '2026-11-23T09:00:00+00:00',
        leaseUntil: '2026-11-23T09:05:00+00:00',
        limit: 100_000,
      });
      expect(claimed.length).toBeGreaterThanOrEqual(3);
      const lease = { leaseUntil: '2026-11-23T09:05:00+00:00' };
      await markSent(db, dialect, [{ id: sentId as string, response: '250 2.0.0 queued as A1' }], {
        ...lease,
        now: '2026-11-23T09:00:01+00:00',
      });
      await markFailed(
        db,
        dialect,
        [failedId, otherFailedId].map((id) => ({ id: id as string, response: '550 no such user' })),
        lease,
      );

      const failed = await mailList(db, { status: 'failed' });
      expect(failed.map((mail) => mail.id)).toEqual(expect.arrayContaining([failedId, otherFailedId]));
      expect(failed.every((mail) => mail.status === 'failed')).toBe(true);
      const newest = await mailList(db, { limit: '1' });
      expect(newest).toHaveLength(1);
      expect(newest[0]?.created).toMatch(DATE);
      const [line] = mailListLines(await mailList(db, { status: 'sent' }));
      expect(line).toMatch(
        new RegExp(`^${sentId}  sent      campaign_reminder  ${recipient}  \\S+  attempts 1$`),
      );
      await expect(mailList(db, { status: 'lost' })).rejects.toThrow(
        'status: must be one of queued, sending, sent, failed, captured, got "lost"',
      );

      const shown = await mailShow(db, sentId as string, { variants, mailFrom: MAIL_FROM });
      const rendered = renderMail(variants, reminder(recipient).params);
      expect(shown.slice(0, 4)).toEqual([
        `Message-ID: <${sentId}@mail.example.test>`,
        `From: ${MAIL_FROM}`,
        `To: ${recipient}`,
        `Subject: ${rendered.subject}`,
      ]);
      expect(shown).toContain('Sent: 2026-11-23T09:00:01+00:00');
      expect(shown).toContain('Status: sent (attempts: 1)');
      expect(shown).toContain('Last response: 250 2.0.0 queued as A1');
      expect(shown.slice(shown.indexOf('') + 1).join('\n')).toBe(rendered.text.trim());
      await expect(mailShow(db, 'NoSuchMail', { variants, mailFrom: MAIL_FROM })).rejects.toThrow(
        'mail: no mail NoSuchMail',
      );

      expect(await mailRetry(db, failedId as string)).toBe(`mail ${failedId} queued again`);
      expect(await row(failedId as string)).toMatchObject({ status: 'queued', attempts: 0 });
      await expect(mailRetry(db, sentId as string)).rejects.toThrow(
        `mail: ${sentId} is sent; only a failed or captured mail can be retried`,
      );
      await expect(mailRetry(db, 'NoSuchMail')).rejects.toThrow('mail: no mail NoSuchMail');
      const before = (await countOutbox(db)).failed;
      expect(before).toBeGreaterThanOrEqual(1);
      expect(await mailRetryFailed(db)).toBe(`${before} failed mail${before === 1 ? '' : 's'} queued again`);
      expect((await countOutbox(db)).failed).toBe(0);
    });
  });
}

describe('assay mail, the built command', () => {
  const run = promisify(execFile);
  const MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');
  let data: string;
  beforeAll(() => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-mail-cli-'));
  });
  afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

  it('lists and shows a mail; an unknown id is one error line and exit code 1', async () => {
    const db = openDatabase({ dataDir: data });
    let id: string;
    try {
      await migrateToLatest(db.kysely);
      [id] = (await queueMails(db.kysely, [reminder('cli@example.test')], OPTIONS)) as [string];
    } finally {
      await db.close();
    }
    const env = { ...process.env, LOG_LEVEL: 'warn', MAIL_FROM };
    const assay = (...args: string[]) => run(process.execPath, [MAIN, ...args, '--data', data], { env });

    const listed = JSON.parse((await assay('mail', 'list', '--json')).stdout);
    expect(listed).toMatchObject([{ id, status: 'queued', recipient: 'cli@example.test', attempts: 0 }]);
    const shown = (await assay('mail', 'show', id)).stdout;
    expect(shown).toContain(
      `Message-ID: <${id}@mail.example.test>\nFrom: ${MAIL_FROM}\nTo: cli@example.test\n`,
    );
    const failure = await assay('mail', 'show', 'NoSuchMail').catch((error) => error);
    expect([failure.code, failure.stderr]).toEqual([1, 'assay: mail: no mail NoSuchMail\n']);
  });
});
