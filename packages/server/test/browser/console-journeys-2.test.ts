import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { consoleRoutes } from '../../src/console/console-kit.js';
import { consoleStrings } from '../../src/console/strings.js';
import { USER_ACTIONS } from '../../src/console/views/access.view.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import {
  describeInBrowser,
  LANGUAGES,
  launchChromium,
  pageProblems,
  type ServedInstance,
  signInPath,
  signInWith,
  startServedInstance,
} from './browser.js';

// Three of issue 21's journeys in Chromium, on one instance whose mail goes to a real SMTP server:
// a failed mail retried from the outbox once the server accepts again; an OAuth client made in the
// console that gets tokens until it is deleted there; and every admin-only console route, read from
// the app's own registry, refused to a user who is not an admin.

const OTHER = 'not-an-admin@example.test';
const TARGET = 'target@example.test';
const PAST = '2026-01-01T00:00:00+00:00';

describeInBrowser('console journeys: mail retry, a client’s life, admin pages', () => {
  let served: ServedInstance;
  let browser: Browser;
  let sink: SmtpSink;
  let admin: BrowserContext;
  let page: Page;
  let status = 0;

  const db = () => served.instance.db.kysely;
  /** Clicks and waits for the page it leads to. */
  const follow = (target: Page, selector: string) =>
    Promise.all([target.waitForEvent('load'), target.locator(selector).first().click()]);
  const main = async (target: Page) => (await target.locator('main').textContent()) ?? '';
  const tokenRequest = (clientId: string, secret: string, scope = 'members') =>
    fetch(`${served.base}/api/v1/auth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
        scope,
      }),
    });
  const members = (token: string) =>
    fetch(`${served.base}/api/v1/members`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    // The SMTP server refuses every message (550) until the test lets it accept.
    sink = await startSmtpSink({ kind: 'refuse', code: 550, message: 'mailbox unavailable for now' });
    [served, browser] = await Promise.all([
      startServedInstance({ background: true, env: { SMTP_URL: sink.url, ASSAY_TICK_SECONDS: '1' } }),
      launchChromium(),
    ]);
    admin = await browser.newContext({ baseURL: served.base, viewport: { width: 360, height: 740 } });
    page = await admin.newPage();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) {
        status = response.status();
      }
    });
    await signInWith(page, await signInPath(served.instance));
  });
  afterAll(async () => {
    await admin?.close();
    await browser?.close();
    await served?.close();
    await sink?.close();
  });

  it('retries a failed mail from the outbox once the SMTP server accepts again', {
    timeout: 60_000,
  }, async () => {
    const made = await served.instance.call('POST', '/campaigns', {
      body: { name: 'Retry journey', variant: 'bigfive', start: PAST },
    });
    const campaign = made.json.data.campaignid as string;
    const member = await served.instance.call('POST', '/members', {
      body: { firstname: 'Rita', lastname: 'Retry', email: 'rita@example.test' },
    });
    await served.instance.call('POST', `/campaigns/${campaign}/members`, {
      body: { memberids: [member.json.data.memberid] },
    });
    expect((await served.instance.call('POST', `/campaigns/${campaign}/members/invite`)).json.status).toBe(
      'OK',
    );

    // The worker tries it, the server refuses it for good: the mail is failed, with the answer.
    const mailOf = () =>
      db()
        .selectFrom('mail_outbox')
        .select(['id', 'status', 'message_id', 'last_response'])
        .where('campaign_id', '=', campaign)
        .executeTakeFirstOrThrow();
    await expect.poll(async () => (await mailOf()).status, { timeout: 20_000 }).toBe('failed');
    expect(sink.received).toHaveLength(0);
    expect(sink.attempts).toBe(1);
    const mail = await mailOf();

    // The operator sees it failed in the outbox, with the server's answer, and opens it.
    await page.goto('/console/mail?status=failed');
    expect(status).toBe(200);
    const row = page.locator('main tbody tr', { hasText: 'rita@example.test' });
    expect(await row.textContent()).toContain('Failed');
    expect(await row.textContent()).toContain('mailbox unavailable for now');
    await follow(page, `main a[href="/console/mail/${mail.id}"]`);
    expect(await main(page)).toContain('Failed');
    expect(await pageProblems(page, 'failed mail')).toEqual([]);

    // The server accepts again; "Send this mail again" queues it, and it arrives once.
    sink.mode = { kind: 'accept' };
    await follow(page, 'main form[action$="/retry"] button[type=submit]');
    expect(new URL(page.url()).pathname).toBe(`/console/mail/${mail.id}`);
    await sink.waitForReceived(1, 20_000);
    expect(sink.received[0]?.envelope.to).toEqual(['rita@example.test']);
    expect(sink.countByMessageId().get(mail.message_id)).toBe(1);
    await expect.poll(async () => (await mailOf()).status, { timeout: 10_000 }).toBe('sent');

    // The page shows it sent, with no retry button; the outbox's "Sent" filter lists it.
    await page.reload();
    expect(await main(page)).toContain('Sent');
    expect(await page.locator('main form[action$="/retry"]').count()).toBe(0);
    await page.goto('/console/mail?status=sent');
    expect(await page.locator('main tbody tr', { hasText: 'rita@example.test' }).count()).toBe(1);
    await page.goto('/console/mail?status=failed');
    expect(await page.locator('main tbody tr', { hasText: 'rita@example.test' }).count()).toBe(0);
    expect(sink.received).toHaveLength(1);
  });

  it('gives a client made in the console tokens until it is deleted there', { timeout: 60_000 }, async () => {
    await page.goto('/console/access/clients/new');
    await page.fill('#name', 'Journey <integration>');
    await page.check('input[name=scopes][value=members]');
    await follow(page, 'main button[type=submit]');
    expect(status).toBe(201);
    const clientId = (await page.locator('main dd code').first().textContent()) ?? '';
    const secret = (await page.locator('main code.access-secret').textContent()) ?? '';
    expect(clientId).toMatch(/^\S+$/);
    expect(secret.length).toBeGreaterThanOrEqual(32);

    // The token endpoint gives a token, and the token works on an API call.
    const issued = await tokenRequest(clientId, secret);
    expect(issued.status).toBe(200);
    const token = ((await issued.json()) as { data: { access_token: string } }).data.access_token;
    const listed = await members(token);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { status: string }).status).toBe('OK');
    // A scope the client was not given is refused, and a wrong secret too.
    const unscoped = await tokenRequest(clientId, secret, 'members groups');
    expect(unscoped.status).toBe(400);
    expect(JSON.stringify(await unscoped.json())).toContain('invalid_scope');
    // The client's token does not open a family it was not given.
    expect(
      (await fetch(`${served.base}/api/v1/groups`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(403);
    expect((await tokenRequest(clientId, `${secret}x`)).status).toBe(401);

    // Deleted in the console after the confirmation page.
    await page.goto(`/console/access/clients/${encodeURIComponent(clientId)}/delete`);
    expect(status).toBe(200);
    await follow(page, 'main form button[type=submit]');
    expect(status).toBe(200);
    const gone = await tokenRequest(clientId, secret);
    expect(gone.status).toBe(401);
    expect(JSON.stringify(await gone.json())).toContain('invalid_client');
    expect((await members(token)).status).toBe(401);
    await page.goto(`/console/access/clients/${encodeURIComponent(clientId)}`);
    expect(status).toBe(404);
  });

  it('refuses every admin-only console route to a user who is not an admin', {
    timeout: 120_000,
  }, async () => {
    const other = await createUser(
      db(),
      { email: OTHER, firstname: 'Nora', lastname: 'Operator' },
      cliActor(),
    );
    const target = await createUser(
      db(),
      { email: TARGET, firstname: 'Tom', lastname: 'Target' },
      cliActor(),
    );
    // Every route that declares `config.console: 'admin'`, as the app registered it.
    const routes = consoleRoutes(served.instance.app).filter((route) => route.access === 'admin');
    expect(routes.map((route) => route.url)).toContain('/console/access/users');
    const visits: { method: string; path: string }[] = [];
    const values: Record<string, readonly string[]> = { id: [target.id], action: USER_ACTIONS };
    for (const route of routes) {
      let paths = [route.url];
      for (const name of route.url.match(/:[A-Za-z]+/g) ?? []) {
        const choices = values[name.slice(1)];
        if (!choices) throw new Error(`${route.url}: no real value for ${name}; add one to the test`);
        paths = paths.flatMap((path) =>
          choices.map((value) => path.replace(name, encodeURIComponent(value))),
        );
      }
      for (const method of route.methods.filter((each) => each !== 'HEAD')) {
        for (const path of paths) visits.push({ method, path });
      }
    }
    expect(visits.filter((visit) => visit.method === 'POST').length).toBeGreaterThan(0);

    const context = await browser.newContext({ baseURL: served.base, viewport: { width: 360, height: 740 } });
    const user = await context.newPage();
    // Every navigation's answers, redirects included: a refused route answers 403 at once.
    let seen: number[] = [];
    user.on('response', (response) => {
      if (response.request().isNavigationRequest()) seen.push(response.status());
    });
    await signInWith(user, await signInPath(served.instance, OTHER));
    const problems: string[] = [];
    const usersNow = () =>
      db().selectFrom('users').select(['id', 'role', 'deactivated']).orderBy('id').execute();
    const before = await usersNow();
    for (const each of LANGUAGES) {
      await db()
        .updateTable('console_sessions')
        .set({ language: each.language })
        .where('user_id', '=', other.id)
        .execute();
      const c = consoleStrings(each.language);
      for (const [index, visit] of visits.entries()) {
        const label = `${each.language} ${visit.method} ${visit.path}`;
        if (visit.method === 'GET') {
          seen = [];
          await user.goto(visit.path);
        } else {
          // A form as the console's own would post it: the session's form token, from a page.
          await user.goto('/console/account');
          const csrf = await user.locator('main form input[name=csrf]').first().inputValue();
          seen = [];
          await Promise.all([
            user.waitForEvent('load'),
            user.evaluate(
              ({ action, token }) => {
                const form = document.createElement('form');
                form.method = 'post';
                form.action = action;
                const field = document.createElement('input');
                field.type = 'hidden';
                field.name = 'csrf';
                field.value = token;
                form.append(field);
                document.body.append(form);
                form.submit();
              },
              { action: visit.path, token: csrf },
            ),
          ]);
        }
        expect(seen, label).toEqual([403]);
        expect(await user.locator('html').getAttribute('lang'), label).toBe(each.lang);
        expect(await user.locator('main h1').textContent(), label).toBe(c.forbiddenTitle);
        expect(await main(user), label).toContain(c.forbiddenBody);
        expect(await main(user), label).not.toContain(TARGET);
        // axe and the phone's width on every route in English, on one per language otherwise.
        if (each.language === 'enUS' || index === 0) problems.push(...(await pageProblems(user, label)));
        // Nothing changed: every user keeps their role and access.
        expect(await usersNow(), label).toEqual(before);
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
