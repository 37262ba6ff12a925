import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailDelivery } from '../../src/mail/delivery.js';
import { type QueuedMail, queueMails } from '../../src/mail/outbox.repository.js';
import { randomId } from '../../src/util/ids.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { freePort } from '../helpers/cli-process.js';
import { email, type Instance, startInstance } from '../helpers/instance.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

const run = promisify(execFile);

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * Ends every backend of the instance's database but the caller's own, as
 * `pg_terminate_backend` during an incident or a failover would. Answers how many it ended.
 */
async function terminateBackends(instance: Instance): Promise<number> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    // The name from the instance's address, not asked through its pool: a connection the last
    // round ended may still be in the pool, and the question would fail on it.
    const name = decodeURIComponent(new URL(instance.databaseUrl ?? '').pathname.slice(1));
    const result = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  email: string;
  statusCode: number;
  json: { status?: string; data?: unknown; error?: string };
}

/** Resolves once `check` holds, looking every 5 ms: a wait for an event, not for a time. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await sleep(5);
}

const acknowledged = (answers: Answer[]) => answers.filter((answer) => answer.statusCode === 200).length;

/**
 * Creates members from 12 writers at once for as long as `disrupt` runs (it sees the answers as
 * they come); answers every answer.
 */
async function burstDuring(
  instance: Instance,
  disrupt: (answers: Answer[]) => Promise<void>,
): Promise<Answer[]> {
  // Warm the pool: every connection checked out and busy when the disruption comes.
  await instance.call('GET', '/members');
  const answers: Answer[] = [];
  let stop = false;
  const writer = async () => {
    while (!stop) {
      const address = email('burst');
      const response = await instance.call('POST', '/members', {
        body: { email: address, firstname: 'Burst', lastname: 'Writer' },
      });
      answers.push({ email: address, statusCode: response.statusCode, json: response.json });
    }
  };
  const writers = Array.from({ length: 12 }, writer);
  try {
    await disrupt(answers);
  } finally {
    stop = true;
    await Promise.all(writers);
  }
  return answers;
}

/**
 * Each write the disruption cut off is a clean 503; the server answers again by itself; every
 * acknowledged write is stored, once.
 */
async function expectCleanRecovery(instance: Instance, answers: Answer[]): Promise<void> {
  const refused = answers.filter((answer) => answer.statusCode !== 200);
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused) {
    expect(answer.statusCode).toBe(503);
    expect(answer.json).toEqual({
      error: 'service_unavailable',
      message: 'The database is unavailable; try again in a moment',
    });
  }
  const acknowledged = answers.filter((answer) => answer.statusCode === 200);
  for (const answer of acknowledged) expect(answer.json.status).toBe('OK');
  expect(acknowledged.length).toBeGreaterThan(0);

  // A safety net only: the server reconnects on its own, sooner or later on a busy machine.
  const deadline = Date.now() + 60_000;
  while ((await instance.inject({ method: 'GET', url: '/healthz' })).statusCode !== 200) {
    if (Date.now() > deadline) throw new Error('the server did not reconnect');
    await sleep(100);
  }
  const list = await instance.call('GET', '/members');
  expect(list.json.status).toBe('OK');
  const stored = new Map<string, number>();
  for (const member of list.json.data as { email: string }[])
    stored.set(member.email, (stored.get(member.email) ?? 0) + 1);
  for (const answer of acknowledged) expect(stored.get(answer.email)).toBe(1);
  for (const count of stored.values()) expect(count).toBe(1);
}

describe.skipIf(!postgresUrl)('a lost PostgreSQL connection (postgres)', () => {
  let instance: Instance;
  beforeAll(async () => {
    instance = await startInstance('postgres');
  });
  afterAll(async () => {
    await instance.close();
  });

  it('answers 503 for the requests it carried, keeps every acknowledged write once, and recovers by itself', async () => {
    let ended = 0;
    const answers = await burstDuring(instance, async (sofar) => {
      // Each round comes once a write was acknowledged since the last (the writers are at work and
      // the server has its connections back); at least 4, and until a write was cut off.
      const cutOff = () => sofar.some((answer) => answer.statusCode !== 200);
      for (let round = 0; round < 4 || (!cutOff() && round < 50); round++) {
        const before = acknowledged(sofar);
        await until(() => acknowledged(sofar) > before);
        ended += await terminateBackends(instance);
      }
    });
    expect(ended).toBeGreaterThan(0);
    await expectCleanRecovery(instance, answers);
  });

  describe('during mail delivery', () => {
    let sink: SmtpSink;
    beforeAll(async () => {
      sink = await startSmtpSink({ kind: 'accept', delayMs: 5 });
    });
    afterAll(async () => {
      await sink.close();
    });

    it('delivers every mail once, without waiting for the lease of the mails it held', async () => {
      const mails: QueuedMail[] = Array.from({ length: 300 }, () => {
        const recipient = email('mail');
        return {
          dedupeKey: `${randomId()}:campaign_invitation:0`,
          campaignId: null,
          memberId: null,
          stage: 'campaign_invitation',
          sequence: 0,
          recipient,
          params: {
            stage: 'campaign_invitation',
            language: 'enUS',
            template: 'standard',
            variant: 'bigfive',
            recipient: { firstname: 'Ada', lastname: 'Lovelace', email: recipient },
            campaign: { id: 'C1', name: 'Autumn scan', end: null },
            link: `https://assay.example.test/q/${randomId(20)}`,
            sender: 'Example Agency',
            inviter: { firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.test' },
          },
        };
      });
      const db = instance.db.kysely;
      await queueMails(db, mails, { now: '2026-01-01T00:00:00+00:00', messageIdDomain: 'example.test' });
      const logged: string[] = [];
      const delivery = new MailDelivery({
        db,
        dialect: 'postgres',
        variants: loadVariants([builtinVariantsDir()]),
        smtpUrl: sink.url,
        mailFrom: 'Assay <assay@example.test>',
        // The default lease: a mail left waiting for it would not be delivered within this test.
        leaseMs: 5 * 60_000,
        batchSize: 20,
        pollMs: 50,
        log: {
          info: (_o, m) => logged.push(`${m}`),
          warn: (_o, m) => logged.push(`${m}`),
          error: (_o, m) => logged.push(`${m}`),
        },
      });
      delivery.start();
      try {
        // Each round ends the backends once another mail went out since the last: mid-delivery.
        for (let round = 0; round < 5 && sink.received.length < 300; round++) {
          const before = sink.received.length;
          await until(() => sink.received.length > before);
          await terminateBackends(instance);
        }
        // A safety net only: the worker redelivers on its own, sooner or later on a busy machine.
        const deadline = Date.now() + 60_000;
        for (;;) {
          const left = await db
            .selectFrom('mail_outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '!=', 'sent')
            .executeTakeFirstOrThrow()
            .catch(() => ({ n: -1 }));
          if (left.n === 0) break;
          if (Date.now() > deadline)
            throw new Error(`mails left undelivered: ${left.n}; log: ${logged.join(' | ')}`);
          await sleep(100);
        }
      } finally {
        await delivery.stop();
      }
      const counts = sink.countByMessageId();
      expect(counts.size).toBe(300);
      for (const count of counts.values()) expect(count).toBe(1);
    });
  });
});

/**
 * A PostgreSQL cluster of the test's own (initdb in a temp folder, on a free port), so that it can
 * be restarted without touching the shared server. Needs the server binaries and root (to run them
 * as the `postgres` user), as on CI; elsewhere the test says it was skipped.
 */
const PG_BIN = (() => {
  try {
    const versions = fs.readdirSync('/usr/lib/postgresql').sort();
    const bin = `/usr/lib/postgresql/${versions.at(-1)}/bin`;
    return fs.existsSync(`${bin}/initdb`) ? bin : undefined;
  } catch {
    return undefined;
  }
})();
const ownCluster = Boolean(PG_BIN && postgresUrl && process.getuid?.() === 0);

describe.skipIf(!ownCluster)('a PostgreSQL restart (a cluster of its own)', () => {
  let dir: string;
  let port: number;
  let instance: Instance;
  const asPostgres = (args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', ...args], { env: { ...process.env, LC_ALL: 'C' } });
  const pgCtl = (...args: string[]) =>
    asPostgres([`${PG_BIN}/pg_ctl`, '-D', dir, '-w', '-l', `${dir}/log`, ...args]);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pg-'));
    fs.chownSync(
      dir,
      Number((await run('id', ['-u', 'postgres'])).stdout),
      Number((await run('id', ['-g', 'postgres'])).stdout),
    );
    port = await freePort();
    await asPostgres([`${PG_BIN}/initdb`, '-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`;
    await pgCtl('-o', options, 'start');
    instance = await startInstance('postgres', {
      postgresServerUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
  });
  afterAll(async () => {
    await instance?.close().catch(() => {});
    await pgCtl('-m', 'immediate', 'stop').catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while the server is down, reconnects when it is back, and loses or doubles nothing', async () => {
    const answers = await burstDuring(instance, async (sofar) => {
      // Restarted once a write was acknowledged, and the burst ends once one was acknowledged
      // again after the restart (pg_ctl -w answers when the server is back).
      await until(() => acknowledged(sofar) > 0);
      await pgCtl('-m', 'fast', 'restart');
      const before = acknowledged(sofar);
      await until(() => acknowledged(sofar) > before);
    });
    await expectCleanRecovery(instance, answers);
  });
});
