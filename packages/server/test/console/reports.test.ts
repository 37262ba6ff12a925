import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

/** leadership360 answers: every likert item `value`. */
function answers360(value: number): Record<string, number> {
  const result: Record<string, number> = {};
  for (let i = 1; i <= 24; i++) result[`Q${i}`] = value;
  return result;
}

const rowsOf = (body: string) => (body.match(/<tbody>[\s\S]*?<\/tbody>/)?.[0].match(/<tr>/g) ?? []).length;
const hrefs = (body: string, rel: string) =>
  new RegExp(`href="([^"]+)" rel="${rel}"`)
    .exec(body)?.[1]
    ?.replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&');

/** Reports in the console: the list, a report's page, its PDF, recalc, language and deletion. */
describe.each(dialects)('console reports (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  let ada: string;
  let grace: string;
  let adaReports: string[];
  let graceReport: string;

  const member = async (fields: Record<string, unknown>) => {
    const response = await instance.call('POST', '/members', { body: { email: email(), ...fields } });
    expect(response.json.status, response.body).toBe('OK');
    return response.json.data.memberid as string;
  };
  const importRows = async (variant: string, rows: unknown[]) => {
    const response = await instance.call('POST', `/reports/import/${variant}`, { body: { reports: rows } });
    expect(response.json.status, response.body).toBe('OK');
    expect(response.json.data.errors).toEqual([]);
    return response.json.data.created as string[];
  };

  beforeAll(async () => {
    instance = await startInstance(dialect);
    browser = await new ConsoleBrowser(instance).signIn();
    ada = await member({ firstname: 'Ada', lastname: 'Lovelace' });
    grace = await member({ firstname: 'Grace', lastname: '<script>Hopper</script>' });
    adaReports = await importRows(
      'leadership360',
      Array.from({ length: 55 }, (_, i) => ({
        memberid: ada,
        answers: answers360(1 + (i % 5)),
        date: '2026-03-01T10:00:00+00:00',
      })),
    );
    [graceReport = ''] = await importRows('leadership360', [
      { memberid: grace, answers: answers360(4), date: '2026-05-02T10:00:00+00:00', language: 'nlNL' },
    ]);
  });
  afterAll(() => instance?.close());

  it('lists reports newest first, 50 a page, with Next and Previous', async () => {
    const first = await browser.get('/console/reports');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<title>Reports – Assay console</title>');
    expect(first.body).toContain('href="/console/reports" aria-current="page"');
    expect(rowsOf(first.body)).toBe(50);
    // The newest (Grace's) first, her name escaped.
    expect(first.body.indexOf(graceReport)).toBeGreaterThan(0);
    expect(first.body).not.toContain('<script>Hopper');
    expect(first.body).toContain('&lt;script&gt;Hopper&lt;/script&gt;');
    expect(first.body).not.toContain('rel="prev"');
    const next = hrefs(first.body, 'next');
    expect(next).toBeDefined();
    const second = await browser.get(next as string);
    expect(rowsOf(second.body)).toBe(6);
    expect(second.body).not.toContain('rel="next"');
    const back = await browser.get(hrefs(second.body, 'prev') as string);
    expect(rowsOf(back.body)).toBe(50);
    expect(back.body).toContain(graceReport);
  });

  it('filters by variant, type, date and campaign, and searches by name prefix', async () => {
    const bigfive = await browser.get('/console/reports?variant=bigfive');
    expect(bigfive.body).toContain('No reports match these filters.');
    expect(bigfive.body).toContain('<option value="bigfive" selected>');
    const personal = await browser.get('/console/reports?variant=leadership360&type=personal');
    expect(rowsOf(personal.body)).toBe(50);
    const group = await browser.get('/console/reports?type=group');
    expect(group.body).toContain('No reports match these filters.');
    const may = await browser.get('/console/reports?from=2026-05-01&to=2026-05-02');
    expect(rowsOf(may.body)).toBe(1);
    expect(may.body).toContain(graceReport);
    const march = await browser.get('/console/reports?from=2026-03-01&to=2026-03-01');
    expect(rowsOf(march.body)).toBe(50);
    expect(march.body).not.toContain(graceReport);
    // A date that is no date is no filter.
    expect(rowsOf((await browser.get('/console/reports?from=yesterday')).body)).toBe(50);
    const search = await browser.get('/console/reports?q=GRA');
    expect(rowsOf(search.body)).toBe(1);
    expect(search.body).toContain(graceReport);
    expect(rowsOf((await browser.get('/console/reports?q=lovel')).body)).toBe(50);
    expect((await browser.get('/console/reports?q=nobody')).body).toContain(
      'No reports match these filters.',
    );
    expect((await browser.get('/console/reports?q=%25')).body).toContain('No reports match these filters.');
    const campaign = await browser.get('/console/reports?campaign=AAAAAAAAAA');
    expect(campaign.body).toContain('No reports match these filters.');
    expect(campaign.body).toContain('<input type="hidden" name="campaign" value="AAAAAAAAAA">');
  });

  it("shows a report's scores as the API's data gives them, a chart, and the participant's link", async () => {
    const id = adaReports[3] as string;
    const data = (await instance.call('GET', `/reports/${id}/data`)).json.data;
    const processed = JSON.parse(data.processed) as Record<string, unknown>;
    const page = await browser.get(`/console/reports/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<title>Report ${id} – Assay console</title>`);
    expect(page.body).toContain('<bdi>Ada Lovelace</bdi>');
    const cells = [...page.body.matchAll(/<th scope="row">[^<]*<\/th>\n<td>([0-9]+)<\/td>/g)].map(
      (m) => m[1],
    );
    const scores = Object.entries(processed)
      .filter(([key, value]) => key.endsWith('_score') && typeof value === 'number')
      .map(([, value]) => String(Math.round(value as number)));
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.sort()).toEqual(scores.sort());
    expect(page.body).toContain('role="img"');
    expect(page.body).toContain('<title id="report-chart-title">');
    expect(page.body).not.toMatch(/style=/);
    expect(page.body).toContain(`/r/${data.accesstoken}`);
    expect(page.body).toContain(`href="/console/reports/${id}/pdf"`);
    expect((await browser.get('/console/reports/NOSUCHREPO')).statusCode).toBe(404);
    // User text escaped on the report's page and its delete confirmation.
    for (const path of [`/console/reports/${graceReport}`, `/console/reports/${graceReport}/delete`]) {
      const answer = await browser.get(path);
      expect(answer.body).toContain('&lt;script&gt;Hopper&lt;/script&gt;');
      expect(answer.body).not.toContain('<script>Hopper');
    }
    expect((await browser.get('/console/reports?deleted=%3Cb%3E')).statusCode).toBe(400);
  });

  it('opens and downloads the PDF', async () => {
    const id = adaReports[0] as string;
    const open = await browser.get(`/console/reports/${id}/pdf`);
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toBe('application/pdf');
    expect(String(open.headers['content-disposition'])).toMatch(/^inline; filename="/);
    expect(open.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const download = await browser.get(`/console/reports/${id}/pdf?download=1`);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment; filename="/);
    const data = (await instance.call('GET', `/reports/${id}/short`)).json.data;
    expect(data.reportid).toBe(id);
    // Without a session: the sign-in page, no PDF.
    const stranger = await new ConsoleBrowser(instance).get(`/console/reports/${id}/pdf`);
    expect(stranger.headers['content-type']).not.toBe('application/pdf');
  });

  it('recalculates through the API service, and refuses without the form token', async () => {
    const id = adaReports[1] as string;
    await instance.db.kysely.updateTable('reports').set({ processed: '{}' }).where('id', '=', id).execute();
    const refused = await browser.post(`/console/reports/${id}/recalc`, {}, 'wrong');
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse((await instance.call('GET', `/reports/${id}/data`)).json.data.processed)).toEqual({});
    await browser.get(`/console/reports/${id}`);
    const done = await browser.post(`/console/reports/${id}/recalc`, {});
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/console/reports/${id}?done=recalc`);
    expect((await browser.get(done.headers.location as string)).body).toContain(
      'The report was recalculated.',
    );
    const processed = JSON.parse((await instance.call('GET', `/reports/${id}/data`)).json.data.processed);
    expect(Object.keys(processed).length).toBeGreaterThan(0);
  });

  it("changes the language among the variant's, refusing another with the API's message", async () => {
    const id = adaReports[2] as string;
    const form = await browser.get(`/console/reports/${id}/language`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<option value="enUS" selected>');
    expect(form.body).toContain('<option value="frFR">Français</option>');
    const bad = await browser.post(`/console/reports/${id}/language`, { language: 'deDE' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('<title>Error: ');
    expect(bad.body).toContain(
      'language: must be one of enUS, nlNL, esES, frFR (the languages of leadership360)',
    );
    const api = await instance.call('PATCH', `/reports/${id}`, { body: { language: 'deDE' } });
    expect(bad.body).toContain(api.json.data);
    expect((await instance.call('GET', `/reports/${id}/short`)).json.data.language).toBe('enUS');
    expect(
      (await browser.post(`/console/reports/${id}/language`, { language: 'frFR' }, 'x')).statusCode,
    ).toBe(403);
    const changed = await browser.submit(`/console/reports/${id}/language`, { language: 'frFR' });
    expect(changed.body).toContain('The language of the report was changed.');
    expect((await instance.call('GET', `/reports/${id}/short`)).json.data.language).toBe('frFR');
  });

  it('deletes only after the confirmation page, with the form token', async () => {
    // A report of its own to delete: the list the other tests read keeps the setup's.
    const [id = ''] = await importRows('leadership360', [
      { memberid: ada, answers: answers360(3), date: '2026-03-01T10:00:00+00:00' },
    ]);
    const confirm = await browser.get(`/console/reports/${id}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`Delete report ${id}?`);
    expect(confirm.body).toContain(`action="/console/reports/${id}/delete"`);
    expect((await instance.call('GET', `/reports/${id}/short`)).statusCode).toBe(200);
    const forged = await browser.post(`/console/reports/${id}/delete`, {}, null);
    expect(forged.statusCode).toBe(403);
    expect((await instance.call('GET', `/reports/${id}/short`)).statusCode).toBe(200);
    const deleted = await browser.post(`/console/reports/${id}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(`/console/reports?deleted=${id}`);
    expect((await browser.get(deleted.headers.location as string)).body).toContain(
      `Report ${id} was deleted.`,
    );
    expect((await instance.call('GET', `/reports/${id}/short`)).statusCode).toBe(404);
    expect((await browser.post(`/console/reports/${id}/delete`, {})).statusCode).toBe(404);
  });

  it("refuses to delete a report a group report uses, with the API's message", async () => {
    const [source = ''] = await importRows('leadership360', [
      { memberid: ada, answers: answers360(2), date: '2026-03-01T10:00:00+00:00' },
    ]);
    const made = await instance.call('POST', '/reports', {
      body: { type: 'group', variant: 'leadership360', name: 'Team', selectedReports: source },
    });
    expect(made.json.status, made.body).toBe('OK');
    await browser.get(`/console/reports/${source}/delete`);
    const refused = await browser.post(`/console/reports/${source}/delete`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(`report: used by group report ${made.json.data.reportid}`);
    expect((await instance.call('GET', `/reports/${source}/short`)).statusCode).toBe(200);
    // Once the group report is gone, its source may go too: both do, so that the list the other
    // tests read (no group report at all) is the setup's.
    expect((await instance.call('DELETE', `/reports/${made.json.data.reportid}`)).json.status).toBe('OK');
    await browser.get(`/console/reports/${source}/delete`);
    expect((await browser.post(`/console/reports/${source}/delete`, {})).statusCode).toBe(303);
  });
});
