import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';

/**
 * Every form of the console posted as a browser never would: another body type, fields sent twice,
 * huge or control-character values, unknown ids. Each answers a page (never a 500 or a stack trace),
 * and a form without the session's token changes nothing.
 */
describe.each(dialects)('the console’s forms under odd posts (%s)', (dialect) => {
  let instance: Instance;
  let browser: ConsoleBrowser;
  let urls: string[];

  beforeAll(async () => {
    instance = await startInstance(dialect);
    browser = await new ConsoleBrowser(instance).signIn();
    const campaign = (
      await instance.call('POST', '/campaigns', {
        body: { name: 'Odd', variant: 'bigfive', start: '2026-01-01T00:00:00+00:00' },
      })
    ).json.data.campaignid;
    const member = (
      await instance.call('POST', '/members', {
        body: { firstname: 'O', lastname: 'D', email: email('odd') },
      })
    ).json.data.memberid;
    await instance.call('POST', `/campaigns/${campaign}/members`, { body: { memberids: [member] } });
    const group = (await instance.call('POST', '/groups', { body: { name: 'Odd group' } })).json.data.groupid;
    const mail = 'nosuchmail';
    const answers = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`Q${i + 1}`, 3]));
    const report = (
      await instance.call('POST', '/reports/import/leadership360', {
        body: { reports: [{ memberid: member, answers }] },
      })
    ).json.data.created[0];
    urls = [
      '/console/access/clients',
      '/console/access/clients/nosuchclient/rotate',
      '/console/access/clients/nosuchclient/delete',
      '/console/access/keys',
      '/console/access/keys/nosuchkey/revoke',
      '/console/access/users/nosuchuser/deactivate',
      '/console/access/users/nosuchuser/make-admin',
      '/console/account/password',
      '/console/account/sessions',
      '/console/branding',
      `/console/campaigns/${campaign}/members/add`,
      `/console/campaigns/${campaign}/settings/name`,
      `/console/campaigns/${campaign}/settings/variant`,
      `/console/campaigns/${campaign}/settings/nosuchfield`,
      `/console/campaigns/${campaign}/invite`,
      `/console/campaigns/${campaign}/remind`,
      `/console/campaigns/${campaign}/members/${member}/remove`,
      `/console/campaigns/${campaign}/members/${member}/reset`,
      '/console/campaigns/nosuchcamp/invite',
      '/console/campaigns/new/name',
      '/console/campaigns/new/nosuchstep',
      '/console/campaigns/new/check',
      `/console/groups/${group}/members`,
      `/console/groups/${group}/move`,
      `/console/groups/${group}/rename`,
      '/console/groups/nosuchgroup/rename',
      '/console/groups/new',
      '/console/language',
      `/console/mail/${mail}/retry`,
      '/console/mail/retry-failed',
      '/console/mail/send-captured',
      `/console/members/${member}/edit`,
      '/console/members/nosuchmember/edit',
      '/console/members/import',
      '/console/members/import/nosuchupload',
      '/console/members/new',
      '/console/reports/import',
      '/console/reports/import/nosuchupload',
      `/console/reports/${report}/recalc`,
      `/console/reports/${report}/language`,
      '/console/reports/nosuchreport/language',
      '/console/reports/nosuchreport/delete',
      `/console/reports/${report}/delete`,
      '/console/sign-in',
    ];
  });
  afterAll(() => instance?.close());

  const post = (url: string, contentType: string, payload: string, cookie = true) =>
    instance.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': contentType,
        ...(cookie ? { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
      payload,
    });

  it('answers every odd body with a page, never a server error', async () => {
    await browser.get('/console');
    const csrf = browser.csrf;
    const odd = [
      ['application/x-www-form-urlencoded', `csrf=${csrf}&name=a&name=b&groupid=x&groupid=y&memberid=&q=%00`],
      ['application/x-www-form-urlencoded', `csrf=${csrf}&${'x'.repeat(5000)}=${'%F0%9F'.repeat(200)}`],
      ['application/x-www-form-urlencoded', `csrf=${csrf}&name=${'n'.repeat(70_000)}&firstname=%E2%80%AE`],
      ['application/json', JSON.stringify({ csrf, name: 'json' })],
      ['text/plain', `csrf=${csrf}`],
      [
        'multipart/form-data; boundary=zzz',
        `--zzz\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrf}\r\n--zzz--\r\n`,
      ],
      ['multipart/form-data', 'no boundary at all'],
    ] as const;
    const failures: string[] = [];
    for (const url of urls) {
      for (const [type, payload] of odd) {
        const answer = await post(url, type, payload);
        if (answer.statusCode >= 500 || /at [\w.]+ \(/.test(answer.body)) {
          failures.push(`${url} ${type}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Still signed in, and the console still answers.
    expect((await browser.get('/console')).statusCode).toBe(200);
  });

  it('refuses every form without the session’s token and changes nothing', async () => {
    const before = await instance.db.kysely.selectFrom('groups').select('name').execute();
    for (const url of urls.filter((u) => !['/console/sign-in', '/console/language'].includes(u))) {
      const answer = await post(url, 'application/x-www-form-urlencoded', 'name=changed&firstname=changed');
      expect(answer.statusCode, url).toBe(403);
    }
    expect(await instance.db.kysely.selectFrom('groups').select('name').execute()).toEqual(before);
  });
});
