import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { type ConsoleTour, describeInBrowser, LANGUAGES, pageProblems, startConsoleTour } from './browser.js';

// axe-core on every state of the console's access pages (clients and API keys, the secret shown
// once included), in each of the four languages, at a phone's width (360 px, nothing scrolls sideways).

describeInBrowser('the console’s access pages pass axe-core and fit a phone', () => {
  let tour: ConsoleTour;
  beforeAll(async () => {
    tour = await startConsoleTour('console-access');
  });
  afterAll(() => tour?.close());

  it('every state of the clients, keys and users pages, in every language', async () => {
    const { served, page, violations, go, follow, state } = tour;
    for (const each of LANGUAGES) {
      const { language } = each;
      await tour.useLanguage(each);

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
        expect(tour.status).toBe(200);
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
