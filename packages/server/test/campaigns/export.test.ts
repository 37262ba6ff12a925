import http from 'node:http';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/audit/actor.js';
import { findCampaignMember } from '../../src/campaigns/campaign-members.repository.js';
import { findCampaign } from '../../src/campaigns/campaigns.repository.js';
import { completeParticipation } from '../../src/campaigns/completion.service.js';
import { checkAnswers } from '../../src/reports/answers.js';
import { loadInstanceVariants } from '../../src/variants/load-variants.js';
import { addToCampaign, makeCampaign, makeMembers } from '../console/campaign-fixtures.js';
import { dialects, type Instance, listen, startInstance } from '../helpers/instance.js';

const SCORE_COLUMNS = ['VIS_score', 'COM_score', 'DEV_score', 'DEC_score', 'COL_score', 'INT_score'];
const MEMBER_COLUMNS = [
  'memberid',
  'firstname',
  'middlename',
  'lastname',
  'email',
  'groupname',
  'role',
  'status',
  'dateinvited',
  'countreminded',
  'datestarted',
  'datecompleted',
  'reportid',
  ...SCORE_COLUMNS,
];
const VERBATIM_COLUMNS = ['memberid', 'reportid', 'code', 'question', 'answer'];

/** What a spreadsheet must show as text, never run: OWASP's formula starts. */
const neutral = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
const error = (data: string) => ({ status: 'ERROR', data });

/** leadership360 answers: the likert items from `values` in turn, the remarks as given. */
function answers360(seed: number, remarks: Record<string, string> = {}) {
  const answers: Record<string, number | string> = {};
  for (let i = 1; i <= 24; i++) answers[`Q${i}`] = ((i * seed) % 5) + 1;
  return { ...answers, ...remarks };
}

for (const dialect of dialects) {
  describe(`campaign export (${dialect})`, () => {
    let instance: Instance;
    let campaignid: string;
    let ids: string[];

    /** Completes a member as the questionnaire's "Confirm and send" does (report, status, mails). */
    const complete = async (memberId: string, answers: Record<string, number | string>) => {
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
    };
    const exported = (query: string, auth?: string | null) =>
      instance.inject({
        method: 'GET',
        url: `/api/v1/campaigns/${campaignid}/export${query}`,
        headers: auth === null ? {} : { authorization: auth ?? `Bearer ${adminToken}` },
      });
    let adminToken: string;

    beforeAll(async () => {
      instance = await startInstance(dialect);
      adminToken = await instance.token();
      campaignid = await makeCampaign(instance, { name: 'Leaders, "Q3" – été', variant: 'leadership360' });
      // Names hold no control characters (the member rules refuse them): tab and carriage return are
      // checked on csvCell alone (test/util/csv-write.test.ts).
      ids = await makeMembers(
        instance,
        4,
        (i) =>
          [
            {
              firstname: '=HYPERLINK("http://evil.test","click")',
              lastname: '+31 6 1234',
              middlename: '@me',
            },
            { firstname: 'Ann, "the" second', lastname: '-Smith', title: 'Dr.' },
            { firstname: 'José', lastname: 'Nuñez' },
            { firstname: 'Zoë', lastname: "O'Neil" },
          ][i] ?? {},
      );
      await addToCampaign(instance, campaignid, ids);
      const role = await instance.call('PATCH', `/campaigns/${campaignid}/members/${ids[0]}`, {
        body: { extra: { role: 'self' } },
      });
      expect(role.json.status, role.body).toBe('OK');
      await instance.call('PATCH', `/campaigns/${campaignid}/members/${ids[1]}`, {
        body: { extra: { role: 'peer' } },
      });
      await complete(
        ids[0] as string,
        answers360(3, { Remarks1: '=1+2', Remarks2: 'Line one\nline "two", done' }),
      );
      await complete(ids[1] as string, answers360(7, { Remarks1: '@SUM(A1:A9)' }));
      await complete(ids[2] as string, answers360(2));
    }, 60_000);
    afterAll(async () => {
      await instance?.close();
    });

    /** The API's own data for the campaign: its members, and each report's processed scores. */
    async function apiData() {
      const members = (await instance.call('GET', `/campaigns/${campaignid}/members`)).json.data as Record<
        string,
        // biome-ignore lint/suspicious/noExplicitAny: the list shape, compared field by field.
        any
      >[];
      const rows = [];
      for (const member of [...members].sort((a, b) => (a.memberid < b.memberid ? -1 : 1))) {
        const reportid = Array.isArray(member.results) ? '' : (member.results.reportid as string);
        const processed = reportid
          ? JSON.parse((await instance.call('GET', `/reports/${reportid}/data`)).json.data.processed)
          : {};
        rows.push({
          memberid: member.memberid,
          firstname: member.firstname,
          middlename: member.middlename,
          lastname: member.lastname,
          email: member.email,
          groupname: member.groupname,
          role: member.extra?.role ?? '',
          status: member.status,
          dateinvited: member.dateinvited,
          countreminded: member.countreminded,
          datestarted: member.datestarted,
          datecompleted: member.datecompleted,
          reportid,
          scores: SCORE_COLUMNS.map((key) => processed[key] ?? null),
        });
      }
      const reportids = rows.map((row) => row.reportid).filter(Boolean);
      const verbatims = (await instance.call('GET', `/reports/verbatims?reports=${reportids.join(',')}`)).json
        .data as { reportid: string; code: string; question: string; answer: string }[];
      const memberOf = new Map(rows.map((row) => [row.reportid, row.memberid]));
      return {
        rows,
        verbatims: verbatims.map((v) => [memberOf.get(v.reportid), v.reportid, v.code, v.question, v.answer]),
      };
    }

    it('CSV: UTF-8 with a BOM, parsed back it equals the API data, and no cell can run as a formula', async () => {
      const answer = await exported('?format=csv');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe(
        `attachment; filename="campaign-leaders-q3-ete-${campaignid}.csv"`,
      );
      expect(answer.headers['cache-control']).toBe('private, no-store');
      expect(answer.body.startsWith('\uFEFFmemberid,firstname,')).toBe(true);
      expect(answer.body).toContain('\r\n');
      const records: string[][] = parse(answer.body, { bom: true, relax_column_count: false });
      expect(records[0]).toEqual(MEMBER_COLUMNS);
      const { rows } = await apiData();
      expect(rows).toHaveLength(4);
      expect(rows.filter((row) => row.reportid !== '')).toHaveLength(3);
      expect(records.slice(1)).toEqual(
        rows.map((row) => [
          row.memberid,
          neutral(row.firstname),
          neutral(row.middlename),
          neutral(row.lastname),
          row.email,
          row.groupname,
          row.role,
          row.status,
          row.dateinvited ?? '',
          row.countreminded ?? '',
          row.datestarted ?? '',
          row.datecompleted ?? '',
          row.reportid,
          ...row.scores.map((score) => (score === null ? '' : String(score))),
        ]),
      );
      // The injections of the fixture, each shown as text.
      const first = records.find((record) => record[0] === ids[0]) as string[];
      expect(first.slice(1, 4)).toEqual(['\'=HYPERLINK("http://evil.test","click")', "'@me", "'+31 6 1234"]);
      expect(records.find((record) => record[0] === ids[3])?.slice(1, 4)).toEqual(['Zoë', '', "O'Neil"]);
      const second = records.find((record) => record[0] === ids[1]) as string[];
      expect([second[1], second[3], second[6]]).toEqual(['Ann, "the" second', "'-Smith", 'peer']);
      expect(records.find((record) => record[0] === ids[2])?.slice(1, 4)).toEqual(['José', '', 'Nuñez']);
      // Every score of a completed member is there, as a number from 0 to 100.
      for (const row of rows.filter((r) => r.reportid !== ''))
        for (const score of row.scores) expect(score).toBeGreaterThanOrEqual(0);
    });

    it('CSV verbatims (?part=verbatims) equal GET /reports/verbatims, neutralised', async () => {
      const answer = await exported('?format=csv&part=verbatims');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-disposition']).toBe(
        `attachment; filename="campaign-leaders-q3-ete-${campaignid}.verbatims.csv"`,
      );
      const records: string[][] = parse(answer.body, { bom: true });
      expect(records[0]).toEqual(VERBATIM_COLUMNS);
      const { verbatims } = await apiData();
      expect(verbatims).toHaveLength(3);
      expect(records.slice(1)).toEqual(
        verbatims.map(([memberid, reportid, code, question, text]) => [
          memberid,
          reportid,
          code,
          question,
          neutral(text as string),
        ]),
      );
      expect(records.map((record) => record[4])).toEqual(
        expect.arrayContaining(["'=1+2", "'@SUM(A1:A9)", 'Line one\nline "two", done']),
      );
    });

    it('finds the report that results names however the JSON is spaced (the join reads one form only)', async () => {
      const db = instance.db.kysely;
      const before = await exported('?format=csv');
      const verbatimsBefore = await exported('?format=csv&part=verbatims');
      const member = await findCampaignMember(db, campaignid, ids[2] as string);
      const reportid = JSON.parse(member?.results ?? '{}').reportid as string;
      expect(reportid).toMatch(/^[0-9A-Za-z]{10}$/);
      // Valid JSON that a database's reading of it for the join may miss: the export looks it up.
      const spaced = `{ "status" : "completed",\n "reportid" : "${reportid}" }`;
      await db
        .updateTable('campaign_members')
        .set({ results: spaced })
        .where('campaign_id', '=', campaignid)
        .where('member_id', '=', ids[2] as string)
        .execute();
      try {
        const after = await exported('?format=csv');
        expect(after.body).toBe(before.body);
        expect((await exported('?format=csv&part=verbatims')).body).toBe(verbatimsBefore.body);
      } finally {
        await db
          .updateTable('campaign_members')
          .set({ results: member?.results ?? '[]' })
          .where('campaign_id', '=', campaignid)
          .where('member_id', '=', ids[2] as string)
          .execute();
      }
    });

    it('Excel: exceljs reads back a Members and a Verbatims sheet equal to the API data', async () => {
      const answer = await instance.app.inject({
        method: 'GET',
        url: `/api/v1/campaigns/${campaignid}/export?format=xlsx`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(answer.headers['content-disposition']).toBe(
        `attachment; filename="campaign-leaders-q3-ete-${campaignid}.xlsx"`,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Members', 'Verbatims']);
      const values = (name: string) => {
        const rows: unknown[][] = [];
        workbook.getWorksheet(name)?.eachRow((row) => {
          rows.push((row.values as unknown[]).slice(1));
        });
        return rows;
      };
      const members = values('Members');
      expect(members[0]).toEqual(MEMBER_COLUMNS);
      const { rows, verbatims } = await apiData();
      // A cell left empty reads back as missing: the row is padded to the header's width.
      const padded = (row: unknown[], width: number) =>
        Array.from({ length: width }, (_, i) => row[i] ?? null);
      expect(members.slice(1).map((row) => padded(row, MEMBER_COLUMNS.length))).toEqual(
        rows.map((row) => [
          row.memberid,
          neutral(row.firstname),
          neutral(row.middlename) || null,
          neutral(row.lastname),
          row.email,
          row.groupname || null,
          row.role || null,
          row.status,
          row.dateinvited,
          row.countreminded === null ? null : Number(row.countreminded),
          row.datestarted,
          row.datecompleted,
          row.reportid || null,
          ...row.scores,
        ]),
      );
      // Neutralised as in the CSV: a string cell is no formula, but Excel runs it once edited or
      // saved as CSV (docs/campaigns.md, "Exports").
      expect(members.find((row) => row[0] === ids[0])?.[1]).toBe('\'=HYPERLINK("http://evil.test","click")');
      const sheet = values('Verbatims');
      expect(sheet[0]).toEqual(VERBATIM_COLUMNS);
      expect(sheet.slice(1)).toEqual(
        verbatims.map(([memberid, reportid, code, question, text]) => [
          memberid,
          reportid,
          code,
          question,
          neutral(text as string),
        ]),
      );
    });

    it('refuses a bad format or part with a message naming it, and changes nothing', async () => {
      expect((await exported('')).json).toEqual(error('format: is required'));
      expect((await exported('?format=pdf')).json).toEqual(error('format: must be one of csv, xlsx'));
      expect((await exported('?format=csv&part=answers')).json).toEqual(
        error('part: must be one of members, verbatims'),
      );
      expect((await exported('?format=xlsx&part=verbatims')).json).toEqual(
        error('part: only with format csv (the Excel file holds both parts, as two sheets)'),
      );
      expect((await exported('?format=csv&format=xlsx')).json).toEqual(
        error('format: must be one of csv, xlsx'),
      );
    });

    it('answers 404 for an unknown campaign, 401 without credentials, 403 unless both scopes are granted', async () => {
      const unknown = await instance.inject({
        method: 'GET',
        url: '/api/v1/campaigns/a1B2c3D4e5/export?format=csv',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json).toEqual({ error: 'not_found', message: expect.stringContaining('campaign') });
      expect((await exported('?format=csv', null)).statusCode).toBe(401);
      for (const scopes of ['campaigns', 'reports', 'members groups settings']) {
        const refused = await exported('?format=csv', `Bearer ${await instance.token(scopes)}`);
        expect(refused.statusCode, scopes).toBe(403);
        expect(refused.body).not.toContain('memberid');
      }
      const missing = await exported('?format=csv', `Bearer ${await instance.token('campaigns')}`);
      expect(missing.json.message).toBe('The scope "reports" is not granted to these credentials');
      // Both scopes, by token or by a read-only API key (an export changes nothing).
      expect(
        (await exported('?format=csv', `Bearer ${await instance.token('reports campaigns')}`)).statusCode,
      ).toBe(200);
      const key = await instance.apiKey('campaigns reports');
      const byKey = await instance.inject({
        method: 'GET',
        url: `/api/v1/campaigns/${campaignid}/export?format=csv`,
        headers: { 'x-api-key': key },
      });
      expect(byKey.statusCode).toBe(200);
      const head = await instance.inject({
        method: 'HEAD',
        url: `/api/v1/campaigns/${campaignid}/export?format=xlsx`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-disposition']).toContain('.xlsx"');
      expect(head.body).toBe('');
    });

    it('the OpenAPI document names both scopes the export needs', async () => {
      const document = (await instance.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json;
      const operation = document.paths['/campaigns/{campaignid}/export'].get;
      expect(operation.security).toEqual([
        { oauth2: ['campaigns', 'reports'] },
        { apiKey: [] },
        { basic: [] },
      ]);
      expect(operation.description).toContain('Scopes (all of them): `campaigns` and `reports`');
      expect(Object.keys(operation.responses[200].content)).toEqual([
        'text/csv; charset=utf-8',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'application/json',
      ]);
    });

    it('a client gone mid-file costs nothing: the server goes on, the database is released', async () => {
      const big = await makeCampaign(instance, { name: 'Big', variant: 'leadership360' });
      const many = await makeMembers(instance, 3000);
      await addToCampaign(instance, big, many);
      const base = await listen(instance);
      for (const format of ['csv', 'xlsx']) {
        await new Promise<void>((resolve, reject) => {
          const request = http.get(
            `${base}/api/v1/campaigns/${big}/export?format=${format}`,
            { headers: { authorization: `Bearer ${adminToken}` } },
            (response) => {
              expect(response.statusCode).toBe(200);
              response.once('data', () => {
                // Gone after the first chunk, long before the file's end.
                request.destroy();
                resolve();
              });
            },
          );
          request.on('error', (e) => (e.message.includes('aborted') ? resolve() : reject(e)));
        });
      }
      // The server still answers, and a whole export of the same campaign is complete.
      const whole = await instance.inject({
        method: 'GET',
        url: `/api/v1/campaigns/${big}/export?format=csv`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(parse(whole.body, { bom: true })).toHaveLength(3001);
      if (dialect === 'postgres') {
        // No connection is left reading the members (a cursor held open would show here).
        await expect
          .poll(
            async () =>
              (
                await sql<{ n: string }>`select count(*)::text as n from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid()
                and query like '%campaign_members%' and state <> 'idle'`.execute(instance.db.kysely)
              ).rows[0]?.n,
            { timeout: 3000 }, // under the cursor's own patience (5 s), so only the client's going can pass it
          )
          .toBe('0');
      }
    }, 60_000);
  });
}
