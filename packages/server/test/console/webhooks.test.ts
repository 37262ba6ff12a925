import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksStrings } from '../../src/console/webhooks-strings.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';
import { deliverDue, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const w = webhooksStrings('enUS');
const mainOf = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
const secretOf = (html: string) => {
  // Handlebars writes the base64 padding `=` as `&#x3D;`.
  const found = /<code class="access-secret">(whsec_[A-Za-z0-9+/]+(?:&#x3D;)*)<\/code>/.exec(html)?.[1];
  if (!found) throw new Error(`no secret on the page: ${mainOf(html).slice(0, 400)}`);
  return found.replaceAll('&#x3D;', '=');
};

/**
 * The console's webhooks pages (the API's `/webhooks` family in the browser), on both engines:
 * add with the secret shown once, the SSRF guard's refusal by its field, change, turn off and on,
 * a test event delivered to a real receiver that verifies it with `standardwebhooks`, a new
 * secret, delete; every bad input refused with nothing written.
 */
describe.each(dialects)('console webhooks (%s)', (dialect) => {
  let instance: Instance;
  let strict: Instance;
  let receiver: WebhookReceiver;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    // The receiver listens on loopback: this instance allows it; `strict` keeps the defaults.
    instance = await startInstance(dialect, { env: { ASSAY_WEBHOOK_ALLOW_PRIVATE: '1' } });
    strict = await startInstance(dialect);
    receiver = await startWebhookReceiver();
    browser = await new ConsoleBrowser(instance).signIn();
  });
  afterAll(async () => {
    await receiver?.close();
    await instance?.close();
    await strict?.close();
  });

  const apiWebhooks = async (on = instance) =>
    (await on.call('GET', '/webhooks')).json.data as { url: string }[];
  /** Adds a webhook through the form; answers its id and the secret shown once. */
  const add = async (fields: Record<string, string | string[]>) => {
    const before = new Set(
      (await instance.call('GET', '/webhooks')).json.data.map((x: { webhookid: string }) => x.webhookid),
    );
    await browser.get('/console/webhooks/new');
    const created = await browser.post('/console/webhooks', fields);
    expect(created.statusCode, mainOf(created.body).slice(0, 500)).toBe(201);
    const made = (await instance.call('GET', '/webhooks')).json.data.find(
      (x: { webhookid: string }) => !before.has(x.webhookid),
    );
    return { id: made.webhookid as string, secret: secretOf(created.body), page: created };
  };
  const deliver = () => deliverDue(instance.db.kysely, dialect);

  it('adds a webhook and shows its secret once, then lists it', async () => {
    const url = `${receiver.url}/crm`;
    const { id, secret, page } = await add({
      url,
      events: ['campaignmember.completed', 'report.created'],
      description: 'CRM <sync>',
    });
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(w.secretWarning);
    expect(secret).toMatch(/^whsec_/);
    const list = await browser.get('/console/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/console/webhooks/${id}"`);
    expect(list.body).toContain(url);
    expect(list.body).toContain('CRM &lt;sync&gt;');
    expect(list.body).toContain(w.eventWords['report.created']);
    expect(list.body).not.toContain(secret);
    const shown = await browser.get(`/console/webhooks/${id}`);
    expect(shown.body).not.toContain(secret);
    expect(shown.body).toContain('<code>campaignmember.completed</code>');
    expect(shown.body).toContain(w.noDeliveries);
    // The API sees the same subscription.
    const api = (await instance.call('GET', `/webhooks/${id}`)).json.data;
    expect(api).toMatchObject({ url, events: ['campaignmember.completed', 'report.created'], enabled: true });
  });

  it('refuses a form without address or events, or with a target the guard refuses, and writes nothing', async () => {
    const before = (await apiWebhooks()).length;
    const empty = await browser.post('/console/webhooks', { url: ' ', description: 'x' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('href="#url"');
    expect(empty.body).toContain('href="#events"');
    expect(empty.body).toContain(w.urlMissing);
    expect(empty.body).toContain(w.eventsMissing);
    const unknown = await browser.post('/console/webhooks', { url: receiver.url, events: 'report.made' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('id="events-error"');
    const long = await browser.post('/console/webhooks', {
      url: receiver.url,
      events: 'report.created',
      description: 'x'.repeat(1001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('id="description-error"');
    // What was typed comes back.
    expect(long.body).toContain(`value="${receiver.url}"`);
    expect(long.body).toMatch(/value="report\.created" checked/);
    expect((await apiWebhooks()).length).toBe(before);

    // Without ASSAY_WEBHOOK_ALLOW_PRIVATE: a loopback address is refused next to the address field.
    const guarded = await new ConsoleBrowser(strict).signIn();
    await guarded.get('/console/webhooks/new');
    const loopback = await guarded.post('/console/webhooks', {
      url: 'https://127.0.0.1/hook',
      events: 'report.created',
    });
    expect(loopback.statusCode).toBe(400);
    expect(loopback.body).toContain('id="url-error"');
    expect((await apiWebhooks(strict)).length).toBe(0);
    const none = await guarded.get('/console/webhooks');
    expect(none.body).toContain(w.none);
  });

  it('sends a test event that the receiver verifies, and lists the delivery', async () => {
    const { id, secret } = await add({ url: receiver.url, events: 'report.deleted' });
    receiver.secrets.push(secret);
    const sent = await browser.post(`/console/webhooks/${id}/test`, {});
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toMatch(new RegExp(`^/console/webhooks/${id}\\?test=msg_`));
    await deliver();
    const got = receiver.received.find(
      (one) => one.event?.type === 'webhook.test' && one.event.data.webhookid === id,
    );
    expect(got, 'the receiver verified a webhook.test event of this webhook').toBeDefined();
    const page = await browser.get(sent.headers.location as string);
    expect(page.body).toContain(w.testQueued.replace('{id}', got?.id ?? ''));
    expect(page.body).toContain('<code>webhook.test</code>');
    expect(page.body).toContain('HTTP 200');
    expect(page.body).toContain(w.messageStatuses.delivered);
  });

  it('changes a webhook, turns it off and on, and makes a new secret', async () => {
    const { id, secret } = await add({ url: receiver.url, events: 'report.created' });
    const form = await browser.get(`/console/webhooks/${id}/edit`);
    expect(form.body).toMatch(/value="report\.created" checked/);
    const refused = await browser.post(`/console/webhooks/${id}/edit`, { url: receiver.url });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(w.eventsMissing);
    const saved = await browser.post(`/console/webhooks/${id}/edit`, {
      url: `${receiver.url}/v2`,
      events: ['report.created', 'mail.failed'],
      description: 'Second receiver',
    });
    expect(saved.statusCode).toBe(303);
    expect((await instance.call('GET', `/webhooks/${id}`)).json.data).toMatchObject({
      url: `${receiver.url}/v2`,
      events: ['report.created', 'mail.failed'],
      description: 'Second receiver',
    });
    expect((await browser.get(saved.headers.location as string)).body).toContain(w.savedNotice);

    const off = await browser.post(`/console/webhooks/${id}/disable`, {});
    expect(off.headers.location).toBe(`/console/webhooks/${id}?changed=disabled`);
    expect((await instance.call('GET', `/webhooks/${id}`)).json.data.enabled).toBe(false);
    const offPage = await browser.get(off.headers.location as string);
    expect(offPage.body).toContain(w.disabledNotice);
    expect(offPage.body).not.toContain(`/console/webhooks/${id}/test`);
    // A test posted from a page left open meanwhile: nothing is queued, the page says where it stands.
    const stale = await browser.post(`/console/webhooks/${id}/test`, {});
    expect(stale.headers.location).toBe(`/console/webhooks/${id}`);
    const on = await browser.post(`/console/webhooks/${id}/enable`, {});
    expect(on.headers.location).toBe(`/console/webhooks/${id}?changed=enabled`);
    expect((await instance.call('GET', `/webhooks/${id}`)).json.data.enabled).toBe(true);

    const rotated = await browser.post(`/console/webhooks/${id}/rotate`, {});
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const next = secretOf(rotated.body);
    expect(next).not.toBe(secret);
  });

  it('deletes a webhook after asking, and answers 404 for one that is not there', async () => {
    const { id } = await add({ url: `${receiver.url}/gone`, events: 'member.deleted' });
    const ask = await browser.get(`/console/webhooks/${id}/delete`);
    expect(ask.statusCode).toBe(200);
    expect(ask.body).toContain(w.deleteBody.replace('{url}', `${receiver.url}/gone`));
    const deleted = await browser.post(`/console/webhooks/${id}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    const list = await browser.get(deleted.headers.location as string);
    expect(list.body).toContain(w.deleted.replace('{name}', `${receiver.url}/gone`));
    expect((await instance.call('GET', `/webhooks/${id}`)).statusCode).toBe(404);
    for (const path of ['', '/edit', '/delete']) {
      expect((await browser.get(`/console/webhooks/${id}${path}`)).statusCode, path).toBe(404);
    }
    expect((await browser.post(`/console/webhooks/${id}/delete`, {})).statusCode).toBe(404);
  });

  it('speaks the operator’s language', async () => {
    const dutch = await new ConsoleBrowser(instance).signIn();
    await dutch.post('/console/language', { language: 'nlNL', next: '/console' });
    const nl = webhooksStrings('nlNL');
    const list = await dutch.get('/console/webhooks');
    expect(list.body).toContain('<html lang="nl">');
    expect(list.body).toContain(nl.add);
    expect(nl.add).not.toBe(w.add);
    const form = await dutch.get('/console/webhooks/new');
    expect(form.body).toContain(nl.eventWords['campaignmember.completed']);
  });
});
