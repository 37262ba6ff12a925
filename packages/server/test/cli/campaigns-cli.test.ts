import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser, ensureAdmin } from '../../src/auth/auth.service.js';
import { createCampaign } from '../../src/campaigns/campaigns.service.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { runAssay } from '../helpers/cli-in-process.js';

// In-process: the command lines through runCli, on a real SQLite file.
describe('assay campaigns and mail preview', () => {
  let data: string;
  let campaignId: string;
  const env = { MAIL_FROM: 'People Team <people@example.test>' };
  /** Resolves with what a command printed, or rejects with its outcome when it failed. */
  const assay = async (...args: string[]) => {
    const result = await runAssay([...args, '--data', data], env);
    if (result.code !== 0) throw result;
    return result;
  };

  beforeAll(async () => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-campaigns-cli-'));
    const db = openDatabase({ dataDir: data });
    try {
      await migrateToLatest(db.kysely);
      const admin = await ensureAdmin(db.kysely, 'admin@example.test', cliActor());
      await createUser(
        db.kysely,
        {
          email: 'editor@example.test',
          firstname: 'Edi',
          lastname: 'Tor',
          admin: false,
        },
        cliActor(),
      );
      const deps = {
        db: db.kysely,
        dialect: db.dialect,
        variants: loadVariants([builtinVariantsDir()]),
        config: loadConfig({ ASSAY_DATA_DIR: data }),
        clock: () => new Date(),
        mailQueued: () => {},
        campaignsDue: () => {},
      };
      const campaign = await createCampaign(
        deps,
        { userId: admin?.id as string },
        { name: 'Pulse', variant: 'teamscan', start: '2026-01-01T00:00:00+00:00', language: 'esES' },
        cliActor(),
      );
      campaignId = campaign.campaignid;
    } finally {
      await db.close();
    }
  });
  afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

  it('shares and unshares a campaign with a user', async () => {
    expect((await assay('campaigns', 'share', campaignId, '--user', 'editor@example.test')).stdout).toBe(
      `campaign ${campaignId} shared with editor@example.test (editor)\n`,
    );
    expect((await assay('campaigns', 'unshare', campaignId, '--user', 'editor@example.test')).stdout).toBe(
      `campaign ${campaignId} is no longer shared with editor@example.test\n`,
    );
    const unknown = await assay('campaigns', 'share', campaignId, '--user', 'x@example.test').catch((e) => e);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'assay: user: no user x@example.test\n']);
    const usage = await assay('campaigns', 'share', campaignId).catch((e) => e);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--user is required');
  });

  it('previews a stage in the campaign language or another, sending nothing', async () => {
    const spanish = (
      await assay('mail', 'preview', '--campaign', campaignId, '--stage', 'campaign_invitation')
    ).stdout;
    expect(spanish).toContain(
      'From: People Team <people@example.test>\nTo: Alex Sample <alex.sample@example.com>\n',
    );
    expect(spanish).toContain('Language: esES');
    expect(spanish).toContain('/q/SAMPLE-TOKEN');
    const french = (
      await assay(
        'mail',
        'preview',
        '--campaign',
        campaignId,
        '--stage',
        'campaign_reminder',
        '--language',
        'frFR',
      )
    ).stdout;
    expect(french).toContain('Language: frFR');
    const bad = await assay('mail', 'preview', '--campaign', campaignId, '--stage', 'nope').catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^assay: stage: must be one of campaign_invitation/);
    expect((await assay('mail', 'list', '--json')).stdout).toBe('[]\n');
  });

  it('sets, shows and clears a campaign retention shorter than the instance, refusing anything else', async () => {
    const withInstance = async (...args: string[]) => {
      const result = await runAssay([...args, '--data', data], { ...env, ASSAY_RETENTION_DAYS: '365' });
      if (result.code !== 0) throw result;
      return result;
    };
    expect((await withInstance('campaigns', 'retention', campaignId)).stdout).toBe(
      `campaign ${campaignId} follows the instance's retention of answers and personal reports: it keeps them 365 days\n`,
    );
    expect((await withInstance('campaigns', 'retention', campaignId, '--days', '30')).stdout).toBe(
      `campaign ${campaignId} keeps its answers and personal reports 30 days (the instance keeps them 365 days)\n`,
    );
    for (const [days, message] of [
      ['365', "assay: days: must be fewer than the instance's retention of 365 days"],
      ['0', 'assay: days: must be between 1 and 36500, got 0'],
      ['abc', 'assay: days: must be a whole number of days, got "abc"'],
    ] as const) {
      const refused = await withInstance('campaigns', 'retention', campaignId, '--days', days).catch(
        (e) => e,
      );
      expect(refused.code, days).toBe(1);
      expect(refused.stderr, days).toContain(message);
    }
    const unknown = await withInstance('campaigns', 'retention', 'ZZZZZZZZZZ', '--days', '5').catch((e) => e);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'assay: campaign: no campaign ZZZZZZZZZZ\n']);
    const both = await withInstance('campaigns', 'retention', campaignId, '--days', '5', '--clear').catch(
      (e) => e,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --days or --clear, not both');
    const missing = await withInstance('campaigns', 'retention').catch((e) => e);
    expect(missing.code).toBe(2);
    // Still the 30 days set before the refusals.
    expect((await withInstance('campaigns', 'retention', campaignId)).stdout).toContain(
      'keeps its answers and personal reports 30 days',
    );
    expect((await withInstance('campaigns', 'retention', campaignId, '--clear')).stdout).toContain(
      "follows the instance's retention",
    );
    // An instance that keeps everything: any number of days is shorter.
    expect((await assay('campaigns', 'retention', campaignId, '--days', '3650')).stdout).toBe(
      `campaign ${campaignId} keeps its answers and personal reports 3650 days (the instance keeps them until deleted)\n`,
    );
    // Each change is in the audit log, as the command line's.
    const db = openDatabase({ dataDir: data });
    try {
      const entries = await db.kysely
        .selectFrom('audit_log')
        .select(['actor_type', 'channel', 'action', 'fields'])
        .where('resource_id', '=', campaignId)
        .where('fields', '=', 'retention')
        .execute();
      expect(entries).toEqual(
        Array.from({ length: 3 }, () => ({
          actor_type: 'cli',
          channel: 'cli',
          action: 'update',
          fields: 'retention',
        })),
      );
    } finally {
      await db.close();
    }
  });
});
