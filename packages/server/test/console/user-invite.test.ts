import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/audit/actor.js';
import { createUser } from '../../src/auth/auth.service.js';
import { createSignInLink } from '../../src/console/sessions.service.js';
import { MailDelivery } from '../../src/mail/delivery.js';
import { ConsoleBrowser } from '../helpers/console-browser.js';
import { dialects, email, type Instance, startInstance } from '../helpers/instance.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';

const PASSWORD = 'a long enough passphrase';
const DAY = 86_400_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Inviting a platform user by mail (issue 21, item 6), on both engines: the form on the users page,
 * the user made by the users service, the mail through the outbox to a real SMTP server, the
 * one-time link's page that sets a password and signs in; resend, cancel, expiry, deactivation and
 * every bad input.
 */
describe.each(dialects)('console: invite a user by mail (%s)', (dialect) => {
  let instance: Instance;
  let sink: SmtpSink;
  let delivery: MailDelivery;
  let admin: ConsoleBrowser;
  // The instance's clock runs with real time, shifted when a test needs an invitation to expire.
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);

  beforeAll(async () => {
    sink = await startSmtpSink();
    instance = await startInstance(dialect, {
      clock,
      env: {
        SMTP_URL: sink.url,
        ASSAY_PUBLIC_URL: 'https://assay.example.test',
        ASSAY_TOKEN_FAILURES_PER_MINUTE: '1000',
      },
    });
    delivery = new MailDelivery({
      db: instance.db.kysely,
      dialect,
      variants: { list: () => [], get: () => undefined },
      smtpUrl: sink.url,
      mailFrom: instance.config.mailFrom,
      clock,
    });
    admin = await new ConsoleBrowser(instance).signIn();
  });
  afterAll(async () => {
    await delivery?.stop();
    await instance?.close();
    await sink?.close();
  });

  const users = () => instance.db.kysely.selectFrom('users').selectAll().execute();
  const outbox = () =>
    instance.db.kysely.selectFrom('mail_outbox').selectAll().where('stage', '=', 'user_invitation').execute();

  /** Delivers what is due and answers the newest mail the sink received for `to`, parsed. */
  async function mailTo(to: string) {
    while ((await delivery.runOnce()) > 0) {}
    const got = sink.received.filter((mail) => mail.envelope.to.includes(to)).at(-1);
    if (!got) throw new Error(`no mail to ${to}`);
    return sink.parsed(got.messageId);
  }

  /** The invitation's path in a mail's text. */
  const linkPath = (text: string) => {
    const found = /https:\/\/assay\.example\.test(\/console\/invitation\/[A-Za-z0-9_-]{43})/.exec(text);
    if (!found) throw new Error(`no invitation link in: ${text}`);
    return found[1] as string;
  };

  async function invite(fields: Record<string, string> = {}) {
    const address = fields.email ?? email('invitee');
    await admin.get('/console/access/users');
    const response = await admin.post('/console/access/users/invite', {
      email: address,
      firstname: 'Ines',
      lastname: 'Invitee',
      language: 'enUS',
      ...fields,
    });
    return { response, address };
  }

  it('invites a user: the users service makes them, the outbox mails the link, the link sets a password once and signs in', async () => {
    const { response, address } = await invite({ firstname: 'Ines', lastname: '<b>Invitee</b>' });
    expect(response.statusCode).toBe(303);
    const user = (await users()).find((row) => row.email === address);
    expect(user).toMatchObject({
      firstname: 'Ines',
      lastname: '<b>Invitee</b>',
      role: 'user',
      password_hash: null,
    });
    expect(response.headers.location).toBe(`/console/access/users/${user?.id}?changed=invited`);

    const page = await admin.get(response.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`An invitation has been sent to ${address}.`);
    expect(page.body).toContain('Invited');
    expect(page.body).toMatch(/Sent [^<]+ UTC, expires [^<]+ UTC/);
    expect(page.body).toContain('&lt;b&gt;Invitee&lt;/b&gt;');
    expect(page.body).not.toContain('<b>Invitee</b>');
    expect(page.body).toContain(`/console/access/users/${user?.id}/invitation/resend`);
    const list = await admin.get('/console/access/users');
    expect(list.body).toMatch(
      new RegExp(`${address.replace('.', '\\.')}</bdi></td><td>User</td><td>Invited</td>`),
    );

    // In the outbox, queued with the admin's sender name, then delivered over SMTP.
    const [queued] = (await outbox()).filter((row) => row.recipient === address);
    expect(queued).toMatchObject({ status: 'queued', campaign_id: null, member_id: null, language: 'enUS' });
    const mail = await mailTo(address);
    expect(mail.subject).toBe('You are invited to Assay');
    expect(mail.text).toContain('Dear Ines,');
    expect(mail.text).toContain('The link works once, until');
    const path = linkPath(mail.text ?? '');
    expect(mail.html).toContain(`https://assay.example.test${path}`);
    expect((await outbox()).find((row) => row.id === queued?.id)?.status).toBe('sent');
    // Only the link's hash is stored.
    const secret = path.split('/').at(-1) as string;
    const links = await instance.db.kysely.selectFrom('console_sign_in_links').selectAll().execute();
    expect(JSON.stringify(links)).not.toContain(secret);
    expect(links.find((row) => row.token_hash === sha256(secret))).toMatchObject({
      purpose: 'invitation',
      used: null,
      language: 'enUS',
    });
    const expires = Date.parse(links.find((row) => row.token_hash === sha256(secret))?.expires ?? '');
    expect(Math.abs(expires - (Date.now() + 7 * DAY))).toBeLessThan(60_000);

    // An invitation's link is no sign-in link.
    const invitee = new ConsoleBrowser(instance);
    expect((await invitee.get(`/console/sign-in/link/${secret}`)).statusCode).toBe(404);

    const form = await invitee.get(path);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Choose your password');
    expect(form.body).toContain('Welcome, Ines &lt;b&gt;Invitee&lt;/b&gt;.');
    expect(form.body).toContain('At least 12 characters.');
    // Bad passwords: each refused with its message, nothing set, the link still works.
    for (const [fields, words, target] of [
      [{ password: '', confirm: '' }, 'Enter a password', '#password'],
      [
        { password: 'short', confirm: 'short' },
        'The password must be at least 12 characters long',
        '#password',
      ],
      [{ password: PASSWORD, confirm: `${PASSWORD}!` }, 'The two passwords are not the same', '#confirm'],
    ] as const) {
      const refused = await invitee.post(path, fields);
      expect(refused.statusCode, words).toBe(400);
      expect(refused.body).toContain(words);
      expect(refused.body).toContain(`href="${target}"`);
      expect(refused.body).not.toContain(PASSWORD);
    }
    // A form without this browser's token (another site's) changes nothing.
    const forged = await invitee.post(path, { password: PASSWORD, confirm: PASSWORD }, 'forged');
    expect(forged.statusCode).toBe(403);
    expect((await users()).find((row) => row.id === user?.id)?.password_hash).toBeNull();

    const accepted = await invitee.post(path, { password: PASSWORD, confirm: PASSWORD });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/console');
    expect(String(accepted.headers['set-cookie'])).toMatch(
      /^__Host-assay_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    const home = await invitee.get('/console');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Signed in as Ines &lt;b&gt;Invitee&lt;/b&gt;');

    // Used once: the link now shows a clear page, and the password signs in.
    const again = await new ConsoleBrowser(instance).get(path);
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('This invitation link cannot be used');
    const reuse = new ConsoleBrowser(instance);
    await reuse.get('/console/sign-in');
    expect(
      (await reuse.post(path, { password: 'another passphrase', confirm: 'another passphrase' })).statusCode,
    ).toBe(404);
    const viaForm = new ConsoleBrowser(instance);
    await viaForm.get('/console/sign-in');
    expect(
      (await viaForm.post('/console/sign-in', { email: address, password: PASSWORD, next: '' })).statusCode,
    ).toBe(303);
    const after = await admin.get(`/console/access/users/${user?.id}`);
    expect(after.body).not.toContain('Invited');
    expect(after.body).not.toContain('/invitation/resend');
  });

  it('speaks the invitation’s language in the mail and on the page, and makes an admin when asked', async () => {
    const { response, address } = await invite({ language: 'nlNL', admin: '1', firstname: 'Nel' });
    expect(response.statusCode).toBe(303);
    expect((await users()).find((row) => row.email === address)?.role).toBe('admin');
    const mail = await mailTo(address);
    expect(mail.subject).toBe('Je bent uitgenodigd voor Assay');
    expect(mail.text).toContain('Beste Nel,');
    const page = await new ConsoleBrowser(instance).get(linkPath(mail.text ?? ''));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="nl"');
    expect(page.body).toContain('Kies je wachtwoord');
  });

  it('refuses bad input with a message next to the field and writes nothing', async () => {
    const before = { users: (await users()).length, mails: (await outbox()).length };
    const cases: [Record<string, string>, string, string][] = [
      [{ email: '' }, 'Enter their e-mail address', '#invite-email'],
      [{ email: 'not-an-address' }, 'not-an-address', '#invite-email'],
      [{ firstname: '  ' }, 'Enter their first name', '#invite-firstname'],
      [{ lastname: '' }, 'Enter their last name', '#invite-lastname'],
      [{ firstname: 'Line\nbreak' }, 'must be one line', '#invite-firstname'],
      [{ lastname: 'x'.repeat(256) }, 'at most 255 characters, got 256', '#invite-lastname'],
      [{ language: 'deDE' }, 'must be one of enUS, nlNL, esES, frFR', '#invite-language'],
      [{ email: 'admin@example.test' }, 'a user admin@example.test already exists', '#invite-email'],
      [{ email: 'ADMIN@Example.TEST' }, 'already exists', '#invite-email'],
    ];
    for (const [fields, words, target] of cases) {
      const { response } = await invite({ ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.body, JSON.stringify(fields)).toContain(words);
      expect(response.body).toContain(`href="${target}"`);
      expect(response.body).toContain('<title>Error: Users – Assay console</title>');
    }
    // What was typed is shown again, escaped.
    const typed = await invite({ email: '', firstname: '<script>x</script>' });
    expect(typed.response.body).toContain('value="&lt;script&gt;x&lt;/script&gt;"');
    expect(typed.response.body).not.toContain('<script>x</script>');
    expect((await users()).length).toBe(before.users);
    expect((await outbox()).length).toBe(before.mails);
    // Without the session's form token: refused before anything runs.
    const forged = await admin.post(
      '/console/access/users/invite',
      { email: email('forged'), firstname: 'F', lastname: 'G', language: 'enUS' },
      'forged',
    );
    expect(forged.statusCode).toBe(403);
    expect((await users()).length).toBe(before.users);
  });

  it('is for admins only: another user gets 403 and nothing is sent', async () => {
    const plain = email('plain');
    const user = await createUser(
      instance.db.kysely,
      { email: plain, firstname: 'Pat', lastname: 'Plain' },
      cliActor(),
    );
    const browser = await new ConsoleBrowser(instance).signIn(plain);
    const { address } = await invite();
    const invited = (await users()).find((row) => row.email === address);
    const before = { users: (await users()).length, mails: (await outbox()).length };
    expect((await browser.get('/console/access/users')).statusCode).toBe(403);
    expect(
      (
        await browser.post('/console/access/users/invite', {
          email: email('x'),
          firstname: 'X',
          lastname: 'Y',
          language: 'enUS',
        })
      ).statusCode,
    ).toBe(403);
    for (const action of ['resend', 'cancel']) {
      expect(
        (await browser.get(`/console/access/users/${invited?.id}/invitation/${action}`)).statusCode,
      ).toBe(403);
      expect(
        (await browser.post(`/console/access/users/${invited?.id}/invitation/${action}`, {})).statusCode,
      ).toBe(403);
    }
    expect({ users: (await users()).length, mails: (await outbox()).length }).toEqual(before);
    // The invitation's mail holds a link that sets a password: its text is for admins only.
    const [mail] = (await outbox()).filter((row) => row.recipient === address);
    expect((await browser.get(`/console/mail/${mail?.id}`)).statusCode).toBe(404);
    expect((await browser.get(`/console/mail/${mail?.id}/html`)).statusCode).toBe(404);
    const shown = await admin.get(`/console/mail/${mail?.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Invitation to become a user');
    expect(user.role).toBe('user');
  });

  it('leaves the invitations out of anyone else’s outbox: the list, its counts and the bulk retries', async () => {
    const plain = email('outbox');
    await createUser(instance.db.kysely, { email: plain, firstname: 'Olga', lastname: 'Outbox' }, cliActor());
    const browser = await new ConsoleBrowser(instance).signIn(plain);
    const { address } = await invite();
    const [mail] = (await outbox()).filter((row) => row.recipient === address);
    if (!mail) throw new Error(`no invitation mail to ${address}`);
    // Its delivery failed: the kind of mail the outbox offers to retry.
    await instance.db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'failed', last_response: '550 mailbox unavailable' })
      .where('id', '=', mail.id)
      .execute();
    const statusOf = async () =>
      (
        await instance.db.kysely
          .selectFrom('mail_outbox')
          .select('status')
          .where('id', '=', mail.id)
          .executeTakeFirstOrThrow()
      ).status;

    for (const path of ['/console/mail', '/console/mail?status=failed']) {
      expect((await admin.get(path)).body).toContain(address);
      const page = await browser.get(path);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(address);
      expect(page.body).not.toContain(`/console/mail/${mail.id}`);
    }
    const failedElsewhere = await instance.db.kysely
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'failed')
      .where('stage', '!=', 'user_invitation')
      .executeTakeFirstOrThrow();
    const retried = await browser.post('/console/mail/retry-failed', {});
    expect(retried.statusCode).toBe(303);
    expect(retried.headers.location).toBe(`/console/mail?queued=${Number(failedElsewhere.n)}`);
    expect(await statusOf()).toBe('failed');

    const byAdmin = await admin.post('/console/mail/retry-failed', {});
    expect(byAdmin.headers.location).toMatch(/\?queued=[1-9]/);
    expect(await statusOf()).toBe('queued');
  });

  it('refuses anyone else’s retry of an invitation mail as its page is refused, and requeues it by no action of theirs', async () => {
    const plain = email('retry');
    await createUser(instance.db.kysely, { email: plain, firstname: 'Rita', lastname: 'Retry' }, cliActor());
    const browser = await new ConsoleBrowser(instance).signIn(plain);
    const { address } = await invite();
    const [mail] = (await outbox()).filter((row) => row.recipient === address);
    if (!mail) throw new Error(`no invitation mail to ${address}`);
    const row = () =>
      instance.db.kysely
        .selectFrom('mail_outbox')
        .select(['status', 'attempts', 'next_attempt_at'])
        .where('id', '=', mail.id)
        .executeTakeFirstOrThrow();
    const retries = async () =>
      (
        await instance.db.kysely
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('resource_type', '=', 'mail')
          .where('resource_id', '=', mail.id)
          .executeTakeFirstOrThrow()
      ).n;

    for (const status of ['failed', 'captured'] as const) {
      await instance.db.kysely
        .updateTable('mail_outbox')
        .set({ status, attempts: 3, last_response: '550 mailbox unavailable' })
        .where('id', '=', mail.id)
        .execute();
      const before = { ...(await row()), retries: Number(await retries()) };
      const page = await browser.get(`/console/mail/${mail.id}`);
      expect(page.statusCode).toBe(404);
      // The one mail's action: the same page, not found, as its page (but for where the language
      // form leads back to).
      const retried = await browser.post(`/console/mail/${mail.id}/retry`, {});
      expect(retried.statusCode, status).toBe(404);
      expect(retried.headers.location).toBeUndefined();
      expect(retried.body.replace(`/console/mail/${mail.id}/retry"`, `/console/mail/${mail.id}"`)).toBe(
        page.body,
      );
      expect(retried.body).toContain('Page not found');
      // The bulk actions leave it out.
      expect((await browser.post('/console/mail/retry-failed', {})).statusCode).toBe(303);
      expect((await browser.post('/console/mail/send-captured', {})).statusCode).toBe(303);
      expect({ ...(await row()), retries: Number(await retries()) }, status).toEqual(before);
    }
    // A mail that does not exist: the same page.
    const unknown = await browser.post('/console/mail/NoSuchMail/retry', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Page not found');

    // An admin may: the mail is queued again.
    const byAdmin = await admin.post(`/console/mail/${mail.id}/retry`, {});
    expect(byAdmin.statusCode).toBe(303);
    expect(byAdmin.headers.location).toBe(`/console/mail/${mail.id}`);
    expect((await row()).status).toBe('queued');
  });

  it('resends (a new link, the old one dead) and cancels (the user removed, the address free)', async () => {
    const { address } = await invite();
    const first = linkPath((await mailTo(address)).text ?? '');
    const user = (await users()).find((row) => row.email === address);
    const href = `/console/access/users/${user?.id}`;
    const confirm = await admin.get(`${href}/invitation/resend`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Send Ines Invitee a new invitation?');
    const resent = await admin.post(`${href}/invitation/resend`, {});
    expect(resent.statusCode).toBe(303);
    expect((await admin.get(resent.headers.location as string)).body).toContain(
      'A new invitation has been sent. The link of the earlier one no longer works.',
    );
    const second = linkPath((await mailTo(address)).text ?? '');
    expect(second).not.toBe(first);
    expect((await outbox()).filter((row) => row.recipient === address)).toHaveLength(2);
    expect((await new ConsoleBrowser(instance).get(first)).statusCode).toBe(404);
    expect((await new ConsoleBrowser(instance).get(second)).statusCode).toBe(200);

    expect((await admin.get(`${href}/invitation/cancel`)).body).toContain(
      'Cancel the invitation of Ines Invitee?',
    );
    const cancelled = await admin.post(`${href}/invitation/cancel`, {});
    expect(cancelled.statusCode).toBe(303);
    expect((await admin.get(cancelled.headers.location as string)).body).toContain(
      'The invitation of Ines Invitee has been cancelled.',
    );
    expect((await users()).some((row) => row.email === address)).toBe(false);
    expect((await new ConsoleBrowser(instance).get(second)).statusCode).toBe(404);
    expect((await admin.get(href)).statusCode).toBe(404);
    // The address is free again.
    expect((await invite({ email: address })).response.statusCode).toBe(303);
  });

  it('holds at most one open invitation a user in the database itself, so crossing resends cannot leave two links', async () => {
    const { address } = await invite();
    const user = (await users()).find((row) => row.email === address);
    const link = (hash: string, used: string | null) => ({
      token_hash: hash,
      user_id: user?.id as string,
      expires: '2099-01-01T00:00:00+00:00',
      used,
      created: '2026-11-26T00:00:00+00:00',
      purpose: 'invitation' as const,
      language: 'enUS',
    });
    const insert = (row: ReturnType<typeof link>) =>
      instance.db.kysely.insertInto('console_sign_in_links').values(row).execute();
    await expect(insert(link('a'.repeat(64), null))).rejects.toThrow(/unique|UNIQUE/);
    // Used ones and sign-in links are not limited.
    await insert(link('b'.repeat(64), '2026-11-26T01:00:00+00:00'));
    await instance.db.kysely
      .insertInto('console_sign_in_links')
      .values({ ...link('c'.repeat(64), null), purpose: 'sign-in', language: null })
      .execute();
    expect((await admin.get(`/console/access/users/${user?.id}`)).body).toContain('Invited');
  });

  it('refuses to resend or cancel once the invitation is accepted, and never cancels a user with a password', async () => {
    const { address } = await invite();
    const path = linkPath((await mailTo(address)).text ?? '');
    const invitee = new ConsoleBrowser(instance);
    await invitee.get(path);
    expect((await invitee.post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(303);
    const user = (await users()).find((row) => row.email === address);
    for (const action of ['resend', 'cancel']) {
      const refused = await admin.post(`/console/access/users/${user?.id}/invitation/${action}`, {});
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('this user has no open invitation');
    }
    expect((await users()).some((row) => row.email === address)).toBe(true);
    expect((await outbox()).filter((row) => row.recipient === address)).toHaveLength(1);
  });

  it('shows an expired link as such, on the page and the user’s, and resend makes it work again', async () => {
    const { address } = await invite();
    const path = linkPath((await mailTo(address)).text ?? '');
    const user = (await users()).find((row) => row.email === address);
    shift = 7 * DAY + 60_000;
    try {
      const page = await new ConsoleBrowser(instance).get(path);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('This invitation link cannot be used');
      expect(page.body).toContain('it has expired');
      const late = new ConsoleBrowser(instance);
      await late.get('/console/sign-in');
      expect((await late.post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(404);
      expect((await users()).find((row) => row.id === user?.id)?.password_hash).toBeNull();

      // An admin signed in at that later moment sees it expired, and sends a new one.
      const later = new ConsoleBrowser(instance);
      const adminId = (await users()).find((row) => row.email === 'admin@example.test')?.id as string;
      const link = `/console/sign-in/link/${await createSignInLink(instance.db.kysely, adminId, clock())}`;
      expect((await later.get(link)).statusCode).toBe(200);
      expect((await later.post(link, {})).statusCode).toBe(303);
      const shown = await later.get(`/console/access/users/${user?.id}`);
      expect(shown.body).toContain('Invitation expired');
      expect(shown.body).toMatch(/Sent [^<]+ UTC, expired [^<]+ UTC/);
      expect((await later.get('/console/access/users')).body).toContain('Invitation expired');
      expect((await later.post(`/console/access/users/${user?.id}/invitation/resend`, {})).statusCode).toBe(
        303,
      );
      const renewed = linkPath((await mailTo(address)).text ?? '');
      expect((await new ConsoleBrowser(instance).get(renewed)).statusCode).toBe(200);
    } finally {
      shift = 0;
    }
  });

  it('refuses the link of a deactivated user, and a wrong or malformed token, with the same clear page', async () => {
    const { address } = await invite();
    const path = linkPath((await mailTo(address)).text ?? '');
    const user = (await users()).find((row) => row.email === address);
    await admin.get(`/console/access/users/${user?.id}/deactivate`);
    expect((await admin.post(`/console/access/users/${user?.id}/deactivate`, {})).statusCode).toBe(303);
    const invitee = new ConsoleBrowser(instance);
    const page = await invitee.get(path);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('This invitation link cannot be used');
    await invitee.get('/console/sign-in');
    expect((await invitee.post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode).toBe(404);
    expect((await users()).find((row) => row.id === user?.id)?.password_hash).toBeNull();
    // A deactivated user's invitation cannot be resent.
    const refused = await admin.post(`/console/access/users/${user?.id}/invitation/resend`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('reactivate them first');

    // A token of the right shape that was never issued: the same clear page.
    const unknown = await new ConsoleBrowser(instance).get(`/console/invitation/${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This invitation link cannot be used');
    // Malformed ones: the console's own pages, never an error or a trace.
    for (const wrong of ['short', '%3Cscript%3E', `${'B'.repeat(43)}%00`, 'x'.repeat(99), '..%2F..%2Fetc']) {
      const answer = await new ConsoleBrowser(instance).get(`/console/invitation/${wrong}`);
      expect([400, 404], wrong).toContain(answer.statusCode);
      expect(answer.headers['content-type']).toContain('text/html');
      expect(answer.body).not.toMatch(/at .+\.js:\d+|stack/i);
      expect(answer.body).not.toContain('<script>');
    }
    const posted = new ConsoleBrowser(instance);
    await posted.get('/console/sign-in');
    expect(
      (await posted.post(`/console/invitation/${'A'.repeat(43)}`, { password: PASSWORD, confirm: PASSWORD }))
        .statusCode,
    ).toBe(404);
  });
});
