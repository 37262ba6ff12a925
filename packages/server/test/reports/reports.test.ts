import { MemberReport, Report, ReportData, ReportShort } from '@assay/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE, dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { expectShape } from '../helpers/shapes.js';
import { readPdf } from '../pdf/pdf-reader.js';

const REPORT_KEYS = [
  'reportid',
  'date',
  'name',
  'campaignid',
  'type',
  'variant',
  'language',
  'config',
  'lastopened',
  'status',
  'tags',
  'testcase',
  'memberid',
  'title',
  'firstname',
  'middlename',
  'lastname',
  'email',
  'memberstatus',
].sort();
const MEMBER_REPORT_KEYS = [...REPORT_KEYS, 'id', 'token', 'groupid', 'campaignalias', 'campaignname'].sort();
const SHORT_KEYS = [
  'reportid',
  'type',
  'name',
  'variant',
  'language',
  'memberid',
  'firstname',
  'middlename',
  'lastname',
  'title',
  'testcase',
  'groupid',
  'groupname',
  'accesstoken',
  'campaignid',
  'campaignname',
  'config',
  'date',
  'status',
  'tags',
].sort();
const DATA_KEYS = [
  ...SHORT_KEYS.filter((key) => key !== 'campaignname' && key !== 'date'),
  'token',
  'thedate',
  'alias',
  'raw',
  'processed',
  'extra',
].sort();
const PAST = '2026-01-01T09:00:00+00:00';
const error = (data: string) => ({ status: 'ERROR', data });

/** leadership360 answers: every likert item `value`, the remarks as given. */
function answers360(value: number, remarks: Record<string, string> = {}): Record<string, number | string> {
  const result: Record<string, number | string> = {};
  for (let i = 1; i <= 24; i++) result[`Q${i}`] = value;
  return { ...result, ...remarks };
}

for (const dialect of dialects) {
  describe(`reports (${dialect})`, () => {
    let instance: Instance;

    const member = async (fields: Record<string, unknown> = {}) => {
      const response = await instance.call('POST', '/members', {
        body: { email: email(), firstname: 'Ada', lastname: 'Lovelace', ...fields },
      });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data.memberid as string;
    };
    const importRows = async (variant: string, rows: unknown[]) => {
      const response = await instance.call('POST', `/reports/import/${variant}`, { body: { reports: rows } });
      expect(response.json.status, response.body).toBe('OK');
      return response.json.data as { created: string[]; errors: { row: number; message: string }[] };
    };
    const personal = async (
      memberid: string,
      answers = answers360(4),
      extra: Record<string, unknown> = {},
    ) => {
      const result = await importRows('leadership360', [{ memberid, answers, ...extra }]);
      expect(result.errors).toEqual([]);
      return result.created[0] as string;
    };
    const pdf = async (url: string) => {
      const response = await instance.app.inject({
        method: 'GET',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${await instance.token()}` },
      });
      return response;
    };

    beforeAll(async () => {
      instance = await startInstance(dialect);
    });
    afterAll(async () => {
      await instance?.close();
    });

    describe('import', () => {
      it('scores the answers as a hand-computed sheet says, and keeps raw, config and extra', async () => {
        const memberid = await member({ firstname: 'José', lastname: 'Nuñez' });
        const answers = { ...answers360(3), Q1: 5, Q2: 4, Q3: 2, Q4: 3, Remarks1: '  Clear <b>goals</b>  ' };
        const { created, errors } = await importRows('leadership360', [
          { memberid, answers, date: '2026-03-04 10:20', role: 'self', language: 'nlNL' },
        ]);
        expect(errors).toEqual([]);
        expect(created).toHaveLength(1);
        const data = (await instance.call('GET', `/reports/${created[0]}/data`)).json.data;
        expect(Object.keys(data).sort()).toEqual(DATA_KEYS);
        expectShape(ReportData, data);
        expect(data.thedate).toBe('2026-03-04T10:20:00+00:00');
        expect(data.language).toBe('nlNL');
        expect(typeof data.raw).toBe('string');
        const raw = JSON.parse(data.raw);
        expect(raw.Q3).toBe(2);
        expect(raw.Remarks1).toBe('Clear <b>goals</b>');
        const processed = JSON.parse(data.processed);
        // VIS: 5, 4, (6 - 2) = 4, 3 -> sum 16 over 4 items on 1..5: mean 4, (16 - 4) / 16 = 75.0, high.
        expect(processed.Q3).toBe(4);
        expect(processed.VIS_mean).toBe(4);
        expect(processed.VIS_score).toBe(75);
        expect(processed.VIS_band).toBe('high');
        // COM: 3, 3, (6 - 3), 3 -> 50.0, average.
        expect(processed.COM_score).toBe(50);
        expect(processed.COM_band).toBe('average');
        expect(JSON.parse(data.extra)).toEqual({
          member: { basic: [], extras: [], xparam: { role: 'self' } },
        });
        expect(data.config).toEqual({ extra: [], campaignparams: { role: 'self' } });
        expect(data.firstname).toBe('José');
        expect(data.token).toBe(data.accesstoken);
        expect(data.token.length).toBeGreaterThanOrEqual(43);
      });

      it('names each bad row and keeps the good ones; nothing of a bad row is stored', async () => {
        const memberid = await member();
        const address = email('imp');
        const byEmail = await member({ email: address });
        const long = 'x'.repeat(10_240);
        const before = (await instance.call('GET', '/reports/counts')).json.data.leadership360.personal;
        const { created, errors } = await importRows('leadership360', [
          { memberid, answers: answers360(4) },
          { memberid: 'ZZZZZZZZZZ', answers: answers360(4) },
          { email: address.toUpperCase(), answers: answers360(2) },
          { memberid, answers: { ...answers360(4), Q99: 3 } },
          { memberid, answers: { ...answers360(4), Q5: 6 } },
          { memberid, answers: answers360(4), language: 'deDE' },
          { memberid, answers: { ...answers360(4), Q7: 'often' } },
          { memberid, answers: { ...answers360(4), Remarks2: long } },
          { memberid, answers: { ...answers360(4), Q8: undefined } },
          { memberid, answers: answers360(4), role: 'boss' },
          { answers: answers360(4) },
          'not a row',
        ]);
        expect(created).toHaveLength(2);
        expect(errors).toEqual([
          { row: 2, message: 'memberid: unknown member ZZZZZZZZZZ' },
          { row: 4, message: 'answers.Q99: unknown question code' },
          { row: 5, message: 'answers.Q5: must be one of 1, 2, 3, 4, 5' },
          {
            row: 6,
            message: 'language: must be one of enUS, nlNL, esES, frFR (the languages of leadership360)',
          },
          { row: 7, message: 'answers.Q7: must be one of 1, 2, 3, 4, 5' },
          { row: 8, message: 'answers.Remarks2: at most 4000 characters (got 10240)' },
          { row: 9, message: 'answers.Q8: is required' },
          { row: 10, message: 'role: must be one of self, manager, peer, directreport' },
          { row: 11, message: 'memberid: is required (or email)' },
          { row: 12, message: 'row: must be an object' },
        ]);
        const after = (await instance.call('GET', '/reports/counts')).json.data.leadership360.personal;
        expect(Number(after) - Number(before)).toBe(2);
        const reports = (await instance.call('GET', `/members/${byEmail}/reports`)).json.data;
        expect(reports).toHaveLength(1);
      });

      it('refuses a body that is no import, and an unknown variant is 404', async () => {
        expect((await instance.call('POST', '/reports/import/leadership360', { body: {} })).json).toEqual(
          error('reports: is required (an array of rows)'),
        );
        expect(
          (await instance.call('POST', '/reports/import/leadership360', { body: { reports: [] } })).json,
        ).toEqual(error('reports: has no rows'));
        expect(
          (await instance.call('POST', '/reports/import/leadership360', { body: '{"reports": [' })).json,
        ).toEqual(error('body: not valid JSON'));
        expect(
          (await instance.call('POST', '/reports/import/nosuchvariant', { body: { reports: [] } }))
            .statusCode,
        ).toBe(404);
      });

      it('takes CSV: a memberid or email column, then question codes', async () => {
        const memberid = await member();
        const codes = Object.keys(answers360(4));
        const csv = `memberid,role,${codes.join(',')},Remarks1\n${memberid},peer,${codes.map(() => '5').join(',')},"Fine, really"\nZZZZZZZZZZ,,${codes.map(() => '1').join(',')},\n`;
        const response = await instance.call('POST', '/reports/import/leadership360', {
          body: csv,
          headers: { 'content-type': 'text/csv' },
        });
        expect(response.json.status, response.body).toBe('OK');
        expect(response.json.data.created).toHaveLength(1);
        expect(response.json.data.errors).toEqual([
          { row: 2, message: 'memberid: unknown member ZZZZZZZZZZ' },
        ]);
        const data = (await instance.call('GET', `/reports/${response.json.data.created[0]}/data`)).json.data;
        expect(JSON.parse(data.raw).Remarks1).toBe('Fine, really');
        expect(JSON.parse(data.processed).VIS_score).toBe(75);

        const headerOnly = await instance.call('POST', '/reports/import/leadership360', {
          body: `memberid,${codes.join(',')}\n`,
          headers: { 'content-type': 'text/csv' },
        });
        expect(headerOnly.json).toEqual(error('body: the CSV has a header but no rows'));
        const unknownColumn = await instance.call('POST', '/reports/import/leadership360', {
          body: `memberid,Q1,Bogus\n${memberid},3,4\n`,
          headers: { 'content-type': 'text/csv' },
        });
        expect(unknownColumn.json).toEqual(
          error('body: column "Bogus" is not a question code of leadership360'),
        );
        const noKey = await instance.call('POST', '/reports/import/leadership360', {
          body: 'name;Q1\nx;3\n',
          headers: { 'content-type': 'text/csv' },
        });
        expect(noKey.json.data).toMatch(/^body: not valid CSV: the header has no memberid or email column/);
      });
    });

    describe('reading', () => {
      // Each test makes the member and report it reads: one opens the PDF (lastopened), another
      // changes tags and language, and a test must not see what another one did.
      const subject = async () => {
        const memberid = await member({ firstname: '<script>alert(1)</script>', lastname: 'Ørsted' });
        const reportid = await personal(memberid, answers360(4, { Remarks1: 'More 1:1s' }));
        return { memberid, reportid };
      };

      it('lists reports in the Report shape', async () => {
        const { memberid, reportid } = await subject();
        await subject();
        const list = (await instance.call('GET', '/reports?limit=1&offset=5')).json.data;
        const report = list.find((item: { reportid: string }) => item.reportid === reportid);
        expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
        expectShape(Report, report);
        expect(report).toMatchObject({
          type: 'personal',
          name: null,
          campaignid: null,
          variant: 'leadership360',
          language: 'enUS',
          config: { extra: [], campaignparams: [] },
          lastopened: null,
          status: 'active',
          tags: [],
          testcase: '0',
          memberid,
          firstname: '<script>alert(1)</script>',
          memberstatus: 'active',
        });
        expect(report.date).toMatch(DATE);
        expect(list.length).toBeGreaterThan(1);
      });

      it('answers one report short, and 404 for an unknown one', async () => {
        const { reportid } = await subject();
        const short = (await instance.call('GET', `/reports/${reportid}/short`)).json.data;
        expect(Object.keys(short).sort()).toEqual(SHORT_KEYS);
        expectShape(ReportShort, short);
        expect(short.campaignname).toBeNull();
        for (const path of ['', '/short', '/data', '/usage']) {
          expect((await instance.call('GET', `/reports/ZZZZZZZZZZ${path}`)).statusCode).toBe(404);
        }
        expect((await instance.call('GET', '/reports/not-an-id/short')).statusCode).toBe(404);
      });

      it("lists a member's reports as MemberReport: id a numeric string, tags JSON text", async () => {
        const { memberid } = await subject();
        const list = (await instance.call('GET', `/members/${memberid}/reports`)).json.data;
        expect(list).toHaveLength(1);
        expect(Object.keys(list[0]).sort()).toEqual(MEMBER_REPORT_KEYS);
        expectShape(MemberReport, list[0]);
        expect(list[0].id).toMatch(/^[0-9]+$/);
        expect(list[0].tags).toBe('[]');
        expect((await instance.call('GET', '/members/ZZZZZZZZZZ/reports')).statusCode).toBe(404);
      });

      it('serves the PDF inline with a file name, and records when it was opened', async () => {
        const { memberid, reportid } = await subject();
        // HEAD looks without opening: lastopened stays null.
        const head = await instance.app.inject({
          method: 'HEAD',
          url: `/api/v1/reports/${reportid}`,
          headers: { authorization: `Bearer ${await instance.token()}` },
        });
        expect(head.statusCode).toBe(200);
        expect(head.headers['content-type']).toBe('application/pdf');
        expect(
          (await instance.call('GET', `/members/${memberid}/reports`)).json.data[0].lastopened,
        ).toBeNull();
        const response = await pdf(`/reports/${reportid}`);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        expect(response.headers['content-disposition']).toMatch(
          /^inline; filename="leadership360-Orsted-script-alert-1-script-[0-9A-Za-z]{10}\.pdf"/,
        );
        const read = await readPdf(response.rawPayload);
        expect(read.text).toContain('<script>alert(1)</script>');
        expect(read.text).toContain('Ørsted');
        expect(read.text).toContain('More 1:1s');
        const short = (await instance.call('GET', `/reports/${reportid}/short`)).json.data;
        const list = (await instance.call('GET', `/members/${memberid}/reports`)).json.data;
        expect(list[0].lastopened).toMatch(DATE);
        expect(short.date).toMatch(DATE);
      });

      it('changes tags, language and testcase; a personal report has no name', async () => {
        const { memberid, reportid } = await subject();
        const changed = await instance.call('PATCH', `/reports/${reportid}`, {
          body: {
            tags: ['q1', 'q1', 'team'],
            language: 'frFR',
            testcase: '1',
            variant: 'bigfive',
            reportid: 'X',
          },
        });
        expect(changed.json.status, changed.body).toBe('OK');
        expect(changed.json.data).toMatchObject({
          tags: ['q1', 'team'],
          language: 'frFR',
          testcase: '1',
          variant: 'leadership360',
        });
        const list = (await instance.call('GET', `/members/${memberid}/reports`)).json.data;
        expect(list[0].tags).toBe('["q1","team"]');
        expect(
          (await instance.call('PATCH', `/reports/${reportid}`, { body: { name: 'Mine' } })).json,
        ).toEqual(error('name: only a group report has a name'));
        expect(
          (await instance.call('PATCH', `/reports/${reportid}`, { body: { language: 'deDE' } })).json,
        ).toEqual(error('language: must be one of enUS, nlNL, esES, frFR (the languages of leadership360)'));
        expect(
          (await instance.call('PATCH', `/reports/${reportid}`, { body: { tags: 'x' } })).json.status,
        ).toBe('ERROR');
        for (const testcase of ['yes', 2])
          expect((await instance.call('PATCH', `/reports/${reportid}`, { body: { testcase } })).json).toEqual(
            error('testcase: must be one of true, false, 0, 1'),
          );
        // From now on the PDF speaks French: the variant's French name and dimension names.
        const texts = (await instance.call('GET', '/settings/reports/leadership360/frFR/texts')).json.data;
        const read = await readPdf((await pdf(`/reports/${reportid}`)).rawPayload);
        expect(read.text).toContain(texts['dimension.VIS.name']);
        expect(read.text).toContain(texts['band.high'] ?? texts['band.average']);
      });

      it('re-scores with recalc', async () => {
        const { reportid } = await subject();
        await instance.db.kysely
          .updateTable('reports')
          .set({ processed: '{}' })
          .where('id', '=', reportid)
          .execute();
        const response = await instance.call('POST', `/reports/${reportid}/recalc`);
        expect(response.json).toEqual({ status: 'OK', data: '' });
        const data = (await instance.call('GET', `/reports/${reportid}/data`)).json.data;
        expect(JSON.parse(data.processed).VIS_score).toBe(62.5);
        expect((await instance.call('POST', '/reports/ZZZZZZZZZZ/recalc')).statusCode).toBe(404);
      });

      it('answers verbatims for a selection, and ERROR without one', async () => {
        const { reportid } = await subject();
        expect((await instance.call('GET', '/reports/verbatims')).json).toEqual(error('no reports selected'));
        expect((await instance.call('GET', '/reports/verbatims?reports=')).json).toEqual(
          error('no reports selected'),
        );
        const response = await instance.call('GET', `/reports/verbatims?reports=${reportid}`);
        expect(response.json.data).toEqual([
          { reportid, code: 'Remarks1', question: expect.any(String), answer: 'More 1:1s' },
        ]);
        expect(
          (await instance.call('GET', `/reports/verbatims?reports=${reportid},ZZZZZZZZZZ`)).json,
        ).toEqual(error('reports: unknown report ZZZZZZZZZZ'));
      });
    });

    describe('group reports', () => {
      let reports: string[];
      /** Four members with a personal report each. */
      const makeTeam = async () => {
        const members: string[] = [];
        for (const [first, last] of [
          ['Zoë', 'Brontë'],
          ['Ana', 'García'],
          ['Jean', 'Müller'],
          ['Eve', 'Holt'],
        ]) {
          members.push(await member({ firstname: first, lastname: last }));
        }
        const made: string[] = [];
        for (const [i, id] of members.entries()) {
          made.push(await personal(id, answers360(2 + (i % 3), { Remarks2: `Comment ${i}` })));
        }
        return { reports: made };
      };
      beforeAll(async () => {
        ({ reports } = await makeTeam());
      });

      it('makes a group report from the config fields, in the Report shape with string selections', async () => {
        // Its own reports: it reads their usage, which other tests' group reports would add to.
        const { reports } = await makeTeam();
        const response = await instance.call('POST', '/reports', {
          body: {
            reportType: 'group',
            name: 'Team Ω',
            variant: 'leadership360',
            language: 'esES',
            selectedReports: reports.join(', '),
          },
        });
        expect(response.json.status, response.body).toBe('OK');
        const report = response.json.data;
        expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
        expectShape(Report, report);
        expect(report).toMatchObject({
          type: 'group',
          name: 'Team Ω',
          language: 'esES',
          memberid: null,
          firstname: null,
        });
        expect(report.config).toEqual({
          variant: 'leadership360',
          language: 'esES',
          reportType: 'group',
          selectedReports: reports.join(','),
          selectedReportsMaster: '',
          selectedMember: '',
          excludedVerbatims: '',
        });
        const usage = (await instance.call('GET', `/reports/${reports[0]}/usage`)).json.data;
        expect(usage.map((item: { reportid: string }) => item.reportid)).toEqual([report.reportid]);
        const data = (await instance.call('GET', `/reports/${report.reportid}/data`)).json.data;
        expect(JSON.parse(data.processed).n).toBe(4);
        const read = await readPdf((await pdf(`/reports/${report.reportid}`)).rawPayload);
        expect(read.text).toContain('García');
        expect(read.text).toContain('Brontë');

        // A report in use cannot go; the group report first, then it can.
        expect((await instance.call('DELETE', `/reports/${reports[0]}`)).json).toEqual(
          error(`report: used by group report ${report.reportid}; delete it first`),
        );
        expect((await instance.call('DELETE', `/reports/${report.reportid}`)).json).toEqual({
          status: 'OK',
          data: '',
        });
        expect((await instance.call('GET', `/reports/${reports[0]}/usage`)).json.data).toEqual([]);
        expect((await instance.call('DELETE', `/reports/${report.reportid}`)).statusCode).toBe(404);
      });

      it('renames a group report', async () => {
        const made = await instance.call('POST', '/reports', {
          body: { type: 'condensed', variant: 'leadership360', selectedReports: reports },
        });
        expect(made.json.status, made.body).toBe('OK');
        expect(made.json.data.name).toBeTruthy();
        const renamed = await instance.call('PATCH', `/reports/${made.json.data.reportid}`, {
          body: { name: 'Q1 overview' },
        });
        expect(renamed.json.data.name).toBe('Q1 overview');
        // Its config names its language too: a new language changes both.
        const french = await instance.call('PATCH', `/reports/${made.json.data.reportid}`, {
          body: { language: 'frFR' },
        });
        expect(french.json.data.language).toBe('frFR');
        expect(french.json.data.config.language).toBe('frFR');
        const short = (await instance.call('GET', `/reports/${made.json.data.reportid}/short`)).json.data;
        expect(short.config).toMatchObject({ language: 'frFR', reportType: 'condensed' });
      });

      it('keeps an anonymous group report anonymous, and refuses one below its minimum', async () => {
        expect(
          (
            await instance.call('POST', '/reports', {
              body: {
                reportType: 'groupanon',
                variant: 'leadership360',
                selectedReports: reports.slice(0, 2).join(','),
              },
            })
          ).json,
        ).toEqual(error('selectedReports: an anonymous group report needs at least 3 reports (got 2)'));
        const made = await instance.call('POST', '/reports', {
          body: {
            reportType: 'groupanon',
            variant: 'leadership360',
            selectedReports: reports.join(','),
            excludedVerbatims: `${reports[1]}:Remarks2`,
          },
        });
        expect(made.json.status, made.body).toBe('OK');
        const read = await readPdf((await pdf(`/reports/${made.json.data.reportid}`)).rawPayload);
        for (const name of ['Zoë', 'Brontë', 'García', 'Müller', 'Holt'])
          expect(read.text).not.toContain(name);
        expect(read.text).toContain('Comment 0');
        expect(read.text).not.toContain('Comment 1');
      });

      it("raises an anonymous report's minimum to its campaign's minparticipants", async () => {
        const campaign = (
          await instance.call('POST', '/campaigns', {
            body: { name: 'Anon', variant: 'leadership360', start: PAST, config: { minparticipants: 5 } },
          })
        ).json.data.campaignid;
        const made: string[] = [];
        for (let i = 0; i < 4; i++)
          made.push(await personal(await member(), answers360(3), { campaignid: campaign }));
        expect(
          (
            await instance.call('POST', '/reports', {
              body: { reportType: 'groupanon', variant: 'leadership360', selectedReports: made.join(',') },
            })
          ).json,
        ).toEqual(error('selectedReports: an anonymous group report needs at least 5 reports (got 4)'));
        made.push(await personal(await member(), answers360(3), { campaignid: campaign }));
        const ok = await instance.call('POST', '/reports', {
          body: { reportType: 'groupanon', variant: 'leadership360', selectedReports: made.join(',') },
        });
        expect(ok.json.data.campaignid).toBe(campaign);
      });

      it('names what is wrong with a selection, and stores nothing', async () => {
        const teamscan = (
          await instance.call('POST', '/campaigns', {
            body: { name: 'Team scan', variant: 'teamscan', start: PAST },
          })
        ).json.data.campaignid;
        const before = (await instance.call('GET', '/reports/counts')).json.data;
        const cases: [Record<string, unknown>, string][] = [
          [
            {
              reportType: 'group',
              variant: 'leadership360',
              selectedReports: reports[0],
              campaignid: teamscan,
            },
            `campaignid: campaign ${teamscan} is of variant teamscan, not leadership360`,
          ],
          [
            {
              reportType: 'group',
              variant: 'leadership360',
              selectedReports: reports[0],
              excludedVerbatims: 'ZZZZZZZZZZ:Remarks2',
            },
            'excludedVerbatims: ZZZZZZZZZZ is not a selected report',
          ],
          [
            {
              reportType: 'group',
              variant: 'leadership360',
              selectedReports: reports[0],
              excludedVerbatims: `${reports[0]}:Q1`,
            },
            `excludedVerbatims: ${reports[0]}:Q1 is not <reportid> or <reportid>:<code> of a free-text question of leadership360`,
          ],
          [
            { variant: 'leadership360', selectedReports: reports.join(',') },
            'reportType: is required (one of group, groupanon, condensed, complete)',
          ],
          [
            { reportType: 'personal', variant: 'leadership360', selectedReports: reports[0] },
            'reportType: a personal report is made by completing a questionnaire or by POST /reports/import/{variant}',
          ],
          [
            { reportType: 'team', variant: 'leadership360', selectedReports: reports[0] },
            'reportType: must be one of group, groupanon, condensed, complete',
          ],
          [{ reportType: 'group', selectedReports: reports[0] }, 'variant: is required'],
          [
            { reportType: 'group', variant: 'nosuch', selectedReports: reports[0] },
            'variant: unknown variant nosuch',
          ],
          [
            { reportType: 'group', variant: 'leadership360', language: 'deDE', selectedReports: reports[0] },
            'language: must be one of enUS, nlNL, esES, frFR (the languages of leadership360)',
          ],
          [
            { reportType: 'group', variant: 'leadership360' },
            'selectedReports: is required (comma-separated report ids)',
          ],
          [
            { reportType: 'group', variant: 'leadership360', selectedReports: `${reports[0]},${reports[0]}` },
            `selectedReports: ${reports[0]} is selected twice`,
          ],
          [
            { reportType: 'group', variant: 'leadership360', selectedReports: `${reports[0]},ZZZZZZZZZZ` },
            'selectedReports: unknown report ZZZZZZZZZZ',
          ],
          [
            { reportType: 'group', variant: 'teamscan', selectedReports: reports[0] },
            `selectedReports: ${reports[0]} is a report of leadership360, not teamscan`,
          ],
          [
            {
              reportType: 'group',
              variant: 'leadership360',
              selectedReports: reports[0],
              selectedMember: 'ZZZZZZZZZZ',
            },
            'selectedMember: unknown member ZZZZZZZZZZ',
          ],
          [
            {
              reportType: 'condensed',
              variant: 'leadership360',
              selectedReports: reports[1],
              selectedReportsMaster: reports[0],
            },
            'selectedReportsMaster: only a group (360) report takes a master report',
          ],
        ];
        for (const [body, message] of cases) {
          expect((await instance.call('POST', '/reports', { body })).json, JSON.stringify(body)).toEqual(
            error(message),
          );
        }
        const group = (
          await instance.call('POST', '/reports', {
            body: { reportType: 'group', variant: 'leadership360', selectedReports: reports[2] },
          })
        ).json.data.reportid;
        expect(
          (
            await instance.call('POST', '/reports', {
              body: { reportType: 'group', variant: 'leadership360', selectedReports: group },
            })
          ).json,
        ).toEqual(error(`selectedReports: ${group} is a group report, not a personal report`));
        const after = (await instance.call('GET', '/reports/counts')).json.data;
        expect(Number(after.leadership360.group)).toBe(Number(before.leadership360.group) + 1);
      });

      it('makes a 360 from a self report and raters, and refuses one without its subject', async () => {
        const subject = await member({ firstname: 'Ana', lastname: 'Self' });
        const self = await personal(subject, answers360(5), { role: 'self' });
        const raters: string[] = [];
        for (const role of ['manager', 'peer', 'peer', 'directreport', 'directreport', 'directreport']) {
          raters.push(
            await personal(await member(), answers360(3, { Remarks1: `From a ${role}` }), { role }),
          );
        }
        expect(
          (
            await instance.call('POST', '/reports', {
              body: { reportType: 'group', variant: 'leadership360', selectedReports: raters.join(',') },
            })
          ).json,
        ).toEqual(
          error(
            `selectedReportsMaster: is required: ${raters[0]} is a manager report, and a 360 report needs the subject's self report`,
          ),
        );
        expect(
          (
            await instance.call('POST', '/reports', {
              body: {
                reportType: 'group',
                variant: 'leadership360',
                selectedReports: raters.slice(1).join(','),
                selectedReportsMaster: raters[0],
              },
            })
          ).json,
        ).toEqual(
          error(`selectedReportsMaster: ${raters[0]} is a manager report, not the subject's self report`),
        );
        const made = await instance.call('POST', '/reports', {
          body: {
            reportType: 'group',
            variant: 'leadership360',
            selectedReports: raters.join(','),
            selectedReportsMaster: self,
          },
        });
        expect(made.json.status, made.body).toBe('OK');
        expect(made.json.data.memberid).toBe(subject);
        expect(made.json.data.config.selectedReportsMaster).toBe(self);
        const read = await readPdf((await pdf(`/reports/${made.json.data.reportid}`)).rawPayload);
        expect(read.text).toContain('Ana');
        // Two peers are fewer than three: their comment is left out with the rest of their numbers.
        expect(read.text).not.toContain('From a peer');
        expect(read.text).toContain('From a directreport');
      });
    });

    describe('counts, search, filters, summaries', () => {
      it('counts reports as strings by variant and type', async () => {
        const counts = (await instance.call('GET', '/reports/counts')).json.data;
        expect(Object.keys(counts).sort()).toEqual(['bigfive', 'leadership360', 'teamscan']);
        expect(counts.bigfive).toEqual({
          personal: '0',
          group: '0',
          groupanon: '0',
          condensed: '0',
          complete: '0',
        });
        for (const value of Object.values(counts.leadership360)) expect(value).toMatch(/^[0-9]+$/);
      });

      it("lists and counts a group's reports, and filters by group", async () => {
        const group = (
          await instance.call('POST', '/groups', { body: { name: 'Sales Ñ', alias: `sales${Date.now()}` } })
        ).json.data.groupid;
        const inside = await member();
        await instance.call('POST', `/groups/${group}/members/${inside}`);
        const report = await personal(inside);
        const list = (await instance.call('GET', `/groups/${group}/reports`)).json.data;
        expect(list.map((item: { reportid: string }) => item.reportid)).toEqual([report]);
        expect(
          (await instance.call('GET', `/groups/${group}/reports/counts`)).json.data.leadership360.personal,
        ).toBe('1');
        const filtered = await instance.call('GET', `/reports/filtered/leadership360/group/${group}`);
        expect(filtered.json.data.map((item: { reportid: string }) => item.reportid)).toEqual([report]);
        expect((await instance.call('GET', `/reports/filtered/bigfive/group/${group}`)).json.data).toEqual(
          [],
        );
        expect(
          (await instance.call('GET', `/reports/filtered/leadership360/campaign/${group}`)).statusCode,
        ).toBe(403);
        expect(
          (await instance.call('GET', `/reports/filtered/leadership360/member/${inside}`)).statusCode,
        ).toBe(403);
        expect(
          (await instance.call('GET', `/reports/filtered/leadership360/planet/${group}`)).statusCode,
        ).toBe(404);
        expect((await instance.call('GET', `/reports/filtered/nosuch/group/${group}`)).statusCode).toBe(404);
        expect((await instance.call('GET', '/groups/ZZZZZZZZZZ/reports')).statusCode).toBe(404);
        const short = (await instance.call('GET', `/reports/${report}/short`)).json.data;
        expect(short.groupid).toBe(group);
        expect(short.groupname).toBe('Sales Ñ');
      });

      it('searches campaigns, members and groups', async () => {
        await member({ firstname: 'Quintessa', lastname: 'Zed' });
        const result = (await instance.call('GET', '/reports/search/quintes')).json.data;
        expect(Object.keys(result).sort()).toEqual(['campaigns', 'groups', 'members']);
        expect(result.members.map((m: { firstname: string }) => m.firstname)).toEqual(['Quintessa']);
        expect((await instance.call('GET', '/reports/search/%25')).json.data.members).toEqual([]);
      });

      it('defines and computes summaries', async () => {
        const definition = (await instance.call('GET', '/reports/summary/leadership360')).json.data;
        expect(definition.statistics).toEqual(['n', 'mean', 'sd', 'distribution']);
        expect(definition.dimensions.map((d: { code: string }) => d.code)).toEqual([
          'VIS',
          'COM',
          'DEV',
          'DEC',
          'COL',
          'INT',
        ]);
        expect((await instance.call('GET', '/reports/summary/nosuch')).statusCode).toBe(404);
        const a = await personal(await member(), answers360(2));
        const b = await personal(await member(), answers360(4));
        const summary = (
          await instance.call('POST', '/reports/summary', {
            body: { variant: 'leadership360', selectedReports: `${a},${b}` },
          })
        ).json.data;
        expect(summary.n).toBe(2);
        const q1 = summary.questions.find((q: { code: string }) => q.code === 'Q1');
        // 2 and 4: mean 3, sample sd sqrt(2) = 1.41.
        expect(q1).toMatchObject({ n: 2, mean: 3, sd: 1.41, distribution: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 0 } });
        const vis = summary.dimensions.find((d: { code: string }) => d.code === 'VIS');
        // 25 and 75.
        expect(vis).toMatchObject({
          n: 2,
          mean: 50,
          parent: null,
          distribution: { low: 1, average: 0, high: 1 },
        });
        expect(
          (await instance.call('POST', '/reports/summary', { body: { variant: 'leadership360' } })).json,
        ).toEqual(error('selectedReports: is required (comma-separated report ids)'));
      });
    });

    describe('campaigns and members', () => {
      it("lists a campaign's reports; deleting the campaign keeps them; deleting the member erases them", async () => {
        const campaign = (
          await instance.call('POST', '/campaigns', {
            body: { name: 'Round 1', variant: 'leadership360', start: PAST },
          })
        ).json.data.campaignid;
        const memberid = await member();
        const report = await personal(memberid, answers360(4), { campaignid: campaign });
        const list = (await instance.call('GET', `/campaigns/${campaign}/reports`)).json.data;
        expect(list.map((item: { reportid: string }) => item.reportid)).toEqual([report]);
        const own = (await instance.call('GET', `/campaigns/${campaign}/members/${memberid}/reports`)).json
          .data;
        expect(own).toHaveLength(1);
        expect(own[0]).toMatchObject({ campaignname: 'Round 1', campaignid: campaign });
        expect((await instance.call('GET', `/campaigns/ZZZZZZZZZZ/reports`)).statusCode).toBe(404);
        expect(
          (await importRows('bigfive', [{ memberid, answers: {}, campaignid: campaign }])).errors,
        ).toEqual([
          { row: 1, message: `campaignid: campaign ${campaign} is of variant leadership360, not bigfive` },
        ]);

        await instance.call('DELETE', `/campaigns/${campaign}`);
        expect((await instance.call('GET', `/reports/${report}/short`)).json.data.campaignid).toBeNull();
        await instance.call('DELETE', `/members/${memberid}`);
        expect((await instance.call('GET', `/reports/${report}/short`)).statusCode).toBe(404);
      });
    });

    describe('access', () => {
      it("guards each path by its family's scope, and lets read-only credentials only read", async () => {
        const group = (
          await instance.call('POST', '/groups', {
            body: { name: `Scope ${Date.now()}`, alias: `scope${Date.now()}` },
          })
        ).json.data.groupid;
        const reportsOnly = `Bearer ${await instance.token('reports')}`;
        const groupsOnly = `Bearer ${await instance.token('groups')}`;
        expect((await instance.call('GET', '/reports', { auth: reportsOnly })).statusCode).toBe(200);
        expect(
          (await instance.call('GET', `/groups/${group}/reports`, { auth: reportsOnly })).statusCode,
        ).toBe(403);
        expect(
          (await instance.call('GET', `/groups/${group}/reports`, { auth: groupsOnly })).json.status,
        ).toBe('OK');
        expect((await instance.call('GET', '/samples', { auth: reportsOnly })).statusCode).toBe(403);
        const key = await instance.apiKey('reports');
        expect(
          (await instance.call('GET', '/reports/counts', { auth: null, headers: { 'x-api-key': key } }))
            .statusCode,
        ).toBe(200);
        expect(
          (
            await instance.call('POST', '/reports', {
              auth: null,
              headers: { 'x-api-key': key },
              body: { reportType: 'group' },
            })
          ).statusCode,
        ).toBe(403);
      });

      it('answers 405 with Allow for a written-out path asked with another method', async () => {
        const response = await instance.call('DELETE', '/reports/counts');
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe('GET, HEAD');
        expect((await instance.call('PUT', '/reports/ZZZZZZZZZZ')).statusCode).toBe(405);
        expect((await instance.call('GET', '/reports/import/leadership360')).statusCode).toBe(405);
      });
    });

    describe('samples', () => {
      it('lists a sample per variant and language, each with a PDF that opens', async () => {
        const samples = (await instance.call('GET', '/samples')).json.data;
        expect(samples).toHaveLength(12);
        const dutch = samples.find(
          (s: { variant: string; language: string }) => s.variant === 'bigfive' && s.language === 'nlNL',
        );
        expect(Object.keys(dutch).sort()).toEqual(['language', 'name', 'type', 'url', 'variant']);
        const url = new URL(dutch.url);
        const response = await pdf(url.pathname.replace('/api/v1', ''));
        expect(response.headers['content-type']).toBe('application/pdf');
        const read = await readPdf(response.rawPayload);
        expect(read.text).toContain('Sanne');
        expect((await instance.call('GET', '/samples/bigfive/deDE')).statusCode).toBe(404);
      });
    });
  });
}
