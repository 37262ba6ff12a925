import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

/** leadership360 answers: every likert item `value`, and a remark when given. */
function answers(value: number, remark?: string): Record<string, number | string> {
  const result: Record<string, number | string> = {};
  for (let i = 1; i <= 24; i++) result[`Q${i}`] = value;
  if (remark !== undefined) result.Remarks1 = remark;
  return result;
}

/** The text of a page with its markup's entities read back (for messages with quotes). */
const plain = (body: string) =>
  body
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&#x3D;/g, '=');

/** The report a "Make the report" answer leads to. */
const idOf = (location: unknown) => {
  const id = /^\/console\/reports\/([0-9A-Za-z]{10})\?done=made$/.exec(String(location))?.[1];
  if (!id) throw new Error(`not a made report: ${String(location)}`);
  return id;
};

/** "Make a group report": the form, the pick list, the check page (nothing made) and making it once. */
describe.each(dialects)('console: make a group report (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  let campaign: string;
  let campaignReports: string[];
  let groupId: string;

  const kysely = () => instance.db.kysely;
  const member = async (firstname: string, lastname: string) => {
    const response = await instance.call('POST', '/members', {
      body: { email: email(), firstname, lastname },
    });
    expect(response.json.status, response.body).toBe('OK');
    return response.json.data.memberid as string;
  };
  const importRows = async (variant: string, rows: unknown[]) => {
    const response = await instance.call('POST', `/reports/import/${variant}`, { body: { reports: rows } });
    expect(response.json.status, response.body).toBe('OK');
    expect(response.json.data.errors).toEqual([]);
    return response.json.data.created as string[];
  };
  const count = async (type?: string) => {
    let query = kysely()
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<number>().as('n'));
    if (type) query = query.where('type', '=', type);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const start = (fields: Record<string, string>) => browser.post('/console/reports/new', fields);

  beforeAll(async () => {
    instance = await startInstance(dialect);
    browser = await new ConsoleBrowser(instance).signIn();
    const made = await instance.call('POST', '/campaigns', {
      body: {
        name: 'Spring <b>survey</b>',
        variant: 'leadership360',
        start: '2026-01-01T00:00:00Z',
        config: { minparticipants: 4 },
      },
    });
    expect(made.json.status, made.body).toBe('OK');
    campaign = made.json.data.campaignid;
    const people = await Promise.all(['Ada', 'Bo', 'Cy'].map((name) => member(name, 'Campaign')));
    campaignReports = await importRows(
      'leadership360',
      people.map((memberid, i) => ({
        memberid,
        campaignid: campaign,
        answers: answers(2 + i, i === 0 ? 'My manager <script>x</script> is Dave' : `Remark ${i}`),
      })),
    );
    const group = await instance.call('POST', '/groups', { body: { name: 'Team Blue', alias: 'teamblue' } });
    groupId = group.json.data.groupid;
    for (const name of ['Gus', 'Hal']) {
      const id = await member(name, 'Grouped');
      expect((await instance.call('POST', `/groups/${groupId}/members/${id}`)).statusCode).toBe(200);
      await importRows('leadership360', [{ memberid: id, answers: answers(3) }]);
    }
  });
  afterAll(() => instance?.close());

  it('links from the reports list and a campaign, and starts from the campaign', async () => {
    expect((await browser.get('/console/reports')).body).toContain('href="/console/reports/new"');
    const page = await browser.get(`/console/campaigns/${campaign}`);
    expect(page.body).toContain(`href="/console/reports/new?campaign&#x3D;${campaign}"`);
    const form = await browser.get(`/console/reports/new?campaign=${campaign}`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<title>Make a group report – Assay console</title>');
    expect(form.body).toContain('id="source-campaign" name="source" type="radio" value="campaign" checked');
    expect(form.body).toContain(
      `<option value="${campaign}" selected>Spring &lt;b&gt;survey&lt;/b&gt;</option>`,
    );
    // The rules are said before they bite.
    expect(form.body).toContain('Needs at least 3 reports, or the campaign’s minimum number of participants');
    expect(form.body).toContain('with fewer than 3 responses is left out');
  });

  it('refuses a form without its choices, saying which, and keeps nothing', async () => {
    // A session of its own, with no report begun: what other tests began is kept in theirs.
    const browser = await new ConsoleBrowser(instance).signIn();
    const start = (fields: Record<string, string>) => browser.post('/console/reports/new', fields);
    await browser.get('/console/reports/new');
    const empty = await start({});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('href="#kind-group">Choose the type of report</a>');
    expect(empty.body).toContain('href="#source-campaign">Choose which personal reports to use</a>');
    const noCampaign = await start({ kind: 'group', source: 'campaign' });
    expect(noCampaign.body).toContain('Choose a campaign');
    const noGroup = await start({ kind: 'group', source: 'group', variant: 'leadership360' });
    expect(noGroup.body).toContain('Choose a group');
    const noVariant = await start({ kind: 'group', source: 'reports' });
    expect(noVariant.body).toContain('Choose a questionnaire');
    const long = await start({
      kind: 'group',
      source: 'reports',
      variant: 'leadership360',
      name: 'x'.repeat(256),
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('The name can have at most 255 characters');
    const odd = await start({ kind: 'personal', source: 'everything' });
    expect(odd.body).toContain('Choose the type of report');
    expect((await browser.get('/console/reports/new/check')).statusCode).toBe(404);
    // Without the session's form token nothing is kept.
    const forged = await browser.post('/console/reports/new', { kind: 'group', source: 'reports' }, null);
    expect(forged.statusCode).toBe(403);
    expect((await browser.get('/console/reports/new/check')).statusCode).toBe(404);
  });

  it('anonymous from a campaign: the minimum before (not met, then met), verbatims left out with a reason, made once', async () => {
    const before = await count();
    const posted = await start({
      kind: 'groupanon',
      source: 'campaign',
      campaign,
      variant: '',
      language: '',
      name: '',
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe('/console/reports/new/check');
    let check = await browser.get('/console/reports/new/check');
    expect(check.statusCode).toBe(200);
    expect(check.body).toContain('<bdi>Campaign Spring &lt;b&gt;survey&lt;/b&gt;</bdi>');
    expect(check.body).toContain('It would use 3 personal reports.');
    expect(check.body).toContain(
      'An anonymous report needs at least 4 reports. It has 3, so it cannot be made: add reports or choose another type.',
    );
    expect(check.body).not.toContain('Make the report');
    // The API refuses the very same selection with the rule the page showed.
    const api = await instance.call('POST', '/reports', {
      body: { reportType: 'groupanon', variant: 'leadership360', selectedReports: campaignReports.join(',') },
    });
    expect(api.json).toEqual({
      status: 'ERROR',
      data: 'selectedReports: an anonymous group report needs at least 4 reports (got 3)',
    });
    expect(await count()).toBe(before);

    const [fourth = ''] = await importRows('leadership360', [
      { memberid: await member('Di', 'Campaign'), campaignid: campaign, answers: answers(5, 'Fine') },
    ]);
    const afterImport = await count();
    check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain('It would use 4 personal reports.');
    expect(check.body).toContain('An anonymous report needs at least 4 reports. It has 4: enough.');
    expect(check.body).toContain('<bdi>My manager &lt;script&gt;x&lt;/script&gt; is Dave</bdi>');
    expect(check.body).not.toContain('<script>x');
    const entry = `${campaignReports[0]}:Remarks1`;
    expect(check.body).toContain(`name="leave" type="checkbox" value="${entry}"`);
    expect(await count()).toBe(afterImport);

    // Ticked without a reason: the service's message next to the answer, nothing made.
    const noReason = await browser.post('/console/reports/new/make', {
      leave: entry,
      [`reason:${entry}`]: ' ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain(`excludedVerbatims: a reason is required for ${entry}`);
    expect(noReason.body).toContain('href="#reason-');
    expect(noReason.body).toContain(`value="${entry}" checked`);
    expect(await count()).toBe(afterImport);
    // An answer that is not one of the selection: the API's message.
    const stray = await browser.post('/console/reports/new/make', {
      leave: 'AAAAAAAAAA:Remarks1',
      'reason:AAAAAAAAAA:Remarks1': 'x',
    });
    expect(stray.statusCode).toBe(400);
    expect(plain(stray.body)).toContain('excludedVerbatims: AAAAAAAAAA is not a selected report');
    expect(await count()).toBe(afterImport);

    const form = { leave: entry, [`reason:${entry}`]: 'Names a manager: <recognisable>' };
    const made = await browser.post('/console/reports/new/make', form);
    expect(made.statusCode).toBe(303);
    const id = idOf(made.headers.location);
    expect(id).toMatch(/^[0-9A-Za-z]{10}$/);
    // Posted twice: one report, and the second leads to it too.
    const again = await browser.post('/console/reports/new/make', form);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/console/reports/${id}?done=made`);
    expect(await count('groupanon')).toBe(1);
    expect(await count()).toBe(afterImport + 1);

    const short = (await instance.call('GET', `/reports/${id}/short`)).json.data;
    expect(short.type).toBe('groupanon');
    expect(short.campaignid).toBe(campaign);
    expect(short.config.excludedVerbatims).toBe(entry);
    expect(short.config.selectedReports.split(',').sort()).toEqual([...campaignReports, fourth].sort());
    // The reason is kept beside the report; the Report shape has no field for it.
    expect(Object.keys(short.config).sort()).toEqual(
      [
        'excludedVerbatims',
        'language',
        'reportType',
        'selectedMember',
        'selectedReports',
        'selectedReportsMaster',
        'variant',
      ].sort(),
    );
    const reasons = await kysely()
      .selectFrom('report_verbatim_reasons')
      .selectAll()
      .where('report_id', '=', id)
      .execute();
    expect(reasons).toEqual([{ report_id: id, entry, reason: 'Names a manager: <recognisable>' }]);
    const page = await browser.get(`/console/reports/${id}?done=made`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The group report has been made.');
    expect(page.body).toContain(`/console/reports/${id}/pdf`);
    // The report's page names what was left out and why.
    expect(page.body).toContain(
      `<dt class="summary-list__key">Answer Remarks1 of report ${campaignReports[0]}</dt><dd class="summary-list__value"><bdi>Names a manager: &lt;recognisable&gt;</bdi></dd>`,
    );
    // Deleting the report takes its reasons with it.
    expect((await instance.call('DELETE', `/reports/${id}`)).json.status).toBe('OK');
    expect(
      await kysely().selectFrom('report_verbatim_reasons').selectAll().where('report_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('from a group: its direct members’ reports of the questionnaire', async () => {
    await browser.get('/console/reports/new');
    await start({
      kind: 'group',
      source: 'group',
      group: groupId,
      variant: 'leadership360',
      language: 'nlNL',
      name: 'Blue team',
    });
    const check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain('<bdi>Group Team Blue</bdi>');
    expect(check.body).toContain('It would use 2 personal reports.');
    expect(check.body).toContain('Nederlands');
    expect(check.body).toContain('The chosen reports have no free-text answers.');
    const made = await browser.post('/console/reports/new/make', {});
    expect(made.statusCode).toBe(303);
    const id = idOf(made.headers.location);
    const short = (await instance.call('GET', `/reports/${id}/short`)).json.data;
    expect([short.type, short.name, short.language, short.config.excludedVerbatims]).toEqual([
      'group',
      'Blue team',
      'nlNL',
      '',
    ]);
    // A group with no reports of the questionnaire says so, and offers no button.
    await start({ kind: 'group', source: 'group', group: groupId, variant: 'bigfive' });
    const none = await browser.get('/console/reports/new/check');
    expect(none.body).toContain(
      'There are no personal reports of this questionnaire in Group Team Blue yet.',
    );
    expect(none.body).not.toContain('Make the report');
    // A group deleted meanwhile.
    await start({ kind: 'group', source: 'group', group: 'ZZZZZZZZZZ', variant: 'leadership360' });
    expect((await browser.get('/console/reports/new/check')).body).toContain(
      'That group does not exist (any more)',
    );
  });

  it('hand-picked: a searchable list, condensed and complete, refusals with the API’s messages', async () => {
    const teamscanAnswers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`Q${i + 1}`, 3]));
    const [teamscan = ''] = await importRows('teamscan', [
      { memberid: await member('Tea', 'Scan'), answers: teamscanAnswers },
    ]);
    await browser.get('/console/reports/new');
    const posted = await start({ kind: 'condensed', source: 'reports', variant: 'leadership360' });
    expect(posted.headers.location).toBe('/console/reports/new/pick');
    const pick = await browser.get('/console/reports/new/pick');
    expect(pick.statusCode).toBe(200);
    for (const id of campaignReports) expect(pick.body).toContain(`value="${id}"`);
    const search = await browser.get('/console/reports/new/pick?q=gus');
    expect(search.body).toContain('Gus Grouped');
    expect(search.body).not.toContain('Ada Campaign');
    const none = await browser.post('/console/reports/new/pick', {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose at least one report');
    expect(
      (await browser.post('/console/reports/new/pick', { report: campaignReports.slice(0, 2) })).statusCode,
    ).toBe(303);
    // The chosen ones stay chosen, ticked, on the next search.
    const kept = await browser.get('/console/reports/new/pick?q=nobody');
    expect(kept.body).toContain(`value="${campaignReports[0]}" checked`);
    expect(kept.body).toContain('Chosen (2)');
    let check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain('<bdi>2 hand-picked reports</bdi>');
    expect(check.body).toContain('It would use 2 personal reports.');
    // A report that is not a personal one of the questionnaire (a group report this test makes):
    // the API's message, nothing made.
    const made = await instance.call('POST', '/reports', {
      body: { reportType: 'group', variant: 'leadership360', selectedReports: campaignReports.join(',') },
    });
    expect(made.json.status, made.body).toBe('OK');
    const groupReport = made.json.data.reportid as string;
    await browser.post('/console/reports/new/pick', { report: [campaignReports[0] as string, groupReport] });
    check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain(`selectedReports: ${groupReport} is a group report, not a personal report`);
    expect(check.body).not.toContain('Make the report');
    await browser.post('/console/reports/new/pick', { report: [campaignReports[0] as string, teamscan] });
    check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain(`selectedReports: ${teamscan} is a report of teamscan, not leadership360`);
    await browser.post('/console/reports/new/pick', { report: campaignReports });
    const condensed = await browser.post('/console/reports/new/make', {});
    expect(condensed.statusCode).toBe(303);
    const condensedId = idOf(condensed.headers.location);
    expect((await instance.call('GET', `/reports/${condensedId}/short`)).json.data.type).toBe('condensed');

    // Made: the next report starts afresh.
    await start({ kind: 'complete', source: 'reports', variant: 'leadership360' });
    expect((await browser.get('/console/reports/new/pick')).body).not.toContain('Chosen (');
    await browser.post('/console/reports/new/pick', { report: campaignReports });
    // Another questionnaire, then back: the chosen reports are forgotten with the questionnaire.
    await start({ kind: 'complete', source: 'reports', variant: 'leadership360', name: 'kept' });
    expect((await browser.get('/console/reports/new/pick')).body).toContain('Chosen (3)');
    await start({ kind: 'complete', source: 'reports', variant: 'teamscan' });
    expect((await browser.get('/console/reports/new/pick')).body).not.toContain('Chosen (');
    await start({ kind: 'complete', source: 'reports', variant: 'leadership360' });
    await browser.post('/console/reports/new/pick', { report: campaignReports });
    const complete = await browser.post('/console/reports/new/make', {});
    const completeId = idOf(complete.headers.location);
    const short = (await instance.call('GET', `/reports/${completeId}/short`)).json.data;
    expect(short.type).toBe('complete');
    expect(short.config.selectedReports).toBe(campaignReports.join(','));
  });

  it('a 360: the subject, the rater groups shown and those left out and why, as the PDF leaves them out', async () => {
    const subject = await member('Sam', 'Subject');
    const rows = [
      { role: 'self', remark: 'I listen' },
      { role: 'manager' },
      { role: 'peer', remark: 'Peer says hi' },
      { role: 'peer' },
      { role: 'directreport' },
      { role: 'directreport' },
      { role: 'directreport' },
    ];
    const ids: string[] = [];
    for (const row of rows) {
      const rater = row.role === 'self' ? subject : await member(`R${ids.length}`, row.role);
      const [id = ''] = await importRows('leadership360', [
        { memberid: rater, role: row.role, answers: answers(4, row.remark) },
      ]);
      ids.push(id);
    }
    await browser.get('/console/reports/new');
    await start({ kind: '360', source: 'reports', variant: 'leadership360' });
    await browser.post('/console/reports/new/pick', { report: ids });
    const check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain('It is about Sam Subject: their own report and 6 raters’ reports.');
    const table = check.body.match(/<tbody>[\s\S]*?<\/tbody>/)?.[0] ?? '';
    const groups = [
      ...table.matchAll(/<th scope="row">([^<]*)<\/th>\n<td>(\d+)<\/td>\n<td>([^<]*)<\/td>/g),
    ].map((m) => [m[1], m[2], m[3]]);
    expect(groups).toEqual([
      ['Self', '1', 'Shown'],
      ['Manager', '1', 'Shown'],
      ['Peer', '2', 'Left out: fewer than 3 responses, so that no one can be recognised'],
      ['Direct report', '3', 'Shown'],
    ]);
    expect(check.body).toContain('Left out of the report: Peer.');
    // The subject's own remark and the peers' are listed to leave out (the PDF leaves the peers' out anyway).
    expect(check.body).toContain('<bdi>I listen</bdi>');
    const made = await browser.post('/console/reports/new/make', {});
    const id = idOf(made.headers.location);
    const short = (await instance.call('GET', `/reports/${id}/short`)).json.data;
    expect([short.type, short.config.selectedReportsMaster, short.memberid]).toEqual([
      'group',
      ids[0],
      subject,
    ]);

    // Without the subject's own report: the console says what a 360 needs.
    await start({ kind: '360', source: 'reports', variant: 'leadership360' });
    await browser.post('/console/reports/new/pick', { report: ids.slice(1) });
    expect((await browser.get('/console/reports/new/check')).body).toContain(
      'A 360 report needs the subject’s own report (role self) among the reports.',
    );
    // A group report of raters without their subject: the API's own refusal.
    await start({ kind: 'group', source: 'reports', variant: 'leadership360' });
    const refused = await browser.get('/console/reports/new/check');
    expect(plain(refused.body)).toContain(
      `selectedReportsMaster: is required: ${ids[1]} is a manager report, and a 360 report needs the subject's self report`,
    );
  });

  it('two "Make the report" posted at once make one report', async () => {
    await browser.get('/console/reports/new');
    await start({ kind: 'condensed', source: 'group', group: groupId, variant: 'leadership360' });
    const before = await count('condensed');
    const [one, two] = await Promise.all([
      browser.post('/console/reports/new/make', {}),
      browser.post('/console/reports/new/make', {}),
    ]);
    expect(await count('condensed')).toBe(before + 1);
    const made = [one, two].filter((response) => response.statusCode === 303);
    expect(made.length).toBeGreaterThanOrEqual(1);
    // The other found the draft taken: it leads to the report, or (still being made) to a fresh start.
    for (const response of [one, two]) expect([303, 404]).toContain(response.statusCode);
  });

  it('odd input: a name or reason that cannot be stored, an unknown language, a long reason; nothing made', async () => {
    const before = await count();
    await browser.get('/console/reports/new');
    await start({ kind: 'group', source: 'campaign', campaign, name: 'bad\u0000name' });
    expect((await browser.get('/console/reports/new/check')).body).toContain(
      'name: must not contain NUL or unpaired surrogate characters',
    );
    // The API's own message.
    const api = await instance.call('POST', '/reports', {
      body: {
        reportType: 'group',
        variant: 'leadership360',
        selectedReports: campaignReports[0],
        name: 'a\u0000',
      },
    });
    expect(api.json).toEqual({
      status: 'ERROR',
      data: 'name: must not contain NUL or unpaired surrogate characters',
    });
    await start({ kind: 'group', source: 'campaign', campaign, language: 'deDE' });
    const language = await browser.get('/console/reports/new/check');
    const message = (
      await instance.call('POST', '/reports', {
        body: {
          reportType: 'group',
          variant: 'leadership360',
          selectedReports: campaignReports[0],
          language: 'deDE',
        },
      })
    ).json.data as string;
    expect(message).toMatch(/^language: /);
    expect(plain(language.body)).toContain(message);
    expect(language.body).not.toContain('Make the report');
    await start({ kind: 'group', source: 'campaign', campaign });
    const entry = `${campaignReports[1]}:Remarks1`;
    const nul = await browser.post('/console/reports/new/make', {
      leave: entry,
      [`reason:${entry}`]: 'a\u0000b',
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.body).toContain(`excludedVerbatims: the reason for ${entry} is not valid text`);
    const long = await browser.post('/console/reports/new/make', {
      leave: entry,
      [`reason:${entry}`]: 'x'.repeat(501),
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(`excludedVerbatims: the reason for ${entry} has more than 500 characters`);
    // The long reason comes back as typed, for the operator to shorten.
    expect(long.body).toContain(`value="${'x'.repeat(501)}"`);
    // More reports than a group report takes: the API's own limit, nothing cut off silently.
    await start({ kind: 'group', source: 'reports', variant: 'leadership360' });
    const many = Array.from({ length: 10_001 }, (_, i) => `R${String(i).padStart(9, '0')}`);
    expect((await browser.post('/console/reports/new/pick', { report: many })).statusCode).toBe(303);
    const tooMany = await browser.get('/console/reports/new/check');
    expect(tooMany.body).toContain('10001 hand-picked reports');
    expect(tooMany.body).toMatch(/selectedReports: [^<]*10000/);
    expect(tooMany.body).not.toContain('Make the report');
    await start({ kind: 'group', source: 'campaign', campaign });
    const bare = `${campaignReports[1]}`;
    const whole = await browser.post('/console/reports/new/make', {
      leave: bare,
      [`reason:${bare}`]: 'All of it',
    });
    expect(whole.statusCode).toBe(303);
    const id = idOf(whole.headers.location);
    expect((await instance.call('GET', `/reports/${id}/short`)).json.data.config.excludedVerbatims).toBe(
      bare,
    );
    expect((await browser.get(`/console/reports/${id}`)).body).toContain(`Every answer of report ${bare}`);
    expect(await count()).toBe(before + 1);
  });

  it('a 360 from a campaign of several subjects: the operator chooses whose, and gets that subject’s raters', async () => {
    const made = await instance.call('POST', '/campaigns', {
      body: { name: '360 round', variant: 'leadership360', start: '2026-01-01T00:00:00Z' },
    });
    const round = made.json.data.campaignid as string;
    const ann = await member('Ann', 'Subject');
    const ben = await member('Ben', 'Subject');
    const rows: { who: string; role: string; about?: string }[] = [
      { who: ann, role: 'self' },
      { who: ben, role: 'self' },
      { who: await member('M', 'Ann'), role: 'manager', about: ann },
      ...(await Promise.all([1, 2, 3].map((i) => member(`P${i}`, 'Ann')))).map((who) => ({
        who,
        role: 'peer',
        about: ann,
      })),
      ...(await Promise.all([1, 2].map((i) => member(`D${i}`, 'Ben')))).map((who) => ({
        who,
        role: 'directreport',
        about: ben,
      })),
    ];
    const ids: string[] = [];
    for (const row of rows) {
      const [id = ''] = await importRows('leadership360', [
        { memberid: row.who, campaignid: round, role: row.role, answers: answers(3) },
      ]);
      // As the questionnaire leaves a rater's report: the campaign member's extra names the subject.
      if (row.about)
        await kysely()
          .updateTable('reports')
          .set({
            config: JSON.stringify({
              extra: { role: row.role, subject: row.about },
              campaignparams: { role: row.role },
            }),
          })
          .where('id', '=', id)
          .execute();
      ids.push(id);
    }
    await browser.get('/console/reports/new');
    await start({ kind: '360', source: 'campaign', campaign: round });
    const several = await browser.get('/console/reports/new/check');
    expect(several.body).toContain(
      'The reports hold 2 people’s own reports, and a 360 report is about one person: choose whose it is.',
    );
    expect(several.body).toContain(`id="subject-${ids[0]}" name="subject" type="radio" value="${ids[0]}"`);
    expect(several.body).toContain('<bdi>Ben Subject</bdi>');
    expect(several.body).not.toContain('Make the report');
    expect(
      (await browser.post('/console/reports/new/subject', { subject: ids[0] as string })).statusCode,
    ).toBe(303);
    const check = await browser.get('/console/reports/new/check');
    expect(check.body).toContain(`value="${ids[0]}" checked`);
    expect(check.body).toContain('It is about Ann Subject: their own report and 4 raters’ reports.');
    expect(check.body).toContain('No rater group is left out.');
    const table = check.body.match(/<tbody>[\s\S]*?<\/tbody>/)?.[0] ?? '';
    expect(table).toContain('<th scope="row">Direct report</th>\n<td>0</td>\n<td>No responses</td>');
    // A subject that is not one of them is no choice.
    await browser.post('/console/reports/new/subject', { subject: 'ZZZZZZZZZZ' });
    expect((await browser.get('/console/reports/new/check')).body).not.toContain('Make the report');
    await browser.post('/console/reports/new/subject', { subject: ids[1] as string });
    const benCheck = await browser.get('/console/reports/new/check');
    expect(benCheck.body).toContain('It is about Ben Subject: their own report and 2 raters’ reports.');
    expect(benCheck.body).toContain('Left out of the report: Direct report.');
    const report = await browser.post('/console/reports/new/make', {});
    const short = (await instance.call('GET', `/reports/${idOf(report.headers.location)}/short`)).json.data;
    expect([short.config.selectedReportsMaster, short.config.selectedReports, short.memberid]).toEqual([
      ids[1],
      ids.slice(6).join(','),
      ben,
    ]);
  });
});
