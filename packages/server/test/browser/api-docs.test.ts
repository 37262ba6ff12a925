import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createClient } from '../../src/auth/auth.service.js';
import { describeInBrowser, launchChromium, type ServedInstance, startServedInstance } from './browser.js';

/**
 * The reference page at /api/docs, as an integrator uses it: "Authorize" with a client's id and
 * secret gets a token from the document's oauth2 scheme (the RFC 6749 token endpoint), and "Try it
 * out" then calls the API with it.
 */
describeInBrowser('the API reference page', () => {
  let served: ServedInstance;
  let browser: Browser;
  beforeAll(async () => {
    served = await startServedInstance();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('gets a token with a client id and secret from "Authorize", and "Try it out" calls the API with it', async ({
    expect,
  }) => {
    const db = served.instance.db.kysely;
    const { id } = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.test')
      .executeTakeFirstOrThrow();
    const client = await createClient(
      db,
      { name: 'Reference page', userId: id, scopes: ['members'] },
      cliActor(),
    );
    const page = await browser.newPage();
    const tokens: number[] = [];
    const calls: { status: number; authorization: string | undefined }[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname === '/oauth/token') tokens.push(response.status());
      if (url.pathname === '/api/v1/members')
        calls.push({ status: response.status(), authorization: response.request().headers().authorization });
    });
    await page.goto(`${served.base}/api/docs`);
    await page.locator('button.authorize').first().click();
    await page.locator('#client_id_clientCredentials').fill(client.client_id);
    await page.locator('#client_secret_clientCredentials').fill(client.client_secret);
    await page.locator('label[for="members-clientCredentials-checkbox-oauth2"]').click();
    // The modal's first Authorize button is the client credentials flow's (the flows in order).
    await page.locator('.modal-ux button.modal-btn.authorize').first().click();
    await expect.poll(() => tokens).toEqual([200]);
    await page.locator('button.close-modal').click();

    const operation = page.locator('#operations-members-membersList');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    await expect.poll(() => calls.length).toBe(1);
    expect(calls[0]?.status).toBe(200);
    expect(calls[0]?.authorization).toMatch(/^Bearer [\w.-]+$/);
  });
});
