import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import {
  describeInBrowser,
  keepScreenshot,
  LANGUAGES,
  launchChromium,
  pageProblems,
  type ServedInstance,
  signInPath,
  startServedInstance,
} from './browser.js';

// axe-core on every state of the console's access pages (clients and API keys, the secret shown
// once included), in each of the four languages, at a phone's width (360 px, nothing scrolls sideways).

const PHONE = { width: 360, height: 740 };

describeInBrowser('the console’s access pages pass axe-core and fit a phone', () => {
  let served: ServedInstance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  let language: string = LANGUAGES[0].language;
  let lang: string = LANGUAGES[0].lang;
  let count = 0;
  let status = 0;

  const go = (path: string) => page.goto(`${served.base}${path}`);

  /** The page as it is now: its status and language, axe-core, no sideways scrolling, a screenshot in English. */
  async function state(name: string, expected: number) {
    expect(status, `${language} ${name}`).toBe(expected);
    expect(await page.locator('html').getAttribute('lang'), name).toBe(lang);
    violations.push(...(await pageProblems(page, `${language} ${name}`)));
    // A screenshot to look at, of the whole page, in English only (as the wizard's): the other
    // languages' fit at 360 px is what the check of sideways scrolling above proves.
    if (language === 'enUS') {
      await keepScreenshot(page, `console-access-${language}-${String(++count).padStart(2, '0')}-${name}`, {
        fullPage: true,
      });
    }
  }

  /** Clicks and waits for the page it leads to. */
  const follow = (selector: string) =>
    Promise.all([page.waitForEvent('load'), page.locator(selector).first().click()]);

  beforeAll(async () => {
    [served, browser] = await Promise.all([startServedInstance(), launchChromium()]);
    context = await browser.newContext({ viewport: PHONE });
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest()) status = response.status();
    });
    await go(await signInPath(served.instance));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await served?.close();
  });

  it('every state of the clients, keys and users pages, in every language', async () => {
    for (const each of LANGUAGES) {
      language = each.language;
      lang = each.lang;
      await served.instance.db.kysely.updateTable('console_sessions').set({ language }).execute();

      // A client that registered itself (RFC 7591): its tag in the list, its own page.
      const registered = await fetch(`${served.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: `Self-registered agent ${language} with a rather long name <i>`,
          redirect_uris: ['http://127.0.0.1:9/callback'],
        }),
      });
      const { client_id: registeredId } = (await registered.json()) as { client_id: string };
      await go('/console/access/clients');
      await state('clients', 200);
      await go(`/console/access/clients/${registeredId}`);
      await state('client-registered', 200);
      if (language === LANGUAGES[0].language) {
        // The sign-in page (English only) with its notice that the client registered itself.
        const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
        await go(
          `/api/v1/auth/authorize?${new URLSearchParams({ response_type: 'code', client_id: registeredId, scope: 'members', code_challenge: challenge, code_challenge_method: 'S256' })}`,
        );
        expect(status).toBe(200);
        expect(await page.locator('main').textContent()).toContain('registered itself with Assay');
        violations.push(...(await pageProblems(page, 'signin-registered')));
      }
      await go('/console/access/clients/new');
      await state('client-form', 200);
      await follow('main button[type=submit]');
      await state('client-form-errors', 400);
      await page.fill('#name', `Export ${language} <b>`);
      await page.check('#scopes');
      await page.fill('#redirects', 'https://app.example.test/a-rather-long-return-address/that/goes/on');
      await follow('main button[type=submit]');
      await state('client-secret-shown-once', 201);
      const id = await page.locator('dd code').first().textContent();
      await go(`/console/access/clients/${id}`);
      await state('client', 200);
      await follow('main form button[type=submit]');
      await state('client-rotated-secret', 200);
      await go(`/console/access/clients/${id}/delete`);
      await state('client-delete-confirm', 200);
      await follow('main form button[type=submit]');
      await state('client-deleted', 200);

      await go('/console/access/keys/new');
      await state('key-form', 200);
      await follow('main button[type=submit]');
      await state('key-form-errors', 400);
      await page.fill('#name', `Key ${language}`);
      await page.check('#scopes');
      await follow('main button[type=submit]');
      await state('key-shown-once', 201);
      await go('/console/access/keys');
      await state('keys', 200);
      await follow('main table a[href$="/revoke"]');
      await state('key-revoke-confirm', 200);
      await follow('main form button[type=submit]');
      await state('key-revoked', 200);

      const other = await createUser(
        served.instance.db.kysely,
        {
          email: `other-${language}@example.test`,
          firstname: 'Otto',
          lastname: language,
        },
        cliActor(),
      );
      await go('/console/access/users');
      await state('users', 200);
      await go(`/console/access/users/${other.id}`);
      await state('user', 200);
      await follow('main #actions a[href$="/deactivate"]');
      await state('user-deactivate-confirm', 200);
      await follow('main form button[type=submit]');
      await state('user-deactivated', 200);
      await go(
        `/console/access/users/${(await served.instance.db.kysely.selectFrom('users').select('id').where('email', '=', 'admin@example.test').executeTakeFirstOrThrow()).id}`,
      );
      await state('user-self', 200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
