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
});
