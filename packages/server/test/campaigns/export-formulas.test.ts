import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/audit/actor.js';
import { findCampaignMember } from '../../src/campaigns/campaign-members.repository.js';
import { findCampaign } from '../../src/campaigns/campaigns.repository.js';
import { completeParticipation } from '../../src/campaigns/completion.service.js';
import { checkAnswers } from '../../src/reports/answers.js';
import { loadInstanceVariants } from '../../src/variants/load-variants.js';
import { addToCampaign, makeCampaign } from '../console/campaign-fixtures.js';
import { runAssay } from '../helpers/cli-in-process.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

// A formula after blanks (a space, NBSP, an ideographic space, a zero-width space) or in its
// full-width form reaches every door of the campaign export (the API, the console's downloads and
// `assay export campaign`, as CSV and as a workbook) with a leading ', as a formula at the start
// does; harmless text and numbers are written as they are.

const GROUP = ' =7';
/** The members' names, and what every export must show of them (firstname, middlename, lastname). */
const PEOPLE = [
  {
    names: ['\u00a0+SUM(1)', '\u2003-1+2', '\u3000@A1'],
    shown: ["'\u00a0+SUM(1)", "'\u2003-1+2", "'\u3000@A1"],
  },
  { names: ['＝1+1', '', ' ＠cmd'], shown: ["'＝1+1", '', "' ＠cmd"] },
  { names: ['Ada', '', 'Jean-Luc'], shown: ['Ada', '', 'Jean-Luc'] },
];
/**
 * leadership360's free-text answers of the first member, and what the exports must show. An answer
 * is stored trimmed (JavaScript's trim: spaces and NBSP go, a zero-width space stays).
 */
const REMARKS = { Remarks1: '\u200b=1+2', Remarks2: '＠SUM(A1:A9)' };
const REMARKS_SHOWN = ["'\u200b=1+2", "'＠SUM(A1:A9)"];

/** The rows of a CSV export, after its header. */
const csvRows = (text: string): string[][] => (parse(text, { bom: true }) as string[][]).slice(1);

/** Each sheet's rows after its header, as exceljs reads the workbook; no cell may be a formula. */
async function workbookRows(bytes: Buffer): Promise<Map<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheets = new Map<string, unknown[][]>();
  for (const sheet of workbook.worksheets) {
    const rows: unknown[][] = [];
    sheet.eachRow((row, number) => {
      row.eachCell((cell) => {
        expect(cell.type, `${sheet.name}!${cell.address}`).not.toBe(ExcelJS.ValueType.Formula);
      });
      if (number > 1) rows.push((row.values as unknown[]).slice(1));
    });
    sheets.set(sheet.name, rows);
  }
  return sheets;
}

for (const dialect of dialects) {
  describe(`campaign export: a formula after blanks is escaped at every door (${dialect})`, () => {
    let instance: Instance;
    let campaignid: string;
    let ids: string[];

    /** Completes a member as the questionnaire's "Confirm and send" does (report, status, mails). */
    async function complete(memberId: string, answers: Record<string, number | string>) {
      const db = instance.db.kysely;
      const deps = {
        db,
        dialect: instance.db.dialect,
        variants: loadInstanceVariants(instance.config),
        config: instance.config,
        clock: () => new Date(),
        mailQueued: () => {},
        campaignsDue: () => {},
      };
      const campaign = await findCampaign(db, campaignid);
      const variant = deps.variants.get('leadership360');
      if (!campaign || !variant) throw new Error('no campaign');
      await db.transaction().execute(async (trx) => {
        const member = await findCampaignMember(trx, campaignid, memberId);
        if (!member) throw new Error('not a member');
        await completeParticipation(
          deps,
          trx,
          campaign,
          member,
          checkAnswers(variant, answers),
          SYSTEM_ACTOR,
        );
      });
    }

    beforeAll(async () => {
      instance = await startInstance(dialect);
      const group = await instance.call('POST', '/groups', { body: { name: GROUP, alias: 'formula' } });
      expect(group.json.status, group.body).toBe('OK');
      expect(group.json.data.name).toBe(GROUP);
      const imported = await instance.call('POST', '/members/import', {
        body: {
          groupid: group.json.data.groupid,
          members: PEOPLE.map(({ names: [firstname, middlename, lastname] }, i) => ({
            email: email(`f${i}`),
            firstname,
            middlename,
            lastname,
          })),
        },
      });
      expect(imported.json.data?.errors, imported.body).toEqual([]);
      ids = imported.json.data.created as string[];
      campaignid = await makeCampaign(instance, { name: 'Formulas', variant: 'leadership360' });
      await addToCampaign(instance, campaignid, ids);
      const likert: Record<string, number> = {};
      for (let i = 1; i <= 24; i++) likert[`Q${i}`] = (i % 5) + 1;
      await complete(ids[0] as string, { ...likert, ...REMARKS });
    }, 60_000);
    afterAll(async () => {
      await instance?.close();
    });

    /** The members' rows and the first member's remarks, as every export must show them. */
    function expectEscaped(members: unknown[][], verbatims: unknown[][], empty: '' | undefined) {
      PEOPLE.forEach(({ shown }, i) => {
        const row = members.find((cells) => cells[0] === ids[i]) as unknown[];
        expect(row.slice(1, 4), `member ${i}`).toEqual(shown.map((text) => (text === '' ? empty : text)));
        expect(row[5], `member ${i}'s group`).toBe("' =7");
      });
      expect(verbatims.map((row) => [row[0], row[4]])).toEqual(
        expect.arrayContaining(REMARKS_SHOWN.map((text) => [ids[0], text])),
      );
      expect(verbatims).toHaveLength(REMARKS_SHOWN.length);
    }

    /** The score of the first member's first dimension (the column after the 13 member columns). */
    const firstScore = (members: unknown[][]) => members.find((cells) => cells[0] === ids[0])?.[13];

    it('API: CSV members and verbatims, and the workbook, show the names, group and remarks escaped', async () => {
      const csv = await instance.call('GET', `/campaigns/${campaignid}/export?format=csv`);
      const verbatims = await instance.call(
        'GET',
        `/campaigns/${campaignid}/export?format=csv&part=verbatims`,
      );
      expect([csv.statusCode, verbatims.statusCode]).toEqual([200, 200]);
      expectEscaped(csvRows(csv.body), csvRows(verbatims.body), '');
      // A score is a number, written plainly.
      expect(firstScore(csvRows(csv.body))).toMatch(/^\d+(\.\d+)?$/);

      const xlsx = await instance.app.inject({
        method: 'GET',
        url: `/api/v1/campaigns/${campaignid}/export?format=xlsx`,
        headers: { authorization: `Bearer ${await instance.token()}` },
      });
      expect(xlsx.statusCode).toBe(200);
      const sheets = await workbookRows(xlsx.rawPayload);
      expectEscaped(sheets.get('Members') ?? [], sheets.get('Verbatims') ?? [], undefined);
      // A score stays a number cell (not text, not escaped).
      expect(typeof firstScore(sheets.get('Members') ?? [])).toBe('number');
    });

    it('console: the CSV and Excel downloads show them escaped', async () => {
      const browser = await new ConsoleBrowser(instance).signIn();
      const csv = await browser.get(`/console/campaigns/${campaignid}/export?format=csv`);
      const verbatims = await browser.get(
        `/console/campaigns/${campaignid}/export?format=csv&part=verbatims`,
      );
      expect([csv.statusCode, verbatims.statusCode]).toEqual([200, 200]);
      expectEscaped(csvRows(csv.body), csvRows(verbatims.body), '');
      const xlsx = await browser.get(`/console/campaigns/${campaignid}/export?format=xlsx`);
      expect(xlsx.statusCode).toBe(200);
      const sheets = await workbookRows(xlsx.rawPayload);
      expectEscaped(sheets.get('Members') ?? [], sheets.get('Verbatims') ?? [], undefined);
    });

    it('CLI: `assay export campaign` writes them escaped, as CSV and as a workbook', async () => {
      const out = (name: string) => path.join(instance.config.dataDir, name);
      const assay = (...args: string[]) =>
        runAssay([
          'export',
          'campaign',
          campaignid,
          ...args,
          '--data',
          instance.config.dataDir,
          ...(instance.databaseUrl ? ['--database-url', instance.databaseUrl] : []),
        ]);
      for (const [args, file] of [
        [['--format', 'csv'], 'members.csv'],
        [['--format', 'csv', '--part', 'verbatims'], 'verbatims.csv'],
        [['--format', 'xlsx'], 'both.xlsx'],
      ] as const) {
        const result = await assay(...args, '--out', out(file));
        expect(result, file).toMatchObject({ code: 0, stderr: '' });
      }
      expectEscaped(
        csvRows(fs.readFileSync(out('members.csv'), 'utf8')),
        csvRows(fs.readFileSync(out('verbatims.csv'), 'utf8')),
        '',
      );
      const sheets = await workbookRows(fs.readFileSync(out('both.xlsx')));
      expectEscaped(sheets.get('Members') ?? [], sheets.get('Verbatims') ?? [], undefined);
    });
  });
}
