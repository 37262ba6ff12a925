import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliverDue, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { type ConsoleTour, describeInBrowser, LANGUAGES, startConsoleTour } from './browser.js';

// axe-core on every state of the console's webhooks pages (the form and its errors, the secret
// shown once, a webhook with a delivery, turned off, the delete question), in each of the four
// languages, at a phone's width (360 px, nothing scrolls sideways).

describeInBrowser('the console’s webhooks pages pass axe-core and fit a phone', () => {
  let tour: ConsoleTour;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    [tour, receiver] = await Promise.all([
      // The receiver listens on loopback.
      startConsoleTour('console-webhooks', { env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } }),
      startWebhookReceiver(),
    ]);
  });
  afterAll(async () => {
    await tour?.close();
    await receiver?.close();
  });

  const deliver = () => deliverDue(tour.served.instance.db.kysely, 'sqlite');

  it('every state of the webhooks pages, in every language', async () => {
    const { page, violations, go, follow, state, useLanguage } = tour;
    for (const each of LANGUAGES) {
      const { language } = each;
      await useLanguage(each);

      await go('/console/webhooks');
      await state('list', 200);
      await follow('main a[href="/console/webhooks/new"]');
      await state('form', 200);
      await follow('main form button[type=submit]');
      await state('form-errors', 400);
      await page.fill('#url', `${receiver.url}/${language}`);
      await page.locator('#events').check();
      await page.locator('#event-report-created').check();
      await page.fill('#description', `CRM ${language}, a receiver with a rather long description`);
      await follow('main form button[type=submit]');
      await state('secret', 201);
      await follow('main a[href^="/console/webhooks/"]');
      await state('webhook', 200);
      await follow(`main form[action$="/test"] button`);
      await deliver();
      await page.reload();
      await state('webhook-delivered', 200);
      expect(await page.locator('main table tbody tr').count()).toBeGreaterThan(0);
      await follow(`main form[action$="/disable"] button`);
      await state('webhook-off', 200);
      await follow('main a[href$="/edit"]');
      await state('edit', 200);
      await go('/console/webhooks');
      await state('list-filled', 200);
      await follow('main table a');
      await follow('main a[href$="/delete"]');
      await state('delete-confirm', 200);
      await follow('main form button[type=submit]');
      await state('deleted', 200);
    }
    expect(violations).toEqual([]);
  }, 240_000);
});
