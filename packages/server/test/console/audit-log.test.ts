import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiActor, cliActor, consoleActor, participantActor } from '../../src/audit/actor.js';
import { recordChange, recordChanges } from '../../src/audit/audit.service.js';
import { createUser } from '../../src/auth/auth.service.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, type Instance, startInstance } from '../helpers/instance.js';

// The entries of this test lie in the first half of 2026; every query of it stays there, so that
// what the instance records of its own (sign-ins, tokens) never shows up in it.
const WINDOW = 'until=2026-06-30';

/** The audit log's console page: admins only, filters, a table newest first, older pages. */
describe.each(dialects)('console audit log (%s)', (dialect) => {
  let instance: Instance;
  let admin: ConsoleBrowser;
  let adminId: string;

  beforeAll(async () => {
    instance = await startInstance(dialect);
    const db = instance.db.kysely;
    adminId = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
    admin = await new ConsoleBrowser(instance).signIn();
    await recordChanges(
      db,
      participantActor('m000000001', '203.0.113.9'),
      Array.from({ length: 55 }, (_, i) => ({ resource: 'answers' as const, id: `m${i}`, action: 'save' })),
      '2026-01-10T08:00:00+00:00',
    );
    await recordChange(
      db,
      consoleActor(adminId, '192.0.2.7'),
      { resource: 'member', id: 'm000000001', action: 'update', fields: ['firstname', 'email'] },
      '2026-02-10T09:00:00+00:00',
    );
    await recordChange(
      db,
      apiActor({ userId: adminId, credential: { kind: 'client', id: 'c000000001' } }, '198.51.100.4'),
      { resource: 'campaign', id: 'k000000001', action: 'delete', outcome: 'denied' },
      '2026-03-10T10:00:00+00:00',
    );
  });
  afterAll(() => instance?.close());

  const rowsOf = (body: string) => body.match(/<tr>\n<td>/g)?.length ?? 0;

  it('shows the entries newest first, each actor readably, with the admin navigation linking it', async () => {
    const page = await admin.get(`/console/audit?${WINDOW}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aria-current="page">Audit log</a>');
    const body = page.body;
    const client = body.indexOf('<bdi>Client c000000001 for admin@example.test</bdi>');
    const user = body.indexOf('<bdi>admin@example.test</bdi>');
    const participant = body.indexOf('<bdi>Participant m000000001</bdi>');
    expect(client).toBeGreaterThan(0);
    expect(user).toBeGreaterThan(client);
    expect(participant).toBeGreaterThan(user);
    expect(body).toContain('<td dir="ltr">firstname, email</td>');
    expect(body).toContain('<td>Refused: not allowed</td>');
    expect(body).toContain('<span class="hint" dir="ltr">198.51.100.4</span>');
    expect(body).toContain('<td dir="ltr">campaign k000000001</td>');
    expect(rowsOf(body)).toBe(50);
    // Older entries keep the filters and page from the last seq shown.
    const older = /href="([^"]*before[^"]*)" rel="next"/
      .exec(body)?.[1]
      ?.replaceAll('&amp;', '&')
      .replaceAll('&#x3D;', '=');
    expect(older).toMatch(/^\/console\/audit\?until=2026-06-30&before=\d+$/);
    const second = await admin.get(older as string);
    expect(rowsOf(second.body)).toBe(7);
    expect(second.body).not.toContain('rel="next"');
    expect(second.body).toContain('>Newest entries</a>');
  });

  it('filters by dates (the last day included), actor, kind and id; bad values are no filter', async () => {
    const count = async (query: string) => rowsOf((await admin.get(`/console/audit?${query}`)).body);
    expect(await count('since=2026-02-10&until=2026-03-10')).toBe(2);
    expect(await count('since=2026-02-11&until=2026-03-09')).toBe(0);
    expect((await admin.get('/console/audit?since=2026-02-11&until=2026-03-09')).body).toContain(
      'No entries match these filters.',
    );
    expect(await count(`${WINDOW}&actor=${adminId}`)).toBe(1);
    expect(await count(`${WINDOW}&actor=c000000001`)).toBe(1);
    expect(await count(`${WINDOW}&type=campaign`)).toBe(1);
    expect(await count(`${WINDOW}&type=answers&id=m3`)).toBe(1);
    expect(await count(`${WINDOW}&id=m000000001`)).toBe(1);
    // A date that is not one, a kind with capitals: ignored, as on the reports page.
    expect(await count(`${WINDOW}&since=2026-02-31&type=Campaign`)).toBe(50);
    const bad = await admin.get('/console/audit?before=x');
    expect(bad.statusCode).toBe(400);
  });

  it('is for admins only: another user is refused, and their navigation has no link to it', async () => {
    await createUser(
      instance.db.kysely,
      { email: 'operator@example.test', firstname: 'Op', lastname: 'Erator' },
      cliActor(),
    );
    const other = await new ConsoleBrowser(instance).signIn('operator@example.test');
    const refused = await other.get('/console/audit');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('c000000001');
    expect((await other.get('/console')).body).not.toContain('href="/console/audit"');
    expect((await admin.get('/console')).body).toContain('href="/console/audit"');
  });

  it('speaks the console’s four languages', async () => {
    for (const [language, words] of [
      ['nl-NL', 'Auditlogboek'],
      ['es-ES', 'Registro de auditoría'],
      ['fr-FR', 'Journal d’audit'],
    ] as const) {
      const browser = new ConsoleBrowser(instance, '127.0.0.1', { 'accept-language': language });
      await browser.signIn();
      const page = await browser.get(`/console/audit?${WINDOW}`);
      expect(page.body, language).toContain(`<h1 class="heading-l">${words}</h1>`);
    }
  });
});
