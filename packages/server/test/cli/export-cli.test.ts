import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { ensureAdmin } from '../../src/auth/auth.service.js';
import { addMembers } from '../../src/campaigns/campaign-members.service.js';
import { createCampaign } from '../../src/campaigns/campaigns.service.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { importMembers } from '../../src/members/members.service.js';
import { builtinVariantsDir, loadVariants } from '../../src/variants/load-variants.js';
import { runAssay } from '../helpers/cli-in-process.js';

// In-process: the command line through runCli, on a real SQLite file.
describe('assay export campaign', () => {
  let data: string;
  let campaignId: string;
  let memberIds: string[];
  const assay = (...args: string[]) => runAssay([...args, '--data', data]);
  const file = (name: string) => path.join(data, name);

  beforeAll(async () => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-export-cli-'));
    const db = openDatabase({ dataDir: data });
    try {
      await migrateToLatest(db.kysely);
      const admin = await ensureAdmin(db.kysely, 'admin@example.test', cliActor());
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
        { name: 'Pulse 2026', variant: 'teamscan', start: '2026-01-01T00:00:00+00:00' },
        cliActor(),
      );
      campaignId = campaign.campaignid;
      const imported = await importMembers(db.kysely, cliActor(), {
        members: [
          { email: 'one@example.test', firstname: '=One', lastname: 'Member' },
          { email: 'two@example.test', firstname: 'Two', lastname: 'Member' },
        ],
      } as never);
      memberIds = imported.created;
      await addMembers(deps, campaignId, { memberids: memberIds }, cliActor());
    } finally {
      await db.close();
    }
  });
  afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

  it('writes the CSV export to --out and says so; plain output without a terminal', async () => {
    const out = file('pulse.csv');
    const result = await assay('export', 'campaign', campaignId, '--format', 'csv', '--out', out);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const bytes = fs.statSync(out).size;
    expect(result.stdout).toBe(`exported 2 members to ${out} (${bytes} bytes)\n`);
    const records: string[][] = parse(fs.readFileSync(out, 'utf8'), { bom: true });
    expect(records[0]?.slice(0, 3)).toEqual(['memberid', 'firstname', 'middlename']);
    expect(records.slice(1).map((record) => [record[0], record[1], record[7]])).toEqual(
      [...(memberIds as string[])].sort().map((id) => [id, id === memberIds[0] ? "'=One" : 'Two', 'new']),
    );
    // No temporary file is left beside it.
    expect(fs.readdirSync(data).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('writes an Excel workbook with both sheets, under its own name by default', async () => {
    const result = await runAssay([
      'export',
      'campaign',
      campaignId,
      '--format',
      'xlsx',
      '--json',
      '--data',
      data,
    ]);
    expect(result.code).toBe(0);
    const { file: written, rows } = JSON.parse(result.stdout);
    expect(rows).toBe(2);
    expect(path.basename(written)).toBe(`campaign-pulse-2026-${campaignId}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(written);
    expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.actualRowCount])).toEqual([
      ['Members', 3],
      ['Verbatims', 1],
    ]);
    fs.rmSync(written);
  });

  it('refuses a bad format, part or campaign with the API message, writing nothing and keeping what was there', async () => {
    const out = file('kept.csv');
    fs.writeFileSync(out, 'precious');
    const cases: [string[], string][] = [
      [['--format', 'pdf'], 'assay: format: must be one of csv, xlsx\n'],
      [['--format', 'csv', '--part', 'answers'], 'assay: part: must be one of members, verbatims\n'],
      [
        ['--format', 'xlsx', '--part', 'verbatims'],
        'assay: part: only with format csv (the Excel file holds both parts, as two sheets)\n',
      ],
    ];
    for (const [options, message] of cases) {
      const result = await assay('export', 'campaign', campaignId, ...options, '--out', out);
      expect(result, options.join(' ')).toEqual({ code: 1, stdout: '', stderr: message });
    }
    const unknown = await assay('export', 'campaign', 'a1B2c3D4e5', '--format', 'csv', '--out', out);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^assay: .*campaign/);
    expect(fs.readFileSync(out, 'utf8')).toBe('precious');
    const usage = await assay('export', 'campaign', campaignId, '--out', out);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--format');
    expect(fs.readdirSync(data).filter((name) => name.endsWith('.part'))).toEqual([]);
  });
});
